#pragma once
/// @file
/// How much level-0 (fast) team scratch a team of a given size can have.
///
/// Kokkos 3.4 advertises `TeamPolicy::scratch_size_max(0)` = 40 KB on CUDA, a fixed constant
/// that leaves room for its team reductions. What its CUDA launch actually checks
/// (Kokkos_Cuda_Parallel.hpp, ParallelFor<TeamPolicy>) is
///   sizeof(double) · (team_size + 2)   (the reduction buffer in front of the scratch)
/// + the team's level-0 scratch
/// ≤ the block's shared memory          (48 KB without the opt-in, which Kokkos 3.4 never makes).
/// That check leaves out the kernel's static shared memory (16 bytes in the Kokkos team kernels
/// here, ptxas -v), yet the launch fails when dynamic + static exceed the block's 48 KB, and
/// Kokkos 3.4 does not report that failure outside debug builds: the kernel silently does not run
/// (tests/core/test_backend.cpp, FastTeamScratchLimitIsUsable, caught it on the H100). So 512
/// bytes are kept back for it. For a team of 192 threads that leaves 46.0 KB, enough for the fused
/// 3D Q7 smoother's 46.8e3 bytes (which the 40 KB constant sent to global-memory scratch). Host
/// backends keep scratch_size_max(0). The device query is the CUDA backend's
/// (backends/cuda_mma/cuda_mma.hpp).

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "backends/cuda_mma/cuda_mma.hpp"

namespace tensormg {

/// Bytes kept back for a Kokkos kernel's static shared memory.
inline constexpr std::size_t static_shared_reserve = 512;

template <class ExecSpace>
std::size_t fast_team_scratch_bytes(int team_size) {
  constexpr bool device = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  if constexpr (cuda_mma::enabled && device) {
    const std::size_t per_block = cuda_mma::shared_memory_per_block();
    const std::size_t reserved = sizeof(double) * (std::size_t(team_size) + 2) + static_shared_reserve;
    return per_block > reserved ? per_block - reserved : 0;
  } else {
    (void)team_size;
    return Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0);
  }
}

}  // namespace tensormg
