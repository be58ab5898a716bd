#pragma once
/// @file
/// Inline-PTX warp matrix multiply-accumulate instructions (PTX ISA `mma.sync.aligned`), one
/// function per shape and type, D = A · B + C with the fragments of the PTX ISA's tables
/// (mma_fragments.hpp names the positions). Device code only; every lane of the warp must call
/// them together (`.aligned`).

#include <Kokkos_Core.hpp>

namespace tensormg::cuda_mma {

/// FP64 m8n8k4 (sm_80 on): c_i += Σ_k A[g][k] B[k][2t + i] over the warp, lane = 4 g + t holding
/// a = A[g][t], b = B[t][g].
KOKKOS_FORCEINLINE_FUNCTION void mma_m8n8k4(double& c0, double& c1, double a, double b) {
#if defined(__CUDA_ARCH__)
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
               : "+d"(c0), "+d"(c1)
               : "d"(a), "d"(b));
#else
  (void)c0, (void)c1, (void)a, (void)b;
#endif
}

}  // namespace tensormg::cuda_mma
