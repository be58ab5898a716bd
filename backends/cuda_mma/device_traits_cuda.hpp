#pragma once
/// @file
/// DeviceTraits (core/device_traits.hpp) for Kokkos::Cuda: 32-thread warps, `__syncwarp`, level-0
/// scratch addressed as shared memory, L2 prefetch, and the real per-block shared-memory limit.
/// Included through backends/device_traits.hpp, only when the CUDA backend is compiled
/// (backends/cuda_mma/cuda_mma.hpp).

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/device_traits.hpp"

#if TENSORMG_CUDA_MMA_ENABLED
namespace tensormg {

namespace cuda_mma {
/// Bytes kept back for a Kokkos kernel's static shared memory (below).
inline constexpr std::size_t static_shared_reserve = 512;
}  // namespace cuda_mma

template <>
struct DeviceTraits<Kokkos::Cuda> {
  static constexpr int warp_size = 32;
  static constexpr bool has_warps = true;

  /// __syncwarp over the warp's lanes that belong to the team (a team's last warp may be partial).
  template <class Member>
  KOKKOS_FORCEINLINE_FUNCTION static void sync_warp(const Member& team) {
#if defined(__CUDA_ARCH__)
    const int lanes = team.team_size() - warp_size * (team.team_rank() / warp_size);
    __syncwarp(lanes >= warp_size ? 0xffffffffu : (1u << lanes) - 1u);
#else
    team.team_barrier();
#endif
  }

  /// The `value` of the thread whose lane differs from the caller's by `mask` (xor), within aligned
  /// groups of `width` consecutive lanes (a power of two up to 32): `__shfl_xor_sync` over the
  /// caller's group only, so a warp whose other lanes have left the kernel (a team's last, partial
  /// warp) is no hazard. Every thread of the group calls it with the same mask.
  template <int width, class T>
  KOKKOS_FORCEINLINE_FUNCTION static T shuffle_xor(const T& value, int mask) {
    static_assert(width >= 2 && width <= warp_size && (width & (width - 1)) == 0, "a lane group is 2..32 lanes");
#if defined(__CUDA_ARCH__)
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const unsigned group = width == warp_size ? 0xffffffffu : ((1u << width) - 1u) << (lane & ~unsigned(width - 1));
    return __shfl_xor_sync(group, value, mask, width);
#else
    (void)mask;
    return value;
#endif
  }

  /// Kokkos hands out scratch as a generic pointer. When the compiler cannot trace it back to the
  /// dynamic shared memory window, every access is a generic LD/ST, which on Hopper waits on the
  /// long scoreboard like a global load (ncu on the vertex-patch smoother: no LDS at all, long
  /// scoreboard 4.3 of 15.6 cycles per issued instruction). Rebuilding the pointer as the shared
  /// window plus the pointer's shared-space offset lets address-space inference emit LDS/STS.
  /// Only valid for pointers into level-0 scratch (Kokkos 3.4 places it in dynamic shared memory).
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T* fast_scratch(T* p) {
#if defined(__CUDA_ARCH__)
    extern __shared__ double2 tensormg_shared_window[];
    const auto offset = __cvta_generic_to_shared(p) - __cvta_generic_to_shared(tensormg_shared_window);
    return reinterpret_cast<T*>(reinterpret_cast<char*>(tensormg_shared_window) + offset);
#else
    return p;
#endif
  }

  /// PTX `prefetch.global.L2`: no register, no completion to wait for. A kernel that reads a value
  /// long after it knows its address starts the DRAM transfer early and later hits in L2.
  KOKKOS_FORCEINLINE_FUNCTION static void prefetch(const void* p) {
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
    (void)p;
#endif
  }

  /// PTX `.pragma "nounroll"` in the loop's body when the loop is not to be unrolled fully: nvcc
  /// drops the `#pragma unroll(1)` of a loop whose body calls an inlined contraction
  /// (core/tensor_contraction.hpp; the PTX lacked the pragma, nothing else differed), and ptxas
  /// then unrolled the 2D k = 10 smoother's x step itself: 136/156 bytes of spill stores/loads
  /// instead of none, half the throughput (h100-2026-11-24-shared-primitives/ab2).
  template <int unroll, int rows>
  KOKKOS_FORCEINLINE_FUNCTION static void keep_unroll() {
#if defined(__CUDA_ARCH__)
    if constexpr (unroll < rows) asm volatile(".pragma \"nounroll\";");
#endif
  }

