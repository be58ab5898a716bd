// core/vector_sweeps.hpp: the range and team paths of a sweep against sums formed on the host, with
// data whose sums are exact in any order (small integers), so that a missed, repeated or
// misplaced entry shows as a different number; CG's residual update writes every entry once;
// DistributedVector::dot and the mixed-precision multigrid iteration's sweeps on every rank count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/fused_cg.hpp"
#include "core/vector_sweeps.hpp"
#include "discretization/laplace_operator.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

/// x_i = (i mod 13) − 6 + shift, y_i = (i mod 7) − 3: integers, so every partial sum is exact.
template <class Number, class ExecSpace>
void fill_integers(const Kokkos::View<Number*, typename ExecSpace::memory_space>& x,
                   const Kokkos::View<Number*, typename ExecSpace::memory_space>& y, int shift) {
  Kokkos::parallel_for(
      "test::fill_integers", Kokkos::RangePolicy<ExecSpace>(0, x.extent(0)), KOKKOS_LAMBDA(std::size_t i) {
        x(i) = Number(int(i % 13) - 6 + shift);
        y(i) = Number(int(i % 7) - 3);
      });
  Kokkos::fence();
}

double host_dot(std::size_t n, int shift) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(int(i % 13) - 6 + shift) * double(int(i % 7) - 3);
  return s;
}

/// A team size the backend runs: 256 on a GPU, up to the host's threads elsewhere.
template <class ExecSpace>
int test_team_size() {
  return runs_on_host<ExecSpace>() ? std::max(1, std::min(4, ExecSpace().concurrency())) : 256;
}

enum class Path { automatic, blocked, range1, range4, team1, team4 };

template <class Number, class ExecSpace, class Sweep>
double run_sweep(Path path, std::size_t n, const Sweep& sweep) {
  switch (path) {
    case Path::blocked: return tensormg::detail::blocked_sweep_sum<8, ExecSpace>("test::blocked", n, sweep);
    case Path::range1: return tensormg::detail::range_sweep_sum<1, ExecSpace>("test::range1", n, sweep);
    case Path::range4: return tensormg::detail::range_sweep_sum<4, ExecSpace>("test::range4", n, sweep);
    case Path::team1: return tensormg::detail::team_sweep_sum<1, ExecSpace>("test::team1", n, sweep, test_team_size<ExecSpace>());
    case Path::team4: return tensormg::detail::team_sweep_sum<4, ExecSpace>("test::team4", n, sweep, test_team_size<ExecSpace>());
    default: return sweep_sum<Number, ExecSpace>("test::automatic", n, sweep);
  }
}

const std::vector<std::size_t> sizes{0, 1, 2, 3, 5, 7, 8, 9, 16, 17, 255, 256, 257, 1023, 1024, 1025, 4099, 100003};
const std::vector<Path> paths{Path::automatic, Path::blocked, Path::range1, Path::range4, Path::team1, Path::team4};

template <class Number, class ExecSpace>
void check_dot_sweeps() {
  using View = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  for (const std::size_t n : sizes) {
    View x("x", n), y("y", n);
    fill_integers<Number, ExecSpace>(x, y, 1);
    const double expected = host_dot(n, 1);
    for (const Path path : paths) {
      if (n == 0 && path != Path::automatic) continue;
      const double sum = run_sweep<Number, ExecSpace>(path, n, DotSweep<View>{x, y});
      EXPECT_EQ(sum, expected) << "n = " << n << ", path " << int(path);
    }
  }
}

/// Σ (y_i − x_i)² of fill_integers(x, y, 2), formed on the host.
double host_difference_sum(std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = double(int(i % 7) - 3) - double(int(i % 13) - 4);
    s += d * d;
  }
  return s;
}

