#include "smoothers/dg_patch_matrices.hpp"

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "discretization/sipg_matrices_1d.hpp"

namespace tensormg {

namespace {
constexpr EnumName<DgLocalSolver> dg_local_solver_names[] = {{DgLocalSolver::full, "full"},
                                                             {DgLocalSolver::dirichlet, "dirichlet"}};
}  // namespace

std::string to_string(DgLocalSolver s) { return enum_name(dg_local_solver_names, s); }
DgLocalSolver parse_dg_local_solver(const std::string& text) {
  return parse_enum(dg_local_solver_names, text, "DG local solver");
}

DgPatchMatrices1D dg_patch_matrices_1d(int degree, double h, double gamma, bool lower_boundary, bool upper_boundary,
                                       DgLocalSolver solver) {
  const SipgMatrices1D s = sipg_matrices_1d(degree, h, gamma);
  const int n = degree + 1, all = 2 * n;
  const auto line = sipg_line_matrix(s, 2, lower_boundary, upper_boundary);
  DgPatchMatrices1D p;
  p.k = degree;
  // Dirichlet drops a patch-boundary value only where the patch face is inside the domain: on the
  // brick's boundary the DG values are unknowns (Nitsche), which no other patch would update.
  const bool drop_lower = solver == DgLocalSolver::dirichlet && !lower_boundary;
  const bool drop_upper = solver == DgLocalSolver::dirichlet && !upper_boundary;
  p.first = drop_lower ? 1 : 0;
  p.size = all - int(drop_lower) - int(drop_upper);
  p.mass.assign(std::size_t(p.size) * p.size, 0.0);
  p.laplace.assign(std::size_t(p.size) * p.size, 0.0);
  for (int i = 0; i < p.size; ++i)
    for (int j = 0; j < p.size; ++j) {
      const int gi = i + p.first, gj = j + p.first;
      p.laplace[i * p.size + j] = line[std::size_t(gi) * all + gj];
      if (gi / n == gj / n) p.mass[i * p.size + j] = s.m(gi % n, gj % n);  // block diagonal
    }
  generalized_eigenproblem(p.size, p.laplace, p.mass, p.eigenvectors, p.eigenvalues, "the DG vertex-patch eigenproblem");
  // The residual's line operator: the restriction, plus the couplings to the cells beyond the
  // patch's inner ends with their face data replaced by the patch's own (no jump).
  p.residual_laplace = line;
  for (int i = 0; i < all; ++i) {
    double* row = p.residual_laplace.data() + std::size_t(i) * all;
    const int local = i % n;
    if (!lower_boundary) {  // the left neighbour's u⁻(h), u⁻'(h) := u(0), u'(0) of the first cell
      if (i < n) {
        row[0] += s.left_value[local];
        for (int j = 0; j < n; ++j) row[j] += s.left_derivative[local] * s.d_left[j];
      }
    }
    if (!upper_boundary) {  // the right neighbour's u⁺(0), u⁺'(0) := u(h), u'(h) of the last cell
      if (i >= n) {
        row[all - 1] += s.right_value[local];
        for (int j = 0; j < n; ++j) row[n + j] += s.right_derivative[local] * s.d_right[j];
      }
    }
  }
  return p;
}

}  // namespace tensormg
