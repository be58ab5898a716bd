#pragma once
/// @file
/// The even-odd form of the register-level 1D contraction (core/tensor_contraction.hpp), as in
/// deal.II's evaluate_evenodd (Kopriva, "Implementing spectral methods for PDEs", §3.3). A
/// rows × cols matrix that is symmetric or antisymmetric under reversing both index ranges,
///   A[rows−1−i][cols−1−j] = s A[i][j],  s = +1 (centro-symmetric) or −1 (centro-antisymmetric),
/// — the mass and stiffness matrices (s = +1) and the derivative (s = −1) of a Lagrange basis on
/// nodes symmetric about the interval's centre, and the interpolation between two such node sets
/// (s = +1, rectangular) — maps the even part of a column, x_j + x_{cols−1−j}, and its odd part,
/// x_j − x_{cols−1−j}, separately:
///   (A x)_o = e_o + d_o,  (A x)_{rows−1−o} = s (e_o − d_o),  e = E x_even,  d = O x_odd,
/// with E, O of about rows/2 × cols/2 entries. A pair of output rows costs cols FMAs instead of
/// 2 cols, plus one addition and one subtraction; splitting a column costs cols additions. The two
/// sums of a pair are independent dependency chains of half the length, and a kernel holds half
/// the matrix entries (constant-bank operands on CUDA once the loops are unrolled).
///
/// Like tensor_contraction.hpp: a thread holds C columns, the loops over matrix entries and
/// columns are unrolled, the caller loops over the output pairs (o < rows/2) and, for odd rows,
/// takes the middle row (o = rows/2) by dot_even_middle. Sums of two products (A x + B y, both
/// s = +1) split both columns.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>

#include "core/device_traits.hpp"

namespace tensormg::contraction {

/// s of A[rows−1−i][cols−1−j] = s A[i][j].
enum class Reversal { symmetric = 1, antisymmetric = -1 };

/// E and O of a rows × cols matrix, rows o ≤ rows/2 (the middle row of odd rows included):
/// E has the (cols+1)/2 even-part columns (column cols/2 of odd cols: the middle value, taken
/// once), O the cols/2 odd-part columns.
template <int rows, int cols, class Number>
struct EvenOddMatrix {
  static_assert(rows >= 1 && cols >= 2, "the even-odd form needs at least two columns");
  static constexpr int pairs = rows / 2;             ///< output pairs
  static constexpr int half_rows = (rows + 1) / 2;   ///< pairs and the middle row of odd rows
  static constexpr int even_size = (cols + 1) / 2;   ///< even-part length (with the middle of odd cols)
  static constexpr int odd_size = cols / 2;          ///< odd-part length
  Number even[half_rows][even_size];
  Number odd[half_rows][odd_size];
};

/// The square form of the operators' mass and stiffness matrices.
template <int n, class Number>
using EvenOdd = EvenOddMatrix<n, n, Number>;

/// Multiply-adds of one product of a rows × cols matrix on a column in the even-odd form: cols per
/// output pair, and for odd rows a middle row of (cols+1)/2 (symmetric) or cols/2 (antisymmetric)
/// (splitting the column and combining the pairs add 2·(cols/2) and 2·(rows/2) additions).
constexpr int even_odd_multiply_adds(int rows, int cols, Reversal s = Reversal::symmetric) {
  return (rows / 2) * cols + (rows % 2 == 1 ? (s == Reversal::symmetric ? (cols + 1) / 2 : cols / 2) : 0);
}

/// The even-odd form of the row-major rows × cols matrix a (formed in double) or, `transposed`,
/// of the transpose of the row-major cols × rows matrix a:
///   E[o][j] = (a[o][j] + a[o][cols−1−j]) / 2 for j < cols/2, E[o][cols/2] = a[o][cols/2] (odd cols),
///   O[o][j] = (a[o][j] − a[o][cols−1−j]) / 2.
/// Returns max |a[i][j] − s a[rows−1−i][cols−1−j]| / max |a|: the form reproduces A x (up to
/// rounding) only where that is at rounding level; callers check it.
template <int rows, int cols, class Number, class Input>
double make_even_odd(const Input* a, EvenOddMatrix<rows, cols, Number>& out, Reversal s = Reversal::symmetric,
                     bool transposed = false) {
  using M = EvenOddMatrix<rows, cols, Number>;
  const auto at = [&](int i, int j) { return double(transposed ? a[j * rows + i] : a[i * cols + j]); };
  for (int o = 0; o < M::half_rows; ++o) {
    for (int j = 0; j < M::even_size; ++j)
      out.even[o][j] = static_cast<Number>(j < M::odd_size ? (at(o, j) + at(o, cols - 1 - j)) / 2 : at(o, j));
    for (int j = 0; j < M::odd_size; ++j) out.odd[o][j] = static_cast<Number>((at(o, j) - at(o, cols - 1 - j)) / 2);
  }
  const double sign = s == Reversal::symmetric ? 1.0 : -1.0;
  double deviation = 0, scale = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      deviation = std::max(deviation, std::abs(at(i, j) - sign * at(rows - 1 - i, cols - 1 - j)));
      scale = std::max(scale, std::abs(at(i, j)));
    }
  return scale > 0 ? deviation / scale : 0;
}