/// The difference sweep on every path: Σ (y_i − x_i)², x untouched, and with `store` x_i = y_i − x_i
/// at every entry.
template <class Number, class ExecSpace>
void check_difference_sweeps() {
  using View = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  for (const std::size_t n : sizes) {
    const double expected = host_difference_sum(n);
    for (const Path path : paths) {
      if (n == 0 && path != Path::automatic) continue;
      View x("x", n), y("y", n);
      fill_integers<Number, ExecSpace>(x, y, 2);
      EXPECT_EQ((run_sweep<Number, ExecSpace>(path, n, DifferenceSweep<View>{x, y})), expected) << "n = " << n << ", path " << int(path);
      auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += double(hx(i)) != double(int(i % 13) - 4);
      EXPECT_EQ(wrong, 0u) << "x changed, n = " << n << ", path " << int(path);
      EXPECT_EQ((run_sweep<Number, ExecSpace>(path, n, DifferenceSweep<View, true>{x, y})), expected) << "n = " << n << ", path " << int(path);
      hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
      wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += double(hx(i)) != double(int(i % 7) - 3) - double(int(i % 13) - 4);
      EXPECT_EQ(wrong, 0u) << "stored, n = " << n << ", path " << int(path);
    }
  }
}

/// The mixed-precision sweeps on every path, integer data (exact): float(y − x) stored with Σ (y − x)²,
/// and x += 2 e with e in float (its sum 0).
template <class ExecSpace>
void check_converted_sweeps() {
  using View = Kokkos::View<double*, typename ExecSpace::memory_space>;
  using FloatView = Kokkos::View<float*, typename ExecSpace::memory_space>;
  for (const std::size_t n : sizes) {
    const double expected = host_difference_sum(n);
    for (const Path path : paths) {
      if (n == 0 && path != Path::automatic) continue;
      View x("x", n), y("y", n);
      FloatView out("out", n);
      fill_integers<double, ExecSpace>(x, y, 2);
      EXPECT_EQ((run_sweep<double, ExecSpace>(path, n, ConvertedDifferenceSweep<View, FloatView>{x, y, out})), expected)
          << "n = " << n << ", path " << int(path);
      const auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += double(ho(i)) != double(int(i % 7) - 3) - double(int(i % 13) - 4);
      EXPECT_EQ(wrong, 0u) << "difference, n = " << n << ", path " << int(path);
      EXPECT_EQ((run_sweep<double, ExecSpace>(path, n, AddConvertedSweep<View, FloatView>{2.0, x, out})), 0.0);
      const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
      wrong = 0;
      for (std::size_t i = 0; i < n; ++i)
        wrong += hx(i) != double(int(i % 13) - 4) + 2.0 * (double(int(i % 7) - 3) - double(int(i % 13) - 4));
      EXPECT_EQ(wrong, 0u) << "add, n = " << n << ", path " << int(path);
    }
  }
}

/// The residual sweep on every path: r_i − 2 ap_i stored at every entry, Σ r_i² returned.
template <class Number, class ExecSpace>
void check_residual_sweeps() {
  using View = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  for (const std::size_t n : sizes) {
    for (const Path path : paths) {
      if (n == 0 && path != Path::automatic) continue;
      View r("r", n), ap("ap", n);
      fill_integers<Number, ExecSpace>(r, ap, 0);
      const double sum = run_sweep<Number, ExecSpace>(path, n, tensormg::detail::CgResidualSweep<View>{Number(2), r, ap});
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
      double expected = 0;
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const double v = double(int(i % 13) - 6) - 2.0 * double(int(i % 7) - 3);
        expected += v * v;
        if (double(host(i)) != v) ++wrong;
      }
      EXPECT_EQ(wrong, 0u) << "n = " << n << ", path " << int(path);
      EXPECT_EQ(sum, expected) << "n = " << n << ", path " << int(path);
    }
  }
}

