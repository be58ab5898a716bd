#pragma once
/// @file
/// BlockContraction (core/block_contraction.hpp) on tensor cores: FP64 blocks of N = 8 on
/// Kokkos::Cuda (the DG patch of k = 3, the cell of k = 7) by `mma.sync.aligned.m8n8k4` (paper 001
/// §4.1, "MMA CF"). Each warp of the team takes 8-line tiles of the block; a tile is two m8n8k4
/// steps per term, its operands read from scratch in the XOR-swizzled layout without bank
/// conflicts (mma_fragments.hpp), its 8 × 8 result stored as 16-byte pairs. The lanes' 1D-matrix
/// registers are loaded once per call.
///
/// FP64 blocks of N = 9..16 on sm_90 by the m16n8k16 shape, N < 16 padded to 16 (below).
///
/// Float blocks of N = 8 with FP16 products (Products::f16, f16_corrected; paper 001 §5–6): a tile
/// is one m16n8k8 per term, or with the error correction of Algorithm 1 one m16n8k16 that forms the
/// main product and the correction at once (below); float blocks of N = 9..16 the same by
/// m16n8k16, padded to 16 below 16. Other numbers and sizes keep the portable contraction.
/// Included through backends/block_contraction.hpp, only when the CUDA backend is compiled.

#include <Kokkos_Core.hpp>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "backends/cuda_mma/mma.hpp"
#include "backends/cuda_mma/mma_fragments.hpp"
#include "core/block_contraction.hpp"

#if TENSORMG_CUDA_MMA_ENABLED
#include <cuda_fp16.h>

namespace tensormg::block {

namespace detail {
/// at[0], at[1] ← scale (v0, v1), plus their old values for Write::add: one store of a Pair
/// (double2, float2), the result pair of a tensor-core fragment.
template <class Pair, class Number>
KOKKOS_FORCEINLINE_FUNCTION void store_pair(Number* at, Number v0, Number v1, Number scale, Write write) {
  Pair* const to = reinterpret_cast<Pair*>(at);
  Pair v = {scale * v0, scale * v1};
  if (write == Write::add) {
    const Pair old = *to;
    v.x += old.x;
    v.y += old.y;
  }
  *to = v;
}

/// The pair (v0, v1) as two FP16 pairs in registers (v0 in the low half): the FP16 parts and,
/// with the correction, the FP16 of the remainders scaled by 2¹¹ (paper 001 Algorithm 1, lines
/// 1–4; without it low is 0).
template <bool corrected>
KOKKOS_FORCEINLINE_FUNCTION void split_f16x2(float v0, float v1, unsigned& high, unsigned& low) {
#if defined(__CUDA_ARCH__)
  const __half2 h = __floats2half2_rn(v0, v1);
  high = *reinterpret_cast<const unsigned*>(&h);
  if constexpr (corrected) {
    const float2 f = __half22float2(h);
    const __half2 l = __floats2half2_rn((v0 - f.x) * 2048.f, (v1 - f.y) * 2048.f);
    low = *reinterpret_cast<const unsigned*>(&l);
  } else {
    low = 0;
  }
#else
  (void)v0, (void)v1, high = low = 0;
#endif
}
}  // namespace detail

template <int dim>
struct BlockContraction<Kokkos::Cuda, double, dim, 8> {
  static constexpr bool tensor_cores = true;
  static constexpr const char* name = "mma-f64-m8n8k4";
  using Layout = cuda_mma::XorSwizzle8;
  using Fragments = cuda_mma::MmaF64N8;
  static constexpr int stored_n = 8;
  /// Threads a team needs per block: one warp per tile.
  static constexpr int threads_per_block = 32 * Fragments::tiles(dim);

  /// Every thread of the team calls it; the team's size must be a multiple of 32 (whole warps).
  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void apply(const Member& team, int d, const Term<double> (&t)[terms], double scale,
                                           Write write, double* out) {
    const int lane = team.team_rank() & 31, warp = team.team_rank() >> 5, warps = team.team_size() >> 5;
    double m[terms][2];
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < terms; ++p) {
      TENSORMG_UNROLL_ALL
      for (int s = 0; s < 2; ++s) m[p][s] = t[p].matrix[Fragments::matrix_index(lane, s, t[p].transposed)];
    }
    for (int tile = warp; tile < Fragments::tiles(dim); tile += warps) {
      double c0 = 0, c1 = 0;
      TENSORMG_UNROLL_ALL
      for (int p = 0; p < terms; ++p) {
        TENSORMG_UNROLL_ALL
        for (int s = 0; s < 2; ++s) {
          int c[3];
          Fragments::data_position(d, lane, s, tile, c);
          const double v = t[p].in[L::at(c[0], c[1], c[2])];
          if (d == 0) cuda_mma::mma_m8n8k4(c0, c1, v, m[p][s]);  // C = In · A_1Dᵀ
          else cuda_mma::mma_m8n8k4(c0, c1, m[p][s], v);         // C = A_1D · In
        }
      }
      int c[3];
      Fragments::result_position(d, lane, tile, c);
      detail::store_pair<double2>(out + L::at(c[0], c[1], c[2]), c0, c1, scale, write);
    }
  }
};

