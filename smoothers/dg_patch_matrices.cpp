#include "smoothers/dg_patch_matrices.hpp"

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "discretization/sipg_matrices_1d.hpp"

namespace tensormg {

namespace {
constexpr EnumName<DgLocalSolver> dg_local_solver_names[] = {
    {DgLocalSolver::full, "full"}, {DgLocalSolver::dirichlet, "dirichlet"}, {DgLocalSolver::clamped, "clamped"}};

/// An orthonormal basis (row-major rows × (rows − rank), column j the j-th vector) of the null
/// space of the constraint rows c (each of length `rows`): the eigenvectors of cᵀc of eigenvalue 0.
std::vector<double> null_space(int rows, const std::vector<std::vector<double>>& c) {
  std::vector<double> ctc(std::size_t(rows) * rows, 0.0), identity(std::size_t(rows) * rows, 0.0);
  for (int i = 0; i < rows; ++i) identity[std::size_t(i) * rows + i] = 1;
  for (const auto& row : c)
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < rows; ++j) ctc[std::size_t(i) * rows + j] += row[i] * row[j];
  std::vector<double> vectors, values;
  generalized_eigenproblem(rows, ctc, identity, vectors, values, "the clamped patch space");
  const int size = rows - int(c.size());  // the constraints are independent (values and derivatives at two ends)
  std::vector<double> z(std::size_t(rows) * size);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < size; ++j) z[std::size_t(i) * size + j] = vectors[std::size_t(i) * rows + j];  // ascending λ
  return z;
}
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
  // Per direction a cell gets from its two patches the polynomials with a double root at one end
  // and those with one at the other: 2(k − 1) functions, which span its k + 1 only from k = 3 on
  // (k = 1: none; k = 2: 2 of 3, and multigrid does not converge, measured).
  TENSORMG_CHECK(solver != DgLocalSolver::clamped || degree >= 3,
                 "the clamped DG local solver needs degree >= 3 (below, the clamped patch spaces do not cover a cell's "
                 "polynomials); use full or dirichlet");
  DgPatchMatrices1D p;
  p.k = degree;
  // The local space per direction. A patch end on the brick's boundary constrains nothing: the DG
  // values there are unknowns (Nitsche), which no other patch would update.
  if (solver == DgLocalSolver::clamped) {
    std::vector<std::vector<double>> c;
    if (!lower_boundary) {  // u(0) = u_0 = 0 and u'(0) = Σ_j φ_j'(0) u_j = 0 in the first cell
      c.emplace_back(all, 0.0);
      c.back()[0] = 1;
      c.emplace_back(all, 0.0);
      for (int j = 0; j < n; ++j) c.back()[j] = s.d_left[j] * h;  // scaled to O(1), as the value row
    }
    if (!upper_boundary) {  // u(h) and u'(h) of the last cell
      c.emplace_back(all, 0.0);
      c.back()[all - 1] = 1;
      c.emplace_back(all, 0.0);
      for (int j = 0; j < n; ++j) c.back()[n + j] = s.d_right[j] * h;
    }
    p.basis = null_space(all, c);
    p.size = all - int(c.size());
  } else {
    const bool drop_lower = solver == DgLocalSolver::dirichlet && !lower_boundary;
    const bool drop_upper = solver == DgLocalSolver::dirichlet && !upper_boundary;
    p.size = all - int(drop_lower) - int(drop_upper);
    p.basis.assign(std::size_t(all) * p.size, 0.0);
    for (int j = 0; j < p.size; ++j) p.basis[std::size_t(j + int(drop_lower)) * p.size + j] = 1;
  }
  // Zᵀ L Z and Zᵀ M Z (M block diagonal over the two cells).
  std::vector<double> mass(std::size_t(all) * all, 0.0);
  for (int i = 0; i < all; ++i)
    for (int j = 0; j < all; ++j)
      if (i / n == j / n) mass[std::size_t(i) * all + j] = s.m(i % n, j % n);
  const auto project = [&](const std::vector<double>& a) {
    std::vector<double> az(std::size_t(all) * p.size, 0.0), out(std::size_t(p.size) * p.size, 0.0);
    for (int i = 0; i < all; ++i)
      for (int l = 0; l < all; ++l)
        for (int j = 0; j < p.size; ++j) az[std::size_t(i) * p.size + j] += a[std::size_t(i) * all + l] * p.basis[std::size_t(l) * p.size + j];
    for (int i = 0; i < p.size; ++i)
      for (int l = 0; l < all; ++l)
        for (int j = 0; j < p.size; ++j) out[std::size_t(i) * p.size + j] += p.basis[std::size_t(l) * p.size + i] * az[std::size_t(l) * p.size + j];
    return out;
  };
  p.laplace = project(line);
  p.mass = project(mass);
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

std::vector<double> DgPatchMatrices1D::padded_patch_eigenvectors() const {
  const int all = 2 * (k + 1);
  std::vector<double> out(std::size_t(all) * all, 0.0);
  for (int i = 0; i < all; ++i)
    for (int l = 0; l < size; ++l)
      for (int j = 0; j < size; ++j) out[std::size_t(i) * all + j] += basis[std::size_t(i) * size + l] * eigenvectors[std::size_t(l) * size + j];
  return out;
}

std::vector<double> DgPatchMatrices1D::padded_eigenvalues() const {
  std::vector<double> out(2 * (k + 1), 1.0);
  for (int j = 0; j < size; ++j) out[j] = eigenvalues[j];
  return out;
}

}  // namespace tensormg