/// Non-integer data: the same sweep twice gives the same bits (the order depends on n only), on
/// the path the size takes and on the team path past a grown partial-sum buffer; on the host the
/// automatic sweep gives the blocked sweep's bits.
template <class ExecSpace>
void check_repeatable() {
  using View = Kokkos::View<double*, typename ExecSpace::memory_space>;
  const std::size_t n = 70001;
  View x("x", n), y("y", n);
  Kokkos::parallel_for(
      "test::fill_fractions", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(std::size_t i) {
        x(i) = 1.0 / double(i + 1);
        y(i) = 0.1 * double(i % 17) + 1e-3;
      });
  Kokkos::fence();
  for (const Path path : {Path::automatic, Path::blocked, Path::range4, Path::team4}) {
    const double a = run_sweep<double, ExecSpace>(path, n, DotSweep<View>{x, y});
    run_sweep<double, ExecSpace>(Path::team1, n, DotSweep<View>{x, y});  // grows the partial sums
    const double b = run_sweep<double, ExecSpace>(path, n, DotSweep<View>{x, y});
    EXPECT_EQ(a, b) << "path " << int(path);
  }
  if (runs_on_host<ExecSpace>()) {  // the automatic sweep is the blocked one: the same bits
    const double automatic = run_sweep<double, ExecSpace>(Path::automatic, n, DotSweep<View>{x, y});
    const double blocked = run_sweep<double, ExecSpace>(Path::blocked, n, DotSweep<View>{x, y});
    EXPECT_EQ(automatic, blocked);
  }
}

template <class ExecSpace>
class VectorSweeps : public ::testing::Test {};
TYPED_TEST_SUITE(VectorSweeps, ExecSpaces, ExecSpaceName);

TYPED_TEST(VectorSweeps, DotOnEveryPathEqualsTheHostSum) {
  check_dot_sweeps<double, TypeParam>();
  check_dot_sweeps<float, TypeParam>();
}

TYPED_TEST(VectorSweeps, DifferenceOnEveryPathEqualsTheHostSum) {
  check_difference_sweeps<double, TypeParam>();
  check_difference_sweeps<float, TypeParam>();
}

TYPED_TEST(VectorSweeps, ConvertedDifferenceAndAdditionOnEveryPath) { check_converted_sweeps<TypeParam>(); }

/// sweep_for (the BLAS-1 updates' path): y = 2 x − y at every entry once, every size; with b = 0
/// y is not read (NaN there stays out), as BLAS does.
TYPED_TEST(VectorSweeps, UpdatesWriteEveryEntryOnce) {
  using View = Kokkos::View<double*, typename TypeParam::memory_space>;
  for (const std::size_t n : sizes) {
    View x("x", n), y("y", n);
    fill_integers<double, TypeParam>(x, y, 0);
    sweep_for<double, TypeParam>("test::axpby", n, AxpbySweep<View>{2.0, -1.0, x, y});
    auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += hy(i) != 2.0 * double(int(i % 13) - 6) - double(int(i % 7) - 3);
    EXPECT_EQ(wrong, 0u) << "n = " << n;
    Kokkos::deep_copy(y, std::numeric_limits<double>::quiet_NaN());
    sweep_for<double, TypeParam>("test::assign", n, AxpbySweep<View, false>{3.0, 0.0, x, y});
    hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += hy(i) != 3.0 * double(int(i % 13) - 6);
    EXPECT_EQ(wrong, 0u) << "b = 0, n = " << n;
  }
}

/// The fill sweep (DistributedVector::fill, reinit, scale(0)) sets entries [0, n) and no entry
/// after them, doubles and floats.
template <class Number, class Exec>
void check_fill() {
  using View = Kokkos::View<Number*, typename Exec::memory_space>;
  for (const std::size_t n : sizes) {
    View x("x", n + 5);
    Kokkos::deep_copy(x, Number(-7));
    sweep_for<Number, Exec>("test::fill", n, FillSweep<View>{x, Number(2.5)});
    const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n + 5; ++i) wrong += hx(i) != (i < n ? Number(2.5) : Number(-7));
    EXPECT_EQ(wrong, 0u) << "n = " << n << ", " << sizeof(Number) << "-byte entries";
  }
}