#if defined(KOKKOS_ARCH_HOPPER90)
/// FP64 blocks of N = 16 (the DG patch of k = 7) by `mma.sync.aligned.m16n8k16.f64`, the sm_90
/// shape at twice the rate of m8n8k4 (66.5 against 33.3 TFLOP/s measured on the H100). A tile is
/// one mma per term (d = 1, 2: the matrix times 8 lines) or two (d = 0: 16 lines times both halves
/// of the transposed matrix); operands from the XOR-swizzled layout (MmaF64N16, XorSwizzle16).
/// The lane's matrix registers (8 per term) are loaded once per call.
/// N = 9..15 (the DG patches of k = 4..6: 10, 12, 14) run the same kernel on blocks padded to 16
/// (paper 001 §5.3, core/block_contraction.hpp): the N × N matrix, read with its own stride, is
/// continued by zeros in the registers, so only the caller's blocks carry the padding; in 3D the
/// tiles of planes at or beyond N (along z for d = 0, 1, along y for d = 2) are skipped, their
/// results being the zero padding the caller keeps.
template <int dim, int N_>
struct BlockContraction<Kokkos::Cuda, double, dim, N_, Products::native, std::enable_if_t<(N_ > 8 && N_ <= 16)>> {
  static constexpr bool tensor_cores = true;
  static constexpr const char* name = N_ == 16 ? "mma-f64-m16n8k16" : "mma-f64-m16n8k16-padded";
  using Layout = cuda_mma::XorSwizzle16;
  using Fragments = cuda_mma::MmaF64N16;
  static constexpr int N = 16;
  static constexpr int stored_n = 16;
  /// Threads a team needs per block: one warp per tile of d = 1, 2.
  static constexpr int threads_per_block = 32 * Fragments::tiles(dim, 1);

  /// Every thread of the team calls it; the team's size must be a multiple of 32 (whole warps).
  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void apply(const Member& team, int d, const Term<double> (&t)[terms], double scale,
                                           Write write, double* out) {
    const int lane = team.team_rank() & 31, warp = team.team_rank() >> 5, warps = team.team_size() >> 5;
    const int g = lane >> 2, l = lane & 3;
    // d = 1, 2: operand A, m[p][2j + r] = A_1D[g + 8r][4j + l]; d = 0: operand B of output half
    // q, m[p][4q + i] = A_1D[g + 8q][4i + l] (transposed: the indices swapped).
    double m[terms][8];
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < terms; ++p) {
      TENSORMG_UNROLL_ALL
      for (int e = 0; e < 8; ++e) {
        const int row = d == 0 ? g + 8 * (e >> 2) : g + 8 * (e & 1);
        const int col = d == 0 ? 4 * (e & 3) + l : 4 * (e >> 1) + l;
        m[p][e] = N_ == N || (row < N_ && col < N_) ? t[p].matrix[t[p].transposed ? col * N_ + row : row * N_ + col] : 0.0;
      }
    }
    // The tiles with results below N_ in their outer direction (tile = z for d = 0, 2 outer + the
    // x-half for d = 1, 2); in 2D every tile has some.
    const int tiles = dim == 3 && N_ < N ? (d == 0 ? N_ : 2 * N_) : Fragments::tiles(dim, d);
    for (int tile = warp; tile < tiles; tile += warps) {
      if (d == 0) {
        double c[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
        TENSORMG_UNROLL_ALL
        for (int p = 0; p < terms; ++p) {
          double a[8];
          TENSORMG_UNROLL_ALL
          for (int e = 0; e < 8; ++e) {
            int at[3];
            Fragments::data_position(0, lane, e >> 1, e & 1, tile, at);
            a[e] = t[p].in[L::at(at[0], at[1], at[2])];
          }
          TENSORMG_UNROLL_ALL
          for (int q = 0; q < 2; ++q) {
            const double b[4] = {m[p][4 * q], m[p][4 * q + 1], m[p][4 * q + 2], m[p][4 * q + 3]};
            cuda_mma::mma_m16n8k16_f64(c[q], a, b);
          }
        }
        TENSORMG_UNROLL_ALL
        for (int q = 0; q < 2; ++q)
          TENSORMG_UNROLL_ALL
          for (int r = 0; r < 2; ++r) store<L>(0, lane, r, q, tile, c[q][2 * r], c[q][2 * r + 1], scale, write, out);
      } else {
        double c[4] = {0, 0, 0, 0};
        TENSORMG_UNROLL_ALL
        for (int p = 0; p < terms; ++p) {
          double b[4];
          TENSORMG_UNROLL_ALL
          for (int i = 0; i < 4; ++i) {
            int at[3];
            Fragments::data_position(d, lane, i, 0, tile, at);
            b[i] = t[p].in[L::at(at[0], at[1], at[2])];
          }
          cuda_mma::mma_m16n8k16_f64(c, m[p], b);
        }
        TENSORMG_UNROLL_ALL
        for (int r = 0; r < 2; ++r) store<L>(d, lane, r, 0, tile, c[2 * r], c[2 * r + 1], scale, write, out);
      }
    }
  }

