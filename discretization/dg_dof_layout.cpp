#include "discretization/dg_dof_layout.hpp"

#include <algorithm>

#include "backends/device_traits.hpp"  // the partitioner's staging (DeviceTraits::halo_staging)
#include "core/error.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

namespace {
/// Process-grid coordinate in direction d that owns global cell coordinate g.
int owner_of_cell(const CartesianMesh& mesh, int d, global_index g) {
  for (int p = 0; p < mesh.rank_grid()[d]; ++p) {
    const auto r = mesh.cell_range(d, p);
    if (g >= r[0] && g < r[1]) return p;
  }
  TENSORMG_ASSERT(false, "cell coordinate without owner");
  return 0;
}
}  // namespace

template <class ExecSpace>
DgDofLayout<ExecSpace>::DgDofLayout(std::shared_ptr<const CartesianMesh> mesh, int degree, HaloTransport transport)
    : mesh_(std::move(mesh)) {
  const int dim = mesh_->dim();
  TENSORMG_CHECK_COLLECTIVE(mesh_->comm(), degree >= 1 && degree <= max_degree(dim),
                            "degree " << degree << " is not supported in " << dim << "D; use 1.." << max_degree(dim));
  const int n = degree + 1;
  box_.dim = dim;
  box_.degree = degree;
  box_.cell_dofs = dim == 2 ? n * n : n * n * n;
  const auto points = gauss_lobatto_quadrature(n).points;
  coordinates_.degree = degree;
  for (int j = 0; j <= degree; ++j) coordinates_.points[j] = points[j];
  const bool has_cells = mesh_->n_local_cells() > 0;
  for (int d = 0; d < 3; ++d) {
    if (d >= dim) {
      box_.cells[d] = has_cells ? 1 : 0;
      continue;
    }
    box_.cells[d] = has_cells ? static_cast<local_index>(mesh_->cell_end()[d] - mesh_->cell_begin()[d]) : 0;
    box_.offset[d] = mesh_->cell_begin()[d];
    box_.global_cells[d] = mesh_->n_cells()[d];
    box_.boundary[d][0] = mesh_->cell_begin()[d] == 0;
    box_.boundary[d][1] = mesh_->cell_end()[d] == mesh_->n_cells()[d];
    coordinates_.lower[d] = mesh_->brick().lower[d];
    coordinates_.h[d] = mesh_->h()[d];
    coordinates_.offset[d] = 0;  // node coordinates are global: cell · k + i
  }
  if (!has_cells)
    for (int d = 0; d < 3; ++d) box_.boundary[d][0] = box_.boundary[d][1] = true;  // no neighbours to ask for

  // Sizes in 64 bits first: local indices are 32-bit.
  std::int64_t owned_cells = has_cells ? std::int64_t(box_.cells[0]) * box_.cells[1] * box_.cells[2] : 0;
  std::int64_t ghost_cells = 0;
  for (int d = 0; d < dim; ++d)
    for (int side = 0; side < 2; ++side) {
      box_.slab_offset[d][side] = static_cast<local_index>(std::min<std::int64_t>(ghost_cells, max_local_dofs()));
      if (!box_.boundary[d][side]) ghost_cells += owned_cells / std::max<local_index>(box_.cells[d], 1);
    }
  const double global_dofs = double(mesh_->n_global_cells()) * box_.cell_dofs;
  const std::int64_t local_dofs = (owned_cells + ghost_cells) * box_.cell_dofs;
  int ranks = 1;
  MPI_Comm_size(mesh_->comm(), &ranks);
  TENSORMG_CHECK_COLLECTIVE(mesh_->comm(), local_dofs <= max_local_dofs(),
                            "a rank would hold " << local_dofs << " DG values (Q" << degree << ", " << global_dofs
                                                 << " in all on " << ranks << " ranks), more than the "
                                                 << max_local_dofs()
                                                 << " one rank can address with 32-bit local indices; use more MPI "
                                                    "ranks, fewer refinements (-r) or fewer coarse cells (--cells)");
  box_.n_owned_cells = static_cast<local_index>(owned_cells);

  // Ghost cells slab by slab, in the order CellBox::neighbor numbers them.
  std::vector<global_index> ghost_ids;
  std::vector<int> ghost_owner;
  ghost_ids.reserve(ghost_cells * box_.cell_dofs);
  ghost_owner.reserve(ghost_cells * box_.cell_dofs);
  const CellBox& b = box_;
  for (int d = 0; d < dim; ++d)
    for (int side = 0; side < 2; ++side) {
      if (b.boundary[d][side]) continue;
      const int t0 = d == 0 ? 1 : 0, t1 = d == 2 ? 1 : 2;  // tangential directions, first fastest
      for (local_index j = 0; j < b.cells[t1]; ++j)
        for (local_index i = 0; i < b.cells[t0]; ++i) {
          global_index g[3] = {b.offset[0], b.offset[1], b.offset[2]};
          g[t0] += i;
          g[t1] += j;
          g[d] = side ? b.offset[d] + b.cells[d] : b.offset[d] - 1;
          std::array<int, 3> owner{0, 0, 0};
          for (int e = 0; e < dim; ++e) owner[e] = owner_of_cell(*mesh_, e, g[e]);
          const global_index cell = g[0] + b.global_cells[0] * (g[1] + b.global_cells[1] * g[2]);
          const int rank = mesh_->rank_of(owner);
          for (int dof = 0; dof < b.cell_dofs; ++dof) {
            ghost_ids.push_back(cell * b.cell_dofs + dof);
            ghost_owner.push_back(rank);
          }
        }
    }
  const CellBox box = box_;
  partitioner_ = std::make_shared<Partitioner<ExecSpace>>(
      mesh_->comm(), static_cast<local_index>(owned_cells * box_.cell_dofs), ghost_ids, ghost_owner,
      [box](global_index id) -> local_index {
        const global_index cell = id / box.cell_dofs;
        const int dof = static_cast<int>(id - cell * box.cell_dofs);
        const global_index g[3] = {cell % box.global_cells[0], (cell / box.global_cells[0]) % box.global_cells[1],
                                   cell / (box.global_cells[0] * box.global_cells[1])};
        local_index l[3];
        for (int d = 0; d < 3; ++d) {
          l[d] = static_cast<local_index>(g[d] - box.offset[d]);
          if (l[d] < 0 || l[d] >= box.cells[d]) return -1;
        }
        return box.cell_index(l[0], l[1], l[2]) * box.cell_dofs + dof;
      },
      transport, typename DeviceTraits<ExecSpace>::halo_staging{});
}

template <class ExecSpace>
global_index DgDofLayout<ExecSpace>::global_index_of(local_index cx, local_index cy, local_index cz, int i) const {
  const global_index cell = (box_.offset[0] + cx) +
                            box_.global_cells[0] * ((box_.offset[1] + cy) + box_.global_cells[1] * (box_.offset[2] + cz));
  return cell * box_.cell_dofs + i;
}

template class DgDofLayout<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class DgDofLayout<SecondaryExec>;)

}  // namespace tensormg
