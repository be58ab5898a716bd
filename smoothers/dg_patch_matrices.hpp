#pragma once
/// @file
/// Host set-up of the local problems of the DG vertex-patch smoother (paper 002 §3.1): per
/// direction the 1D SIPG operator of the patch's two cells (sipg_matrices_1d.hpp) restricted to the
/// local solver's unknowns, and its fast diagonalization (generalized eigenproblem L S = M S Λ,
/// LAPACK, once per level and direction, so anisotropic cells work). The d-dimensional patch
/// operator is the Kronecker sum of these, inverted by separable_inverse (patch_matrices.hpp).
///
/// Local solvers: `full` keeps all 2(k+1) values of the two cells per direction (the patch
/// matrix is the global matrix restricted to the patch); `dirichlet` drops the values on the
/// patch boundary inside the domain (the first node of the lower cell, the last of the upper one),
/// 2k per direction; a patch face on the brick's boundary keeps its values (DG values there are
/// unknowns, Dirichlet data enter weakly, and no other patch contains them).

#include <array>
#include <string>
#include <vector>

#include "smoothers/patch_matrices.hpp"

namespace tensormg {

enum class DgLocalSolver {
  full,      ///< all values of the patch cells
  dirichlet  ///< without the values on the patch boundary inside the domain
};
std::string to_string(DgLocalSolver s);
/// Parses "full" or "dirichlet"; throws InputError naming them.
DgLocalSolver parse_dg_local_solver(const std::string& text);

/// One direction of a DG vertex patch.
struct DgPatchMatrices1D {
  int k = 1;
  int size = 4;  ///< unknowns per direction: 2(k+1) (full), 2k (dirichlet; +1 per face on the boundary)
  int first = 0; ///< patch-local index (of the 2(k+1)) of the first unknown: 1 (dirichlet, lower face inside), else 0
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
};

/// The patch matrices of degree k, cell length h and penalty factor γ; lower_boundary /
/// upper_boundary: the patch's outer faces in this direction lie on the brick's boundary (Nitsche
/// terms) rather than next to further cells (whose couplings the restriction leaves out).
DgPatchMatrices1D dg_patch_matrices_1d(int degree, double h, double gamma, bool lower_boundary, bool upper_boundary,
                                       DgLocalSolver solver);

}  // namespace tensormg
