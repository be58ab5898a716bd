#pragma once
/// @file
/// The one 1D contraction of tensormg's sum-factorization kernels, at register level (in the
/// spirit of deal.II's internal::apply): a thread holds C columns of `cols` values (a column = the
/// values along the contracted direction) and forms, for one output row o, dot products of matrix
/// rows with its columns. The caller loops over the output rows (unrolled as its tuning row says)
/// and stores, adds or combines the sums; the Laplace operator, the transfer and the vertex-patch
/// smoother call it, and the DG and bake-off kernels will.
///
/// A "row" is anything indexable by m < cols: a row of a matrix held by value in the functor
/// (`cm.M[o + 1]`, a constant-bank operand on CUDA once the loops are unrolled); dot_column takes
/// a column of a matrix instead (the transposed matrix). The loops over m and over the C columns are always
/// unrolled, so each matrix entry is read once per row and feeds C FMAs (register blocking).
///
/// No lambdas here, and none expected from callers: nvcc keeps arrays that a non-inlined closure
/// captures by reference in local memory (the 3D Q7 smoother spilled 76/108 bytes instead of 8/8
/// when its stores went through closures, 2026-11-24).

#include <Kokkos_Core.hpp>

#include "core/device_traits.hpp"

namespace tensormg::contraction {

/// How a sum of two products per column entry is formed.
enum class Pair {
  expression,  ///< acc += a·x + b·y as written (nvcc: DMUL + DFMA + DADD)
  chained,     ///< acc += a·x; acc += b·y: two FMAs, one dependency chain (the 3D smoother)
  split        ///< two accumulators, summed at the end: two independent chains (the operator)
};

/// v += ea·x + eb·y formed as `pair` says; Pair::split adds eb·y to the second chain w instead
/// (summed into v by the caller at the end).
template <Pair pair, class Number>
KOKKOS_FORCEINLINE_FUNCTION void add_pair(Number& v, Number& w, Number ea, Number x, Number eb, Number y) {
  if constexpr (pair == Pair::expression) {
    v += ea * x + eb * y;
  } else if constexpr (pair == Pair::chained) {
    v += ea * x;
    v += eb * y;
  } else {
    v += ea * x;
    w += eb * y;
  }
}

/// v[c] = Σ_m a[m] x[c][m].
template <int cols, int C, class Number, class Row>
KOKKOS_FORCEINLINE_FUNCTION void dot(const Row& a, const Number (&x)[C][cols], Number (&v)[C]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols; ++m) {
    const Number e = a[m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += e * x[c][m];
  }
}

/// v[c] = Σ_m matrix[m][o] x[c][m]: column o of a matrix held as rows (the transposed matrix).
template <int cols, int C, class Number, class Matrix>
KOKKOS_FORCEINLINE_FUNCTION void dot_column(const Matrix& matrix, int o, const Number (&x)[C][cols], Number (&v)[C]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols; ++m) {
    const Number e = matrix[m][o];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += e * x[c][m];
  }
}

/// va[c] = Σ_m a[m] x[c][m], vb[c] = Σ_m b[m] x[c][m]: two matrices on the same columns.
template <int cols, int C, class Number, class RowA, class RowB>
KOKKOS_FORCEINLINE_FUNCTION void dot_two(const RowA& a, const RowB& b, const Number (&x)[C][cols], Number (&va)[C],
                                         Number (&vb)[C]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) va[c] = vb[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols; ++m) {
    const Number ea = a[m], eb = b[m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      va[c] += ea * x[c][m];
      vb[c] += eb * x[c][m];
    }
  }
}

/// v[c] = Σ_m a[m] x[c][m] + b[m] y[c][m], formed as `pair` says.
template <Pair pair, int cols, int C, class Number, class RowA, class RowB>
KOKKOS_FORCEINLINE_FUNCTION void dot_sum(const RowA& a, const Number (&x)[C][cols], const RowB& b,
                                         const Number (&y)[C][cols], Number (&v)[C]) {
  Number w[C];  // the second chain of Pair::split
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = w[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols; ++m) {
    const Number ea = a[m], eb = b[m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) add_pair<pair>(v[c], w[c], ea, x[c][m], eb, y[c][m]);
  }
  if constexpr (pair == Pair::split) {
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += w[c];
  }
}

/// The middle step of a Kronecker sum: va[c] = Σ_m a[m] x[c][m] and
/// vb[c] = Σ_m b[m] x[c][m] + a[m] y[c][m] (e.g. M x and A x + M y), formed as `pair` says.
template <Pair pair, int cols, int C, class Number, class RowA, class RowB>
KOKKOS_FORCEINLINE_FUNCTION void dot_two_sum(const RowA& a, const RowB& b, const Number (&x)[C][cols],
                                             const Number (&y)[C][cols], Number (&va)[C], Number (&vb)[C]) {
  Number w[C];
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) va[c] = vb[c] = w[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols; ++m) {
    const Number ea = a[m], eb = b[m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      va[c] += ea * x[c][m];
      add_pair<pair>(vb[c], w[c], eb, x[c][m], ea, y[c][m]);
    }
  }
  if constexpr (pair == Pair::split) {
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) vb[c] += w[c];
  }
}

/// Loads a column of n values that starts at p and advances by stride.
template <int n, class Number>
KOKKOS_FORCEINLINE_FUNCTION void load_column(const Number* p, int stride, Number (&x)[n]) {
  TENSORMG_UNROLL_ALL
  for (int j = 0; j < n; ++j) x[j] = p[j * stride];
}

}  // namespace tensormg::contraction
