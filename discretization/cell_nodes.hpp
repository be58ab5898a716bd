#pragma once
/// @file
/// Where a cell's nodes are in a continuous Q_k vector: the cells a launch visits (all, or one
/// parity colour) and, per cell, the map from its node (i, j, l) to the local vector index, with
/// a fast path for the common cell whose nodes are all owned and none on the Dirichlet boundary.
/// The cell kernels that gather from and scatter to continuous vectors (the Laplace operator, the
/// bake-off operators) share it.

#include <Kokkos_Core.hpp>

#include "core/fast_divisor.hpp"
#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

namespace detail {

/// Number of cells a launch visits and the map from a running cell number to cell coordinates.
struct CellRange {
  local_index extent[3] = {1, 1, 1};  // cells per direction in the visited (sub)set
  int parity[3] = {0, 0, 0};
  int stride = 1;
  FastDivisor by_extent[2];  // extent[0], extent[1] (at least 1)
  KOKKOS_INLINE_FUNCTION local_index size() const { return extent[0] * extent[1] * extent[2]; }
  KOKKOS_INLINE_FUNCTION void coordinates(local_index c, local_index out[3]) const {
    local_index r0, r1;
    const local_index q0 = by_extent[0].divmod(c, r0);
    const local_index q1 = by_extent[1].divmod(q0, r1);
    out[0] = parity[0] + stride * r0;
    out[1] = parity[1] + stride * r1;
    out[2] = parity[2] + stride * q1;
  }
};

/// All cells of the rank's box (color −1, lexicographic) or those of one colour: (c_d mod 2) = bit d.
inline CellRange cell_range(const NodeBox& box, int color) {
  CellRange r;
  for (int d = 0; d < 3; ++d) {
    if (color < 0 || d >= box.dim) {
      r.extent[d] = box.cells[d];
      r.parity[d] = 0;
    } else {
      r.parity[d] = (color >> d) & 1;
      r.extent[d] = box.cells[d] > r.parity[d] ? (box.cells[d] - r.parity[d] + 1) / 2 : 0;
    }
  }
  r.stride = color < 0 ? 1 : 2;
  for (int d = 0; d < 2; ++d) r.by_extent[d] = FastDivisor(r.extent[d] > 0 ? r.extent[d] : 1);
  return r;
}

}  // namespace detail

/// The nodes of one cell of degree k: its coordinates in the rank's box and, on the fast path
/// (all of the cell's nodes owned, none a Dirichlet node), the local index of its first node.
template <int dim, int k>
struct CellNodes {
  local_index cc[3] = {0, 0, 0};
  local_index first_node = 0;
  bool fast = false;

  CellNodes() = default;
  KOKKOS_INLINE_FUNCTION CellNodes(const NodeBox& b, const detail::CellRange& cells, local_index c) {
    cells.coordinates(c, cc);
    const local_index x0 = cc[0] * k, y0 = cc[1] * k, z0 = dim == 3 ? cc[2] * k : 0;
    const global_index gx = b.offset[0] + x0, gy = b.offset[1] + y0, gz = b.offset[2] + z0;
    fast = x0 + k < b.o[0] && y0 + k < b.o[1] && (dim == 2 || z0 + k < b.o[2]) &&  // owned
           gx > 0 && gx + k < b.global_nodes[0] - 1 && gy > 0 && gy + k < b.global_nodes[1] - 1 &&
           (dim == 2 || (gz > 0 && gz + k < b.global_nodes[2] - 1));  // no Dirichlet node
    first_node = x0 + b.o[0] * (y0 + b.o[1] * z0);
  }

  /// Local vector index of node (i, j, l) of the cell: one multiply-add chain on the fast path;
  /// otherwise -1 for a Dirichlet node (when skip_boundary) or the general map.
  KOKKOS_INLINE_FUNCTION local_index index(const NodeBox& b, int i, int j, int l, bool skip_boundary) const {
    if (fast) return first_node + i + b.o[0] * (j + b.o[1] * l);
    const local_index ix = cc[0] * k + i, iy = cc[1] * k + j, iz = dim == 3 ? cc[2] * k + l : 0;
    if (skip_boundary && b.on_boundary(ix, iy, iz)) return -1;
    return b.index(ix, iy, iz);
  }
};

}  // namespace tensormg
