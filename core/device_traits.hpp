#pragma once
/// @file
/// What a kernel may ask of the hardware it runs on, as a trait on the execution space: the
/// portable default here, a specialisation per backend in backends/ (backends/device_traits.hpp
/// gathers them; backends/cuda_mma/device_traits_cuda.hpp is the CUDA one). Kernels call
/// `DeviceTraits<ExecSpace>::…` and never ask which backend is compiled; core/ includes no backend.
///
/// The portable default describes a team whose threads do not run in lockstep (host backends: a
/// team of one thread): its "warp" is one thread, a warp barrier is a team barrier, scratch is
/// ordinary memory and there is no cache hint.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>

/// `#pragma unroll(n)` for the device compilers (nvcc, hipcc), which honour it; host compilers do
/// not know the pragma, and their own unrolling is left alone.
#define TENSORMG_PRAGMA(x) _Pragma(#x)
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TENSORMG_UNROLL(n) TENSORMG_PRAGMA(unroll(n))
#define TENSORMG_UNROLL_ALL TENSORMG_PRAGMA(unroll)
#else
#define TENSORMG_UNROLL(n)
#define TENSORMG_UNROLL_ALL
#endif

namespace tensormg {

/// True for execution spaces whose memory the host can read (team size 1, one cell per team).
template <class ExecSpace>
constexpr bool runs_on_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

/// The key of the tuning tables (smoothers/vertex_patch_tuning.hpp, discretization/laplace_tuning.hpp):
/// rows are measured on the GPU (`device`: the H100) or on this project's CPU machine (`host`).
enum class TuningTarget { host, device };

template <class ExecSpace>
constexpr TuningTarget tuning_target() {
  return runs_on_host<ExecSpace>() ? TuningTarget::host : TuningTarget::device;
}

/// Device memory that another process of the node can write into (HaloExchange's peer transport:
/// a sender copies its packed values straight into the receiver's buffer, over NVLink or PCIe,
/// instead of staging them through the host and MPI). None here; the CUDA backend names CUDA IPC
/// (backends/cuda_mma/device_traits_cuda.hpp).
struct NoPeerMemory {
  static constexpr bool available = false;
  /// An exportable description of a buffer, sent to the peer as bytes.
  struct Handle {
    unsigned char bytes[64] = {};
  };
  /// Whether a process on `device` can write into memory of a process on `peer_device`.
  static bool reachable(int /*device*/, int /*peer_device*/) { return false; }
  /// A buffer of `bytes` on this process's device that peers can open (empty: none).
  static std::shared_ptr<void> allocate(std::size_t /*bytes*/) { return {}; }
  static bool export_handle(void* /*base*/, Handle& /*out*/) { return false; }
  /// The peer's buffer mapped into this process (empty when it cannot be opened).
  static std::shared_ptr<void> open(const Handle& /*handle*/) { return {}; }
};

/// Staging of halo exchanges through pageable host memory, copies on the default instance (what
/// core uses; HaloExchange's Staging parameter), no peer memory.
template <class ExecSpace>
struct HostStaging {
  using staging_space = Kokkos::HostSpace;
  struct side_instance {
    ExecSpace get() const { return ExecSpace(); }
  };
  using peer_memory = NoPeerMemory;
};

template <class ExecSpace, class Enable = void>
struct DeviceTraits {
  /// Threads that run in lockstep and can meet at a warp barrier.
  static constexpr int warp_size = 1;
  /// Whether kernels may plan for warps (lane groups, warp barriers instead of team barriers).
  static constexpr bool has_warps = false;

  /// Synchronizes the warp of the calling thread; here the whole team. Every thread of the team
  /// calls it the same number of times.
  template <class Member>
  KOKKOS_FORCEINLINE_FUNCTION static void sync_warp(const Member& team) {
    team.team_barrier();
  }

  // shuffle_xor<width>(value, mask) (a value from the lane `mask` away, xor, in groups of `width`
  // lanes) exists only where has_warps (the CUDA specialisation); kernels that would call it here
  // keep a group's lanes in one thread instead (LowOrderLaneKernel).

  /// A pointer into level-0 team scratch that the compiler may treat as fast (shared) memory.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T* fast_scratch(T* p) {
    return p;
  }

  /// A hint to bring the cache line of p into the last-level cache ahead of its use.
  KOKKOS_FORCEINLINE_FUNCTION static void prefetch(const void*) {}

  /// Called first in the body of a loop over `rows` outputs that is unrolled `unroll` times
  /// (TENSORMG_UNROLL): where that is not fully, asks the backend compiler not to unroll it
  /// further. Here nothing.
  template <int unroll, int rows>
  KOKKOS_FORCEINLINE_FUNCTION static void keep_unroll() {}

  /// Level-0 scratch bytes a team of team_size threads can be launched with.
  static std::size_t fast_scratch_bytes(int team_size) {
    (void)team_size;
    return Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0);
  }

  /// The same for a kernel that wants more and runs few teams at once (a backend may grant more
  /// than fast_scratch_bytes, with fewer teams resident: CUDA's opt-in shared memory).
  static std::size_t large_scratch_bytes(int team_size) { return fast_scratch_bytes(team_size); }

  /// How halo exchanges stage device data through the host when MPI does not take device
  /// pointers (core/halo_exchange.hpp): here pageable memory and the default instance; a backend
  /// names page-locked memory and a stream of its own (copies beside the kernels).
  using halo_staging = HostStaging<ExecSpace>;

  /// The device this process runs ExecSpace on (-1: the host).
  static int device_id() { return -1; }
};

}  // namespace tensormg
