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
/// values are read once per column (9 loads a node instead of 27). 2D: a thread per node. The
/// kernel issues about as many instructions as it has loads and multiply-adds: missing
/// neighbours and Dirichlet nodes zero the 1D weights rather than guard the loads (a Dirichlet
/// entry, finite, times zero), and the
/// owned-box index arithmetic (`fast`) is a code path of its own (ncu on the guarded first form:
/// ~350 instructions a node, 98 registers, h200-2026-11-29-q1-stencil/call2).

#include <Kokkos_Core.hpp>

#include "discretization/continuous_dof_layout.hpp"
#include "discretization/q1_stencil.hpp"

namespace tensormg {

template <int dim, class Number, class ExecSpace>
struct LaplaceQ1Gather {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const Number*, memory_space> src;
  Kokkos::View<Number*, memory_space> dst;
  /// Where given (the multigrid residual), dst = rhs − A src: owned node i stores rhs(i) − (A src)_i
  /// (a Dirichlet row rhs(i)), a ghost −(A src)_i, which compress_add subtracts at its owner.
  Kokkos::View<const Number*, memory_space> rhs;
  NodeBox box;
  Q1Direction<Number> dir[3];
  Number laplace = 1, mass = 0;
  bool zero_boundary_input = true;   ///< Dirichlet nodes read as zero
  bool skip_boundary_output = true;  ///< Dirichlet rows get 0 (the caller copies src into them)
  local_index z_chunk = 1;  ///< 3D: nodes of a z column per thread
  Q1BoundaryLayers boundary;

  KOKKOS_FORCEINLINE_FUNCTION bool dirichlet(int d, local_index i) const { return boundary.contains(d, i); }

  /// Stores node idx's value a of A src (or rhs − a).
  KOKKOS_FORCEINLINE_FUNCTION void store(local_index idx, Number a) const {
    if (rhs.data() == nullptr) dst(idx) = a;
    else dst(idx) = (idx < box.n_owned ? rhs(idx) : Number(0)) - a;
  }

  /// Node coordinate i's weights in direction d: zero towards a neighbour outside the box (no cell
  /// there) and, for the constrained operator, towards a Dirichlet node.
  KOKKOS_FORCEINLINE_FUNCTION Q1Weights1D<Number> weights(int d, local_index i) const {
    Q1Weights1D<Number> w = dir[d].weights(i > 0, i < box.cells[d]);
    if (zero_boundary_input) boundary.zero_dirichlet(d, i, w);
    return w;
  }

  /// The plane sums at (ix, iy) of plane z (clamped into the box: its weights are zero outside).
  /// Fast: the whole column's reads are owned, lexicographic in the owned box (NodeBox).
  template <bool fast>
  KOKKOS_FORCEINLINE_FUNCTION void plane(local_index ix, local_index iy, local_index z, const local_index (&x)[3],
                                         const local_index (&y)[3], const Q1Weights1D<Number>& wx,
                                         const Q1Weights1D<Number>& wy, Number& mm, Number& st) const {
    Number v[3][3];
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a)
        v[b][a] = src(fast ? ix + x[a] + box.o[0] * (iy + y[b] + box.o[1] * z) : box.index(ix + x[a], iy + y[b], z));
    q1::plane_sums(v, wx, wy, mm, st);
  }

  template <bool fast>
  KOKKOS_FORCEINLINE_FUNCTION void column(local_index ix, local_index iy, local_index z0, local_index z1,
                                          const Q1Weights1D<Number>& wx, const Q1Weights1D<Number>& wy,
                                          bool skip_xy) const {
    const local_index nz = box.n[2];
    // Neighbour offsets, clamped into the box.
    const local_index x[3] = {ix > 0 ? -1 : 0, 0, ix + 1 < box.n[0] ? 1 : 0};
    const local_index y[3] = {iy > 0 ? -1 : 0, 0, iy + 1 < box.n[1] ? 1 : 0};
    Number mm[3], st[3];
    plane<fast>(ix, iy, z0 > 0 ? z0 - 1 : 0, x, y, wx, wy, mm[1], st[1]);
    plane<fast>(ix, iy, z0, x, y, wx, wy, mm[2], st[2]);
    for (local_index iz = z0; iz < z1; ++iz) {
      mm[0] = mm[1], st[0] = st[1], mm[1] = mm[2], st[1] = st[2];
      plane<fast>(ix, iy, iz + 1 < nz ? iz + 1 : iz, x, y, wx, wy, mm[2], st[2]);
      const Q1Weights1D<Number> wz = weights(2, iz);
      const bool skip = skip_boundary_output && (skip_xy || dirichlet(2, iz));
      const local_index idx = fast ? ix + box.o[0] * (iy + box.o[1] * iz) : box.index(ix, iy, iz);
      store(idx, skip ? Number(0) : q1::combine_planes(mm, st, wz, laplace, mass));
    }
  }

