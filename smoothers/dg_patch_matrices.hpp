#pragma once
/// @file
/// Host set-up of the local problems of the DG vertex-patch smoother (paper 002 §3.1): per
/// direction the 1D SIPG operator of the patch's two cells (sipg_matrices_1d.hpp) restricted to the
/// local solver's unknowns, and its fast diagonalization (generalized eigenproblem L S = M S Λ,
/// LAPACK, once per level and direction, so anisotropic cells work). The d-dimensional patch
/// operator is the Kronecker sum of these, inverted by separable_inverse (patch_matrices.hpp).
///
/// Local solvers (the patch space V_P per direction; the d-dimensional space is their tensor
/// product):
///   - `full`: all 2(k+1) values of the two cells (the patch matrix is the global matrix restricted
///     to the patch);
///   - `dirichlet`: without the values on the patch boundary inside the domain (the first node of
///     the lower cell, the last of the upper one), 2k per direction;
///   - `clamped`: the functions whose value and derivative vanish at the patch ends inside the
///     domain (paper 002 Fig. 3 right, a Hermite-type restriction), 2k − 2 per direction: every
///     face term on the patch boundary vanishes for them, so the residual from the patch cells
///     alone is exact. Needs k >= 3: a cell gets 2(k − 1) functions per direction from its two
///     patches, which span its k + 1 polynomials only from k = 3 on.
/// A patch end on the brick's boundary constrains nothing (DG values there are unknowns, Dirichlet
/// data enter weakly, and no other patch contains them). Each local space has an orthonormal
/// basis Z (2(k+1) × size) in the patch's values; the local operator is Zᵀ A_P Z.

#include <array>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "smoothers/patch_matrices.hpp"

namespace tensormg {

enum class DgLocalSolver {
  full,       ///< all values of the patch cells
  dirichlet,  ///< without the values on the patch boundary inside the domain
  clamped     ///< functions with zero value and derivative on the patch boundary inside the domain
};
std::string to_string(DgLocalSolver s);
/// Parses "full", "dirichlet" or "clamped"; throws InputError naming them.
DgLocalSolver parse_dg_local_solver(const std::string& text);

/// One direction of a DG vertex patch.
struct DgPatchMatrices1D {
  int k = 1;
  /// Unknowns per direction: 2(k+1) (full), 2k (dirichlet), 2k − 2 (clamped); one (dirichlet) or
  /// two (clamped) more per patch end on the brick's boundary.
  int size = 4;
  /// The local space's basis in the patch's 2(k+1) values: row-major 2(k+1) × size, orthonormal
  /// columns (unit vectors for full and dirichlet).
  std::vector<double> basis;
  /// Zᵀ M Z, Zᵀ L Z (size × size) and their generalized eigenvectors (row-major, column j the
  /// j-th) and eigenvalues.
  std::vector<double> mass, laplace, eigenvectors, eigenvalues;
  /// The 1D line operator of the two cells (2n × 2n) with which the local residual of the patch
  /// is computed from the patch cells' values alone (the dirichlet solver's residual). At a patch
  /// end inside the domain the cell beyond is taken to continue the patch function without a jump
  /// (its face value and derivative := the patch's own), so the residual rows of the local
  /// unknowns miss only −∫[u]{∂ₙv} on the patch boundary: exact for functions without jumps there
  /// (paper 002 §3.1's inconsistency, which vanishes as the iterate converges). Leaving the
  /// neighbour out instead (zero data) would miss −½∫u ∂ₙv, wrong even for smooth u (measured:
  /// iteration counts doubling with every level).
  std::vector<double> residual_laplace;
  SeparableBlock1D block() const {
    return {size, mass.data(), laplace.data(), eigenvectors.data(), eigenvalues.data()};
  }
  /// The eigenvectors in the patch's values, Z · eigenvectors, padded to 2(k+1) × 2(k+1) with zero
  /// columns (row-major), and the eigenvalues padded with 1: the fast diagonalization the device
  /// kernel applies to all 2(k+1) values of a direction.
  std::vector<double> padded_patch_eigenvectors() const;
  std::vector<double> padded_eigenvalues() const;
};

/// The patch matrices of degree k, cell length h and penalty factor γ; lower_boundary /
/// upper_boundary: the patch's outer faces in this direction lie on the brick's boundary (Nitsche
/// terms) rather than next to further cells (whose couplings the restriction leaves out). Throws
/// InputError for the clamped solver at k < 3.
DgPatchMatrices1D dg_patch_matrices_1d(int degree, double h, double gamma, bool lower_boundary, bool upper_boundary,
                                       DgLocalSolver solver);

/// The dense inverse of the local operator in the patch's P = (2(k+1))^d values, lexicographic with
/// x fastest (P × P, row-major): Z (Zᵀ A_P Z)^{-1} Zᵀ with Z = ⊗_d Z_d, zero outside the local
/// space; built from the directions' fast diagonalizations, one column at a time (d·P·(2(k+1))^{d+1}
/// multiply-adds).
std::vector<double> dg_patch_dense_inverse(int dim, const std::array<const DgPatchMatrices1D*, 3>& m, double laplace,
                                           double mass);

/// The boundary positions of the patches along a direction of `cells` cells (patches at the global
/// vertices 1..cells − 1; position 1: the lower end, 2: the upper end, 3: both, 0: neither).
std::vector<int> dg_patch_positions(global_index cells);
/// Values the dense-inverse local solve stores for a mesh of `global_cells` (one (2(k+1))^{2d}
/// block per combination of the directions' positions).
std::size_t dg_dense_inverse_entries(int dim, int k, const std::array<global_index, 3>& global_cells);

}  // namespace tensormg
