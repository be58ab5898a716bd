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
/// (backends/cuda_mma/block_contraction_cuda.hpp: `mma.sync` on Kokkos::Cuda for FP64 N = 8).
/// backends/block_contraction.hpp gathers the specialisations; core includes no backend.
///
/// A trait names the scratch layout its kernels want (`Layout`, e.g. the XOR-swizzled one of the
/// tensor-core kernels); every implementation takes any layout as a template parameter, so a
/// benchmark can run the same kernel on another layout (the bank-conflict study). The caller
/// allocates the blocks, synchronises the team between calls, and keeps `out` apart from every
/// `in` (the tensor-core kernels read other threads' values of `in` while they write `out`).

#include <Kokkos_Core.hpp>

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
/// reference the backends' kernels are tested against.
template <int dim, int N, class Number>
struct PortableBlockContraction {
  static constexpr bool tensor_cores = false;
  static constexpr const char* name = "portable";
  using Layout = PlainLayout<N>;
  /// Threads a team needs per block (any team size works; more than this idle).
  static constexpr int threads_per_block = block_size<dim, N> / N;

  template <class L, int terms, class Member>
  KOKKOS_INLINE_FUNCTION static void apply(const Member& team, int d, const Term<Number> (&t)[terms], Number scale,
                                           Write write, Number* out) {
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

 private:
  /// matrix[m][o] of a row-major N × N matrix (what dot_column indexes).
  struct Rows {
    const Number* p;
    KOKKOS_FORCEINLINE_FUNCTION const Number* operator[](int m) const { return p + m * N; }
  };
};

/// The trait: the portable contraction unless a backend specialises it.
template <class ExecSpace, class Number, int dim, int N, class Enable = void>
struct BlockContraction : PortableBlockContraction<dim, N, Number> {};

}  // namespace tensormg::block
