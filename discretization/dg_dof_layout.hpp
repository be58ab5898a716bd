#pragma once
/// @file
/// Degrees of freedom of discontinuous Q_k elements on a CartesianMesh, numbered cell-wise
/// lexicographically (paper 002 §4.1, Fig. 6 right): the (k+1)^d values of a cell are contiguous
/// and lexicographic (Gauss–Lobatto nodes, x fastest), the rank's cells are lexicographic in its
/// box, and the face neighbours owned by other ranks follow as ghost cells, one slab per box
/// face. No index arrays: kernels find a neighbour through CellBox.

#include <cstdint>
#include <limits>
#include <memory>

#include "core/distributed_vector.hpp"
#include "core/kernel_table.hpp"
#include "core/partitioner.hpp"
#include "discretization/cartesian_mesh.hpp"
#include "discretization/continuous_dof_layout.hpp"  // NodeCoordinates

namespace tensormg {

/// The rank's cells and their face neighbours as kernels see them; trivially copyable.
struct CellBox {
  int dim = 2;
  int degree = 1;
  int cell_dofs = 4;                        ///< (k+1)^d
  local_index cells[3] = {0, 0, 0};         ///< owned cells per direction (all 0 without cells)
  local_index n_owned_cells = 0;
  global_index offset[3] = {0, 0, 0};       ///< global coordinates of owned cell (0, 0, 0)
  global_index global_cells[3] = {1, 1, 1};
  bool boundary[3][2] = {};                 ///< the box face [d][lower/upper] lies on the brick's boundary
  local_index slab_offset[3][2] = {};       ///< first ghost cell of the slab behind box face [d][side]

  KOKKOS_INLINE_FUNCTION local_index cell_index(local_index cx, local_index cy, local_index cz) const {
    return cx + cells[0] * (cy + cells[1] * cz);
  }
  KOKKOS_INLINE_FUNCTION void coordinates(local_index c, local_index cc[3]) const {
    cc[0] = c % cells[0];
    cc[1] = (c / cells[0]) % cells[1];
    cc[2] = c / (cells[0] * cells[1]);
  }
  /// Local cell index (owned or ghost) of the face neighbour of owned cell cc across its face in
  /// direction d, side 0 (lower) or 1 (upper); −1 on the brick's boundary.
  KOKKOS_INLINE_FUNCTION local_index neighbor(const local_index cc[3], int d, int side) const {
    const local_index moved = cc[d] + (side ? 1 : -1);
    if (moved >= 0 && moved < cells[d])
      return d == 0 ? cell_index(moved, cc[1], cc[2]) : d == 1 ? cell_index(cc[0], moved, cc[2])
                                                             : cell_index(cc[0], cc[1], moved);
    if (boundary[d][side]) return -1;
    const local_index tangential = d == 0 ? cc[1] + cells[1] * cc[2] : d == 1 ? cc[0] + cells[0] * cc[2]
                                                                               : cc[0] + cells[0] * cc[1];
    return n_owned_cells + slab_offset[d][side] + tangential;
  }
  /// True when owned cell cc's face (d, side) lies on the brick's boundary.
  KOKKOS_INLINE_FUNCTION bool on_boundary(const local_index cc[3], int d, int side) const {
    return boundary[d][side] && cc[d] == (side ? cells[d] - 1 : 0);
  }
};

/// Host-side layout of discontinuous Q_k: the CellBox, node coordinates (as for continuous
/// elements, per cell), and the partitioner of vectors on it (ghost cells = face neighbours on
/// other ranks, whole cells).
template <class ExecSpace>
class DgDofLayout {
 public:
  /// Collective. Degrees 1..max_degree(dim). `transport` as for ContinuousDofLayout.
  DgDofLayout(std::shared_ptr<const CartesianMesh> mesh, int degree, HaloTransport transport = HaloTransport::automatic);

  const CartesianMesh& mesh() const { return *mesh_; }
  const std::shared_ptr<const CartesianMesh>& mesh_ptr() const { return mesh_; }
  int degree() const { return box_.degree; }
  int dim() const { return box_.dim; }
  const CellBox& box() const { return box_; }
  const std::shared_ptr<const Partitioner<ExecSpace>>& partitioner() const { return partitioner_; }
  global_index n_global_dofs() const { return partitioner_->n_global(); }
  /// Gauss–Lobatto points and cell sizes; NodeCoordinates::global(d, cell · k + i) is the
  /// coordinate of node i of global cell `cell` in direction d.
  const NodeCoordinates& node_coordinates() const { return coordinates_; }
  /// Global index of dof `i` (0..(k+1)^d − 1) of owned cell (cx, cy, cz): global cell-wise
  /// lexicographic, independent of the rank count.
  global_index global_index_of(local_index cx, local_index cy, local_index cz, int i) const;
  /// No constrained values: SIPG imposes Dirichlet data weakly. Empty, so that code written for
  /// both discretizations (multigrid's copy/set of constrained entries) needs no branch.
  const Kokkos::View<local_index*, typename ExecSpace::memory_space>& constrained_nodes() const { return no_constraints_; }

  /// The most values (owned + ghost) one rank may hold: local indices are 32-bit.
  static constexpr std::int64_t max_local_dofs() { return std::numeric_limits<local_index>::max(); }

 private:
  std::shared_ptr<const CartesianMesh> mesh_;
  CellBox box_;
  NodeCoordinates coordinates_;
  std::shared_ptr<const Partitioner<ExecSpace>> partitioner_;
  Kokkos::View<local_index*, typename ExecSpace::memory_space> no_constraints_{"dg_no_constraints", 0};
};

/// v(value) = f(global index) on owned values: independent of the rank count.
template <class Number, class ExecSpace, class F>
void fill_by_global_index(const DgDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v, const F& f) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  const CellBox& b = layout.box();
  for (local_index c = 0; c < b.n_owned_cells; ++c) {
    local_index cc[3];
    b.coordinates(c, cc);
    for (int i = 0; i < b.cell_dofs; ++i)
      host(std::size_t(c) * b.cell_dofs + i) = static_cast<Number>(f(layout.global_index_of(cc[0], cc[1], cc[2], i)));
  }
  Kokkos::deep_copy(v.view(), host);
}

}  // namespace tensormg
