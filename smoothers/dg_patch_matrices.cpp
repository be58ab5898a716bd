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
  p.first = solver == DgLocalSolver::dirichlet ? 1 : 0;
  p.size = solver == DgLocalSolver::dirichlet ? all - 2 : all;
  p.mass.assign(std::size_t(p.size) * p.size, 0.0);
  p.laplace.assign(std::size_t(p.size) * p.size, 0.0);
  for (int i = 0; i < p.size; ++i)
    for (int j = 0; j < p.size; ++j) {
      const int gi = i + p.first, gj = j + p.first;
      p.laplace[i * p.size + j] = line[std::size_t(gi) * all + gj];
      if (gi / n == gj / n) p.mass[i * p.size + j] = s.m(gi % n, gj % n);  // block diagonal
    }
  generalized_eigenproblem(p.size, p.laplace, p.mass, p.eigenvectors, p.eigenvalues, "the DG vertex-patch eigenproblem");
  return p;
}

}  // namespace tensormg