 private:
  template <class L>
  KOKKOS_FORCEINLINE_FUNCTION static void store(int d, int lane, int r, int q, int tile, double v0, double v1,
                                                double scale, Write write, double* out) {
    int at[3];
    Fragments::result_position(d, lane, r, q, tile, at);
    detail::store_pair<double2>(out + L::at(at[0], at[1], at[2]), v0, v1, scale, write);
  }
};
#endif  // KOKKOS_ARCH_HOPPER90

/// FP16 tensor cores for float blocks of N = 8, FP32 sums. A lane's operand pairs come from two
/// k-slots (MmaF16N8), each split into its FP16 part h and, with the correction, the FP16 of the
/// scaled remainder δ (split_f16). Without the correction a tile is one m16n8k8 per term, the
/// 1D matrix as A (d = 1, 2: C = A_1D · In) or B (d = 0: C = In · A_1Dᵀ), rows 8..15 of A zero.
/// With it, one m16n8k16 per term puts the correction in rows 0..7 and the main product in rows
/// 8..15 of C, which the same lane holds (c0, c1 and c2, c3):
///   d = 1, 2:  [M_h  δM; 0  M_h] · [δX; X_h] = [M_h δX + δM X_h;  M_h X_h],
///   d = 0:     [X_h  δX; 0  X_h] · [δMᵀ; M_hᵀ] = [X_h δMᵀ + δX M_hᵀ;  X_h M_hᵀ],
/// and the result is main + 2⁻¹¹ correction.
template <int dim, Products P>
struct BlockContraction<Kokkos::Cuda, float, dim, 8, P, std::enable_if_t<P != Products::native>> {
  static constexpr bool tensor_cores = true;
  static constexpr bool corrected = P == Products::f16_corrected;
  static constexpr const char* name = corrected ? "mma-f16ec-m16n8k16" : "mma-f16-m16n8k8";
  using Layout = cuda_mma::XorSwizzleF32N8;
  using Fragments = cuda_mma::MmaF16N8;
  static constexpr int stored_n = 8;
  static constexpr int threads_per_block = 32 * Fragments::tiles(dim);

