#include "discretization/sipg_matrices_1d.hpp"

#include "core/error.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

double sipg_penalty(int degree, double h, double gamma) { return gamma * degree * (degree + 1) / h; }

SipgMatrices1D sipg_matrices_1d(int degree, double h, double gamma) {
  TENSORMG_CHECK(degree >= 1 && degree <= 10, "SIPG degree " << degree << " is not supported; use 1..10");
  TENSORMG_CHECK(h > 0 && gamma > 0, "SIPG needs h > 0 and a penalty factor > 0 (got h = " << h << ", gamma = " << gamma << ")");
  const int n = degree + 1, k = degree;
  const auto cm = cell_matrices_1d(degree, h);
  const auto basis = LagrangeBasis1D::gauss_lobatto(degree);
  SipgMatrices1D s;
  s.n = n;
  s.h = h;
  s.sigma = sipg_penalty(degree, h, gamma);
  s.sigma_boundary = 2 * s.sigma;
  s.mass = cm.mass;
  s.stiffness = cm.stiffness;
  s.d_left.resize(n);
  s.d_right.resize(n);
  for (int j = 0; j < n; ++j) {
    s.d_left[j] = basis.derivative(j, 0.0) / h;
    s.d_right[j] = basis.derivative(j, 1.0) / h;
  }
  const auto delta = [](int a, int b) { return a == b ? 1.0 : 0.0; };
  for (int boundary = 0; boundary < 2; ++boundary) {
    const double w = boundary ? 1.0 : 0.5, sigma = boundary ? s.sigma_boundary : s.sigma;
    auto& l = s.left_face[boundary];
    auto& r = s.right_face[boundary];
    l.assign(std::size_t(n) * n, 0.0);
    r.assign(std::size_t(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        // Left face (the cell is the right side, outer normal −1).
        l[i * n + j] = w * (s.d_left[j] * delta(i, 0) + delta(j, 0) * s.d_left[i]) + sigma * delta(i, 0) * delta(j, 0);
        // Right face (the cell is the left side, outer normal +1).
        r[i * n + j] = -w * (s.d_right[j] * delta(i, k) + delta(j, k) * s.d_right[i]) + sigma * delta(i, k) * delta(j, k);
      }
  }
  for (int position = 0; position < 4; ++position) {
    auto& c = s.cell[position];
    c = cm.stiffness;
    for (int e = 0; e < n * n; ++e) c[e] += s.left_face[position & 1][e] + s.right_face[position >> 1][e];
  }
  s.right_value.resize(n);
  s.right_derivative.resize(n);
  s.left_value.resize(n);
  s.left_derivative.resize(n);
  for (int i = 0; i < n; ++i) {
    // L_{K,K+1}[i][j] = −½ δ_ik φ_j'(0) + ½ φ_i'(h) δ_j0 − σ δ_ik δ_j0 (trial in the right cell).
    s.right_value[i] = 0.5 * s.d_right[i] - s.sigma * delta(i, k);
    s.right_derivative[i] = -0.5 * delta(i, k);
    // L_{K,K−1}[i][j] = ½ δ_i0 φ_j'(h) − ½ φ_i'(0) δ_jk − σ δ_i0 δ_jk (trial in the left cell).
    s.left_value[i] = -0.5 * s.d_left[i] - s.sigma * delta(i, 0);
    s.left_derivative[i] = 0.5 * delta(i, 0);
    s.boundary_data[0].push_back(s.sigma_boundary * delta(i, 0) + s.d_left[i]);   // ∂ₙv = −φ_i'(0)
    s.boundary_data[1].push_back(s.sigma_boundary * delta(i, k) - s.d_right[i]);  // ∂ₙv = φ_i'(h)
  }
  return s;
}

void sipg_patch_split(const SipgMatrices1D& m, bool lower_boundary, bool upper_boundary, std::vector<double>& laplace,
                      std::vector<double>& mass) {
  const int n = m.n, N = 2 * n;
  laplace = sipg_line_matrix(m, 2, lower_boundary, upper_boundary);  // the couplings across the inner face
  mass.assign(std::size_t(N) * N, 0.0);
  for (int c = 0; c < 2; ++c) {
    const bool whole = c == 0 ? lower_boundary : upper_boundary;  // no other patch holds this cell
    const double w = whole ? 1.0 : 0.5;
    // The cell's block: its share of the cell integral, the inner face's terms, and its outer
    // face's terms where that face is on the brick's boundary (the neighbouring patch takes an
    // inner outer face).
    const auto& inner = c == 0 ? m.right_face[0] : m.left_face[0];
    const auto& outer = c == 0 ? m.left_face[1] : m.right_face[1];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const std::size_t at = std::size_t(c * n + i) * N + c * n + j;
        laplace[at] = w * m.stiffness[i * n + j] + inner[i * n + j] + (whole ? outer[i * n + j] : 0.0);
        mass[at] = w * m.mass[i * n + j];
      }
  }
}

std::vector<double> sipg_line_matrix(const SipgMatrices1D& m, int cells, bool lower_boundary, bool upper_boundary) {
  const int n = m.n, size = cells * n;
  std::vector<double> a(std::size_t(size) * size, 0.0);
  for (int c = 0; c < cells; ++c) {
    const int position = (c == 0 && lower_boundary ? 1 : 0) + (c == cells - 1 && upper_boundary ? 2 : 0);
    for (int i = 0; i < n; ++i) {
      const int row = c * n + i;
      for (int j = 0; j < n; ++j) a[std::size_t(row) * size + c * n + j] = m.l(position, i, j);
      if (c + 1 < cells)  // u⁺(0) = u_{c+1,0}, u⁺'(0) = Σ_j φ_j'(0) u_{c+1,j}
        for (int j = 0; j < n; ++j)
          a[std::size_t(row) * size + (c + 1) * n + j] +=
              m.right_value[i] * (j == 0 ? 1.0 : 0.0) + m.right_derivative[i] * m.d_left[j];
      if (c > 0)  // u⁻(h) = u_{c−1,k}, u⁻'(h) = Σ_j φ_j'(h) u_{c−1,j}
        for (int j = 0; j < n; ++j)
          a[std::size_t(row) * size + (c - 1) * n + j] +=
              m.left_value[i] * (j == n - 1 ? 1.0 : 0.0) + m.left_derivative[i] * m.d_right[j];
    }
  }
  return a;
}

}  // namespace tensormg