/// xe[c][j] = x[c][j] + x[c][n−1−j] and xo[c][j] = x[c][j] − x[c][n−1−j] for j < n/2; for odd n
/// xe[c][n/2] = x[c][n/2].
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void split_even_odd(const Number (&x)[C][n], Number (&xe)[C][(n + 1) / 2],
                                                Number (&xo)[C][n / 2]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) {
    TENSORMG_UNROLL_ALL
    for (int j = 0; j < n / 2; ++j) {
      xe[c][j] = x[c][j] + x[c][n - 1 - j];
      xo[c][j] = x[c][j] - x[c][n - 1 - j];
    }
    if constexpr (n % 2 == 1) xe[c][n / 2] = x[c][n / 2];
  }
}

/// Rows o and rows−1−o (o < rows/2) of A x: lo[c] = e + d, hi[c] = s (e − d).
template <Reversal s = Reversal::symmetric, int rows, int cols, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_even_odd(const EvenOddMatrix<rows, cols, Number>& a, int o,
                                              const Number (&xe)[C][(cols + 1) / 2], const Number (&xo)[C][cols / 2],
                                              Number (&lo)[C], Number (&hi)[C]) {
  Number e[C], d[C];
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) e[c] = d[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (cols + 1) / 2; ++m) {
    const Number w = a.even[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) e[c] += w * xe[c][m];
  }
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols / 2; ++m) {
    const Number w = a.odd[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) d[c] += w * xo[c][m];
  }
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) {
    lo[c] = e[c] + d[c];
    hi[c] = s == Reversal::symmetric ? e[c] - d[c] : d[c] - e[c];
  }
}

/// Rows o and rows−1−o (o < rows/2) of A x + B y for centro-symmetric rows × cols A, B (x, y
/// split): lo[c], hi[c].
template <int rows, int cols, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_sum_even_odd(const EvenOddMatrix<rows, cols, Number>& a,
                                                  const Number (&xe)[C][(cols + 1) / 2], const Number (&xo)[C][cols / 2],
                                                  const EvenOddMatrix<rows, cols, Number>& b,
                                                  const Number (&ye)[C][(cols + 1) / 2], const Number (&yo)[C][cols / 2],
                                                  int o, Number (&lo)[C], Number (&hi)[C]) {
  Number e[C], d[C];
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) e[c] = d[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (cols + 1) / 2; ++m) {
    const Number wa = a.even[o][m], wb = b.even[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      e[c] += wa * xe[c][m];
      e[c] += wb * ye[c][m];
    }
  }
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < cols / 2; ++m) {
    const Number wa = a.odd[o][m], wb = b.odd[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      d[c] += wa * xo[c][m];
      d[c] += wb * yo[c][m];
    }
  }
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) {
    lo[c] = e[c] + d[c];
    hi[c] = e[c] - d[c];
  }
}

/// The middle row (o = rows/2) of A x for odd rows: only the even part contributes where s = +1,
/// only the odd part where s = −1.
template <Reversal s = Reversal::symmetric, int rows, int cols, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_even_middle(const EvenOddMatrix<rows, cols, Number>& a,
                                                 const Number (&xe)[C][(cols + 1) / 2], const Number (&xo)[C][cols / 2],
                                                 Number (&v)[C]) {
  static_assert(rows % 2 == 1, "only odd rows have a middle row");
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  if constexpr (s == Reversal::symmetric) {
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < (cols + 1) / 2; ++m) {
      const Number w = a.even[rows / 2][m];
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < C; ++c) v[c] += w * xe[c][m];
    }
  } else {
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < cols / 2; ++m) {
      const Number w = a.odd[rows / 2][m];
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < C; ++c) v[c] += w * xo[c][m];
    }
  }
}

