#pragma once
/// @file
/// One-dimensional ingredients of every tensor-product discretization: Gauss and Gauss–Lobatto
/// points, Lagrange bases on them, and the 1D cell mass and stiffness matrices (paper 000 §2:
/// the d-dimensional cell matrices are Kronecker sums of these).

#include <vector>

namespace tensormg {

/// Points and weights of a quadrature rule on [0, 1].
struct Quadrature1D {
  std::vector<double> points;
  std::vector<double> weights;
};

/// n-point Gauss–Legendre rule on [0, 1]: exact for polynomials of degree 2n−1. n >= 1.
Quadrature1D gauss_quadrature(int n);
/// n-point Gauss–Lobatto rule on [0, 1] (includes both end points): exact for degree 2n−3. n >= 2.
Quadrature1D gauss_lobatto_quadrature(int n);

/// Lagrange polynomials on given distinct nodes in [0, 1].
class LagrangeBasis1D {
 public:
  explicit LagrangeBasis1D(std::vector<double> nodes);
  /// The degree-k basis on the k+1 Gauss–Lobatto points (the support points of Q_k here).
  static LagrangeBasis1D gauss_lobatto(int degree);

  int size() const { return static_cast<int>(nodes_.size()); }
  int degree() const { return size() - 1; }
  const std::vector<double>& nodes() const { return nodes_; }
  double value(int i, double x) const;
  double derivative(int i, double x) const;

 private:
  std::vector<double> nodes_;
  std::vector<double> denominators_;  // prod_{j != i} (x_i - x_j)
};

/// Dense row-major (k+1) x (k+1) matrices of the 1D cell [0, h].
struct CellMatrices1D {
  int n = 0;                    ///< k + 1
  std::vector<double> mass;     ///< M_ij = ∫ φ_i φ_j dx
  std::vector<double> stiffness;///< A_ij = ∫ φ_i' φ_j' dx
  double m(int i, int j) const { return mass[i * n + j]; }
  double a(int i, int j) const { return stiffness[i * n + j]; }
};

/// Mass and stiffness matrices of the Gauss–Lobatto Lagrange basis of the given degree on a cell
/// of length h, computed exactly with (k+1)-point Gauss quadrature.
CellMatrices1D cell_matrices_1d(int degree, double h);

}  // namespace tensormg
