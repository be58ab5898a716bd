// The execution spaces themselves: a reduction, a team kernel with scratch, and MPI start-up.
#include <mpi.h>

#include "backends/device_traits.hpp"
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

/// Each team fills `width` scratch entries and reduces them in reverse order. team_size 0: AUTO.
template <class Exec>
Kokkos::View<double*, Kokkos::HostSpace> team_scratch_sums(int league, int width, int team_size = 0) {
  using Policy = Kokkos::TeamPolicy<Exec>;
  using Scratch = Kokkos::View<double*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<double*, typename Exec::memory_space> out("out", league);
  Policy policy = team_size > 0 ? Policy(league, team_size) : Policy(league, Kokkos::AUTO);
  Kokkos::parallel_for(
      "tensormg::test::scratch", policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(width))),
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

/// The whole level-0 scratch that DeviceTraits::fast_scratch_bytes promises a team can be launched and used
/// (on CUDA: 48 KB per block less Kokkos' reduction buffer, more than scratch_size_max(0)).
TYPED_TEST(Backend, FastTeamScratchLimitIsUsable) {
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename TypeParam::memory_space>::accessible;
  for (int team : {64, 192, 256}) {
    const int team_size = host ? 1 : team;
    const std::size_t bytes = tensormg::DeviceTraits<TypeParam>::fast_scratch_bytes(team_size);
    EXPECT_GE(bytes, std::size_t(Kokkos::TeamPolicy<TypeParam>::scratch_size_max(0)));
    // The fused 3D Q7 smoother needs 46.8e3 bytes in a team of 192 (smoothers/vertex_patch_columns.hpp).
    if (!host && team <= 192) EXPECT_GE(bytes, std::size_t(46900)) << "team " << team;
    using Scratch = Kokkos::View<double*, typename TypeParam::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    int width = static_cast<int>(bytes / sizeof(double));
    while (Scratch::shmem_size(width) > bytes) --width;  // the View's alignment padding
    const int league = 5;
    const auto sums = team_scratch_sums<TypeParam>(league, width, team_size);
    for (int l = 0; l < league; ++l)
      EXPECT_DOUBLE_EQ(sums(l), l * 1000.0 * width + double(width) * (width - 1) / 2.0) << "team " << team;
  }
}

/// The same for DeviceTraits::large_scratch_bytes (on CUDA with our Kokkos: the opt-in shared
/// memory, more than 200 KB on the H100; elsewhere what fast_scratch_bytes gives).
TYPED_TEST(Backend, LargeTeamScratchLimitIsUsable) {
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename TypeParam::memory_space>::accessible;
  for (int team : {128, 512}) {
    const int team_size = host ? 1 : team;
    const std::size_t bytes = tensormg::DeviceTraits<TypeParam>::large_scratch_bytes(team_size);
    EXPECT_GE(bytes, tensormg::DeviceTraits<TypeParam>::fast_scratch_bytes(team_size));
#if defined(KOKKOS_TENSORMG_SHARED_MEMORY_OPTIN)
    if (!host) EXPECT_GE(bytes, std::size_t(3 * 4096 * 8)) << "the FP64 tensor-core blocks of 16 need 96 KB";
#endif
    using Scratch = Kokkos::View<double*, typename TypeParam::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    int width = static_cast<int>(bytes / sizeof(double));
    while (Scratch::shmem_size(width) > bytes) --width;
    const int league = 5;
    const auto sums = team_scratch_sums<TypeParam>(league, width, team_size);
    for (int l = 0; l < league; ++l)
      EXPECT_DOUBLE_EQ(sums(l), l * 1000.0 * width + double(width) * (width - 1) / 2.0) << "team " << team;
  }
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
