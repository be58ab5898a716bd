#include "smoothers/patch_matrices.hpp"

#include <cmath>

#include "core/error.hpp"
#include "discretization/polynomials_1d.hpp"

extern "C" void dsygv_(const int* itype, const char* jobz, const char* uplo, const int* n, double* a, const int* lda,
                       double* b, const int* ldb, double* w, double* work, const int* lwork, int* info);

namespace tensormg {

PatchMatrices1D patch_matrices_1d(int degree, double h) {
  TENSORMG_CHECK(degree >= 1, "patch matrices need degree >= 1, given " << degree);
  TENSORMG_CHECK(h > 0, "patch matrices need a positive cell length, given " << h);
  const CellMatrices1D cell = cell_matrices_1d(degree, h);
  PatchMatrices1D p;
  p.k = degree;
  p.n = 2 * degree + 1;
  p.ni = 2 * degree - 1;
  p.mass.assign(p.n * p.n, 0.0);
  p.stiffness.assign(p.n * p.n, 0.0);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i <= degree; ++i)
      for (int j = 0; j <= degree; ++j) {
        const int gi = c * degree + i, gj = c * degree + j;
        p.mass[gi * p.n + gj] += cell.m(i, j);
        p.stiffness[gi * p.n + gj] += cell.a(i, j);
      }
  // Interior block: rows/columns 1 .. n-2. LAPACK is column-major; the blocks are symmetric.
  const int ni = p.ni;
  std::vector<double> a(ni * ni), b(ni * ni);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < ni; ++j) {
      a[i + j * ni] = p.stiffness[(i + 1) * p.n + (j + 1)];
      b[i + j * ni] = p.mass[(i + 1) * p.n + (j + 1)];
    }
  p.eigenvalues.assign(ni, 0.0);
  const int itype = 1, lwork = std::max(1, 3 * ni - 1) + 64 * ni;
  std::vector<double> work(lwork);
  int info = 0;
  dsygv_(&itype, "V", "U", &ni, a.data(), &ni, b.data(), &ni, p.eigenvalues.data(), work.data(), &lwork, &info);
  TENSORMG_CHECK(info == 0, "LAPACK dsygv failed for the degree-" << degree << " patch eigenproblem (info " << info << ")");
  p.eigenvectors.assign(ni * ni, 0.0);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < ni; ++j) p.eigenvectors[i * ni + j] = a[i + j * ni];  // column j = vector j
  return p;
}

namespace {
/// Size and the index triple of entry e of a (ni_0 × ni_1 × ni_2) lexicographic box.
struct Box {
  int n[3] = {1, 1, 1};
  int size() const { return n[0] * n[1] * n[2]; }
  void split(int e, int i[3]) const {
    i[0] = e % n[0];
    i[1] = (e / n[0]) % n[1];
    i[2] = e / (n[0] * n[1]);
  }
};
Box interior_box(int dim, const std::array<PatchMatrices1D, 3>& m) {
  Box b;
  for (int d = 0; d < dim; ++d) b.n[d] = m[d].ni;
  return b;
}
}  // namespace

std::vector<double> dense_patch_inverse(int dim, const std::array<PatchMatrices1D, 3>& m, double laplace, double mass) {
  const Box box = interior_box(dim, m);
  const int size = box.size();
  std::vector<double> inv(std::size_t(size) * size, 0.0);
  // inv = Σ_q s_q s_q^T / (a Σ_d λ_{q_d} + b) with s_q = ⊗ S_d[:, q_d].
  std::vector<double> s(size);
  for (int q = 0; q < size; ++q) {
    int qi[3];
    box.split(q, qi);
    double lambda = 0;
    for (int d = 0; d < dim; ++d) lambda += m[d].eigenvalues[qi[d]];
    const double scale = 1.0 / (laplace * lambda + mass);
    for (int e = 0; e < size; ++e) {
      int ei[3];
      box.split(e, ei);
      double v = 1;
      for (int d = 0; d < dim; ++d) v *= m[d].eigenvectors[ei[d] * m[d].ni + qi[d]];
      s[e] = v;
    }
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) inv[std::size_t(i) * size + j] += scale * s[i] * s[j];
  }
  return inv;
}

std::vector<double> dense_patch_matrix(int dim, const std::array<PatchMatrices1D, 3>& m, double laplace, double mass) {
  const Box box = interior_box(dim, m);
  const int size = box.size();
  std::vector<double> a(std::size_t(size) * size, 0.0);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) {
      int ii[3], jj[3];
      box.split(i, ii);
      box.split(j, jj);
      double mass_product = 1, lap = 0;
      double mm[3], aa[3];
      for (int d = 0; d < dim; ++d) {
        const auto& p = m[d];
        mm[d] = p.mass[(ii[d] + 1) * p.n + jj[d] + 1];
        aa[d] = p.stiffness[(ii[d] + 1) * p.n + jj[d] + 1];
        mass_product *= mm[d];
      }
      for (int d = 0; d < dim; ++d) {
        double term = aa[d];
        for (int e = 0; e < dim; ++e)
          if (e != d) term *= mm[e];
        lap += term;
      }
      a[std::size_t(i) * size + j] = laplace * lap + mass * mass_product;
    }
  return a;
}

}  // namespace tensormg
