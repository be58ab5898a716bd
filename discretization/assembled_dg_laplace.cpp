#include "discretization/assembled_dg_laplace.hpp"

#include <KokkosSparse_spmv.hpp>

#include <algorithm>

#include "core/profiling.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
AssembledDgLaplace<Number, ExecSpace>::AssembledDgLaplace(std::shared_ptr<const DgDofLayout<ExecSpace>> layout,
                                                          DgLaplaceOptions options)
    : layout_(std::move(layout)) {
  const CellBox& box = layout_->box();
  const int dim = box.dim, k = box.degree, n = k + 1, cs = box.cell_dofs;
  std::vector<SipgMatrices1D> s;
  for (int d = 0; d < dim; ++d) s.push_back(sipg_matrices_1d(k, layout_->mesh().h()[d], options.penalty_factor));
  const double a = options.laplace_coefficient, b = options.mass_coefficient;
  const local_index rows = box.n_owned_cells * cs;
  std::vector<std::int64_t> row_map(rows + 1, 0);
  std::vector<local_index> entries;
  std::vector<Number> values;
  std::vector<std::pair<local_index, double>> row;
  for (local_index cell = 0; cell < box.n_owned_cells; ++cell) {
    local_index cc[3];
    box.coordinates(cell, cc);
    for (int node = 0; node < cs; ++node) {
      const int i[3] = {node % n, (node / n) % n, dim == 3 ? node / (n * n) : 0};
      row.clear();
      // Column (cell c, node j) gets Π_{e≠d} M_e[i_e][j_e] · block_d[i_d][j_d] for direction d.
      const auto add_block = [&](int d, local_index c, const auto& block) {
        for (int col = 0; col < cs; ++col) {
          const int j[3] = {col % n, (col / n) % n, dim == 3 ? col / (n * n) : 0};
          double v = block(i[d], j[d]);
          if (v == 0) continue;
          for (int e = 0; e < dim; ++e)
            if (e != d) v *= s[e].m(i[e], j[e]);
          row.emplace_back(c * cs + col, a * v);
        }
      };
      for (int d = 0; d < dim; ++d) {
        const int position = (box.on_boundary(cc, d, 0) ? 1 : 0) + (box.on_boundary(cc, d, 1) ? 2 : 0);
        add_block(d, cell, [&](int p, int q) { return s[d].l(position, p, q); });
        const local_index lower = box.neighbor(cc, d, 0), upper = box.neighbor(cc, d, 1);
        if (lower >= 0)  // trial in the lower cell: its value and derivative at its upper face
          add_block(d, lower, [&](int p, int q) {
            return s[d].left_value[p] * (q == k ? 1.0 : 0.0) + s[d].left_derivative[p] * s[d].d_right[q];
          });
        if (upper >= 0)
          add_block(d, upper, [&](int p, int q) {
            return s[d].right_value[p] * (q == 0 ? 1.0 : 0.0) + s[d].right_derivative[p] * s[d].d_left[q];
          });
      }
      if (b != 0)
        for (int col = 0; col < cs; ++col) {
          const int j[3] = {col % n, (col / n) % n, dim == 3 ? col / (n * n) : 0};
          double v = b;
          for (int e = 0; e < dim; ++e) v *= s[e].m(i[e], j[e]);
          row.emplace_back(cell * cs + col, v);
        }
      std::sort(row.begin(), row.end());
      const local_index r = cell * cs + node;
      for (std::size_t e = 0; e < row.size(); ++e) {
        if (!entries.empty() && std::int64_t(entries.size()) > row_map[r] && entries.back() == row[e].first) {
          values.back() += static_cast<Number>(row[e].second);
        } else {
          entries.push_back(row[e].first);
          values.push_back(static_cast<Number>(row[e].second));
        }
      }
      row_map[r + 1] = std::int64_t(entries.size());
    }
  }
  const std::int64_t nnz = std::int64_t(entries.size());
  const local_index cols = layout_->partitioner()->n_local();
  using mem = typename ExecSpace::memory_space;
  Kokkos::View<std::int64_t*, mem> d_rows("tensormg::dg_csr::row_map", rows + 1);
  Kokkos::View<local_index*, mem> d_cols("tensormg::dg_csr::entries", nnz);
  Kokkos::View<Number*, mem> d_vals("tensormg::dg_csr::values", nnz);
  using HU = Kokkos::MemoryUnmanaged;
  Kokkos::deep_copy(d_rows, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, HU>(row_map.data(), rows + 1));
  Kokkos::deep_copy(d_cols, Kokkos::View<const local_index*, Kokkos::HostSpace, HU>(entries.data(), nnz));
  Kokkos::deep_copy(d_vals, Kokkos::View<const Number*, Kokkos::HostSpace, HU>(values.data(), nnz));
  matrix_ = matrix_type("tensormg::dg_csr", rows, cols, nnz, d_vals, d_rows, d_cols);
}

template <class Number, class ExecSpace>
void AssembledDgLaplace<Number, ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::operator::assembled_dg::vmult");
  src.update_ghosts();
  spmv_local(dst, src);
}

template <class Number, class ExecSpace>
void AssembledDgLaplace<Number, ExecSpace>::spmv_local(vector_type& dst, const vector_type& src) const {
  KokkosSparse::spmv("N", Number(1), matrix_, src.view(), Number(0), dst.owned());
}

template <class Number, class ExecSpace>
std::size_t AssembledDgLaplace<Number, ExecSpace>::bytes() const {
  return matrix_.nnz() * (sizeof(Number) + sizeof(local_index)) + (matrix_.numRows() + 1) * sizeof(std::int64_t);
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class AssembledDgLaplace<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
