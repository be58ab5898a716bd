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

/// FP64 m16n8k16 (sm_90 only): c += A (16 × 16) · B (16 × 8), lane = 4 g + t holding
/// a[2j] = A[g][4j + t], a[2j + 1] = A[g + 8][4j + t] (j = 0..3), b[i] = B[4i + t][g],
/// c = {C[g][2t], C[g][2t + 1], C[g + 8][2t], C[g + 8][2t + 1]}.
KOKKOS_FORCEINLINE_FUNCTION void mma_m16n8k16_f64(double (&c)[4], const double (&a)[8], const double (&b)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
      "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]),
        "d"(b[2]), "d"(b[3]));
#else
  (void)c, (void)a, (void)b;
#endif
}

/// FP16 m16n8k8 with FP32 accumulation (sm_80 on): c += A (16 × 8) · B (8 × 8), lane = 4 g + t
/// holding a = {A[g][2t], A[g][2t + 1] | A[g + 8][2t], A[g + 8][2t + 1]}, b = {B[2t][g], B[2t + 1][g]}
/// (each pair one register, the first value in the low half), c = {C[g][2t], C[g][2t + 1],
/// C[g + 8][2t], C[g + 8][2t + 1]}.
KOKKOS_FORCEINLINE_FUNCTION void mma_m16n8k8_f16(float (&c)[4], const unsigned (&a)[2], unsigned b) {
#if defined(__CUDA_ARCH__)
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(b));
#else
  (void)c, (void)a, (void)b;
#endif
}

/// FP16 m16n8k16 with FP32 accumulation (sm_80 on): c += A (16 × 16) · B (16 × 8); as m16n8k8
/// with a[2], a[3] the columns 8 + 2t, 9 + 2t of rows g, g + 8 and b[1] the rows 8 + 2t, 9 + 2t.
KOKKOS_FORCEINLINE_FUNCTION void mma_m16n8k16_f16(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
#if defined(__CUDA_ARCH__)
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  (void)c, (void)a, (void)b;
#endif
}

}  // namespace tensormg::cuda_mma