  /// Kokkos 3.4 advertises `TeamPolicy::scratch_size_max(0)` = 40 KB on CUDA, a fixed constant
  /// that leaves room for its team reductions. What its CUDA launch actually checks
  /// (Kokkos_Cuda_Parallel.hpp, ParallelFor<TeamPolicy>) is
  ///   sizeof(double) · (team_size + 2)   (the reduction buffer in front of the scratch)
  /// + the team's level-0 scratch
  /// ≤ the block's shared memory          (48 KB without the opt-in, which Kokkos 3.4 never makes).
  /// That check leaves out the kernel's static shared memory (16 bytes in the Kokkos team kernels
  /// here, ptxas -v), yet the launch fails when dynamic + static exceed the block's 48 KB, and
  /// Kokkos 3.4 does not report that failure outside debug builds: the kernel silently does not
  /// run (tests/core/test_backend.cpp, FastTeamScratchLimitIsUsable, caught it on the H100). So
  /// static_shared_reserve bytes are kept back for it. For a team of 192 threads that leaves
  /// 46.0 KB, enough for the fused 3D Q7 smoother's 46.8e3 bytes.
  static std::size_t fast_scratch_bytes(int team_size) {
    const std::size_t per_block = cuda_mma::shared_memory_per_block();
    const std::size_t reserved = sizeof(double) * (std::size_t(team_size) + 2) + cuda_mma::static_shared_reserve;
    return per_block > reserved ? per_block - reserved : 0;
  }

  /// Level-0 scratch bytes a team may have where the kernel wants more than fast_scratch_bytes
  /// and runs with few teams per SM (the N = 16 tensor-core blocks): the opt-in shared memory
  /// per block (227 KB on Hopper), which the Kokkos our bootstrap builds grants
  /// (cmake/patches/kokkos-3.4.01-cuda-shared-memory-optin.patch); with another Kokkos 3.4, the
  /// 48 KB of fast_scratch_bytes. Kernels that fit 48 KB keep fast_scratch_bytes: asking a kernel
  /// for more shared memory lowers its blocks per SM.
  static std::size_t large_scratch_bytes(int team_size) {
#if defined(KOKKOS_TENSORMG_SHARED_MEMORY_OPTIN)
    const std::size_t per_block = cuda_mma::shared_memory_per_block_optin();
    const std::size_t reserved = sizeof(double) * (std::size_t(team_size) + 2) + cuda_mma::static_shared_reserve;
    return per_block > reserved ? per_block - reserved : 0;
#else
    return fast_scratch_bytes(team_size);
#endif
  }

  /// Halo staging: page-locked host memory (copies to and from it run at the link's rate and
  /// asynchronously; pageable memory goes through the driver's own bounce buffers) and a
  /// non-blocking stream of its own, so that the copies run beside the kernels of the default
  /// (legacy) stream: the vertex-patch smoothers' interior patches (smoothers/patch_window.hpp).
  static int device_id() { return Kokkos::Cuda().cuda_device(); }

  struct halo_staging {
    using staging_space = Kokkos::CudaHostPinnedSpace;
    class side_instance {
     public:
      side_instance() : stream_(make_stream(), [](cudaStream_t s) { cudaStreamDestroy(s); }), space_(stream_.get()) {}
      Kokkos::Cuda get() const { return space_; }

     private:
      static cudaStream_t make_stream() {
        cudaStream_t s = nullptr;
        if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
          throw std::runtime_error("tensormg: cudaStreamCreateWithFlags failed for the halo copy stream");
        return s;
      }
      std::shared_ptr<CUstream_st> stream_;  // destroyed after space_ (declared before it)
      Kokkos::Cuda space_;
    };
    /// CUDA IPC: a receive buffer of cudaMalloc'd memory whose handle the senders of the node
    /// open, so that they copy into it over NVLink / PCIe peer access (or, for ranks sharing one
    /// GPU, within its memory) instead of through the host (core/halo_exchange.hpp).
    struct peer_memory {
      static constexpr bool available = true;
      using Handle = NoPeerMemory::Handle;
      static_assert(sizeof(cudaIpcMemHandle_t) <= sizeof(Handle::bytes), "the IPC handle must fit");
      static bool reachable(int device, int peer_device) {
        if (device < 0 || peer_device < 0) return false;
        if (device == peer_device) return true;
        int can = 0;
        return cudaDeviceCanAccessPeer(&can, device, peer_device) == cudaSuccess && can != 0;
      }
      static std::shared_ptr<void> allocate(std::size_t bytes) {
        void* p = nullptr;
        if (cudaMalloc(&p, bytes > 0 ? bytes : 1) != cudaSuccess) {
          (void)cudaGetLastError();
          return {};
        }
        return std::shared_ptr<void>(p, [](void* q) { (void)cudaFree(q); });
      }
      static bool export_handle(void* base, Handle& out) {
        cudaIpcMemHandle_t h;
        if (cudaIpcGetMemHandle(&h, base) != cudaSuccess) {
          (void)cudaGetLastError();
          return false;
        }
        std::memcpy(out.bytes, &h, sizeof(h));
        return true;
      }
      static std::shared_ptr<void> open(const Handle& handle) {
        cudaIpcMemHandle_t h;
        std::memcpy(&h, handle.bytes, sizeof(h));
        void* p = nullptr;
        if (cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
          (void)cudaGetLastError();
          return {};
        }
        return std::shared_ptr<void>(p, [](void* q) { (void)cudaIpcCloseMemHandle(q); });
      }
    };
  };
};

}  // namespace tensormg
#endif  // TENSORMG_CUDA_MMA_ENABLED
