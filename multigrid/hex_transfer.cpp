#include "multigrid/hex_transfer.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/prefix_sum.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
template <class MemorySpace>
struct TransferRows {
  Kokkos::View<local_index*, MemorySpace> offsets, columns;
  Kokkos::View<double*, MemorySpace> weights;
};

template <class T, class MemorySpace>
Kokkos::View<const T*, MemorySpace> to_device(const std::vector<T>& host, const char* name) {
  Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("tensormg::hex_transfer::") + name),
                                  host.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
  return d;
}

/// The prolongation's rows (owned fine vertices that are not Dirichlet: their stencils' coarse
/// vertices that are not Dirichlet, in stencil order) and the restriction's (its transpose: per local
/// coarse vertex the fine rows in ascending fine mesh vertex, so that a coarse row sums in an order
/// that does not depend on the ranks), built on ExecSpace. missing: a stencil names a coarse vertex
/// this rank does not hold.
template <class ExecSpace>
void build_transfer_rows(const HexLayout<ExecSpace>& coarse, const HexLayout<ExecSpace>& fine,
                         const DeviceHexStencils<ExecSpace>& stencils, TransferRows<typename ExecSpace::memory_space>& p,
                         TransferRows<typename ExecSpace::memory_space>& r, bool& missing) {
  using memory_space = typename ExecSpace::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace>;
  const local_index n_fine = fine.n_owned_vertices(), n_coarse = coarse.n_local_vertices();
  // Mesh vertex → local index on the coarse level (−1: not on this rank).
  global_index n_coarse_mesh_vertices = 0;
  for (const global_index v : coarse.mesh_vertex()) n_coarse_mesh_vertices = std::max(n_coarse_mesh_vertices, v + 1);
  const auto coarse_mesh = to_device<global_index, memory_space>(coarse.mesh_vertex(), "coarse_mesh_vertex");
  const auto fine_mesh = to_device<global_index, memory_space>(fine.mesh_vertex(), "fine_mesh_vertex");
  const auto coarse_dirichlet = to_device<char, memory_space>(coarse.dirichlet_vertex(), "coarse_dirichlet");
  const auto fine_dirichlet = to_device<char, memory_space>(fine.dirichlet_vertex(), "fine_dirichlet");
  const auto stencil_offsets = stencils.offsets;
  const auto stencil_vertices = stencils.vertices;
  const auto stencil_weights = stencils.weights;
  Kokkos::View<local_index*, memory_space> coarse_local(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_transfer::coarse_local"), n_coarse_mesh_vertices);
  Kokkos::deep_copy(coarse_local, -1);
  Kokkos::parallel_for(
      "tensormg::hex_transfer::coarse_local", Policy(0, n_coarse),
      KOKKOS_LAMBDA(local_index i) { coarse_local(coarse_mesh(i)) = i; });

  // The prolongation: entries counted, summed, written.
  const auto entry = KOKKOS_LAMBDA(global_index e, local_index & column) {
    const global_index cv = stencil_vertices(e);
    column = cv < n_coarse_mesh_vertices ? coarse_local(cv) : -1;
    return column >= 0 && !coarse_dirichlet(column);  // the coarse correction is zero at Dirichlet vertices
  };
  Kokkos::View<local_index*, memory_space> count("tensormg::hex_transfer::count", std::max(n_fine, n_coarse));
  int lost = 0;
  Kokkos::parallel_reduce(
      "tensormg::hex_transfer::count_rows", Policy(0, n_fine),
      KOKKOS_LAMBDA(local_index i, int& any_lost) {
        if (fine_dirichlet(i)) return;
        const global_index v = fine_mesh(i);
        local_index n = 0;
        for (global_index e = stencil_offsets(v); e < stencil_offsets(v + 1); ++e) {
          local_index column;
          if (entry(e, column)) ++n;
          if (column < 0) any_lost = 1;
        }
        count(i) = n;
      },
      Kokkos::Max<int>(lost));
  missing = lost > 0;  // the reducer's identity (the lowest int) when there are no rows
  const auto alloc = [](const char* name) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("tensormg::hex_transfer::") + name);
  };
  p.offsets = Kokkos::View<local_index*, memory_space>(alloc("prolongation_offsets"), n_fine + 1);
  const local_index nnz =
      local_index(exclusive_prefix_sum<ExecSpace>("tensormg::hex_transfer::prolongation_offsets", n_fine, count, p.offsets));
  p.columns = Kokkos::View<local_index*, memory_space>(alloc("prolongation_columns"), nnz);
  p.weights = Kokkos::View<double*, memory_space>(alloc("prolongation_weights"), nnz);
  const auto pr = p;
  Kokkos::parallel_for(
      "tensormg::hex_transfer::prolongation", Policy(0, n_fine), KOKKOS_LAMBDA(local_index i) {
        if (fine_dirichlet(i)) return;
        const global_index v = fine_mesh(i);
        local_index k = pr.offsets(i);
        for (global_index e = stencil_offsets(v); e < stencil_offsets(v + 1); ++e) {
          local_index column;
          if (!entry(e, column)) continue;
          pr.columns(k) = column;
          pr.weights(k++) = stencil_weights(e);
        }
      });

  // The restriction: the transpose, counted per coarse vertex, filled in any order, then each row
  // sorted by its fine rows' mesh vertices.
  Kokkos::deep_copy(count, 0);
  Kokkos::parallel_for(
      "tensormg::hex_transfer::count_columns", Policy(0, nnz),
      KOKKOS_LAMBDA(local_index e) { Kokkos::atomic_increment(&count(pr.columns(e))); });
  r.offsets = Kokkos::View<local_index*, memory_space>(alloc("restriction_offsets"), n_coarse + 1);
  exclusive_prefix_sum<ExecSpace>("tensormg::hex_transfer::restriction_offsets", n_coarse, count, r.offsets);
  r.columns = Kokkos::View<local_index*, memory_space>(alloc("restriction_columns"), nnz);
  r.weights = Kokkos::View<double*, memory_space>(alloc("restriction_weights"), nnz);
  Kokkos::deep_copy(count, 0);
  const auto rr = r;
  Kokkos::parallel_for(
      "tensormg::hex_transfer::restriction", Policy(0, n_fine), KOKKOS_LAMBDA(local_index i) {
        for (local_index e = pr.offsets(i); e < pr.offsets(i + 1); ++e) {
          const local_index c = pr.columns(e);
          const local_index k = rr.offsets(c) + Kokkos::atomic_fetch_add(&count(c), local_index(1));
          rr.columns(k) = i;
          rr.weights(k) = pr.weights(e);
        }
      });
  Kokkos::parallel_for(
      "tensormg::hex_transfer::sort_restriction", Policy(0, n_coarse), KOKKOS_LAMBDA(local_index c) {
        for (local_index e = rr.offsets(c) + 1; e < rr.offsets(c + 1); ++e) {
          const local_index row = rr.columns(e);
          const double weight = rr.weights(e);
          const global_index key = fine_mesh(row);
          local_index j = e;
          for (; j > rr.offsets(c) && fine_mesh(rr.columns(j - 1)) > key; --j) {
            rr.columns(j) = rr.columns(j - 1);
            rr.weights(j) = rr.weights(j - 1);
          }
          rr.columns(j) = row;
          rr.weights(j) = weight;
        }
      });
}
}  // namespace

template <class ExecSpace>
HexTransfer<ExecSpace>::HexTransfer(const HexLayout<ExecSpace>& coarse, const HexLayout<ExecSpace>& fine,
                                    const HexRefinement& refinement, const DeviceHexStencils<ExecSpace>* stencils)
    : components_(fine.components()) {
  DeviceHexStencils<ExecSpace> on_device;
  collectively(fine.comm(), [&] {
    TENSORMG_CHECK(coarse.components() == fine.components(), "the levels of a transfer have different components");
    on_device = DeviceHexStencils<ExecSpace>::of(refinement, stencils);
    TENSORMG_CHECK(on_device.offsets.extent(0) >= 1, "the transfer needs the refinement's stencils");
  });
  TransferRows<memory_space> p, r;
  bool missing = false;
  build_transfer_rows(coarse, fine, on_device, p, r, missing);
  TENSORMG_CHECK_COLLECTIVE(fine.comm(), !missing,
                            "internal: a fine vertex interpolates a coarse vertex that is not on its rank (the "
                            "levels must be partitioned by HexHierarchy)");
  prolongation_ = {p.offsets, p.columns, p.weights};
  restriction_ = {r.offsets, r.columns, r.weights};
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
