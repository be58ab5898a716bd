#pragma once
/// @file
/// The continuous Q1 operator by gathering (ScatterMode::gather): every node of the rank's box
/// sums the contributions of the box's cells around it itself, as the stencil of q1_stencil.hpp,
/// and stores the sum. No atomic adds and no scatter; the cell kernel (laplace_kernels.hpp) adds
/// each of 2^d cell contributions per node atomically, and at k = 1 a cell has no interior node to
/// store plainly. Nodes on the box's upper layer that another rank owns get the partial sum of this
/// rank's cells, which compress_add gives to their owner, as the cell kernel's ghost entries do.
///
/// 3D: a thread per (x, y) node column and a chunk of `z_chunk` nodes along z; it keeps the plane
/// sums of the planes below, at and above its node (a sliding window), so each plane's 3 × 3
/// values are read once per column (9 loads a node instead of 27). 2D: a thread per node.

#include <Kokkos_Core.hpp>

#include "discretization/continuous_dof_layout.hpp"
#include "discretization/q1_stencil.hpp"

namespace tensormg {

template <int dim, class Number, class ExecSpace>
struct LaplaceQ1Gather {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const Number*, memory_space> src;
  Kokkos::View<Number*, memory_space> dst;
  NodeBox box;
  Q1Direction<Number> dir[3];
  Number laplace = 1, mass = 0;
  bool zero_boundary_input = true;   ///< Dirichlet nodes read as zero
  bool skip_boundary_output = true;  ///< Dirichlet rows get 0 (the caller copies src into them)
  local_index z_chunk = 1, chunks = 1;

  /// Whether global node coordinate g of direction d lies on the brick's boundary.
  KOKKOS_FORCEINLINE_FUNCTION bool dirichlet(int d, local_index i) const {
    const global_index g = box.offset[d] + i;
    return g == 0 || g == box.global_nodes[d] - 1;
  }

  /// For a node coordinate i of direction d: which of its neighbours (i − 1, i, i + 1) are read
  /// (inside the box and, for the constrained operator, not Dirichlet nodes), and its weights.
  KOKKOS_FORCEINLINE_FUNCTION void direction_of(int d, local_index i, bool (&read)[3], Q1Weights1D<Number>& w) const {
    const local_index n = box.n[d];
    for (int a = 0; a < 3; ++a) {
      const local_index j = i + a - 1;
      read[a] = j >= 0 && j < n && !(zero_boundary_input && dirichlet(d, j));
    }
    w = dir[d].weights(i > 0, i < box.cells[d]);
  }

  /// The last node coordinate of direction d the stencil of node i reads.
  KOKKOS_FORCEINLINE_FUNCTION local_index last_read(int d, local_index i) const { return i + 1 < box.n[d] ? i + 1 : i; }

  /// The 3 × 3 values of plane z around (ix, iy): zero where not read.
  KOKKOS_FORCEINLINE_FUNCTION void load_plane(local_index ix, local_index iy, local_index iz, const bool (&rx)[3],
                                              const bool (&ry)[3], bool rz, bool fast, Number (&v)[3][3]) const {
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        const bool read = rz && ry[b] && rx[a];
        const local_index x = ix + a - 1, y = iy + b - 1;
        const local_index idx = fast ? x + box.o[0] * (y + box.o[1] * iz) : (read ? box.index(x, y, iz) : 0);
        v[b][a] = read ? src(idx) : Number(0);
      }
  }

