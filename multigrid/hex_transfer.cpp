#include "multigrid/hex_transfer.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
/// Host rows (offsets, columns, weights) to device views.
template <class Rows>
Rows to_device(const std::vector<local_index>& offsets, const std::vector<local_index>& columns,
               const std::vector<double>& weights, const char* name) {
  Rows r;
  const std::string n(name);
  r.offsets = decltype(r.offsets)("tensormg::hex_transfer::" + n + "_offsets", offsets.size());
  r.columns = decltype(r.columns)("tensormg::hex_transfer::" + n + "_columns", columns.size());
  r.weights = decltype(r.weights)("tensormg::hex_transfer::" + n + "_weights", weights.size());
  using Unmanaged = Kokkos::MemoryUnmanaged;
  Kokkos::deep_copy(r.offsets, Kokkos::View<const local_index*, Kokkos::HostSpace, Unmanaged>(offsets.data(), offsets.size()));
  Kokkos::deep_copy(r.columns, Kokkos::View<const local_index*, Kokkos::HostSpace, Unmanaged>(columns.data(), columns.size()));
  Kokkos::deep_copy(r.weights, Kokkos::View<const double*, Kokkos::HostSpace, Unmanaged>(weights.data(), weights.size()));
  return r;
}
}  // namespace

template <class ExecSpace>
HexTransfer<ExecSpace>::HexTransfer(const HexLayout<ExecSpace>& coarse, const HexLayout<ExecSpace>& fine,
                                    const HexRefinement& refinement)
    : components_(fine.components()) {
  collectively(fine.comm(), [&] {
    TENSORMG_CHECK(coarse.components() == fine.components(), "the levels of a transfer have different components");
    TENSORMG_CHECK(refinement.stencil_offsets.size() >= 1, "the transfer needs the refinement's stencils");
  });
  // Mesh vertex → local index on the coarse level (−1: not on this rank).
  global_index n_coarse_mesh_vertices = 0;
  for (const global_index v : coarse.mesh_vertex()) n_coarse_mesh_vertices = std::max(n_coarse_mesh_vertices, v + 1);
  std::vector<local_index> coarse_local(n_coarse_mesh_vertices, -1);
  for (std::size_t i = 0; i < coarse.mesh_vertex().size(); ++i) coarse_local[coarse.mesh_vertex()[i]] = local_index(i);

  const local_index n_fine = fine.n_owned_vertices(), n_coarse = coarse.n_local_vertices();
  std::vector<local_index> p_offsets(n_fine + 1, 0), p_columns;
  std::vector<double> p_weights;
  bool missing = false;
  for (local_index i = 0; i < n_fine; ++i) {
    if (!fine.dirichlet_vertex()[i]) {
      const global_index v = fine.mesh_vertex()[i];
      for (global_index e = refinement.stencil_offsets[v]; e < refinement.stencil_offsets[v + 1]; ++e) {
        const global_index cv = refinement.stencil_vertices[e];
        const local_index c = cv < n_coarse_mesh_vertices ? coarse_local[cv] : -1;
        if (c < 0) {
          missing = true;
          continue;
        }
        if (coarse.dirichlet_vertex()[c]) continue;  // the coarse correction is zero there
        p_columns.push_back(c);
        p_weights.push_back(refinement.stencil_weights[e]);
      }
    }
    p_offsets[i + 1] = local_index(p_columns.size());
  }
  TENSORMG_CHECK_COLLECTIVE(fine.comm(), !missing,
                            "internal: a fine vertex interpolates a coarse vertex that is not on its rank (the "
                            "levels must be partitioned by HexHierarchy)");
  // The transpose by counting: rows of the coarse vertices, entries in the order of the fine rows'
  // mesh vertices, so that a coarse row sums in an order that does not depend on the ranks.
  std::vector<local_index> r_offsets(n_coarse + 1, 0);
  for (const local_index c : p_columns) ++r_offsets[c + 1];
  for (local_index c = 0; c < n_coarse; ++c) r_offsets[c + 1] += r_offsets[c];
  std::vector<local_index> r_columns(p_columns.size());
  std::vector<double> r_weights(p_columns.size());
  {
    global_index n_fine_mesh_vertices = 0;
    for (local_index i = 0; i < n_fine; ++i) n_fine_mesh_vertices = std::max(n_fine_mesh_vertices, fine.mesh_vertex()[i] + 1);
    std::vector<local_index> row_of(n_fine_mesh_vertices, -1);  // fine mesh vertex → owned row
    for (local_index i = 0; i < n_fine; ++i) row_of[fine.mesh_vertex()[i]] = i;
    std::vector<local_index> next(r_offsets.begin(), r_offsets.end() - 1);
    for (const local_index i : row_of) {
      if (i < 0) continue;
      for (local_index e = p_offsets[i]; e < p_offsets[i + 1]; ++e) {
        const local_index k = next[p_columns[e]]++;
        r_columns[k] = i;
        r_weights[k] = p_weights[e];
      }
    }
  }
  prolongation_ = to_device<Rows>(p_offsets, p_columns, p_weights, "prolongation");
  restriction_ = to_device<Rows>(r_offsets, r_columns, r_weights, "restriction");
}

namespace {
/// y(row) (+)= Σ w x(column) for every row and component (a free function: CUDA lambdas may not live
/// in private members).
template <class ExecSpace, class IndexView, class WeightView, class VectorView>
void apply_rows(const IndexView& offsets, const IndexView& columns, const WeightView& weights, int nc,
                const VectorView& xv, const VectorView& yv, bool add) {
  Kokkos::parallel_for(
      "tensormg::hex_transfer::apply", Kokkos::RangePolicy<ExecSpace>(0, local_index(offsets.extent(0)) - 1),
      KOKKOS_LAMBDA(local_index row) {
        for (int c = 0; c < nc; ++c) {
          double sum = 0;
          for (local_index e = offsets(row); e < offsets(row + 1); ++e) sum += weights(e) * xv(columns(e) * nc + c);
          if (add) yv(row * nc + c) += sum;
          else yv(row * nc + c) = sum;
        }
      });
}
}  // namespace

template <class ExecSpace>
void HexTransfer<ExecSpace>::apply(const Rows& rows, const vector_type& x, vector_type& y, bool add) const {
  apply_rows<ExecSpace>(rows.offsets, rows.columns, rows.weights, components_, x.view(), y.view(), add);
}

template <class ExecSpace>
void HexTransfer<ExecSpace>::prolongate_add(vector_type& fine, const vector_type& coarse) const {
  ScopedRegion region("tensormg::hex_transfer::prolongate");
  coarse.update_ghosts();
  apply(prolongation_, coarse, fine, true);
}

template <class ExecSpace>
void HexTransfer<ExecSpace>::restrict_to(vector_type& coarse, const vector_type& fine) const {
  ScopedRegion region("tensormg::hex_transfer::restrict");
  apply(restriction_, fine, coarse, false);
  coarse.compress_add();
}

template <class ExecSpace>
double HexTransfer<ExecSpace>::device_bytes() const {
  double bytes = 0;
  for (const Rows* r : {&prolongation_, &restriction_})
    bytes += double(r->offsets.span() + r->columns.span()) * sizeof(local_index) + double(r->weights.span()) * 8;
  return bytes;
}

template class HexTransfer<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class HexTransfer<SecondaryExec>;)

}  // namespace tensormg
