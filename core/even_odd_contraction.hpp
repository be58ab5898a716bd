#pragma once
/// @file
/// The even-odd form of the register-level 1D contraction (core/tensor_contraction.hpp), as in
/// deal.II's evaluate_evenodd (Kopriva, "Implementing spectral methods for PDEs", §3.3): a
/// centro-symmetric n × n matrix, A[i][j] = A[n−1−i][n−1−j] — every mass and stiffness matrix of a
/// Lagrange basis on nodes symmetric about the interval's centre (Gauss–Lobatto) — maps the even
/// part of a column, x_j + x_{n−1−j}, and its odd part, x_j − x_{n−1−j}, separately:
///   (A x)_o = e_o + d_o,  (A x)_{n−1−o} = e_o − d_o,  e = E x_even,  d = O x_odd,
/// with E, O of about n/2 × n/2 entries. A pair of output rows costs n FMAs instead of 2n, plus
/// one addition and one subtraction; splitting a column costs n additions. The two sums of a pair
/// are independent dependency chains of half the length, and a kernel holds half the matrix
/// entries (constant-bank operands on CUDA once the loops are unrolled).
///
/// Like tensor_contraction.hpp: a thread holds C columns, the loops over matrix entries and
/// columns are unrolled, the caller loops over the output pairs (o < n/2) and, for odd n, takes
/// the middle row (o = n/2) by dot_even_middle. Sums of two products (A x + B y) split both columns.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>

#include "core/device_traits.hpp"

namespace tensormg::contraction {

/// E and O of a centro-symmetric n × n matrix: E has the (n+1)/2 rows o ≤ n/2 and columns j ≤ n/2
/// (column n/2 of odd n: the middle value, taken once), O the n/2 rows and columns o, j < n/2.
template <int n, class Number>
struct EvenOdd {
  static_assert(n >= 2, "the even-odd form needs at least two points");
  static constexpr int half = n / 2;             ///< output pairs, odd-part length
  static constexpr int even_size = (n + 1) / 2;  ///< even-part length (with the middle of odd n)
  Number even[even_size][even_size];
  Number odd[half][half];
};

/// The even-odd form of the row-major n × n matrix a (formed in double), for rows o < n/2 and the middle row:
///   E[o][j] = (a[o][j] + a[o][n−1−j]) / 2 for j < n/2, E[o][n/2] = a[o][n/2] (odd n),
///   O[o][j] = (a[o][j] − a[o][n−1−j]) / 2.
/// Returns max |a[i][j] − a[n−1−i][n−1−j]| / max |a|: the form reproduces A x exactly (up to
/// rounding) only where that is 0; callers check it (the 1D matrices of a Cartesian cell give
/// rounding-level values).
template <int n, class Number, class Input>
double make_even_odd(const Input* a, EvenOdd<n, Number>& out) {
  constexpr int half = EvenOdd<n, Number>::half, even_size = EvenOdd<n, Number>::even_size;
  for (int o = 0; o < even_size; ++o)
    for (int j = 0; j < even_size; ++j)
      out.even[o][j] = static_cast<Number>(j < half ? (double(a[o * n + j]) + double(a[o * n + n - 1 - j])) / 2
                                                    : double(a[o * n + j]));
  for (int o = 0; o < half; ++o)
    for (int j = 0; j < half; ++j)
      out.odd[o][j] = static_cast<Number>((double(a[o * n + j]) - double(a[o * n + n - 1 - j])) / 2);
  double deviation = 0, scale = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      deviation = std::max(deviation, std::abs(double(a[i * n + j]) - double(a[(n - 1 - i) * n + n - 1 - j])));
      scale = std::max(scale, std::abs(double(a[i * n + j])));
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

/// Rows o and n−1−o (o < n/2) of A x: lo[c] = e + d, hi[c] = e − d.
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_even_odd(const EvenOdd<n, Number>& a, int o, const Number (&xe)[C][(n + 1) / 2],
                                              const Number (&xo)[C][n / 2], Number (&lo)[C], Number (&hi)[C]) {
  Number e[C], d[C];
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) e[c] = d[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (n + 1) / 2; ++m) {
    const Number w = a.even[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) e[c] += w * xe[c][m];
  }
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < n / 2; ++m) {
    const Number w = a.odd[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) d[c] += w * xo[c][m];
  }
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) {
    lo[c] = e[c] + d[c];
    hi[c] = e[c] - d[c];
  }
}

/// Rows o and n−1−o (o < n/2) of A x + B y (x, y split): lo[c], hi[c].
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_sum_even_odd(const EvenOdd<n, Number>& a, const Number (&xe)[C][(n + 1) / 2],
                                                  const Number (&xo)[C][n / 2], const EvenOdd<n, Number>& b,
                                                  const Number (&ye)[C][(n + 1) / 2], const Number (&yo)[C][n / 2],
                                                  int o, Number (&lo)[C], Number (&hi)[C]) {
  Number e[C], d[C];
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) e[c] = d[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (n + 1) / 2; ++m) {
    const Number wa = a.even[o][m], wb = b.even[o][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      e[c] += wa * xe[c][m];
      e[c] += wb * ye[c][m];
    }
  }
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < n / 2; ++m) {
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

/// The middle row (o = n/2) of A x for odd n: only the even part contributes.
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_even_middle(const EvenOdd<n, Number>& a, const Number (&xe)[C][(n + 1) / 2],
                                                 Number (&v)[C]) {
  static_assert(n % 2 == 1, "only odd n has a middle row");
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (n + 1) / 2; ++m) {
    const Number w = a.even[n / 2][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) v[c] += w * xe[c][m];
  }
}

/// The middle row (o = n/2) of A x + B y for odd n.
template <int n, int C, class Number>
KOKKOS_FORCEINLINE_FUNCTION void dot_sum_even_middle(const EvenOdd<n, Number>& a, const Number (&xe)[C][(n + 1) / 2],
                                                     const EvenOdd<n, Number>& b, const Number (&ye)[C][(n + 1) / 2],
                                                     Number (&v)[C]) {
  static_assert(n % 2 == 1, "only odd n has a middle row");
  TENSORMG_UNROLL_ALL
  for (int c = 0; c < C; ++c) v[c] = 0;
  TENSORMG_UNROLL_ALL
  for (int m = 0; m < (n + 1) / 2; ++m) {
    const Number wa = a.even[n / 2][m], wb = b.even[n / 2][m];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      v[c] += wa * xe[c][m];
      v[c] += wb * ye[c][m];
    }
  }
}

}  // namespace tensormg::contraction
