#pragma once
/// @file
/// The one-dimensional ingredients of the symmetric interior penalty (SIPG) Laplacian on a line of
/// cells of length h with the Gauss–Lobatto Lagrange basis of degree k (paper 002 §2.1). On a
/// Cartesian mesh the d-dimensional SIPG matrix is the Kronecker sum
///   A = L_x ⊗ M_y ⊗ M_z + M_x ⊗ L_y ⊗ M_z + M_x ⊗ M_y ⊗ L_z   (3D; 2D drops z)
/// of the 1D line operators L_d (cell stiffness + face terms, block tridiagonal over the cells of
/// the line) and the block-diagonal 1D masses M_d, because a face's tangential integrals are the
/// 1D masses of the other directions.
///
/// Face terms of the 1D form, for the jump [u] = u⁻ − u⁺ (⁻ the left cell) and the average {u'}:
///   interior face:  −{u'}[v] − [u]{v'} + σ [u][v],         σ   = γ k (k+1) / h
///   boundary face:  −∂ₙu v − u ∂ₙv + σ_b u v (Nitsche),     σ_b = 2 σ
/// With the Gauss–Lobatto basis a cell's only node on a face is its end node, so the coupling of a
/// cell with its neighbour is a rank-2 matrix that needs, per line, the neighbour's value at the
/// face and its derivative there (the "face data" the matrix-free kernels read).

#include <vector>

namespace tensormg {

/// Row-major n × n blocks (n = k + 1) and face vectors of one direction; all derivatives are
/// physical (scaled by 1/h).
struct SipgMatrices1D {
  int n = 0;
  double h = 1;
  double sigma = 0;           ///< interior penalty σ
  double sigma_boundary = 0;  ///< Nitsche penalty σ_b on the domain boundary
  std::vector<double> mass;   ///< M_ij = ∫ φ_i φ_j
  std::vector<double> stiffness;  ///< K_ij = ∫ φ_i' φ_j' (the cell integral)
  /// A cell's own terms of its left and right face, [0] interior, [1] on the brick's boundary
  /// (Nitsche): cell[position] = stiffness + left_face[position & 1] + right_face[position >> 1].
  std::vector<double> left_face[2], right_face[2];
  /// The cell block of L for the four positions of a cell in its line, index = (left face on the
  /// boundary) + 2 (right face on the boundary): stiffness + the cell's own face terms.
  std::vector<double> cell[4];
  std::vector<double> d_left, d_right;  ///< φ_j'(0), φ_j'(h): the derivatives on the two faces
  /// The coupling to the right neighbour: (L_{K,K+1} u⁺)_i = right_value_i u⁺(0) + right_derivative_i u⁺'(0);
  /// to the left one: (L_{K,K−1} u⁻)_i = left_value_i u⁻(h) + left_derivative_i u⁻'(h).
  std::vector<double> right_value, right_derivative, left_value, left_derivative;
  /// Nitsche data on a boundary face: ∫_F g (σ_b v − ∂ₙv) = boundary_data_i g for v = φ_i, face
  /// 0 = left (x = 0), 1 = right (x = h).
  std::vector<double> boundary_data[2];

  double m(int i, int j) const { return mass[i * n + j]; }
  double l(int position, int i, int j) const { return cell[position][i * n + j]; }
};

/// The penalty of the SIPG form: σ = γ k (k+1) / h. γ = 1 is the default; the operator is then
/// symmetric positive definite (tested).
double sipg_penalty(int degree, double h, double gamma);

/// The 1D SIPG data of degree k (1..10) on cells of length h, penalty factor γ > 0; exact
/// integration ((k+1)-point Gauss).
SipgMatrices1D sipg_matrices_1d(int degree, double h, double gamma);

/// The two-cell line operator and mass of a vertex patch in the patch-wise evaluation of the
/// operator (paper 001 §2.1, Fig. 1): 2n × 2n, row-major. A cell's stiffness and mass are halved
/// between the two patches that hold it along this direction, whole for the first (last) cell of
/// the line, which only the patch at vertex 1 (cells − 1) holds (`lower_boundary`, `upper_boundary`);
/// the patch takes the cells' terms of the face between them, the couplings across it, and the
/// terms of faces on the brick's boundary. The Kronecker sums of these over all patches of the
/// mesh add up to the global operator.
void sipg_patch_split(const SipgMatrices1D& m, bool lower_boundary, bool upper_boundary, std::vector<double>& laplace,
                      std::vector<double>& mass);

/// The assembled 1D line operator over `cells` cells (cell-wise numbering, dense row-major
/// (cells·n)²), the line's first / last face on the brick's boundary (Nitsche) or interior (then
/// the couplings to the cells beyond are left out: the restriction of a longer line, as a
/// vertex patch takes it).
std::vector<double> sipg_line_matrix(const SipgMatrices1D& m, int cells, bool lower_boundary = true,
                                     bool upper_boundary = true);

}  // namespace tensormg
