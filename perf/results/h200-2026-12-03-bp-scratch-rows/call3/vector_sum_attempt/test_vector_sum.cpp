// sum_over and its team reduction (core/vector_sum.hpp): exact sums of integers, every index visited
// once (a body that writes, as CG's residual update does), short ranges and chunks longer than the
// team shape's values (the team cap reached), on every execution space.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <vector>

#include "core/device_traits.hpp"
#include "core/vector_sum.hpp"
#include "tests/test_spaces.hpp"

namespace {

using tensormg::testing::ExecSpaceName;
using tensormg::testing::ExecSpaces;

template <class T>
class VectorSum : public ::testing::Test {};
TYPED_TEST_SUITE(VectorSum, ExecSpaces, ExecSpaceName);

/// Σ (i mod 97) for i < n: an integer, exact in double.
double expected_sum(std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(i % 97);
  return s;
}

/// The sum (sum_over, or with `shape` the team reduction) of a body that also counts its visits
/// of each index; checks the sum and that every index was visited exactly once.
template <class ExecSpace>
void check_sum_and_visits(std::size_t n, const tensormg::detail::TeamSumShape* shape) {
  Kokkos::View<int*, typename ExecSpace::memory_space> visits("visits", n);
  const auto body = KOKKOS_LAMBDA(std::size_t i, double& t) {
    visits(i) += 1;
    t += double(i % 97);
  };
  const double s = shape ? tensormg::detail::team_sum<double, ExecSpace>("test::team_sum", n, body, *shape)
                         : tensormg::sum_over<double, ExecSpace>("test::sum_over", n, body);
  EXPECT_EQ(s, expected_sum(n)) << "n = " << n;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), visits);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += host(i) != 1;
  EXPECT_EQ(wrong, 0u) << "n = " << n << ": indices not visited exactly once";
}

TYPED_TEST(VectorSum, SumOverIsExactAndVisitsEveryIndexOnce) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(255), std::size_t(256),
                        std::size_t(2049), std::size_t(100003)})
    check_sum_and_visits<TypeParam>(n, nullptr);
}

TYPED_TEST(VectorSum, TeamSumCoversRangesBeyondItsTeamCap) {
  // Few teams of few values each: most ranges need chunks longer than values_per_thread per thread
  // (the cap on teams reached), and chunks that do not divide n.
  tensormg::detail::TeamSumShape shape;
  shape.team_size = tensormg::runs_on_host<TypeParam>() ? 1 : 64;
  shape.values_per_thread = 2;
  shape.max_teams = 5;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(63), std::size_t(64),
                        std::size_t(65), std::size_t(641), std::size_t(12345)})
    check_sum_and_visits<TypeParam>(n, &shape);
}

/// The team reduction of Σ 1/(i+1) five times: the same bits each run, H_n to round-off.
template <class Exec>
void check_same_bits() {
  tensormg::detail::TeamSumShape shape;
  shape.team_size = tensormg::runs_on_host<Exec>() ? 1 : 128;
  const std::size_t n = 300007;
  Kokkos::View<double*, typename Exec::memory_space> x("x", n);
  Kokkos::parallel_for(
      "test::fill", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) { x(i) = 1.0 / double(i + 1); });
  const auto sum = [&] {
    return tensormg::detail::team_sum<double, Exec>(
        "test::team_sum", n, KOKKOS_LAMBDA(std::size_t i, double& t) { t += x(i); }, shape);
  };
  const double first = sum();
  for (int run = 0; run < 5; ++run) EXPECT_EQ(sum(), first);
  double reference = 0;  // the harmonic number H_n, summed smallest first
  for (std::size_t i = n; i >= 1; --i) reference += 1.0 / double(i);
  EXPECT_NEAR(first, reference, 1e-12 * reference);
}

TYPED_TEST(VectorSum, TeamSumGivesTheSameBitsEveryRun) { check_same_bits<TypeParam>(); }

}  // namespace