  /// The last node coordinate of direction d the stencil of node i reads.
  KOKKOS_FORCEINLINE_FUNCTION local_index last_read(int d, local_index i) const { return i + 1 < box.n[d] ? i + 1 : i; }

  KOKKOS_INLINE_FUNCTION void operator()(local_index t) const {
    const local_index ix = t % box.n[0];
    const local_index rest = t / box.n[0];
    const local_index iy = rest % box.n[1];
    const Q1Weights1D<Number> wx = weights(0, ix), wy = weights(1, iy);
    const bool skip_xy = dirichlet(0, ix) || dirichlet(1, iy);
    // Owned nodes come first, lexicographic in the owned box (NodeBox): where every node a thread
    // reads is owned, their indices follow directly.
    const bool fast_xy = last_read(0, ix) < box.o[0] && last_read(1, iy) < box.o[1];
    if constexpr (dim == 2) {
      const local_index x[3] = {ix > 0 ? -1 : 0, 0, ix + 1 < box.n[0] ? 1 : 0};
      const local_index y[3] = {iy > 0 ? -1 : 0, 0, iy + 1 < box.n[1] ? 1 : 0};
      Number mm, st;
      if (fast_xy) plane<true>(ix, iy, 0, x, y, wx, wy, mm, st);
      else plane<false>(ix, iy, 0, x, y, wx, wy, mm, st);
      const bool skip = skip_boundary_output && skip_xy;
      store(fast_xy ? ix + box.o[0] * iy : box.index(ix, iy, 0), skip ? Number(0) : q1::combine_plane(mm, st, laplace, mass));
    } else {
      const local_index nz = box.n[2];
      const local_index z0 = (rest / box.n[1]) * z_chunk;
      const local_index z1 = z0 + z_chunk < nz ? z0 + z_chunk : nz;
      if (fast_xy && last_read(2, z1 - 1) < box.o[2]) column<true>(ix, iy, z0, z1, wx, wy, skip_xy);
      else column<false>(ix, iy, z0, z1, wx, wy, skip_xy);
    }
  }
};

/// dst = A src on every node of the box (owned and ghost) by gathering; `z_chunk` nodes per 3D
/// thread (0: the whole column). With rhs (not empty): dst = rhs − A src (LaplaceQ1Gather::rhs).
template <class Number, class ExecSpace>
void apply_laplace_q1_gather(const Kokkos::View<const Number*, typename ExecSpace::memory_space>& src,
                             const Kokkos::View<Number*, typename ExecSpace::memory_space>& dst, const NodeBox& box,
                             const Q1Direction<Number> (&dir)[3], Number laplace, Number mass, bool constrained,
                             local_index z_chunk,
                             const Kokkos::View<const Number*, typename ExecSpace::memory_space>& rhs = {}) {
  if (box.n[0] == 0 || box.n[1] == 0 || (box.dim == 3 && box.n[2] == 0)) return;
  const auto run = [&](auto kernel) {
    kernel.src = src;
    kernel.dst = dst;
    kernel.rhs = rhs;
    kernel.box = box;
    for (int d = 0; d < 3; ++d) kernel.dir[d] = dir[d];
    kernel.laplace = laplace;
    kernel.mass = mass;
    kernel.boundary = Q1BoundaryLayers(box);
    kernel.zero_boundary_input = constrained;
    kernel.skip_boundary_output = constrained;
    const local_index nz = box.dim == 3 ? box.n[2] : 1;
    kernel.z_chunk = z_chunk > 0 && z_chunk < nz ? z_chunk : nz;
    const local_index chunks = (nz + kernel.z_chunk - 1) / kernel.z_chunk;
    const std::int64_t threads = std::int64_t(box.n[0]) * box.n[1] * (box.dim == 3 ? chunks : 1);
    Kokkos::parallel_for("tensormg::operator::laplace::q1_gather",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<local_index>>(0, local_index(threads)), kernel);
  };
  if (box.dim == 2) run(LaplaceQ1Gather<2, Number, ExecSpace>{});
  else run(LaplaceQ1Gather<3, Number, ExecSpace>{});
}

}  // namespace tensormg