  KOKKOS_INLINE_FUNCTION void operator()(local_index t) const {
    const local_index ix = t % box.n[0];
    const local_index rest = t / box.n[0];
    const local_index iy = rest % box.n[1];
    bool rx[3], ry[3];
    Q1Weights1D<Number> wx, wy;
    direction_of(0, ix, rx, wx);
    direction_of(1, iy, ry, wy);
    const bool out_x = dirichlet(0, ix), out_y = dirichlet(1, iy);
    // Owned nodes come first, lexicographic in the owned box (NodeBox): where every node a thread
    // reads is owned, their indices follow directly.
    if constexpr (dim == 2) {
      const bool fast = last_read(0, ix) < box.o[0] && last_read(1, iy) < box.o[1];
      Number v[3][3], mm, st;
      load_plane(ix, iy, 0, rx, ry, true, fast, v);
      q1::plane_sums(v, wx, wy, mm, st);
      const bool skip = skip_boundary_output && (out_x || out_y);
      dst(box.index(ix, iy, 0)) = skip ? Number(0) : q1::combine_plane(mm, st, laplace, mass);
    } else {
      const local_index nz = box.n[2];
      const local_index z0 = (rest / box.n[1]) * z_chunk;
      const local_index z1 = z0 + z_chunk < nz ? z0 + z_chunk : nz;
      const bool fast = last_read(0, ix) < box.o[0] && last_read(1, iy) < box.o[1] && last_read(2, z1 - 1) < box.o[2];
      Number mm[3], st[3], v[3][3];
      // The planes below and at z0 (a plane outside the box sums to zero).
      for (int c = 0; c < 2; ++c) {
        const local_index z = z0 + c - 1;
        const bool rz = z >= 0 && !(zero_boundary_input && dirichlet(2, z));
        load_plane(ix, iy, z >= 0 ? z : 0, rx, ry, rz, fast, v);
        q1::plane_sums(v, wx, wy, mm[c + 1], st[c + 1]);
      }
      for (local_index iz = z0; iz < z1; ++iz) {
        mm[0] = mm[1], st[0] = st[1], mm[1] = mm[2], st[1] = st[2];
        const local_index z = iz + 1;
        const bool rz = z < nz && !(zero_boundary_input && dirichlet(2, z));
        load_plane(ix, iy, z < nz ? z : iz, rx, ry, rz, fast, v);
        q1::plane_sums(v, wx, wy, mm[2], st[2]);
        const Q1Weights1D<Number> wz = dir[2].weights(iz > 0, iz < box.cells[2]);
        const bool skip = skip_boundary_output && (out_x || out_y || dirichlet(2, iz));
        const local_index idx = fast ? ix + box.o[0] * (iy + box.o[1] * iz) : box.index(ix, iy, iz);
        dst(idx) = skip ? Number(0) : q1::combine_planes(mm, st, wz, laplace, mass);
      }
    }
  }
};

/// dst = A src on every node of the box (owned and ghost) by gathering; `z_chunk` nodes per 3D
/// thread (0: the whole column).
template <class Number, class ExecSpace>
void apply_laplace_q1_gather(const Kokkos::View<const Number*, typename ExecSpace::memory_space>& src,
                             const Kokkos::View<Number*, typename ExecSpace::memory_space>& dst, const NodeBox& box,
                             const Q1Direction<Number> (&dir)[3], Number laplace, Number mass, bool constrained,
                             local_index z_chunk) {
  if (box.n[0] == 0 || box.n[1] == 0 || (box.dim == 3 && box.n[2] == 0)) return;
  const auto run = [&](auto kernel) {
    kernel.src = src;
    kernel.dst = dst;
    kernel.box = box;
    for (int d = 0; d < 3; ++d) kernel.dir[d] = dir[d];
    kernel.laplace = laplace;
    kernel.mass = mass;
    kernel.zero_boundary_input = constrained;
    kernel.skip_boundary_output = constrained;
    const local_index nz = box.dim == 3 ? box.n[2] : 1;
    kernel.z_chunk = z_chunk > 0 && z_chunk < nz ? z_chunk : nz;
    kernel.chunks = (nz + kernel.z_chunk - 1) / kernel.z_chunk;
    const std::int64_t threads = std::int64_t(box.n[0]) * box.n[1] * (box.dim == 3 ? kernel.chunks : 1);
    Kokkos::parallel_for("tensormg::operator::laplace::q1_gather",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<local_index>>(0, local_index(threads)), kernel);
  };
  if (box.dim == 2) run(LaplaceQ1Gather<2, Number, ExecSpace>{});
  else run(LaplaceQ1Gather<3, Number, ExecSpace>{});
}

}  // namespace tensormg
