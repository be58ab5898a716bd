#include "discretization/polynomials_1d.hpp"

#include <cmath>

#include "core/error.hpp"

namespace tensormg {

namespace {

constexpr double pi = 3.14159265358979323846;

/// Legendre P_n(x) and P_n'(x) on [-1, 1] by the three-term recurrence.
void legendre(int n, double x, double& p, double& dp) {
  double p0 = 1, p1 = x;
  if (n == 0) {
    p = 1;
    dp = 0;
    return;
  }
  for (int k = 2; k <= n; ++k) {
    const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  p = p1;
  dp = n * (x * p1 - p0) / (x * x - 1);
}

}  // namespace

Quadrature1D gauss_quadrature(int n) {
  TENSORMG_CHECK(n >= 1, "Gauss quadrature needs at least one point (given " << n << ")");
  Quadrature1D q;
  q.points.resize(n);
  q.weights.resize(n);
  for (int i = 0; i < n; ++i) {
    // Newton on P_n from the Chebyshev-like initial guess; roots come out in descending order.
    double x = std::cos(pi * (i + 0.75) / (n + 0.5));
    double p = 0, dp = 0;
    for (int it = 0; it < 100; ++it) {
      legendre(n, x, p, dp);
      const double dx = p / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    legendre(n, x, p, dp);
    q.points[n - 1 - i] = 0.5 * (1 + x);
    q.weights[n - 1 - i] = 1.0 / ((1 - x * x) * dp * dp);  // 2/((1-x²)P'²) scaled by 1/2
  }
  return q;
}

Quadrature1D gauss_lobatto_quadrature(int n) {
  TENSORMG_CHECK(n >= 2, "Gauss-Lobatto quadrature needs at least two points (given " << n << ")");
  const int k = n - 1;
  Quadrature1D q;
  q.points.resize(n);
  q.weights.resize(n);
  // Interior points: roots of P_k'(x), by Newton on P_k' with (1-x²)P_k'' = 2xP_k' - k(k+1)P_k.
  for (int i = 1; i < k; ++i) {
    double x = -std::cos(pi * i / k);
    for (int it = 0; it < 100; ++it) {
      double p = 0, dp = 0;
      legendre(k, x, p, dp);
      const double d2p = (2 * x * dp - k * (k + 1) * p) / (1 - x * x);
      const double dx = dp / d2p;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    q.points[i] = 0.5 * (1 + x);
  }
  q.points[0] = 0;
  q.points[k] = 1;
  for (int i = 0; i <= k; ++i) {
    const double x = 2 * q.points[i] - 1;
    double p = 0, dp = 0;
    if (i == 0 || i == k) {
      p = (i == 0 && k % 2 == 1) ? -1.0 : 1.0;  // P_k(±1) = (±1)^k
    } else {
      legendre(k, x, p, dp);
    }
    q.weights[i] = 1.0 / (k * (k + 1) * p * p);  // 2/(k(k+1)P_k²) scaled by 1/2
  }
  return q;
}

LagrangeBasis1D::LagrangeBasis1D(std::vector<double> nodes) : nodes_(std::move(nodes)) {
  TENSORMG_CHECK(!nodes_.empty(), "a Lagrange basis needs at least one node");
  denominators_.resize(nodes_.size());
  for (int i = 0; i < size(); ++i) {
    double d = 1;
    for (int j = 0; j < size(); ++j)
      if (j != i) d *= nodes_[i] - nodes_[j];
    TENSORMG_CHECK(d != 0, "Lagrange nodes must be distinct");
    denominators_[i] = d;
  }
}

LagrangeBasis1D LagrangeBasis1D::gauss_lobatto(int degree) {
  TENSORMG_CHECK(degree >= 1, "polynomial degree must be at least 1 (given " << degree << ")");
  return LagrangeBasis1D(gauss_lobatto_quadrature(degree + 1).points);
}

double LagrangeBasis1D::value(int i, double x) const {
  double v = 1;
  for (int j = 0; j < size(); ++j)
    if (j != i) v *= x - nodes_[j];
  return v / denominators_[i];
}

double LagrangeBasis1D::derivative(int i, double x) const {
  double sum = 0;
  for (int m = 0; m < size(); ++m) {
    if (m == i) continue;
    double prod = 1;
    for (int j = 0; j < size(); ++j)
      if (j != i && j != m) prod *= x - nodes_[j];
    sum += prod;
  }
  return sum / denominators_[i];
}

CellMatrices1D cell_matrices_1d(int degree, double h) {
  TENSORMG_CHECK(h > 0, "cell length must be positive (given " << h << ")");
  const auto basis = LagrangeBasis1D::gauss_lobatto(degree);
  const auto quad = gauss_quadrature(degree + 1);
  const int n = degree + 1;
  CellMatrices1D m;
  m.n = n;
  m.mass.assign(n * n, 0.0);
  m.stiffness.assign(n * n, 0.0);
  for (std::size_t q = 0; q < quad.points.size(); ++q) {
    const double x = quad.points[q], w = quad.weights[q];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        m.mass[i * n + j] += h * w * basis.value(i, x) * basis.value(j, x);
        m.stiffness[i * n + j] += w / h * basis.derivative(i, x) * basis.derivative(j, x);
      }
  }
  return m;
}

}  // namespace tensormg
