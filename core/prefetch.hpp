#pragma once
/// @file
/// A hint to bring the cache line of an address into the GPU's L2 cache ahead of its use.
///
/// A kernel that reads a value long after it knows its address (the vertex-patch smoother reads b
/// in its last residual step, after two contraction steps) can start the DRAM transfer early and
/// later wait for an L2 hit instead of a DRAM access. On CUDA it is PTX `prefetch.global.L2`
/// (no register, no completion to wait for); on the host and in other backends it does nothing.

#include <Kokkos_Core.hpp>

namespace tensormg {

KOKKOS_FORCEINLINE_FUNCTION void prefetch_l2(const void* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

}  // namespace tensormg