/// The middle row (o = rows/2) of A x + B y for odd rows, centro-symmetric A, B.
template <int rows, int cols, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_sum_even_middle(const EvenOddMatrix<rows, cols, Number>& a,
                                                     const Number (&xe)[C][(cols + 1) / 2],
                                                     const EvenOddMatrix<rows, cols, Number>& b,
                                                     const Number (&ye)[C][(cols + 1) / 2], Number (&v)[C]) {
  static_assert(rows % 2 == 1, "only odd rows have a middle row");
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (cols + 1) / 2; ++m) {
    const Number wa = a.even[rows / 2][m], wb = b.even[rows / 2][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      v[c] += wa * xe[c][m];
      v[c] += wb * ye[c][m];
    }
  }
}

/// y = A x for one column (C = 1) of cols values: split, the output pairs and the middle row.
template <Reversal s, int rows, int cols, class Number>
KOKKOS_FORCEINLINE_FUNCTION void apply_even_odd(const EvenOddMatrix<rows, cols, Number>& a, const Number (&x)[1][cols],
                                                Number (&y)[rows]) {
  Number xe[1][(cols + 1) / 2], xo[1][cols / 2];
  split_even_odd(x, xe, xo);
  TENSORMG_UNROLL_ALL
  for (int o = 0; o < rows / 2; ++o) {
    Number lo[1], hi[1];
    dot_even_odd<s>(a, o, xe, xo, lo, hi);
    y[o] = lo[0];
    y[rows - 1 - o] = hi[0];
  }
  if constexpr (rows % 2 == 1) {
    Number v[1];
    dot_even_middle<s>(a, xe, xo, v);
    y[rows / 2] = v[0];
  }
}

/// The eigenvectors of a centro-symmetric pencil (A, M) (the fast diagonalization of a patch with
/// cells of one length) are symmetric (S[n−1−i][j] = S[i][j]) or antisymmetric (−S[i][j]); with
/// the (n+1)/2 symmetric ones first and the n/2 antisymmetric ones after (odd n), Sᵀ maps the
/// even part of a column to the first modes and its odd part to the others, and S the modes back
/// as output pairs: each at half the FMAs. `sym[j][i]` = S[i][j] for the symmetric vectors j and
/// i ≤ n/2 (the middle last), `anti[j][i]` = S[i][(n+1)/2 + j] for i < n/2.
template <int n, class Number>
struct ModeSplit {
  static_assert(n % 2 == 1, "mode-split eigenvectors are laid out for an odd number of points");
  static constexpr int sym_modes = (n + 1) / 2, anti_modes = n / 2;
  Number sym[sym_modes][sym_modes];
  Number anti[anti_modes > 0 ? anti_modes : 1][anti_modes > 0 ? anti_modes : 1];
};

/// The mode-split form of s (row-major n × n, column j = vector j, ordered as ModeSplit says).
/// Returns the largest deviation of a column from its parity relative to max |s|; callers check it.
template <int n, class Number, class Input>
double make_mode_split(const Input* s, ModeSplit<n, Number>& out) {
  using M = ModeSplit<n, Number>;
  const auto at = [&](int i, int j) { return double(s[i * n + j]); };
  double deviation = 0, scale = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double sign = j < M::sym_modes ? 1.0 : -1.0;
      deviation = std::max(deviation, std::abs(at(n - 1 - i, j) - sign * at(i, j)));
      scale = std::max(scale, std::abs(at(i, j)));
    }
  for (int j = 0; j < M::sym_modes; ++j)
    for (int i = 0; i < M::sym_modes; ++i) out.sym[j][i] = static_cast<Number>(at(i, j));
  for (int j = 0; j < M::anti_modes; ++j)
    for (int i = 0; i < M::anti_modes; ++i) out.anti[j][i] = static_cast<Number>(at(i, M::sym_modes + j));
  return scale > 0 ? deviation / scale : 0;
}

