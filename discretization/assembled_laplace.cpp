#include "discretization/assembled_laplace.hpp"

#include <KokkosSparse_spmv.hpp>

#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

namespace {
/// One row of an assembled 1D matrix pair: columns with mass and stiffness values.
struct Row1D {
  std::vector<local_index> col;
  std::vector<double> m, a;
};

/// Assembled 1D mass/stiffness over `cells` cells of degree k and length h (local node numbering).
std::vector<Row1D> assemble_1d(int cells, int k, double h) {
  const auto cm = cell_matrices_1d(k, h);
  const int nodes = cells * k + 1;
  std::vector<Row1D> rows(nodes);
  for (int i = 0; i < nodes; ++i) {
    // Columns of node i: all nodes of the cells it touches.
    const int first_cell = i == 0 ? 0 : (i - 1) / k;
    const int last_cell = std::min(cells - 1, i / k);
    const int c0 = first_cell * k, c1 = (last_cell + 1) * k;
    for (int j = c0; j <= c1; ++j) {
      double m = 0, a = 0;
      for (int c = first_cell; c <= last_cell; ++c) {
        const int li = i - c * k, lj = j - c * k;
        if (li < 0 || li > k || lj < 0 || lj > k) continue;
        m += cm.m(li, lj);
        a += cm.a(li, lj);
      }
      rows[i].col.push_back(j);
      rows[i].m.push_back(m);
      rows[i].a.push_back(a);
    }
  }
  return rows;
}
}  // namespace

template <class Number, class ExecSpace>
AssembledLaplace<Number, ExecSpace>::AssembledLaplace(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout,
                                                      double laplace_coefficient, double mass_coefficient)
    : layout_(std::move(layout)) {
  const NodeBox& box = layout_->box();
  const int dim = box.dim, k = box.degree;
  const local_index n_local = layout_->partitioner()->n_local();
  std::vector<std::vector<Row1D>> r1(3);
  for (int d = 0; d < dim; ++d) r1[d] = assemble_1d(box.cells[d], k, layout_->mesh().h()[d]);
  if (dim == 2) r1[2] = {Row1D{{0}, {1.0}, {0.0}}};

  // Row sizes in local vector order, then entries.
  std::vector<std::int64_t> row_map(n_local + 1, 0);
  auto visit = [&](auto&& f) {
    if (box.n[0] == 0) return;
    for (local_index iz = 0; iz < box.n[2]; ++iz)
      for (local_index iy = 0; iy < box.n[1]; ++iy)
        for (local_index ix = 0; ix < box.n[0]; ++ix) f(ix, iy, iz, box.index(ix, iy, iz));
  };
  visit([&](local_index ix, local_index iy, local_index iz, local_index row) {
    if (box.on_boundary(ix, iy, iz)) return;
    row_map[row + 1] = std::int64_t(r1[0][ix].col.size()) * r1[1][iy].col.size() * r1[2][iz].col.size();
  });
  for (local_index i = 0; i < n_local; ++i) row_map[i + 1] += row_map[i];
  const std::int64_t nnz_upper = row_map[n_local];
  std::vector<local_index> entries(nnz_upper);
  std::vector<Number> values(nnz_upper);
  std::vector<std::int64_t> fill(n_local, 0);
  visit([&](local_index ix, local_index iy, local_index iz, local_index row) {
    if (box.on_boundary(ix, iy, iz)) return;
    const Row1D &x = r1[0][ix], &y = r1[1][iy], &z = r1[2][iz];
    std::int64_t pos = row_map[row];
    for (std::size_t c = 0; c < z.col.size(); ++c)
      for (std::size_t b = 0; b < y.col.size(); ++b)
        for (std::size_t a = 0; a < x.col.size(); ++a) {
          const local_index jx = x.col[a], jy = y.col[b], jz = z.col[c];
          if (box.on_boundary(jx, jy, jz)) continue;  // Dirichlet columns are eliminated
          const double lap = dim == 2 ? x.a[a] * y.m[b] + x.m[a] * y.a[b]
                                      : x.a[a] * y.m[b] * z.m[c] + x.m[a] * y.a[b] * z.m[c] + x.m[a] * y.m[b] * z.a[c];
          const double mass = x.m[a] * y.m[b] * z.m[c];
          entries[pos] = box.index(jx, jy, jz);
          values[pos] = static_cast<Number>(laplace_coefficient * lap + mass_coefficient * mass);
          ++pos;
        }
    fill[row] = pos - row_map[row];
  });
  // Compact: rows lost their Dirichlet columns.
  std::vector<std::int64_t> compact(n_local + 1, 0);
  for (local_index i = 0; i < n_local; ++i) compact[i + 1] = compact[i] + fill[i];
  for (local_index i = 0; i < n_local; ++i)
    for (std::int64_t e = 0; e < fill[i]; ++e) {
      entries[compact[i] + e] = entries[row_map[i] + e];
      values[compact[i] + e] = values[row_map[i] + e];
    }
  const std::int64_t nnz = compact[n_local];
  using mem = typename ExecSpace::memory_space;
  Kokkos::View<std::int64_t*, mem> d_rows("tensormg::csr::row_map", n_local + 1);
  Kokkos::View<local_index*, mem> d_cols("tensormg::csr::entries", nnz);
  Kokkos::View<Number*, mem> d_vals("tensormg::csr::values", nnz);
  using HU = Kokkos::MemoryUnmanaged;
  Kokkos::deep_copy(d_rows, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, HU>(compact.data(), n_local + 1));
  Kokkos::deep_copy(d_cols, Kokkos::View<const local_index*, Kokkos::HostSpace, HU>(entries.data(), nnz));
  Kokkos::deep_copy(d_vals, Kokkos::View<const Number*, Kokkos::HostSpace, HU>(values.data(), nnz));
  matrix_ = matrix_type("tensormg::csr", n_local, n_local, nnz, d_vals, d_rows, d_cols);
  boundary_owned_ = owned_boundary_nodes<ExecSpace>(box);
}

template <class Number, class ExecSpace>
void AssembledLaplace<Number, ExecSpace>::spmv_local(vector_type& dst, const vector_type& src) const {
  KokkosSparse::spmv("N", Number(1), matrix_, src.view(), Number(0), dst.view());
}

template <class Number, class ExecSpace>
void AssembledLaplace<Number, ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::operator::assembled::vmult");
  src.update_ghosts();
  spmv_local(dst, src);
  dst.compress_add();
  copy_entries(boundary_owned_, dst, src);
}

template <class Number, class ExecSpace>
std::size_t AssembledLaplace<Number, ExecSpace>::bytes() const {
  return matrix_.nnz() * (sizeof(Number) + sizeof(local_index)) + (matrix_.numRows() + 1) * sizeof(std::int64_t);
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class AssembledLaplace<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
