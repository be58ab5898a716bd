// The execution spaces themselves: a reduction, a team kernel with scratch, and MPI start-up.
#include <mpi.h>

#include "tests/test_spaces.hpp"

namespace {

template <class ExecSpace>
class Backend : public ::testing::Test {};
TYPED_TEST_SUITE(Backend, tensormg::testing::ExecSpaces, tensormg::testing::ExecSpaceName);

// Kernels live in free functions: nvcc rejects device lambdas inside gtest's private TestBody().
template <class Exec>
long sum_of_indices(long n) {
  long sum = 0;
  Kokkos::parallel_reduce(
      "tensormg::test::reduce", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(long i, long& s) { s += i; }, sum);
  return sum;
}

/// Each team fills `width` scratch entries and reduces them in reverse order.
template <class Exec>
Kokkos::View<double*, Kokkos::HostSpace> team_scratch_sums(int league, int width) {
  using Policy = Kokkos::TeamPolicy<Exec>;
  using Scratch = Kokkos::View<double*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<double*, typename Exec::memory_space> out("out", league);
  Kokkos::parallel_for(
      "tensormg::test::scratch",
      Policy(league, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(width))),
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        Scratch s(team.team_scratch(0), width);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, width),
                             [&](int i) { s(i) = team.league_rank() * 1000.0 + i; });
        team.team_barrier();
        double total = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, width), [&](int i, double& t) { t += s(width - 1 - i); }, total);
        Kokkos::single(Kokkos::PerTeam(team), [&] { out(team.league_rank()) = total; });
      });
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
}

TYPED_TEST(Backend, ParallelReduceSumsIntegers) {
  const long n = 100003;
  EXPECT_EQ(sum_of_indices<TypeParam>(n), n * (n - 1) / 2);
}

TYPED_TEST(Backend, TeamScratchHoldsPerTeamData) {
  const int league = 37, width = 64;
  const auto host = team_scratch_sums<TypeParam>(league, width);
  for (int l = 0; l < league; ++l) EXPECT_DOUBLE_EQ(host(l), l * 1000.0 * width + width * (width - 1) / 2.0);
}

TEST(Environment, MpiAndKokkosAreUp) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  EXPECT_TRUE(initialized);
  EXPECT_TRUE(Kokkos::is_initialized());
  const int size = tensormg::testing::world_size();
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, size);
}

}  // namespace
