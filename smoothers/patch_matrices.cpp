#include "smoothers/patch_matrices.hpp"

#include <algorithm>
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
  // Interior block: rows/columns 1 .. n-2.
  const int ni = p.ni;
  p.interior_mass.assign(ni * ni, 0.0);
  p.interior_stiffness.assign(ni * ni, 0.0);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < ni; ++j) {
      p.interior_stiffness[i * ni + j] = p.stiffness[(i + 1) * p.n + (j + 1)];
      p.interior_mass[i * ni + j] = p.mass[(i + 1) * p.n + (j + 1)];
    }
  generalized_eigenproblem(ni, p.interior_stiffness, p.interior_mass, p.eigenvectors, p.eigenvalues,
                           "the continuous vertex-patch eigenproblem");
  order_by_parity(ni, p.interior_mass, p.eigenvectors, p.eigenvalues, "the continuous vertex-patch eigenvectors");
  return p;
}

void order_by_parity(int n, const std::vector<double>& mass, std::vector<double>& vectors, std::vector<double>& values,
                     const char* what) {
  struct Pair {
    double value;
    std::vector<double> vector;
  };
  std::vector<Pair> symmetric, antisymmetric;
  for (int j = 0; j < n; ++j) {
    std::vector<double> even(n), odd(n);
    double norm_even = 0, norm_odd = 0;
    for (int i = 0; i < n; ++i) {
      even[i] = (vectors[i * n + j] + vectors[(n - 1 - i) * n + j]) / 2;
      odd[i] = (vectors[i * n + j] - vectors[(n - 1 - i) * n + j]) / 2;
      norm_even = std::max(norm_even, std::abs(even[i]));
      norm_odd = std::max(norm_odd, std::abs(odd[i]));
    }
    const bool is_symmetric = norm_even >= norm_odd;
    TENSORMG_CHECK(std::min(norm_even, norm_odd) <= 1e-8 * std::max(norm_even, norm_odd),
                   what << ": vector " << j << " is neither symmetric nor antisymmetric (the pencil is not "
                        "centro-symmetric, or an eigenvalue is shared by both parities)");
    std::vector<double>& v = is_symmetric ? even : odd;
    double vmv = 0;  // M-normalized again after the projection
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) vmv += v[a] * mass[a * n + b] * v[b];
    for (double& x : v) x /= std::sqrt(vmv);
    (is_symmetric ? symmetric : antisymmetric).push_back({values[j], v});
  }
  TENSORMG_CHECK(int(symmetric.size()) == (n + 1) / 2, what << ": " << symmetric.size() << " symmetric vectors of " << n
                                                           << ", expected " << (n + 1) / 2);
  const auto by_value = [](const Pair& a, const Pair& b) { return a.value < b.value; };
  std::sort(symmetric.begin(), symmetric.end(), by_value);
  std::sort(antisymmetric.begin(), antisymmetric.end(), by_value);
  symmetric.insert(symmetric.end(), antisymmetric.begin(), antisymmetric.end());
  for (int j = 0; j < n; ++j) {
    values[j] = symmetric[j].value;
    for (int i = 0; i < n; ++i) vectors[i * n + j] = symmetric[j].vector[i];
  }
}

void generalized_eigenproblem(int n, const std::vector<double>& a_in, const std::vector<double>& b_in,
                              std::vector<double>& vectors, std::vector<double>& values, const char* what) {
  // LAPACK is column-major; the matrices are symmetric.
  std::vector<double> a(std::size_t(n) * n), b(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a[i + j * n] = a_in[i * n + j];
      b[i + j * n] = b_in[i * n + j];
    }
  values.assign(n, 0.0);
  const int itype = 1, lwork = std::max(1, 3 * n - 1) + 64 * n;
  std::vector<double> work(lwork);
  int info = 0;
  dsygv_(&itype, "V", "U", &n, a.data(), &n, b.data(), &n, values.data(), work.data(), &lwork, &info);
  TENSORMG_CHECK(info == 0, "LAPACK dsygv failed for " << what << " (size " << n << ", info " << info << ")");
  vectors.assign(std::size_t(n) * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) vectors[i * n + j] = a[i + j * n];  // column j = vector j
}

namespace {
/// The index triple of entry e of the lexicographic box of the blocks' sizes.
struct Box {
  int n[3] = {1, 1, 1};
  Box(int dim, const std::array<SeparableBlock1D, 3>& b) {
    for (int d = 0; d < dim; ++d) n[d] = b[d].size;
  }
  int size() const { return n[0] * n[1] * n[2]; }
  void split(int e, int i[3]) const {
    i[0] = e % n[0];
    i[1] = (e / n[0]) % n[1];
    i[2] = e / (n[0] * n[1]);
  }
};

std::array<SeparableBlock1D, 3> interior_blocks(int dim, const std::array<PatchMatrices1D, 3>& m) {
  std::array<SeparableBlock1D, 3> b{};
  for (int d = 0; d < dim; ++d)
    b[d] = {m[d].ni, m[d].interior_mass.data(), m[d].interior_stiffness.data(), m[d].eigenvectors.data(),
            m[d].eigenvalues.data()};
  return b;
}
}  // namespace

std::vector<double> separable_inverse(int dim, const std::array<SeparableBlock1D, 3>& blocks, double laplace,
                                      double mass) {
  const Box box(dim, blocks);
  const int size = box.size();
  std::vector<double> inv(std::size_t(size) * size, 0.0);
  // inv = Σ_q s_q s_q^T / (a Σ_d λ_{q_d} + b) with s_q = ⊗ S_d[:, q_d].
  std::vector<double> s(size);
  for (int q = 0; q < size; ++q) {
    int qi[3];
    box.split(q, qi);
    double lambda = 0;
    for (int d = 0; d < dim; ++d) lambda += blocks[d].eigenvalues[qi[d]];
    const double scale = 1.0 / (laplace * lambda + mass);
    for (int e = 0; e < size; ++e) {
      int ei[3];
      box.split(e, ei);
      double v = 1;
      for (int d = 0; d < dim; ++d) v *= blocks[d].eigenvectors[ei[d] * blocks[d].size + qi[d]];
      s[e] = v;
    }
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) inv[std::size_t(i) * size + j] += scale * s[i] * s[j];
  }
  return inv;
}

std::vector<double> separable_matrix(int dim, const std::array<SeparableBlock1D, 3>& blocks, double laplace,
                                     double mass) {
  const Box box(dim, blocks);
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
        const auto& b = blocks[d];
        mm[d] = b.mass[ii[d] * b.size + jj[d]];
        aa[d] = b.laplace[ii[d] * b.size + jj[d]];
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

std::vector<double> dense_patch_inverse(int dim, const std::array<PatchMatrices1D, 3>& m, double laplace, double mass) {
  return separable_inverse(dim, interior_blocks(dim, m), laplace, mass);
}

std::vector<double> dense_patch_matrix(int dim, const std::array<PatchMatrices1D, 3>& m, double laplace, double mass) {
  return separable_matrix(dim, interior_blocks(dim, m), laplace, mass);
}

}  // namespace tensormg