TYPED_TEST(VectorSweeps, FillWritesEveryEntryAndNoOther) {
  check_fill<double, TypeParam>();
  check_fill<float, TypeParam>();
  // A distributed vector: fill sets ghosts too, scale(0) owned entries (NaN included), reinit zeros.
  using Exec = TypeParam;
  const auto layout = make_layout<Exec>(make_mesh(3, {3, 2, 2}, 2, {1.0, 1.0, 1.0}), 2);
  DistributedVector<float, Exec> v(layout->partitioner(), "v");
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  for (local_index i = 0; i < v.n_local(); ++i) EXPECT_EQ(hv(i), 0.0f) << i;
  v.fill(std::numeric_limits<float>::quiet_NaN());
  v.scale(0.0f);
  hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  for (local_index i = 0; i < v.n_local(); ++i) EXPECT_EQ(i < v.n_owned(), hv(i) == 0.0f) << i;
  v.fill(3.0f);
  hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  for (local_index i = 0; i < v.n_local(); ++i) EXPECT_EQ(hv(i), 3.0f) << i;
}

TYPED_TEST(VectorSweeps, ResidualUpdateWritesEveryEntryOnce) {
  check_residual_sweeps<double, TypeParam>();
  check_residual_sweeps<float, TypeParam>();
}

TYPED_TEST(VectorSweeps, SameInputSameBits) { check_repeatable<TypeParam>(); }

/// The shape on this backend: blocks of 8 on the host, 32 bytes a thread and teams from 2^22 entries on a GPU.
TYPED_TEST(VectorSweeps, ShapeOfTheBackend) {
  using Shape = SweepShape<double, TypeParam>;
  if (runs_on_host<TypeParam>()) {
    EXPECT_EQ(Shape::values_per_thread, 1);
    EXPECT_EQ(Shape::teams_from, std::numeric_limits<std::size_t>::max());
  } else {
    EXPECT_EQ(Shape::values_per_thread, 4);
    EXPECT_EQ((SweepShape<float, TypeParam>::values_per_thread), 8);
    EXPECT_EQ(Shape::teams_from, std::size_t(1) << 22);
  }
}

/// DistributedVector::dot and cg_residual_update over the ranks: the sum of every rank's owned
/// entries of a Q2 layout, against the same vectors gathered on the host.
TYPED_TEST(VectorSweeps, DistributedDotAndResidualOverTheRanks) {
  using Exec = TypeParam;
  const auto layout = make_layout<Exec>(make_mesh(3, {3, 2, 2}, 2, {1.0, 1.0, 1.0}), 2);
  LaplaceOperator<double, Exec> A(layout);
  auto x = A.make_vector(), y = A.make_vector();
  fill_random(*layout, x, 5);
  fill_random(*layout, y, 6);
  const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y.view());
  double local[2] = {0, 0}, global[2] = {0, 0};
  for (local_index i = 0; i < x.n_owned(); ++i) {
    local[0] += hx(i) * hy(i);
    const double r = hy(i) - 0.5 * hx(i);
    local[1] += r * r;
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_NEAR(x.dot(y), global[0], 1e-12 * std::abs(global[0]) + 1e-14);
  EXPECT_NEAR(tensormg::detail::cg_residual_update(0.5, x, y), global[1], 1e-12 * global[1]);
}

