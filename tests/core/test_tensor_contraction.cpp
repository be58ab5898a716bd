// core/tensor_contraction.hpp: the register-level 1D contraction against a plain loop, for the
// shapes the kernels use (rows < cols and rows > cols, C = 1..3 columns per thread, one and two
// sums, transposed entries, the three ways of forming a pair), inside kernels on every execution
// space; core/even_odd_contraction.hpp likewise for centro-symmetric matrices of even and odd n.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/even_odd_contraction.hpp"
#include "core/tensor_contraction.hpp"
#include "tests/test_spaces.hpp"

namespace {

using namespace tensormg::testing;
namespace contraction = tensormg::contraction;

template <class T>
class TensorContraction : public ::testing::Test {};
TYPED_TEST_SUITE(TensorContraction, ExecSpaces, ExecSpaceName);

/// The matrices (rows × cols, A and B) and C columns x, y of length cols, for one thread.
template <int rows, int cols, int C>
struct Shape {
  double A[rows][cols], B[rows][cols];  // in the functor, as in the kernels
  double x[C][cols], y[C][cols];
};

/// Thread t computes, for its copy of the inputs scaled by (t + 1) and every output row o:
///   out0 = A x (dot), out1 = A x + B y (dot_sum as `pair` says), out2 = Bᵀ-column entries
///   (dot_column of Bt, i.e. B y again), out3, out4 = B x, A x (dot_two), out5 = B x + A y
///   (dot_two_sum, whose first sum A x is checked through out0).
template <int rows, int cols, int C, contraction::Pair pair, class ExecSpace>
struct ContractKernel {
  Shape<rows, cols, C> s;
  double Bt[cols][rows];  // Bᵀ, so that column o of Bt is row o of B
  Kokkos::View<double* [6][C][rows], typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(int t) const {
    double x[C][cols], y[C][cols];
    for (int c = 0; c < C; ++c)
      for (int m = 0; m < cols; ++m) {
        x[c][m] = (t + 1) * s.x[c][m];
        y[c][m] = (t + 1) * s.y[c][m];
      }
    for (int o = 0; o < rows; ++o) {
      double v[6][C];
      contraction::dot(s.A[o], x, v[0]);
      contraction::dot_sum<pair>(s.A[o], x, s.B[o], y, v[1]);
      contraction::dot_column(Bt, o, y, v[2]);
      contraction::dot_two(s.B[o], s.A[o], x, v[3], v[4]);
      double w[C];
      contraction::dot_two_sum<pair>(s.A[o], s.B[o], x, y, w, v[5]);  // w = A x, v5 = B x + A y
      for (int c = 0; c < C; ++c) {
        for (int f = 0; f < 6; ++f) out(t, f, c, o) = v[f][c];
        out(t, 0, c, o) -= w[c] - v[0][c];  // w must equal A x: any difference shows in out0
      }
    }
  }
};

template <int rows, int cols, int C, contraction::Pair pair, class ExecSpace>
void check_shape(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  ContractKernel<rows, cols, C, pair, ExecSpace> k;
  for (int o = 0; o < rows; ++o)
    for (int m = 0; m < cols; ++m) {
      k.s.A[o][m] = u(rng);
      k.s.B[o][m] = u(rng);
      k.Bt[m][o] = k.s.B[o][m];
    }
  for (int c = 0; c < C; ++c)
    for (int m = 0; m < cols; ++m) {
      k.s.x[c][m] = u(rng);
      k.s.y[c][m] = u(rng);
    }
  const int threads = 37;
  k.out = decltype(k.out)("out", threads);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(0, threads), k);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.out);
  double worst = 0;
  for (int t = 0; t < threads; ++t)
    for (int c = 0; c < C; ++c)
      for (int o = 0; o < rows; ++o) {
        double ax = 0, by = 0, bx = 0, ay = 0;
        for (int m = 0; m < cols; ++m) {
          ax += k.s.A[o][m] * k.s.x[c][m] * (t + 1);
          by += k.s.B[o][m] * k.s.y[c][m] * (t + 1);
          bx += k.s.B[o][m] * k.s.x[c][m] * (t + 1);
          ay += k.s.A[o][m] * k.s.y[c][m] * (t + 1);
        }
        const double expect[6] = {ax, ax + by, by, bx, ax, bx + ay};
        for (int f = 0; f < 6; ++f) worst = std::max(worst, std::abs(h(t, f, c, o) - expect[f]) / (t + 1));
      }
  EXPECT_LE(worst, 1e-13) << "rows " << rows << " cols " << cols << " C " << C << " pair " << int(pair);
  EXPECT_GT(std::abs(h(threads - 1, 0, C - 1, rows - 1)), 0.0);
}