  /// Every thread of the team calls it; the team's size must be a multiple of 32 (whole warps).
  /// Layouts must keep neighbours along x adjacent (8-byte pairs), as PlainLayout and Layout do.
  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void apply(const Member& team, int d, const Term<float> (&t)[terms], float scale,
                                           Write write, float* out) {
    const int lane = team.team_rank() & 31, warp = team.team_rank() >> 5, warps = team.team_size() >> 5;
    unsigned mh[terms], ml[terms];  // the lane's matrix pair: FP16 parts, scaled remainders
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < terms; ++p) {
      const float m0 = t[p].matrix[Fragments::matrix_index(d, lane, 0, t[p].transposed)];
      const float m1 = t[p].matrix[Fragments::matrix_index(d, lane, 1, t[p].transposed)];
      split(m0, m1, mh[p], ml[p]);
    }
    for (int tile = warp; tile < Fragments::tiles(dim); tile += warps) {
      float c[4] = {0, 0, 0, 0};
      TENSORMG_UNROLL_ALL
      for (int p = 0; p < terms; ++p) {
        int c0[3], c1[3];
        Fragments::data_position(d, lane, 0, tile, c0);
        Fragments::data_position(d, lane, 1, tile, c1);
        float x0, x1;
        if (d == 0) {  // neighbours along x
          const float2 v = *reinterpret_cast<const float2*>(t[p].in + L::at(c0[0], c0[1], c0[2]));
          x0 = v.x;
          x1 = v.y;
        } else {
          x0 = t[p].in[L::at(c0[0], c0[1], c0[2])];
          x1 = t[p].in[L::at(c1[0], c1[1], c1[2])];
        }
        unsigned xh, xl;
        split(x0, x1, xh, xl);
        if constexpr (corrected) {
          const unsigned a[4] = {d == 0 ? xh : mh[p], 0u, d == 0 ? xl : ml[p], d == 0 ? xh : mh[p]};
          const unsigned b[2] = {d == 0 ? ml[p] : xl, d == 0 ? mh[p] : xh};
          cuda_mma::mma_m16n8k16_f16(c, a, b);
        } else {
          const unsigned a[2] = {d == 0 ? xh : mh[p], 0u};
          cuda_mma::mma_m16n8k8_f16(c, a, d == 0 ? mh[p] : xh);
        }
      }
      int r[3];
      Fragments::result_position(d, lane, tile, r);
      // With the correction: main product (rows 8..15) + 2⁻¹¹ correction (rows 0..7).
      const float v0 = corrected ? c[2] + c[0] * (1.f / 2048.f) : c[0];
      const float v1 = corrected ? c[3] + c[1] * (1.f / 2048.f) : c[1];
      detail::store_pair<float2>(out + L::at(r[0], r[1], r[2]), v0, v1, scale, write);
    }
  }

 private:
  KOKKOS_FORCEINLINE_FUNCTION static void split(float v0, float v1, unsigned& high, unsigned& low) {
    detail::split_f16x2<corrected>(v0, v1, high, low);
  }
};

