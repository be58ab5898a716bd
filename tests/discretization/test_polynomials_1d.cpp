// 1D bases, quadrature and cell matrices against closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "discretization/polynomials_1d.hpp"

namespace {

using namespace tensormg;

TEST(Quadrature1D, GaussIsExactToDegree2nMinus1) {
  for (int n = 1; n <= 12; ++n) {
    const auto q = gauss_quadrature(n);
    for (int p = 0; p <= 2 * n - 1; ++p) {
      double s = 0;
      for (int i = 0; i < n; ++i) s += q.weights[i] * std::pow(q.points[i], p);
      EXPECT_NEAR(s, 1.0 / (p + 1), 1e-14) << "n=" << n << " p=" << p;
    }
    // and not beyond: the rule integrates the degree-2n polynomial prod_j (x - x_j)^2 to zero
    // (it vanishes at every point), while its integral is positive.
    double exact = 0;
    const auto fine = gauss_quadrature(n + 1);
    for (int i = 0; i <= n; ++i) {
      double p = 1;
      for (int j = 0; j < n; ++j) p *= (fine.points[i] - q.points[j]) * (fine.points[i] - q.points[j]);
      exact += fine.weights[i] * p;
    }
    EXPECT_GT(exact, 0.0) << "n=" << n;
  }
}

TEST(Quadrature1D, GaussLobattoIsExactToDegree2nMinus3AndHasEndPoints) {
  for (int n = 2; n <= 12; ++n) {
    const auto q = gauss_lobatto_quadrature(n);
    EXPECT_EQ(q.points.front(), 0.0);
    EXPECT_EQ(q.points.back(), 1.0);
    for (int i = 1; i < n; ++i) EXPECT_GT(q.points[i], q.points[i - 1]);
    for (int p = 0; p <= 2 * n - 3; ++p) {
      double s = 0;
      for (int i = 0; i < n; ++i) s += q.weights[i] * std::pow(q.points[i], p);
      EXPECT_NEAR(s, 1.0 / (p + 1), 1e-14) << "n=" << n << " p=" << p;
    }
  }
  // Q2 and Q3 closed forms: 1/2 and 1/2 ± sqrt(5)/10
  EXPECT_NEAR(gauss_lobatto_quadrature(3).points[1], 0.5, 1e-15);
  EXPECT_NEAR(gauss_lobatto_quadrature(4).points[1], 0.5 - std::sqrt(5.0) / 10, 1e-15);
}

TEST(LagrangeBasis1D, IsNodalAndDerivativesMatchFiniteDifferences) {
  for (int k = 1; k <= 10; ++k) {
    const auto b = LagrangeBasis1D::gauss_lobatto(k);
    for (int i = 0; i <= k; ++i) {
      for (int j = 0; j <= k; ++j) EXPECT_NEAR(b.value(i, b.nodes()[j]), i == j ? 1.0 : 0.0, 1e-13);
      const double x = 0.3137, e = 1e-6;
      EXPECT_NEAR(b.derivative(i, x), (b.value(i, x + e) - b.value(i, x - e)) / (2 * e), 1e-5 * (1 + k * k));
    }
  }
}

TEST(CellMatrices1D, Q1AndQ2ClosedForms) {
  const double h = 0.37;
  const auto q1 = cell_matrices_1d(1, h);
  EXPECT_NEAR(q1.m(0, 0), h / 3, 1e-15);
  EXPECT_NEAR(q1.m(0, 1), h / 6, 1e-15);
  EXPECT_NEAR(q1.a(0, 0), 1 / h, 1e-13);
  EXPECT_NEAR(q1.a(0, 1), -1 / h, 1e-13);
  const auto q2 = cell_matrices_1d(2, h);
  const double m2[3][3] = {{4, 2, -1}, {2, 16, 2}, {-1, 2, 4}};
  const double a2[3][3] = {{7, -8, 1}, {-8, 16, -8}, {1, -8, 7}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(q2.m(i, j), h / 30 * m2[i][j], 1e-15);
      EXPECT_NEAR(q2.a(i, j), a2[i][j] / (3 * h), 1e-13);
    }
}

TEST(CellMatrices1D, ConstantsAndLinearsAreHandledExactlyForAllDegrees) {
  for (int k = 1; k <= 10; ++k) {
    const double h = 0.25;
    const auto m = cell_matrices_1d(k, h);
    const auto b = LagrangeBasis1D::gauss_lobatto(k);
    double total = 0;
    for (int i = 0; i <= k; ++i) {
      double row_a = 0, row_ax = 0;
      for (int j = 0; j <= k; ++j) {
        total += m.m(i, j);
        row_a += m.a(i, j);                     // A·1 = 0
        row_ax += m.a(i, j) * b.nodes()[j] * h;  // A·x = boundary flux: -1 at 0, +1 at h
        EXPECT_NEAR(m.m(i, j), m.m(j, i), 1e-15);
        EXPECT_NEAR(m.a(i, j), m.a(j, i), 1e-12);
      }
      EXPECT_NEAR(row_a, 0.0, 1e-11) << "k=" << k;
      EXPECT_NEAR(row_ax, i == 0 ? -1.0 : (i == k ? 1.0 : 0.0), 1e-11) << "k=" << k;
    }
    EXPECT_NEAR(total, h, 1e-14);
  }
}

TEST(Polynomials1D, RejectsInvalidInput) {
  EXPECT_THROW(gauss_quadrature(0), InputError);
  EXPECT_THROW(gauss_lobatto_quadrature(1), InputError);
  EXPECT_THROW(LagrangeBasis1D::gauss_lobatto(0), InputError);
  EXPECT_THROW(cell_matrices_1d(2, 0.0), InputError);
}

}  // namespace
