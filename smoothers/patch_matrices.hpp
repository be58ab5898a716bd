#pragma once
/// @file
/// Host set-up of the vertex-patch local problems (paper 000 §2.4): the 1D matrices of a patch of
/// two cells per direction, the generalized eigenproblems A_I s = λ M_I s of their interior blocks
/// (solved once with LAPACK, per direction, so anisotropic cells work), and the dense inverse of
/// A_j for the explicit-inverse variant.

#include <array>
#include <vector>

namespace tensormg {

/// The 1D matrices of one direction of a vertex patch: two cells of length h, 2k+1 nodes.
struct PatchMatrices1D {
  int k = 1;
  int n = 3;                       ///< 2k + 1 patch nodes
  std::vector<double> mass;        ///< n × n, row-major
  std::vector<double> stiffness;   ///< n × n, row-major
  /// Fast diagonalization of the interior block (ni = 2k − 1): columns of `eigenvectors`
  /// (ni × ni, row-major, entry [i * ni + j] = component i of vector j) are M_I-orthonormal, and
  /// A_I S = M_I S diag(eigenvalues); the k symmetric vectors first, then the k − 1
  /// antisymmetric ones (order_by_parity), each set by increasing eigenvalue.
  int ni = 1;
  std::vector<double> interior_mass, interior_stiffness;  ///< the ni × ni interior blocks
  std::vector<double> eigenvectors;
  std::vector<double> eigenvalues;
};

/// One direction of a separable patch operator in the form the Kronecker helpers below take:
/// `size` unknowns, mass and Laplacian blocks (size × size, row-major) and their fast
/// diagonalization (column j of `eigenvectors`, entry [i * size + j], M-orthonormal, with
/// A S = M S diag(eigenvalues)).
struct SeparableBlock1D {
  int size = 0;
  const double* mass = nullptr;
  const double* laplace = nullptr;
  const double* eigenvectors = nullptr;
  const double* eigenvalues = nullptr;
};

/// Solves A S = B S diag(λ) for symmetric A and symmetric positive definite B (n × n, row-major)
/// with LAPACK dsygv; vectors[i * n + j] = component i of vector j. `what` names the problem in
/// the error LAPACK failures throw.
void generalized_eigenproblem(int n, const std::vector<double>& a, const std::vector<double>& b,
                              std::vector<double>& vectors, std::vector<double>& values, const char* what);

/// The dense inverse of a Σ_d (⊗ M_e, A_d in direction d) + b ⊗ M_d on the lexicographic box of
/// the directions' sizes (first direction fastest), from their fast diagonalizations.
std::vector<double> separable_inverse(int dim, const std::array<SeparableBlock1D, 3>& blocks, double laplace, double mass);
/// The same operator assembled densely (for tests).
std::vector<double> separable_matrix(int dim, const std::array<SeparableBlock1D, 3>& blocks, double laplace, double mass);

/// Orders the eigenpairs (vectors: n × n, column j = vector j) of a pencil (A, M) whose matrices
/// are centro-symmetric: the (n+1)/2 symmetric vectors (v[n−1−i] = v[i]) first, then the n/2
/// antisymmetric ones, each set by increasing eigenvalue; each vector projected onto its parity
/// and M-normalized again, so that the kernels' mode-split form (core/even_odd_contraction.hpp)
/// holds exactly. Throws (naming `what`) if a vector has no parity.
void order_by_parity(int n, const std::vector<double>& mass, std::vector<double>& vectors, std::vector<double>& values,
                     const char* what);

/// Assembles the patch matrices of degree k for cell length h and diagonalizes their interior
/// block (LAPACK dsygv). Throws if LAPACK reports a failure.
PatchMatrices1D patch_matrices_1d(int degree, double h);

/// The dense inverse of the patch's interior operator
///   a Σ_d (⊗ M_I except A_I in direction d) + b ⊗ M_I
/// ((2k−1)^dim square, row-major, lexicographic with the first direction fastest), built from
/// the fast diagonalization.
std::vector<double> dense_patch_inverse(int dim, const std::array<PatchMatrices1D, 3>& m, double laplace, double mass);

/// The same interior operator assembled densely (for tests).
std::vector<double> dense_patch_matrix(int dim, const std::array<PatchMatrices1D, 3>& m, double laplace, double mass);

}  // namespace tensormg