/// FP16 tensor cores for float blocks of N = 16 (the DG patch of k = 7) and, padded to 16 as the
/// FP64 kernel above, N = 9..15 (k = 4..6); FP32 sums, `mma.m16n8k16.f32.f16.f16.f32` (sm_80 on).
/// Operands as MmaF16N16 in the layout XorSwizzleF32N16; the lane's matrix registers (four FP16x2
/// per term, and as many scaled remainders with the correction) are loaded once per call. Without
/// the correction a tile is one mma per term (d = 1, 2) or two (d = 0: both output halves); with
/// it, paper 001 Algorithm 1 as three products into two accumulators,
///   main += M_h X_h,  correction += M_h δX + δM X_h   (d = 0: X_h M_hᵀ and X_h δMᵀ + δX M_hᵀ),
/// the result main + 2⁻¹¹ correction (the N = 8 kernel fits both into one m16n8k16; at N = 16
/// the k-extent is full).
template <int dim, int N_, Products P>
struct BlockContraction<Kokkos::Cuda, float, dim, N_, P,
                        std::enable_if_t<(N_ > 8 && N_ <= 16 && P != Products::native)>> {
  static constexpr bool tensor_cores = true;
  static constexpr bool corrected = P == Products::f16_corrected;
  static constexpr const char* name = corrected ? (N_ == 16 ? "mma-f16ec-m16n8k16" : "mma-f16ec-m16n8k16-padded")
                                                : (N_ == 16 ? "mma-f16-m16n8k16" : "mma-f16-m16n8k16-padded");
  using Layout = cuda_mma::XorSwizzleF32N16;
  using Fragments = cuda_mma::MmaF16N16;
  static constexpr int N = 16;
  static constexpr int stored_n = 16;
  static constexpr int threads_per_block = 32 * Fragments::tiles(dim, 1);

  /// Every thread of the team calls it; the team's size must be a multiple of 32 (whole warps).
  /// Layouts must keep neighbours along x adjacent (8-byte pairs), as PlainLayout and Layout do.
  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void apply(const Member& team, int d, const Term<float> (&t)[terms], float scale,
                                           Write write, float* out) {
    const int lane = team.team_rank() & 31, warp = team.team_rank() >> 5, warps = team.team_size() >> 5;
    // Matrix register r of term p: FP16 parts mh, scaled remainders ml (zero beyond N_).
    unsigned mh[terms][4], ml[terms][4];
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < terms; ++p) {
      TENSORMG_UNROLL_ALL
      for (int r = 0; r < 4; ++r) {
        float v[2];
        TENSORMG_UNROLL_ALL
        for (int h = 0; h < 2; ++h) {
          const int e = Fragments::matrix_index(lane, r, h, t[p].transposed);
          const int row = e / N, col = e % N;
          v[h] = N_ == N || (row < N_ && col < N_) ? t[p].matrix[row * N_ + col] : 0.f;
        }
        detail::split_f16x2<corrected>(v[0], v[1], mh[p][r], ml[p][r]);
      }
    }
    const int tiles = dim == 3 && N_ < N ? (d == 0 ? N_ : 2 * N_) : Fragments::tiles(dim, d);
    for (int tile = warp; tile < tiles; tile += warps) {
      if (d == 0) {
        float c[2][4] = {}, e[2][4] = {};  // main, correction; per output half q
        TENSORMG_UNROLL_ALL
        for (int p = 0; p < terms; ++p) {
          unsigned ah[4], al[4];
          TENSORMG_UNROLL_ALL
          for (int a = 0; a < 4; ++a) {  // a = 2j + r: row half r, x = 2t + 8j
            int at[3];
            Fragments::data_position(0, lane, 2 * (a >> 1), a & 1, tile, at);
            const float2 v = *reinterpret_cast<const float2*>(t[p].in + L::at(at[0], at[1], at[2]));
            detail::split_f16x2<corrected>(v.x, v.y, ah[a], al[a]);
          }
          TENSORMG_UNROLL_ALL
          for (int q = 0; q < 2; ++q) {
            const unsigned bh[2] = {mh[p][q], mh[p][2 + q]};
            cuda_mma::mma_m16n8k16_f16(c[q], ah, bh);
            if constexpr (corrected) {
              const unsigned bl[2] = {ml[p][q], ml[p][2 + q]};
              cuda_mma::mma_m16n8k16_f16(e[q], ah, bl);
              cuda_mma::mma_m16n8k16_f16(e[q], al, bh);
            }
          }
        }
        TENSORMG_UNROLL_ALL
        for (int q = 0; q < 2; ++q)
          TENSORMG_UNROLL_ALL
          for (int r = 0; r < 2; ++r) store<L>(0, lane, r, q, tile, c[q], e[q], scale, write, out);
      } else {
        float c[4] = {}, e[4] = {};
        TENSORMG_UNROLL_ALL
        for (int p = 0; p < terms; ++p) {
          unsigned bh[2], bl[2];
          TENSORMG_UNROLL_ALL
          for (int j = 0; j < 2; ++j) {
            float v[2];
            TENSORMG_UNROLL_ALL
            for (int h = 0; h < 2; ++h) {
              int at[3];
              Fragments::data_position(d, lane, 2 * j + h, 0, tile, at);
              v[h] = t[p].in[L::at(at[0], at[1], at[2])];
            }
            detail::split_f16x2<corrected>(v[0], v[1], bh[j], bl[j]);
          }
          cuda_mma::mma_m16n8k16_f16(c, mh[p], bh);
          if constexpr (corrected) {
            cuda_mma::mma_m16n8k16_f16(e, mh[p], bl);
            cuda_mma::mma_m16n8k16_f16(e, ml[p], bh);
          }
        }
        TENSORMG_UNROLL_ALL
        for (int r = 0; r < 2; ++r) store<L>(d, lane, r, 0, tile, c, e, scale, write, out);
      }
    }
  }

 private:
  /// Row half r of an accumulator pair (main c, correction e) into its two result positions.
  template <class L>
  KOKKOS_FORCEINLINE_FUNCTION static void store(int d, int lane, int r, int q, int tile, const float (&c)[4],
                                                const float (&e)[4], float scale, Write write, float* out) {
    int at[3];
    Fragments::result_position(d, lane, r, q, tile, at);
    const float v0 = corrected ? c[2 * r] + e[2 * r] * (1.f / 2048.f) : c[2 * r];
    const float v1 = corrected ? c[2 * r + 1] + e[2 * r + 1] * (1.f / 2048.f) : c[2 * r + 1];
    detail::store_pair<float2>(out + L::at(at[0], at[1], at[2]), v0, v1, scale, write);
  }
};

}  // namespace tensormg::block
#endif  // TENSORMG_CUDA_MMA_ENABLED
