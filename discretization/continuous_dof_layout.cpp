#include "discretization/continuous_dof_layout.hpp"

#include <algorithm>
#include <cstdint>

#include "backends/device_traits.hpp"  // the partitioner's staging (DeviceTraits::halo_staging)
#include "core/error.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

template <class ExecSpace>
ContinuousDofLayout<ExecSpace>::ContinuousDofLayout(std::shared_ptr<const CartesianMesh> mesh, int degree,
                                                    HaloTransport transport)
    : mesh_(std::move(mesh)) {
  const int dim = mesh_->dim();
  TENSORMG_CHECK_COLLECTIVE(mesh_->comm(), degree >= 1 && degree <= max_degree(dim),
                            "degree " << degree << " is not supported in " << dim << "D; use 1.." << max_degree(dim));
  const auto points = gauss_lobatto_quadrature(degree + 1).points;
  coordinates_.degree = degree;
  for (int j = 0; j <= degree; ++j) coordinates_.points[j] = points[j];
  box_.dim = dim;
  box_.degree = degree;
  const bool has_cells = mesh_->n_local_cells() > 0;
  // Sizes in 64 bits first: a rank's nodes are addressed by 32-bit local indices in every kernel.
  std::int64_t box_nodes = 1;
  double global_nodes = 1;
  for (int d = 0; d < dim; ++d) {
    const std::int64_t cells = has_cells ? mesh_->cell_end()[d] - mesh_->cell_begin()[d] : 0;
    box_nodes = std::min<std::int64_t>(box_nodes * (cells * degree + 1), std::int64_t(1) << 62);
    global_nodes *= double(mesh_->n_cells()[d]) * degree + 1;
  }
  int ranks = 1;
  MPI_Comm_size(mesh_->comm(), &ranks);
  TENSORMG_CHECK_COLLECTIVE(mesh_->comm(), global_nodes < 0x1p62,
                            "the mesh has " << global_nodes << " nodes, more than 2^62: use fewer cells or refinements");
  TENSORMG_CHECK_COLLECTIVE(mesh_->comm(), box_nodes <= max_local_nodes(),
                            "a rank would hold " << box_nodes << " nodes (Q" << degree << ", " << global_nodes
                                                 << " in all on " << ranks << " ranks), more than the "
                                                 << max_local_nodes()
                                                 << " one rank can address with 32-bit local indices; use more MPI "
                                                    "ranks, fewer refinements (-r) or fewer coarse cells (--cells)");
  for (int d = 0; d < 3; ++d) {
    if (d >= dim) {
      box_.n[d] = box_.o[d] = 1;
      box_.cells[d] = 1;
      continue;
    }
    const global_index cb = mesh_->cell_begin()[d], ce = mesh_->cell_end()[d];
    box_.global_nodes[d] = mesh_->n_cells()[d] * degree + 1;
    box_.offset[d] = cb * degree;
    coordinates_.lower[d] = mesh_->brick().lower[d];
    coordinates_.h[d] = mesh_->h()[d];
    coordinates_.offset[d] = box_.offset[d];
    box_.cells[d] = has_cells ? static_cast<local_index>(ce - cb) : 0;
    box_.n[d] = has_cells ? static_cast<local_index>((ce - cb) * degree + 1) : 0;
    box_.o[d] = has_cells ? box_.n[d] - (ce == mesh_->n_cells()[d] ? 0 : 1) : 0;
  }
  box_.n_owned = box_.o[0] * box_.o[1] * box_.o[2];

  // Ghosts in the order NodeBox::index assigns them: lexicographic over the box, owned skipped.
  // A row of owned nodes contributes only its ghost tail: O(surface) work, not O(box).
  std::vector<global_index> ghost_ids;
  std::vector<int> ghost_owner;
  for (local_index iz = 0; iz < box_.n[2]; ++iz)
    for (local_index iy = 0; iy < box_.n[1]; ++iy)
      for (local_index ix = (iy < box_.o[1] && iz < box_.o[2]) ? box_.o[0] : 0; ix < box_.n[0]; ++ix) {
        const local_index i[3] = {ix, iy, iz};
        std::array<int, 3> owner{0, 0, 0};
        for (int d = 0; d < dim; ++d) owner[d] = owner_coordinate(d, box_.offset[d] + i[d]);
        TENSORMG_ASSERT(box_.index(ix, iy, iz) == box_.n_owned + local_index(ghost_ids.size()), "ghost order");
        ghost_ids.push_back(global_index_of(ix, iy, iz));
        ghost_owner.push_back(mesh_->rank_of(owner));
      }
  const NodeBox box = box_;
  partitioner_ = std::make_shared<Partitioner<ExecSpace>>(
      mesh_->comm(), box_.n_owned, ghost_ids, ghost_owner, [box](global_index id) -> local_index {
        global_index g[3] = {id % box.global_nodes[0], (id / box.global_nodes[0]) % box.global_nodes[1],
                             id / (box.global_nodes[0] * box.global_nodes[1])};
        local_index l[3];
        for (int d = 0; d < 3; ++d) {
          l[d] = static_cast<local_index>(g[d] - box.offset[d]);
          if (l[d] < 0 || l[d] >= box.o[d]) return -1;
        }
        return box.index(l[0], l[1], l[2]);
      },
      transport, typename DeviceTraits<ExecSpace>::halo_staging{});
  const auto nodes = owned_boundary_node_list(box_);
  constrained_nodes_ = Kokkos::View<local_index*, typename ExecSpace::memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::layout::constrained_nodes"), nodes.size());
  Kokkos::deep_copy(constrained_nodes_,
                    Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(nodes.data(), nodes.size()));
}

std::vector<local_index> owned_boundary_node_list(const NodeBox& box) {
  const auto on_face = [&](int d, local_index i) {
    const global_index g = box.offset[d] + i;
    return d < box.dim && (g == 0 || g == box.global_nodes[d] - 1);
  };
  std::vector<local_index> nodes;
  for (local_index iz = 0; iz < box.o[2]; ++iz)
    for (local_index iy = 0; iy < box.o[1]; ++iy) {
      if (on_face(1, iy) || on_face(2, iz)) {  // the whole row lies on a y or z face
        for (local_index ix = 0; ix < box.o[0]; ++ix) nodes.push_back(box.index(ix, iy, iz));
        continue;
      }
      if (box.o[0] > 0 && on_face(0, 0)) nodes.push_back(box.index(0, iy, iz));
      const local_index last = box.o[0] - 1;
      if (last > 0 && on_face(0, last)) nodes.push_back(box.index(last, iy, iz));
    }
  return nodes;
}

template <class ExecSpace>
int ContinuousDofLayout<ExecSpace>::owner_coordinate(int d, global_index g) const {
  const int k = box_.degree;
  const int p_count = mesh_->rank_grid()[d];
  int last_nonempty = 0;
  for (int p = 0; p < p_count; ++p) {
    const auto r = mesh_->cell_range(d, p);
    if (r[1] > r[0]) last_nonempty = p;
    if (g >= r[0] * k && g < r[1] * k) return p;
  }
  return last_nonempty;  // the last node of the direction
}

template <class ExecSpace>
global_index ContinuousDofLayout<ExecSpace>::global_index_of(local_index ix, local_index iy, local_index iz) const {
  return (box_.offset[0] + ix) +
         box_.global_nodes[0] * ((box_.offset[1] + iy) + box_.global_nodes[1] * (box_.offset[2] + iz));
}

template class ContinuousDofLayout<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class ContinuousDofLayout<SecondaryExec>;)

}  // namespace tensormg
