#include "smoothers/dg_patch_matrices.hpp"

#include <cmath>

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

std::vector<double> dg_patch_dense_inverse(int dim, const std::array<const DgPatchMatrices1D*, 3>& m, double laplace,
                                           double mass) {
  const int N = 2 * (m[0]->k + 1), P = dim == 2 ? N * N : N * N * N;
  TENSORMG_CHECK(N <= 32, "the dense inverse of a DG patch is built for at most 32 values per direction, not " << N);
  std::array<std::vector<double>, 3> S, lambda;
  for (int d = 0; d < dim; ++d) {
    S[d] = m[d]->padded_patch_eigenvectors();
    lambda[d] = m[d]->padded_eigenvalues();
  }
  std::vector<double> inverse(std::size_t(P) * P), w(P);
  // Column j = Z A^{-1} Zᵀ e_j = (⊗S) diag(1 / (a Σλ + b)) (⊗S)ᵀ e_j, the last product by lines.
  for (int j = 0; j < P; ++j) {
    const int jc[3] = {j % N, (j / N) % N, j / (N * N)};
    for (int q = 0; q < P; ++q) {
      const int qc[3] = {q % N, (q / N) % N, q / (N * N)};
      double v = 1, sum = 0;
      for (int d = 0; d < dim; ++d) {
        v *= S[d][std::size_t(jc[d]) * N + qc[d]];
        sum += lambda[d][qc[d]];
      }
      w[q] = v / (laplace * sum + mass);
    }
    for (int d = 0, stride = 1; d < dim; ++d, stride *= N)  // w ← S_d w along direction d
      for (int q = 0; q < P; ++q) {
        if ((q / stride) % N != 0) continue;  // q: the first value of a line along d
        double line[32];
        for (int a = 0; a < N; ++a) line[a] = w[q + a * stride];
        for (int a = 0; a < N; ++a) {
          double s = 0;
          for (int b = 0; b < N; ++b) s += S[d][std::size_t(a) * N + b] * line[b];
          w[q + a * stride] = s;
        }
      }
    for (int i = 0; i < P; ++i) inverse[std::size_t(i) * P + j] = w[i];
  }
  return inverse;
}

std::size_t dg_dense_inverse_entries(int dim, int k, const std::array<global_index, 3>& global_cells) {
  const std::size_t P = std::size_t(std::pow(2 * (k + 1), dim) + 0.5);
  std::size_t combos = 1;
  for (int d = 0; d < dim; ++d) combos *= dg_patch_positions(global_cells[d]).size();
  return combos * P * P;
}

std::vector<int> dg_patch_positions(global_index cells) {
  // Patches sit at global vertices 1..cells − 1; position: 1 at the lower end, 2 at the upper.
  std::vector<int> out;
  if (cells < 2) return out;
  const auto position = [&](global_index v) { return (v == 1 ? 1 : 0) + (v + 1 == cells ? 2 : 0); };
  if (cells >= 4) out.push_back(0);
  out.push_back(position(1));
  if (cells >= 3) out.push_back(position(cells - 1));
  return out;
}

}  // namespace tensormg
