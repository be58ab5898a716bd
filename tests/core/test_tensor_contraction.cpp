// core/tensor_contraction.hpp: the register-level 1D contraction against a plain loop, for the
// shapes the kernels use (rows < cols and rows > cols, C = 1..3 columns per thread, one and two
// sums, transposed entries, both forms of madd_pair), inside kernels on every execution space.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cmath>
#include <random>
#include <vector>

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

/// Thread t computes, for its copy of the inputs scaled by (t + 1):
///   out0 = A x (one sum), out1 = A x + B y (madd_pair, chained / not), out2 = Bᵀ-like entries
///   (entry(o, m) = B[o][m] through the single-matrix form), out3 = two sums at once.
template <int rows, int cols, int C, bool chained, class ExecSpace>
struct ContractKernel {
  Shape<rows, cols, C> s;
  Kokkos::View<double* [4][C][rows], typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(int t) const {
    double x[C][cols], y[C][cols];
    for (int c = 0; c < C; ++c)
      for (int m = 0; m < cols; ++m) {
        x[c][m] = (t + 1) * s.x[c][m];
        y[c][m] = (t + 1) * s.y[c][m];
      }
    contraction::contract<rows, cols, C, 2>([&](int o, int m) { return s.A[o][m]; }, x,
                                            [&](int o, const double(&v)[C]) {
                                              for (int c = 0; c < C; ++c) out(t, 0, c, o) = v[c];
                                            });
    contraction::contract<rows, cols, C, 1, 1, double>(
        [&](int o, int m, double(&sum)[1][C]) { contraction::madd_pair<chained>(sum[0], s.A[o][m], x, s.B[o][m], y, m); },
        [&](int o, double(&sum)[1][C]) {
          for (int c = 0; c < C; ++c) out(t, 1, c, o) = sum[0][c];
        });
    contraction::contract<rows, cols, C, rows>([&](int o, int m) { return s.B[o][m]; }, y,
                                               [&](int o, const double(&v)[C]) {
                                                 for (int c = 0; c < C; ++c) out(t, 2, c, o) = v[c];
                                               });
    contraction::contract<rows, cols, C, 2, 1, double>(
        [&](int o, int m, double(&sum)[2][C]) {
          contraction::madd(sum[0], s.B[o][m], x, m);
          contraction::madd(sum[1], s.A[o][m], y, m);
        },
        [&](int o, double(&sum)[2][C]) {
          for (int c = 0; c < C; ++c) out(t, 3, c, o) = sum[0][c] - 2 * sum[1][c];
        });
  }
};

template <int rows, int cols, int C, bool chained, class ExecSpace>
void check_shape(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  ContractKernel<rows, cols, C, chained, ExecSpace> k;
  for (int o = 0; o < rows; ++o)
    for (int m = 0; m < cols; ++m) {
      k.s.A[o][m] = u(rng);
      k.s.B[o][m] = u(rng);
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
        const double expect[4] = {ax, ax + by, by, bx - 2 * ay};
        for (int f = 0; f < 4; ++f) worst = std::max(worst, std::abs(h(t, f, c, o) - expect[f]) / (t + 1));
      }
  EXPECT_LE(worst, 1e-13) << "rows " << rows << " cols " << cols << " C " << C << " chained " << chained;
  EXPECT_GT(std::abs(h(threads - 1, 0, C - 1, rows - 1)), 0.0);
}

TYPED_TEST(TensorContraction, MatchesPlainLoops) {
  check_shape<3, 5, 1, false, TypeParam>(1);   // interior rows of a closure matrix (k = 2)
  check_shape<13, 15, 2, true, TypeParam>(2);  // 3D k = 7, two columns per thread
  check_shape<11, 13, 3, true, TypeParam>(3);  // the x step's three columns
  check_shape<9, 5, 1, false, TypeParam>(4);   // prolongation: more rows than columns
  check_shape<5, 9, 1, true, TypeParam>(5);    // restriction
}

}  // namespace
