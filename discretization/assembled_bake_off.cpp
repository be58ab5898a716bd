#include "discretization/assembled_bake_off.hpp"

#include <KokkosSparse_spmv.hpp>

#include <algorithm>
#include <utility>

#include "discretization/laplace_operator.hpp"  // copy_entries

namespace tensormg {

template <class ExecSpace>
AssembledBakeOff<ExecSpace>::AssembledBakeOff(const DeformedGeometry<ExecSpace>& geometry, BakeOff problem, double lambda)
    : layout_(&geometry.layout()) {
  const NodeBox& box = layout_->box();
  const int k = box.degree;
  const BakeOffQuadrature rule = quadrature_of(problem);
  const BakeOffTables1D t = bake_off_tables_1d(k, rule);
  const int n = t.n, q = t.q, q3 = q * q * q;
  n3_ = n * n * n;
  const auto factors = geometry.template factors<double>(rule, has_stiffness(problem));
  const auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), factors.data);
  const local_index cells = box.cells[0] * box.cells[1] * box.cells[2];

  // Basis values and reference gradients of every node at every point: [p][i].
  std::vector<double> value(std::size_t(q3) * n3_), grad[3];
  for (auto& g : grad) g.resize(value.size());
  for (int p = 0; p < q3; ++p) {
    const int a[3] = {p % q, (p / q) % q, p / (q * q)};
    for (int i = 0; i < n3_; ++i) {
      const int c[3] = {i % n, (i / n) % n, i / (n * n)};
      double v[3], d[3];
      for (int e = 0; e < 3; ++e) {
        v[e] = t.interpolation[a[e] * n + c[e]];
        d[e] = t.derivative[a[e] * n + c[e]];
      }
      value[std::size_t(p) * n3_ + i] = v[0] * v[1] * v[2];
      grad[0][std::size_t(p) * n3_ + i] = d[0] * v[1] * v[2];
      grad[1][std::size_t(p) * n3_ + i] = v[0] * d[1] * v[2];
      grad[2][std::size_t(p) * n3_ + i] = v[0] * v[1] * d[2];
    }
  }
  const int components = factors.components;
  elements_.assign(std::size_t(cells) * n3_ * n3_, 0.0);
  for (local_index c = 0; c < cells; ++c) {
    double* A = elements_.data() + std::size_t(c) * n3_ * n3_;
    for (int p = 0; p < q3; ++p) {
      const auto F = [&](int comp) { return f((std::size_t(c) * components + comp) * q3 + p); };
      const double wdet = F(components - 1);
      const double mass = has_stiffness(problem) ? lambda * wdet : wdet;
      double G[3][3] = {};
      if (has_stiffness(problem)) {
        G[0][0] = F(0), G[0][1] = G[1][0] = F(1), G[0][2] = G[2][0] = F(2);
        G[1][1] = F(3), G[1][2] = G[2][1] = F(4), G[2][2] = F(5);
      }
      const double* phi = value.data() + std::size_t(p) * n3_;
      const double* dphi[3] = {grad[0].data() + std::size_t(p) * n3_, grad[1].data() + std::size_t(p) * n3_,
                               grad[2].data() + std::size_t(p) * n3_};
      for (int i = 0; i < n3_; ++i) {
        double Gi[3] = {0, 0, 0};
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) Gi[s] += dphi[r][i] * G[r][s];
        for (int j = 0; j < n3_; ++j)
          A[i * n3_ + j] += Gi[0] * dphi[0][j] + Gi[1] * dphi[1][j] + Gi[2] * dphi[2][j] + mass * phi[i] * phi[j];
      }
    }
  }

  // The continuous matrix of the rank's cells (rows and columns in local numbering), Dirichlet
  // rows and columns left out (identity in vmult).
  const local_index n_local = layout_->partitioner()->n_local();
  std::vector<std::vector<std::pair<local_index, double>>> rows(n_local);
  std::vector<local_index> index(n3_);
  for (local_index c = 0; c < cells; ++c) {
    const local_index cc[3] = {c % box.cells[0], (c / box.cells[0]) % box.cells[1], c / (box.cells[0] * box.cells[1])};
    for (int i = 0; i < n3_; ++i) {
      const local_index ix = cc[0] * k + i % n, iy = cc[1] * k + (i / n) % n, iz = cc[2] * k + i / (n * n);
      index[i] = box.on_boundary(ix, iy, iz) ? -1 : box.index(ix, iy, iz);
    }
    const double* A = elements_.data() + std::size_t(c) * n3_ * n3_;
    for (int i = 0; i < n3_; ++i)
      for (int j = 0; j < n3_; ++j)
        if (index[i] >= 0 && index[j] >= 0) rows[index[i]].emplace_back(index[j], A[i * n3_ + j]);
  }
  std::vector<std::int64_t> row_map(n_local + 1, 0);
  std::vector<local_index> entries;
  std::vector<double> values;
  for (local_index r = 0; r < n_local; ++r) {
    auto& row = rows[r];
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t e = 0; e < row.size(); ++e) {
      if (e > 0 && row[e].first == row[e - 1].first) {
        values.back() += row[e].second;
        continue;
      }
      entries.push_back(row[e].first);
      values.push_back(row[e].second);
    }
    row_map[r + 1] = std::int64_t(entries.size());
    std::vector<std::pair<local_index, double>>().swap(row);
  }
  using mem = typename ExecSpace::memory_space;
  using HU = Kokkos::MemoryUnmanaged;
  const std::int64_t nnz = std::int64_t(entries.size());
  Kokkos::View<std::int64_t*, mem> d_rows("tensormg::bake_off_csr::row_map", n_local + 1);
  Kokkos::View<local_index*, mem> d_cols("tensormg::bake_off_csr::entries", nnz);
  Kokkos::View<double*, mem> d_vals("tensormg::bake_off_csr::values", nnz);
  Kokkos::deep_copy(d_rows, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, HU>(row_map.data(), n_local + 1));
  Kokkos::deep_copy(d_cols, Kokkos::View<const local_index*, Kokkos::HostSpace, HU>(entries.data(), nnz));
  Kokkos::deep_copy(d_vals, Kokkos::View<const double*, Kokkos::HostSpace, HU>(values.data(), nnz));
  matrix_ = matrix_type("tensormg::bake_off_csr", n_local, n_local, nnz, d_vals, d_rows, d_cols);
}

template <class ExecSpace>
void AssembledBakeOff<ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  src.update_ghosts();
  KokkosSparse::spmv("N", 1.0, matrix_, src.view(), 0.0, dst.view());
  dst.compress_add();
  copy_entries(layout_->constrained_nodes(), dst, src);
}

template <class ExecSpace>
std::vector<double> AssembledBakeOff<ExecSpace>::apply_elements(const std::vector<double>& src) const {
  std::vector<double> dst(src.size(), 0.0);
  const std::size_t cells = src.size() / n3_;
  for (std::size_t c = 0; c < cells; ++c)
    for (int i = 0; i < n3_; ++i) {
      double s = 0;
      for (int j = 0; j < n3_; ++j) s += elements_[(c * n3_ + i) * n3_ + j] * src[c * n3_ + j];
      dst[c * n3_ + i] = s;
    }
  return dst;
}

template class AssembledBakeOff<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class AssembledBakeOff<SecondaryExec>;)

}  // namespace tensormg
