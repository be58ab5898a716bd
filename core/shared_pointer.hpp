#pragma once
/// @file
/// A pointer into Kokkos level-0 team scratch that the CUDA compiler knows to be in shared memory.
///
/// Kokkos hands out scratch as a generic pointer. When the compiler cannot trace it back to the
/// dynamic shared memory window, every access is a generic LD/ST, which on Hopper waits on the
/// long scoreboard like a global load (ncu on the vertex-patch smoother: no LDS at all, long
/// scoreboard 4.3 of 15.6 cycles per issued instruction). Rebuilding the pointer as the shared
/// window plus the pointer's shared-space offset lets address-space inference emit LDS/STS.
/// Only valid for pointers into level-0 scratch (Kokkos 3.4 places it in dynamic shared memory);
/// on the host and in other backends it returns its argument.

#include <Kokkos_Core.hpp>

namespace tensormg {

template <class T>
KOKKOS_FORCEINLINE_FUNCTION T* as_shared_pointer(T* p) {
#if defined(__CUDA_ARCH__)
  extern __shared__ double2 tensormg_shared_window[];
  const auto offset = __cvta_generic_to_shared(p) - __cvta_generic_to_shared(tensormg_shared_window);
  return reinterpret_cast<T*>(reinterpret_cast<char*>(tensormg_shared_window) + offset);
#else
  return p;
#endif
}

}  // namespace tensormg
