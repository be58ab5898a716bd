// The execution spaces themselves: a reduction, a team kernel with scratch, and MPI start-up.
#include <mpi.h>

#include "tests/test_spaces.hpp"

namespace {

template <class ExecSpace>
class Backend : public ::testing::Test {};
TYPED_TEST_SUITE(Backend, tensormg::testing::ExecSpaces, tensormg::testing::ExecSpaceName);

TYPED_TEST(Backend, ParallelReduceSumsIntegers) {
  using Exec = TypeParam;
  const long n = 100003;
  long sum = 0;
  Kokkos::parallel_reduce(
      "tensormg::test::reduce", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(long i, long& s) { s += i; },
      sum);
  EXPECT_EQ(sum, n * (n - 1) / 2);
}

TYPED_TEST(Backend, TeamScratchHoldsPerTeamData) {
  using Exec = TypeParam;
  using Policy = Kokkos::TeamPolicy<Exec>;
  using Scratch = Kokkos::View<double*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const int league = 37, width = 64;
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
        Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, width), [&](int i, double& t) { t += s(width - 1 - i); },
                                total);
        Kokkos::single(Kokkos::PerTeam(team), [&] { out(team.league_rank()) = total; });
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
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