/// The multigrid iteration's sweeps (cycle_until_converged) over the ranks: ‖b − r‖₂ with and
/// without r ← b − r, the scaled residual rounded once into float, and x += s e with e in float,
/// against the host on each rank's owned entries (ghosts untouched).
TYPED_TEST(VectorSweeps, DistributedMixedPrecisionSweepsOverTheRanks) {
  using Exec = TypeParam;
  const auto layout = make_layout<Exec>(make_mesh(3, {3, 2, 2}, 2, {1.0, 1.0, 1.0}), 2);
  LaplaceOperator<double, Exec> A(layout);
  LaplaceOperator<float, Exec> Af(layout);
  auto r = A.make_vector(), b = A.make_vector(), x = A.make_vector();
  auto rf = Af.make_vector();
  fill_random(*layout, r, 7);
  fill_random(*layout, b, 8);
  fill_random(*layout, x, 9);
  // Copies (create_mirror_view would alias the vectors' own views on the host backends).
  const auto hr = Kokkos::create_mirror(Kokkos::HostSpace(), r.view());
  const auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  const auto hx = Kokkos::create_mirror(Kokkos::HostSpace(), x.view());
  Kokkos::deep_copy(hr, r.view());
  Kokkos::deep_copy(hx, x.view());
  double local = 0, global = 0;
  for (local_index i = 0; i < r.n_owned(); ++i) local += (hb(i) - hr(i)) * (hb(i) - hr(i));
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double s = std::sqrt(global);
  EXPECT_NEAR(r.l2_distance(b), s, 1e-13 * s);
  auto rc = Af.make_vector();  // float(b − r) and the norm in one sweep
  EXPECT_NEAR(rc.assign_converted_difference(b, r), s, 1e-13 * s);
  {
    const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rc.view());
    std::size_t off = 0;
    for (local_index i = 0; i < rc.n_owned(); ++i) off += hc(i) != float(hb(i) - hr(i));
    for (local_index i = rc.n_owned(); i < rc.n_local(); ++i) off += hc(i) != 0.0f;  // ghosts untouched
    EXPECT_EQ(off, 0u);
  }
  EXPECT_NEAR(r.subtract_from(b), s, 1e-13 * s);  // r ← b − r
  const auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.view());
  std::size_t wrong = 0;
  for (local_index i = 0; i < r.n_owned(); ++i) wrong += hd(i) != hb(i) - hr(i);
  for (local_index i = r.n_owned(); i < r.n_local(); ++i) wrong += hd(i) != hr(i);  // ghosts untouched
  EXPECT_EQ(wrong, 0u);

  rf.copy_scaled_converted_from(1.0 / s, r);
  const auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rf.view());
  wrong = 0;
  for (local_index i = 0; i < rf.n_owned(); ++i) wrong += hf(i) != float((1.0 / s) * hd(i));
  for (local_index i = rf.n_owned(); i < rf.n_local(); ++i) wrong += hf(i) != 0.0f;  // ghosts untouched
  EXPECT_EQ(wrong, 0u);

  {  // axpby, add, scale of the owned entries; b = 0 and a = 0 leave NaN out, ghosts untouched
    auto y = A.make_vector();
    y.fill(std::numeric_limits<double>::quiet_NaN());
    y.axpby(2.0, b, 0.0);  // y = 2 b
    y.add(-1.0, b);        // y = b
    y.axpby(1.0, b, 3.0);  // y = 4 b
    y.scale(0.25);         // y = b
    const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y.view());
    std::size_t off = 0;
    for (local_index i = 0; i < y.n_owned(); ++i) off += hy(i) != hb(i);
    for (local_index i = y.n_owned(); i < y.n_local(); ++i) off += !std::isnan(hy(i));
    EXPECT_EQ(off, 0u);
    y.fill(std::numeric_limits<double>::quiet_NaN());
    y.scale(0.0);
    const auto hz = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y.view());
    off = 0;
    for (local_index i = 0; i < y.n_owned(); ++i) off += hz(i) != 0.0;
    EXPECT_EQ(off, 0u);
  }

  x.add_converted(s, rf);
  const auto hx2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  wrong = 0;
  for (local_index i = 0; i < x.n_owned(); ++i)  // a fused multiply-add may round once
    wrong += std::abs(hx2(i) - (hx(i) + s * double(hf(i)))) > 1e-15 * (std::abs(hx(i)) + s * std::abs(double(hf(i))));
  for (local_index i = x.n_owned(); i < x.n_local(); ++i) wrong += hx2(i) != hx(i);
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
