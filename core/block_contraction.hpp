#pragma once
/// @file
/// The team-level 1D contraction of a whole tensor-product block: an N^dim block of values in
/// scratch, a 1D N × N matrix applied along one direction d,
///   out ← scale · Σ_p (A_p along d) in_p        (Write::assign)
///   out ← out + scale · Σ_p (A_p along d) in_p  (Write::add),
/// with up to a few terms p (a Kronecker sum's middle step: M_y a + L_y b). This is the operation
/// paper 001 moves onto tensor cores: as a matrix product, (N × N) times (N × N^(dim−1)).
///
/// `BlockContraction<ExecSpace, Number, dim, N>` is the trait a kernel calls; the primary template
/// here is the portable one (one thread per line of the block, the register-level dot products of
/// core/tensor_contraction.hpp), and a backend specialises it where it has something faster
/// (backends/cuda_mma/block_contraction_cuda.hpp: `mma.sync` on Kokkos::Cuda for FP64 N = 8 and,
/// padded to 16, N = 9..16 on sm_90; FP16 products of float blocks of N = 8..16).
/// backends/block_contraction.hpp gathers the specialisations; core includes no backend.
///
/// A trait names the scratch layout its kernels want (`Layout`, e.g. the XOR-swizzled one of the
/// tensor-core kernels); every implementation takes any layout as a template parameter, so a
/// benchmark can run the same kernel on another layout (the bank-conflict study). The caller
/// allocates the blocks, synchronises the team between calls, and keeps `out` apart from every
/// `in` (the tensor-core kernels read other threads' values of `in` while they write `out`).
///
/// A trait may store the block padded (`stored_n` > N values per direction, paper 001 §5.3): a
/// tensor-core shape of 16 then serves N = 9..15. Its kernels contract the stored block with the
/// N × N matrices continued by zeros and skip the tiles whose results lie in padded planes only.
/// So the caller keeps the padding of every block zero, inputs and outputs alike: the padded
/// results a kernel does write come out zero, the skipped ones stay as they were, and the values
/// at positions below N are those of the unpadded contraction. Positions go through the layout,
/// whose extent is stored_n.
///
/// The products' arithmetic is the trait's last parameter (`Products`): the block's own number, or
/// FP16 operands with FP32 sums, without or with the error correction of paper 001 Algorithm 1.
/// The FP16 variants exist for float blocks; the portable kernel emulates them (operands rounded
/// to FP16 as the hardware's conversion does), the CUDA backend runs them on tensor cores.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/device_traits.hpp"
#include "core/tensor_contraction.hpp"

