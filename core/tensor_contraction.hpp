#pragma once
/// @file
/// The one 1D contraction of tensormg's sum-factorization kernels, at register level (in the
/// spirit of deal.II's internal::apply<…, contract_over_rows, add>): a thread holds C columns of
/// `cols` values (a column = the values along the contracted direction), and for every output row
/// o of `rows` it forms `outputs` sums of matrix entries times column entries, then hands them to
/// a store (scratch, the global vector, a residual). The Laplace operator, the transfer and the
/// vertex-patch smoother call it, and the DG and bake-off kernels will.
///
/// What varies between the callers is written as template parameters and two small callables:
/// - sizes (`rows`, `cols`), columns per thread `C`, number of sums `outputs`, unrolling of the
///   row loop `unroll` (the column loop is always unrolled: every matrix entry then has a
///   compile-time offset, a constant-bank operand on CUDA when the matrix sits in the functor);
/// - `terms(o, m, acc)` adds input entry m's terms to the sums of row o, through the helpers below
///   (`madd`: one matrix entry times the C columns; `madd_pair`: two chained FMAs); transposition
///   is the caller's choice of entry (M[o][m] or M[m][o]);
/// - `store(o, acc)` assigns, adds or combines the sums.
/// Each matrix entry is read once per row and feeds C FMAs (register blocking).

#include <Kokkos_Core.hpp>

#include "core/device_traits.hpp"

namespace tensormg::contraction {

/// acc[c] += e · x[c][m] for the C columns.
template <int C, int cols, class Number>
KOKKOS_FORCEINLINE_FUNCTION void madd(Number (&acc)[C], Number e, const Number (&x)[C][cols], int m) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) acc[c] += e * x[c][m];
}

/// acc[c] += e · x[c][m] + f · y[c][m]: as two chained FMAs (`chained`) or as one expression,
/// which nvcc compiles to DMUL + DFMA + DADD (ncu on the 3D Q7 smoother: 20.2M of 66M FP64
/// instructions were such unfused ones); the chained form costs a longer dependency chain.
template <bool chained, int C, int cols, class Number>
KOKKOS_FORCEINLINE_FUNCTION void madd_pair(Number (&acc)[C], Number e, const Number (&x)[C][cols], Number f,
                                           const Number (&y)[C][cols], int m) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) {
    if constexpr (chained) {
      acc[c] += e * x[c][m];
      acc[c] += f * y[c][m];
    } else {
      acc[c] += e * x[c][m] + f * y[c][m];
    }
  }
}

/// The loop nest: for o < rows (unrolled by `unroll`), `outputs` × C sums from zero, terms(o, m,
/// sums) for m < cols (unrolled), store(o, sums).
template <int rows, int cols, int C, int outputs, int unroll, class Number, class Terms, class Store>
KOKKOS_FORCEINLINE_FUNCTION void contract(Terms&& terms, Store&& store) {
  TENSORMG_UNROLL(unroll)
  for (int o = 0; o < rows; ++o) {
    Number sums[outputs][C];
    TENSORMG_UNROLL_ALL
    for (int t = 0; t < outputs; ++t) {
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < C; ++c) sums[t][c] = 0;
    }
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < cols; ++m) terms(o, m, sums);
    store(o, sums);
  }
}

/// The common case: one matrix, out[c] = Σ_m entry(o, m) x[c][m] for every row o.
template <int rows, int cols, int C, int unroll, class Number, class Entry, class Store>
KOKKOS_FORCEINLINE_FUNCTION void contract(const Entry& entry, const Number (&x)[C][cols], Store&& store) {
  contract<rows, cols, C, 1, unroll, Number>(
      [&](int o, int m, Number(&sums)[1][C]) { madd(sums[0], entry(o, m), x, m); },
      [&](int o, Number(&sums)[1][C]) { store(o, sums[0]); });
}

/// Loads a column of n values that starts at p and advances by stride.
template <int n, class Number>
KOKKOS_FORCEINLINE_FUNCTION void load_column(const Number* p, int stride, Number (&x)[n]) {
  TENSORMG_UNROLL_ALL
  for (int j = 0; j < n; ++j) x[j] = p[j * stride];
}

}  // namespace tensormg::contraction