/// Symmetric mode j (j < (n+1)/2) of Sᵀ x from the even part xe of x: v[c].
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_to_symmetric_mode(const ModeSplit<n, Number>& s, int j,
                                                       const Number (&xe)[C][(n + 1) / 2], Number (&v)[C]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int i = 0; i < (n + 1) / 2; ++i) {
    const Number w = s.sym[j][i];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += w * xe[c][i];
  }
}

/// Antisymmetric mode j (j < n/2; mode (n+1)/2 + j of Sᵀ x) from the odd part xo of x: v[c].
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_to_antisymmetric_mode(const ModeSplit<n, Number>& s, int j,
                                                           const Number (&xo)[C][n / 2], Number (&v)[C]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int i = 0; i < n / 2; ++i) {
    const Number w = s.anti[j][i];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += w * xo[c][i];
  }
}

/// Calls f(j, v) for every mode j of Sᵀ x, x split into its even (xe) and odd (xo) parts, the
/// loop over the modes unrolled `unroll` times (`Traits::keep_unroll` keeps the backend compiler
/// from unrolling it further). Unrolled fully (unroll >= n), one loop whose parity test resolves
/// at compile time; otherwise the symmetric modes in one loop and the antisymmetric ones in a
/// second, so that neither tests the parity at run time. (One loop unrolled partly kept the test
/// at run time: the 3D smoother at k = 6..8, unroll 2, FP64 1.06x with two loops, 2D k = 6..10
/// 1.03-1.06x; at 3D k = 5, unrolled fully, two loops spilled more at its 64-register bound,
/// 0.95x; h200-2026-12-05-mode-loops/call1. This rule on the H100 against one loop: k = 7 FP64
/// 1.05x, k = 5 1.00x, h100-2026-12-05-mode-loops/call2.)
template <int unroll, class Traits, int n, int C, class Number, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_each_mode(const ModeSplit<n, Number>& s, const Number (&xe)[C][(n + 1) / 2],
                                               const Number (&xo)[C][n / 2], F&& f) {
  constexpr int sym_modes = ModeSplit<n, Number>::sym_modes, anti_modes = ModeSplit<n, Number>::anti_modes;
  if constexpr (unroll >= n) {
    TENSORMG_UNROLL_ALL
    for (int j = 0; j < n; ++j) {
      Number v[C];
      if (j < sym_modes) dot_to_symmetric_mode(s, j, xe, v);
      else dot_to_antisymmetric_mode(s, j - sym_modes, xo, v);
      f(j, v);
    }
  } else {
    TENSORMG_UNROLL(unroll)
    for (int j = 0; j < sym_modes; ++j) {
      Traits::template keep_unroll<unroll, sym_modes>();
      Number v[C];
      dot_to_symmetric_mode(s, j, xe, v);
      f(j, v);
    }
    TENSORMG_UNROLL(unroll)
    for (int j = 0; j < anti_modes; ++j) {
      Traits::template keep_unroll<unroll, anti_modes>();
      Number v[C];
      dot_to_antisymmetric_mode(s, j, xo, v);
      f(sym_modes + j, v);
    }
  }
}

/// Points o and n−1−o (o < n/2) of S z from the modes z: lo[c] = a + b, hi[c] = a − b with a the
/// symmetric modes' sum and b the antisymmetric ones'.
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_from_modes(const ModeSplit<n, Number>& s, int o, const Number (&z)[C][n],
                                                Number (&lo)[C], Number (&hi)[C]) {
  constexpr int sym_modes = ModeSplit<n, Number>::sym_modes;
  Number a[C], b[C];
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) a[c] = b[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int j = 0; j < sym_modes; ++j) {
    const Number w = s.sym[j][o];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) a[c] += w * z[c][j];
  }
  TENSORMG_UNROLL_ALL
  for (int j = 0; j < n / 2; ++j) {
    const Number w = s.anti[j][o];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) b[c] += w * z[c][sym_modes + j];
  }
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) {
    lo[c] = a[c] + b[c];
    hi[c] = a[c] - b[c];
  }
}

/// The middle point (o = n/2) of S z: only the symmetric modes contribute.
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_from_modes_middle(const ModeSplit<n, Number>& s, const Number (&z)[C][n],
                                                       Number (&v)[C]) {
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int j = 0; j < (n + 1) / 2; ++j) {
    const Number w = s.sym[j][n / 2];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += w * z[c][j];
  }
}

}  // namespace tensormg::contraction