TYPED_TEST(TensorContraction, MatchesPlainLoops) {
  using contraction::Pair;
  check_shape<3, 5, 1, Pair::expression, TypeParam>(1);  // interior rows of a closure matrix (k = 2)
  check_shape<13, 15, 2, Pair::chained, TypeParam>(2);   // 3D k = 7, two columns per thread
  check_shape<11, 13, 3, Pair::chained, TypeParam>(3);   // the x step's three columns
  check_shape<9, 5, 1, Pair::split, TypeParam>(4);       // prolongation: more rows than columns
  check_shape<5, 9, 2, Pair::split, TypeParam>(5);       // restriction
}

/// Thread t, for its inputs scaled by (t + 1), in even-odd form: out0 = A x (dot_even_odd and, for
/// odd rows, dot_even_middle), out1 = A x + B y (dot_sum_even_odd / dot_sum_even_middle), for
/// centro-symmetric rows × cols A, B (square: the operators' matrices; 2k − 1 × 2k + 1: the
/// interior rows of the vertex-patch closure matrices).
template <int rows, int cols, int C, class ExecSpace>
struct EvenOddKernel {
  contraction::EvenOddMatrix<rows, cols, double> A, B;
  double x[C][cols], y[C][cols];
  Kokkos::View<double* [2][C][rows], typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(int t) const {
    double xs[C][cols], ys[C][cols];
    for (int c = 0; c < C; ++c)
      for (int m = 0; m < cols; ++m) {
        xs[c][m] = (t + 1) * x[c][m];
        ys[c][m] = (t + 1) * y[c][m];
      }
    double xe[C][(cols + 1) / 2], xo[C][cols / 2], ye[C][(cols + 1) / 2], yo[C][cols / 2];
    contraction::split_even_odd(xs, xe, xo);
    contraction::split_even_odd(ys, ye, yo);
    for (int o = 0; o < rows / 2; ++o) {
      double lo[C], hi[C], slo[C], shi[C];
      contraction::dot_even_odd(A, o, xe, xo, lo, hi);
      contraction::dot_sum_even_odd(A, xe, xo, B, ye, yo, o, slo, shi);
      for (int c = 0; c < C; ++c) {
        out(t, 0, c, o) = lo[c];
        out(t, 0, c, rows - 1 - o) = hi[c];
        out(t, 1, c, o) = slo[c];
        out(t, 1, c, rows - 1 - o) = shi[c];
      }
    }
    if constexpr (rows % 2 == 1) {
      double v[C], w[C];
      contraction::dot_even_middle(A, xe, xo, v);
      contraction::dot_sum_even_middle(A, xe, B, ye, w);
      for (int c = 0; c < C; ++c) {
        out(t, 0, c, rows / 2) = v[c];
        out(t, 1, c, rows / 2) = w[c];
      }
    }
  }
};

/// A random rows × cols matrix with a[i][j] = s a[rows−1−i][cols−1−j], row-major.
template <int rows, int cols>
std::vector<double> reversal_symmetric(std::mt19937& rng, contraction::Reversal s = contraction::Reversal::symmetric) {
  std::uniform_real_distribution<double> u(-1, 1);
  const double sign = s == contraction::Reversal::symmetric ? 1.0 : -1.0;
  std::vector<double> a(rows * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const int mirror = (rows - 1 - i) * cols + cols - 1 - j;
      if (i * cols + j < mirror) {
        a[i * cols + j] = u(rng);
        a[mirror] = sign * a[i * cols + j];
      } else if (i * cols + j == mirror) {
        a[mirror] = sign > 0 ? u(rng) : 0.0;  // the centre of odd × odd maps to itself
      }
    }
  return a;
}

template <int rows, int cols, int C, class ExecSpace>
void check_even_odd(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto a = reversal_symmetric<rows, cols>(rng), b = reversal_symmetric<rows, cols>(rng);
  EvenOddKernel<rows, cols, C, ExecSpace> k;
  EXPECT_LE(contraction::make_even_odd(a.data(), k.A), 0.0);
  EXPECT_LE(contraction::make_even_odd(b.data(), k.B), 0.0);
  for (int c = 0; c < C; ++c)
    for (int m = 0; m < cols; ++m) {
      k.x[c][m] = u(rng);
      k.y[c][m] = u(rng);
    }
  const int threads = 37;
  k.out = decltype(k.out)("out", threads);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(0, threads), k);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.out);
  double worst = 0;
  for (int t = 0; t < threads; ++t)
    for (int c = 0; c < C; ++c)
      for (int o = 0; o < rows; ++o) {
        double ax = 0, by = 0;
        for (int m = 0; m < cols; ++m) {
          ax += a[o * cols + m] * k.x[c][m] * (t + 1);
          by += b[o * cols + m] * k.y[c][m] * (t + 1);
        }
        worst = std::max({worst, std::abs(h(t, 0, c, o) - ax) / (t + 1), std::abs(h(t, 1, c, o) - ax - by) / (t + 1)});
      }
  EXPECT_LE(worst, 1e-13) << rows << " x " << cols << " C " << C;
  EXPECT_GT(std::abs(h(threads - 1, 1, C - 1, rows - 1)), 0.0);
}