namespace tensormg::block {

/// What a block contraction does with the old values of out.
enum class Write { assign, add };

/// One term of a block contraction: the 1D matrix (N × N, row-major, in memory every thread of the
/// team can read), applied as is or transposed, and the block it acts on.
template <class Number>
struct Term {
  const Number* matrix = nullptr;
  const Number* in = nullptr;
  bool transposed = false;
};

/// The arithmetic of a block contraction's products (paper 001 §6).
enum class Products {
  native,        ///< in the block's number
  f16,           ///< both operands rounded to FP16, products summed in FP32
  f16_corrected  ///< Algorithm 1: a = a_h + 2⁻¹¹ δa with a_h = fp16(a), δa = fp16(2¹¹ (a − a_h)), the
                 ///< same for b, and a b ≈ a_h b_h + 2⁻¹¹ (δa b_h + a_h δb), summed in FP32
};

/// v rounded to the nearest FP16 (IEEE binary16) value, ties to even, FP16 subnormals kept, ±inf
/// beyond the largest: what CUDA's __float2half_rn gives, in float arithmetic on every backend.
/// In the FP16 normal range the float's 23 mantissa bits are rounded to 10 on the bits (the carry
/// of a rounding up runs into the exponent, as it should); below it, to multiples of 2⁻²⁴.
KOKKOS_INLINE_FUNCTION float round_to_f16(float v) {
  const float a = v < 0 ? -v : v;
  if (!(a < 65520.f)) return a != a ? v : v < 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  if (a < 6.103515625e-05f) return rintf(v * 16777216.f) * 5.9604644775390625e-08f;  // subnormal: spacing 2⁻²⁴
  unsigned u;
  memcpy(&u, &v, sizeof u);
  u += 0xfffu + ((u >> 13) & 1u);  // half an FP16 ulp, less one where the kept last bit is 0 (ties to even)
  u &= ~0x1fffu;
  float r;
  memcpy(&r, &u, sizeof r);
  return r;
}

/// Algorithm 1's split of v: its FP16 part and the FP16 of its remainder scaled by 2¹¹.
KOKKOS_INLINE_FUNCTION void split_f16(float v, float& high, float& low) {
  high = round_to_f16(v);
  low = round_to_f16((v - high) * 2048.f);
}

/// Values of an N^dim block.
template <int dim, int N>
inline constexpr int block_size = dim == 2 ? N * N : N * N * N;

/// The lexicographic layout, x fastest: value (x, y, z) at x + N (y + N z).
template <int N>
struct PlainLayout {
  static constexpr const char* name = "plain";
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int at(int x, int y, int z) { return x + N * (y + N * z); }
};

/// Offset of the value at position j along direction d of the line whose other coordinates are
/// (p, q) (the lower direction first): d = 0: (j, p, q); d = 1: (p, j, q); d = 2: (p, q, j).
template <class Layout>
KOKKOS_FORCEINLINE_FUNCTION constexpr int line_offset(int d, int j, int p, int q) {
  return d == 0 ? Layout::at(j, p, q) : d == 1 ? Layout::at(p, j, q) : Layout::at(p, q, j);
}

/// The portable block contraction: thread r of the team takes lines r, r + size, …; a line loads
/// its N values of every term's block into registers and forms the N outputs as dot products with
/// the matrix rows (columns when transposed). Works on every execution space and layout; the
/// reference the backends' kernels are tested against. With FP16 products it emulates them
/// (the products of the rounded operands are exact in float, as in the tensor cores' FP32
/// accumulation), a reference for the tensor-core kernels, not a fast path.
template <int dim, int N, class Number, Products P = Products::native>
struct PortableBlockContraction {
  static_assert(P == Products::native || std::is_same_v<Number, float>, "FP16 products are for float blocks");
  static constexpr bool tensor_cores = false;
  static constexpr const char* name =
      P == Products::native ? "portable" : P == Products::f16 ? "portable-f16-emulated" : "portable-f16ec-emulated";
  using Layout = PlainLayout<N>;
  /// Values per direction of a block in scratch: N, no padding.
  static constexpr int stored_n = N;
  /// Threads a team needs per block (any team size works; more than this idle).
  static constexpr int threads_per_block = block_size<dim, N> / N;

  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void apply(const Member& team, int d, const Term<Number> (&t)[terms], Number scale,
                                           Write write, Number* out) {
    if constexpr (P != Products::native) {
      emulate_f16<L>(team, d, t, scale, write, out);
    } else {
      constexpr int lines = block_size<dim, N> / N;
      for (int line = team.team_rank(); line < lines; line += team.team_size()) {
        const int p = line % N, q = line / N;
        Number v[terms][1][N];
        TENSORMG_UNROLL_ALL
        for (int s = 0; s < terms; ++s) {
          TENSORMG_UNROLL_ALL
          for (int j = 0; j < N; ++j) v[s][0][j] = t[s].in[line_offset<L>(d, j, p, q)];
        }
        for (int o = 0; o < N; ++o) {
          Number sum = 0;
          TENSORMG_UNROLL_ALL
          for (int s = 0; s < terms; ++s) {
            Number r[1];
            if (t[s].transposed) contraction::dot_column(Rows{t[s].matrix}, o, v[s], r);
            else contraction::dot(t[s].matrix + o * N, v[s], r);
            sum += r[0];
          }
          const int at = line_offset<L>(d, o, p, q);
          out[at] = write == Write::add ? out[at] + scale * sum : scale * sum;
        }
      }
    }
  }

 private:
  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void emulate_f16(const Member& team, int d, const Term<Number> (&t)[terms],
                                                 Number scale, Write write, Number* out) {
    constexpr int lines = block_size<dim, N> / N;
    for (int line = team.team_rank(); line < lines; line += team.team_size()) {
      const int p = line % N, q = line / N;
      for (int o = 0; o < N; ++o) {
        float main = 0, correction = 0;
        for (int s = 0; s < terms; ++s)
          for (int j = 0; j < N; ++j) {
            float ah, al, bh, bl;
            split_f16(t[s].matrix[t[s].transposed ? j * N + o : o * N + j], ah, al);
            split_f16(t[s].in[line_offset<L>(d, j, p, q)], bh, bl);
            main += ah * bh;
            if constexpr (P == Products::f16_corrected) correction += al * bh + ah * bl;
          }
        const float sum = main + correction * (1.f / 2048.f);
        const int at = line_offset<L>(d, o, p, q);
        out[at] = write == Write::add ? out[at] + scale * sum : scale * sum;
      }
    }
  }

  /// matrix[m][o] of a row-major N × N matrix (what dot_column indexes).
  struct Rows {
    const Number* p;
    KOKKOS_FORCEINLINE_FUNCTION const Number* operator[](int m) const { return p + m * N; }
  };
};

/// The trait: the portable contraction unless a backend specialises it.
template <class ExecSpace, class Number, int dim, int N, Products P = Products::native, class Enable = void>
struct BlockContraction : PortableBlockContraction<dim, N, Number, P> {};

}  // namespace tensormg::block
