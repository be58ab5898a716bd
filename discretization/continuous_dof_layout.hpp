#pragma once
/// @file
/// Nodes of continuous Q_k elements on a CartesianMesh: global lexicographic numbering of the
/// (N_d k + 1) nodes per direction (paper 000, Fig. 4), the rank's owned and ghost nodes, and the
/// homogeneous Dirichlet boundary. No index arrays: kernels compute local indices from node
/// coordinates through NodeBox.

#include <cstdint>
#include <limits>
#include <memory>

#include "core/kernel_table.hpp"
#include "core/partitioner.hpp"
#include "discretization/cartesian_mesh.hpp"

namespace tensormg {

/// Maps the rank's local node coordinates to local vector indices; trivially copyable, used in
/// kernels. The rank's node box covers its cells' closure: n[d] = cells * k + 1 nodes (0 without
/// cells). The rank owns the first o[d] of them per direction (the upper layer belongs to the next
/// rank, except on the domain's upper boundary); owned nodes come first in lexicographic order of
/// the owned box, ghosts follow in lexicographic order of the whole box.
struct NodeBox {
  int dim = 2;
  int degree = 1;
  local_index n[3] = {0, 0, 0};
  local_index o[3] = {0, 0, 0};
  local_index n_owned = 0;
  global_index offset[3] = {0, 0, 0};        ///< global node coordinate of local node (0, 0, 0)
  global_index global_nodes[3] = {1, 1, 1};  ///< nodes per direction of the whole mesh
  local_index cells[3] = {0, 0, 0};          ///< local cells per direction

  KOKKOS_INLINE_FUNCTION local_index index(local_index ix, local_index iy, local_index iz) const {
    if (ix < o[0] && iy < o[1] && iz < o[2]) return ix + o[0] * (iy + o[1] * iz);
    const local_index full = ix + n[0] * (iy + n[1] * iz);
    const local_index owned_before =
        o[0] * o[1] * (iz < o[2] ? iz : o[2]) +
        (iz < o[2] ? o[0] * (iy < o[1] ? iy : o[1]) + (iy < o[1] ? (ix < o[0] ? ix : o[0]) : 0) : 0);
    return n_owned + full - owned_before;
  }
  /// True for nodes on the boundary of the brick (Dirichlet nodes).
  /// (No local array indexed by the run-time dim: in kernels that put it in local memory.)
  KOKKOS_INLINE_FUNCTION bool on_boundary(local_index ix, local_index iy, local_index iz) const {
    const global_index gx = offset[0] + ix, gy = offset[1] + iy, gz = offset[2] + iz;
    return gx == 0 || gx == global_nodes[0] - 1 || gy == 0 || gy == global_nodes[1] - 1 ||
           (dim == 3 && (gz == 0 || gz == global_nodes[2] - 1));
  }
};

/// Node coordinates in kernels: x_d(g) = lower_d + h_d (cell + Gauss–Lobatto point), for the global
/// node coordinate g = offset_d + local coordinate; trivially copyable.
struct NodeCoordinates {
  static constexpr int max_points = 11;  ///< degree 10 + 1
  int degree = 1;
  double lower[3] = {0, 0, 0};
  double h[3] = {1, 1, 1};
  global_index offset[3] = {0, 0, 0};
  double points[max_points] = {};  ///< Gauss–Lobatto points on [0, 1]

  /// Coordinate in direction d of global node coordinate g.
  KOKKOS_INLINE_FUNCTION double global(int d, global_index g) const {
    const global_index cell = g / degree;
    return lower[d] + h[d] * (double(cell) + points[g - cell * degree]);
  }
  /// Coordinate in direction d of the rank's local node coordinate i.
  KOKKOS_INLINE_FUNCTION double local(int d, local_index i) const { return global(d, offset[d] + i); }
};

/// The rank's owned Dirichlet (brick boundary) nodes as local indices, in increasing order; visits
/// only the rows that can hold one (O(surface) work, not a loop over the whole box).
std::vector<local_index> owned_boundary_node_list(const NodeBox& box);

/// Host-side layout: the NodeBox, node coordinates, and the partitioner of vectors on it.
template <class ExecSpace>
class ContinuousDofLayout {
 public:
  /// Collective. Degrees 1..10 in 2D and 1..8 in 3D. `transport`: how the vectors' ghost
  /// exchanges travel between ranks whose GPUs reach each other's memory (core/halo_exchange.hpp).
  ContinuousDofLayout(std::shared_ptr<const CartesianMesh> mesh, int degree,
                      HaloTransport transport = HaloTransport::automatic);

  const CartesianMesh& mesh() const { return *mesh_; }
  const std::shared_ptr<const CartesianMesh>& mesh_ptr() const { return mesh_; }
  int degree() const { return box_.degree; }
  int dim() const { return box_.dim; }
  const NodeBox& box() const { return box_; }
  const std::shared_ptr<const Partitioner<ExecSpace>>& partitioner() const { return partitioner_; }
  /// The owned constrained (homogeneous Dirichlet) nodes, computed once: operators, smoothers,
  /// multigrid levels and right-hand sides share this list.
  const Kokkos::View<local_index*, typename ExecSpace::memory_space>& constrained_nodes() const {
    return constrained_nodes_;
  }
  global_index n_global_dofs() const { return partitioner_->n_global(); }
  /// Coordinate of global node g in direction d (Gauss–Lobatto points inside each cell).
  double node_coordinate(int d, global_index g) const { return coordinates_.global(d, g); }
  /// The node coordinates as kernels use them (the same arithmetic as node_coordinate).
  const NodeCoordinates& node_coordinates() const { return coordinates_; }
  /// Global lexicographic index of a local node.
  global_index global_index_of(local_index ix, local_index iy, local_index iz) const;

  /// The most nodes (owned + ghost) one rank's box may hold: local indices are 32-bit.
  static constexpr std::int64_t max_local_nodes() { return std::numeric_limits<local_index>::max(); }
  /// Largest supported degree in a dimension.
  static int max_degree(int dim) { return tensormg::max_degree(dim); }

 private:
  int owner_coordinate(int d, global_index g) const;
  std::shared_ptr<const CartesianMesh> mesh_;
  NodeBox box_;
  NodeCoordinates coordinates_;
  std::shared_ptr<const Partitioner<ExecSpace>> partitioner_;
  Kokkos::View<local_index*, typename ExecSpace::memory_space> constrained_nodes_;
};

}  // namespace tensormg
