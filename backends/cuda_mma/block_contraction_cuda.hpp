#pragma once
/// @file
/// BlockContraction (core/block_contraction.hpp) on tensor cores: FP64 blocks of N = 8 on
/// Kokkos::Cuda (the DG patch of k = 3, the cell of k = 7) by `mma.sync.aligned.m8n8k4` (paper 001
/// §4.1, "MMA CF"). Each warp of the team takes 8-line tiles of the block; a tile is two m8n8k4
/// steps per term, its operands read from scratch in the XOR-swizzled layout without bank
/// conflicts (mma_fragments.hpp), its 8 × 8 result stored as 16-byte pairs. The lanes' 1D-matrix
/// registers are loaded once per call. Other numbers and sizes keep the portable contraction.
/// Included through backends/block_contraction.hpp, only when the CUDA backend is compiled.

#include <Kokkos_Core.hpp>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "backends/cuda_mma/mma.hpp"
#include "backends/cuda_mma/mma_fragments.hpp"
#include "core/block_contraction.hpp"

#if TENSORMG_CUDA_MMA_ENABLED
namespace tensormg::block {

template <int dim>
struct BlockContraction<Kokkos::Cuda, double, dim, 8> {
  static constexpr bool tensor_cores = true;
  static constexpr const char* name = "mma-f64-m8n8k4";
  using Layout = cuda_mma::XorSwizzle8;
  using Fragments = cuda_mma::MmaF64N8;
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
      double2* const at = reinterpret_cast<double2*>(out + L::at(c[0], c[1], c[2]));
      double2 r = {scale * c0, scale * c1};
      if (write == Write::add) {
        const double2 old = *at;
        r.x += old.x;
        r.y += old.y;
      }
      *at = r;
    }
  }
};

}  // namespace tensormg::block
#endif  // TENSORMG_CUDA_MMA_ENABLED
