#pragma once
/// @file
/// The cell arrays of the bake-off kernels (bake_off_kernels.hpp) and their 1D lines: where a line
/// starts and how far apart its entries are, in the element vectors (dense rows) and in team
/// scratch (rows padded where they would put several threads of a warp on one bank), and the
/// line-wise loads, stores and matrix applications of the kernels' steps.

#include <Kokkos_Core.hpp>

#include "core/device_traits.hpp"
#include "core/tensor_contraction.hpp"

namespace tensormg {

namespace bake_off {

/// The lines along direction dir of a cell array with extents (e0, e1, e2), x fastest, its rows
/// `row` entries apart: how many, where line `line` starts and the distance of its entries.
/// row = e0 for the element vectors; in scratch see ScratchLines.
template <int dir, int e0, int e1, int e2, int row = e0>
struct Lines {
  static_assert(row >= e0, "a row holds its e0 entries");
  static constexpr int count = dir == 0 ? e1 * e2 : dir == 1 ? e0 * e2 : e0 * e1;
  static constexpr int stride = dir == 0 ? 1 : dir == 1 ? row : row * e1;
  KOKKOS_FORCEINLINE_FUNCTION static int base(int line) {
    if constexpr (dir == 0) return row * line;
    else if constexpr (dir == 1) return line % e0 + row * e1 * (line / e0);
    else if constexpr (row == e0) return line;
    else return line % e0 + row * (line / e0);
  }
  /// Coordinates of entry m of the line.
  KOKKOS_FORCEINLINE_FUNCTION static void coordinates(int line, int m, int c[3]) {
    if constexpr (dir == 0) {
      c[0] = m, c[1] = line % e1, c[2] = line / e1;
    } else if constexpr (dir == 1) {
      c[0] = line % e0, c[1] = m, c[2] = line / e0;
    } else {
      c[0] = line % e0, c[1] = line / e0, c[2] = m;
    }
  }
};

/// The row length of a cell array with rows of e0 entries in scratch. Consecutive threads take
/// consecutive x-lines, row entries apart: a row of s entries puts gcd(s, 16) of a half-warp's
/// 16 doubles (gcd(s, 32) of 32 floats) on one bank, so rows of 4 and 8 are padded by one entry
/// (conflict-free). Rows of 6 and 10 (2-way) stay: padded they measured 0.96-0.99x (BP3.5 k = 5,
/// BP1.0 k = 4, 8), against 1.07-1.32x for the padded rows of 4 and 8 (H200,
/// perf/results/h200-2026-12-03-bp-scratch-rows/call1).
template <int e0>
inline constexpr int scratch_row = e0 % 4 == 0 ? e0 + 1 : e0;
/// The scratch layout of a cell array with extents (e0, e1, e2): rows of scratch_row<e0>.
template <int dir, int e0, int e1, int e2>
using ScratchLines = Lines<dir, e0, e1, e2, scratch_row<e0>>;
/// Entries of such an array in scratch, and the place of entry (i, j, l).
template <int e0, int e1, int e2>
inline constexpr int scratch_values = scratch_row<e0> * e1 * e2;
template <int e0, int e1>
KOKKOS_FORCEINLINE_FUNCTION int scratch_index(int i, int j, int l) {
  return i + scratch_row<e0> * (j + e1 * l);
}

/// y[o] = Σ_m M[o][m] x[m] for o < R (rows of M).
template <int R, int C, class Number, class Matrix>
KOKKOS_FORCEINLINE_FUNCTION void apply_rows(const Matrix& M, const Number (&x)[1][C], Number (&y)[R]) {
  TENSORMG_UNROLL_ALL
  for (int o = 0; o < R; ++o) {
    Number v[1];
    contraction::dot<C, 1>(M[o], x, v);
    y[o] = v[0];
  }
}

/// y[o] = Σ_m M[m][o] x[m] for o < R (the transposed matrix).
template <int R, int C, class Number, class Matrix>
KOKKOS_FORCEINLINE_FUNCTION void apply_columns(const Matrix& M, const Number (&x)[1][C], Number (&y)[R]) {
  TENSORMG_UNROLL_ALL
  for (int o = 0; o < R; ++o) {
    Number v[1];
    contraction::dot_column<C, 1>(M, o, x, v);
    y[o] = v[0];
  }
}

/// Loads line `line` along dir of a scratch array with extents (e0, e1, e2) (ScratchLines).
template <int dir, int e0, int e1, int e2, int len, class Number>
KOKKOS_FORCEINLINE_FUNCTION void load(const Number* a, int line, Number (&x)[1][len]) {
  using L = ScratchLines<dir, e0, e1, e2>;
  contraction::load_column<len>(a + L::base(line), L::stride, x[0]);
}

/// Stores (add: adds) y along line `line` of direction dir of a scratch array with extents (e0, e1, e2).
template <bool add, int dir, int e0, int e1, int e2, int len, class Number>
KOKKOS_FORCEINLINE_FUNCTION void store(Number* a, int line, const Number (&y)[len]) {
  using L = ScratchLines<dir, e0, e1, e2>;
  const int b = L::base(line);
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < len; ++m) {
    if constexpr (add) a[b + m * L::stride] += y[m];
    else a[b + m * L::stride] = y[m];
  }
}

}  // namespace bake_off

}  // namespace tensormg