TYPED_TEST(TensorContraction, EvenOddFormMatchesPlainLoops) {
  check_even_odd<2, 2, 1, TypeParam>(11);    // k = 1
  check_even_odd<3, 3, 2, TypeParam>(12);    // k = 2: a middle row
  check_even_odd<8, 8, 1, TypeParam>(13);    // k = 7
  check_even_odd<9, 9, 2, TypeParam>(14);    // k = 8
  check_even_odd<11, 11, 3, TypeParam>(15);  // 2D k = 10
  // The vertex-patch residual: the 2k − 1 interior rows of the 2k + 1 closure matrices.
  check_even_odd<1, 3, 1, TypeParam>(16);    // k = 1: the middle row only
  check_even_odd<3, 5, 3, TypeParam>(17);    // k = 2, the x step's three columns
  check_even_odd<13, 15, 2, TypeParam>(18);  // 3D k = 7, two columns per thread
  check_even_odd<15, 17, 1, TypeParam>(19);  // k = 8
}

/// Thread t: y = A x (apply_even_odd) for its inputs scaled by (t + 1).
template <int rows, int cols, contraction::Reversal s, class ExecSpace>
struct ApplyEvenOddKernel {
  contraction::EvenOddMatrix<rows, cols, double> A;
  double x[cols];
  Kokkos::View<double* [rows], typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(int t) const {
    double xs[1][cols], y[rows];
    for (int m = 0; m < cols; ++m) xs[0][m] = (t + 1) * x[m];
    contraction::apply_even_odd<s>(A, xs, y);
    for (int o = 0; o < rows; ++o) out(t, o) = y[o];
  }
};

template <int rows, int cols, contraction::Reversal s, class ExecSpace>
void check_apply_even_odd(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto a = reversal_symmetric<rows, cols>(rng, s);
  ApplyEvenOddKernel<rows, cols, s, ExecSpace> k;
  EXPECT_LE(contraction::make_even_odd(a.data(), k.A, s), 0.0);
  // The other sign does not fit (unless the matrix happens to be zero).
  const auto other = s == contraction::Reversal::symmetric ? contraction::Reversal::antisymmetric : contraction::Reversal::symmetric;
  contraction::EvenOddMatrix<rows, cols, double> unused;
  EXPECT_GT(contraction::make_even_odd(a.data(), unused, other), 0.1);
  for (int m = 0; m < cols; ++m) k.x[m] = u(rng);
  const int threads = 37;
  k.out = decltype(k.out)("out", threads);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(0, threads), k);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.out);
  double worst = 0;
  for (int t = 0; t < threads; ++t)
    for (int o = 0; o < rows; ++o) {
      double ax = 0;
      for (int m = 0; m < cols; ++m) ax += a[o * cols + m] * k.x[m] * (t + 1);
      worst = std::max(worst, std::abs(h(t, o) - ax) / (t + 1));
    }
  EXPECT_LE(worst, 1e-13) << rows << " x " << cols << " s " << int(s);
}

TYPED_TEST(TensorContraction, RectangularAndAntisymmetricEvenOddForms) {
  using contraction::Reversal;
  check_apply_even_odd<9, 8, Reversal::symmetric, TypeParam>(21);       // interpolation, k = 7 to k + 2 points
  check_apply_even_odd<8, 9, Reversal::symmetric, TypeParam>(22);       // its transpose
  check_apply_even_odd<10, 9, Reversal::symmetric, TypeParam>(23);      // k = 8
  check_apply_even_odd<5, 4, Reversal::symmetric, TypeParam>(24);       // k = 3
  check_apply_even_odd<8, 8, Reversal::antisymmetric, TypeParam>(25);   // a derivative, even n
  check_apply_even_odd<9, 9, Reversal::antisymmetric, TypeParam>(26);   // odd n: zero centre
  check_apply_even_odd<3, 5, Reversal::antisymmetric, TypeParam>(27);   // rectangular, odd × odd
}

/// Thread t, for its columns x scaled by (t + 1): out0 = Sᵀ x by for_each_mode (its two loops
/// unrolled `unroll` times), out1 = S x by dot_from_modes and dot_from_modes_middle, for n × n S
/// whose first (n+1)/2 columns are symmetric and the others antisymmetric (the parity-ordered
/// eigenvectors of the vertex-patch fast diagonalization).
template <int n, int C, int unroll, class ExecSpace>
struct ModeSplitKernel {
  contraction::ModeSplit<n, double> S;
  double x[C][n];
  Kokkos::View<double* [2][C][n], typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(int t) const {
    double xs[C][n], xe[C][(n + 1) / 2], xo[C][n / 2];
    for (int c = 0; c < C; ++c)
      for (int m = 0; m < n; ++m) xs[c][m] = (t + 1) * x[c][m];
    contraction::split_even_odd(xs, xe, xo);
    int visits = 0;
    contraction::for_each_mode<unroll, tensormg::DeviceTraits<ExecSpace>>(S, xe, xo, [&](int j, const double(&v)[C]) {
      for (int c = 0; c < C; ++c) out(t, 0, c, j) = v[c];
      ++visits;
    });
    if (visits != n) out(t, 0, 0, 0) = -1e300;  // every mode exactly once
    for (int o = 0; o < n / 2; ++o) {
      double lo[C], hi[C];
      contraction::dot_from_modes(S, o, xs, lo, hi);
      for (int c = 0; c < C; ++c) {
        out(t, 1, c, o) = lo[c];
        out(t, 1, c, n - 1 - o) = hi[c];
      }
    }
    double v[C];
    contraction::dot_from_modes_middle(S, xs, v);
    for (int c = 0; c < C; ++c) out(t, 1, c, n / 2) = v[c];
  }
};

template <int n, int C, int unroll, class ExecSpace>
void check_mode_split(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  constexpr int sym = (n + 1) / 2;
  std::vector<double> s(n * n);  // row-major, column j = vector j
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= n / 2; ++i) {
      const double v = u(rng);
      if (j < sym) {
        s[i * n + j] = s[(n - 1 - i) * n + j] = v;
      } else {
        s[i * n + j] = v;
        s[(n - 1 - i) * n + j] = i == n / 2 ? 0.0 : -v;  // an antisymmetric vector is 0 at the centre
        if (i == n / 2) s[i * n + j] = 0.0;
      }
    }
  ModeSplitKernel<n, C, unroll, ExecSpace> k;
  EXPECT_LE(contraction::make_mode_split(s.data(), k.S), 0.0);
  for (int c = 0; c < C; ++c)
    for (int m = 0; m < n; ++m) k.x[c][m] = u(rng);
  const int threads = 37;
  k.out = decltype(k.out)("out", threads);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(0, threads), k);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.out);
  double worst = 0;
  for (int t = 0; t < threads; ++t)
    for (int c = 0; c < C; ++c)
      for (int o = 0; o < n; ++o) {
        double stx = 0, sx = 0;
        for (int m = 0; m < n; ++m) {
          stx += s[m * n + o] * k.x[c][m] * (t + 1);
          sx += s[o * n + m] * k.x[c][m] * (t + 1);
        }
        worst = std::max({worst, std::abs(h(t, 0, c, o) - stx) / (t + 1), std::abs(h(t, 1, c, o) - sx) / (t + 1)});
      }
  EXPECT_LE(worst, 1e-13) << "n " << n << " C " << C << " unroll " << unroll;
  EXPECT_GT(std::abs(h(threads - 1, 0, C - 1, n - 1)), 0.0);
}

TYPED_TEST(TensorContraction, ModeSplitFormMatchesPlainLoops) {
  check_mode_split<3, 1, 3, TypeParam>(31);    // k = 2, every mode unrolled
  check_mode_split<5, 1, 5, TypeParam>(32);    // 3D k = 3
  check_mode_split<11, 2, 2, TypeParam>(33);   // 3D k = 6: two columns, unrolled by two
  check_mode_split<13, 2, 2, TypeParam>(34);   // 3D k = 7
  check_mode_split<15, 1, 2, TypeParam>(35);   // 3D k = 8
  check_mode_split<19, 1, 1, TypeParam>(36);   // 2D k = 10: not unrolled
}

TEST(EvenOddForm, ReportsMatricesThatAreNotCentroSymmetric) {
  std::mt19937 rng(3);
  auto a = reversal_symmetric<5, 5>(rng);
  contraction::EvenOdd<5, double> form;
  EXPECT_EQ(contraction::make_even_odd(a.data(), form), 0.0);
  a[1 * 5 + 0] += 0.5;  // breaks a[1][0] = a[3][4]
  double scale = 0;
  for (double v : a) scale = std::max(scale, std::abs(v));
  EXPECT_NEAR(contraction::make_even_odd(a.data(), form), 0.5 / scale, 1e-15);
}

}  // namespace
