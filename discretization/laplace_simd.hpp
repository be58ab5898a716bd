#pragma once
/// @file
/// The continuous Q_k operator on the host with cells in SIMD lanes (ScatterMode::simd; deal.II's
/// VectorizedArray over cells): a thread takes a row of cells along x and works on W of them at
/// once, W the lanes of the host's widest vector register (simd::native_width), lane w holding
/// cell x0 + w of the row. The arithmetic is the cell kernel's (CellSteps of laplace_kernels.hpp,
/// even-odd where the tuning row says) on simd::Pack numbers, so one vector FMA does a multiply-add
/// of W cells. The gather from and the scatter to the global vector go lane by lane: along an x
/// line of owned nodes from one start (lane w at + w·k), on Dirichlet and ghost lines node by node.
///
/// No atomics: rows of one parity colour (2D: y even / odd, 3D: (y, z) mod 2, 4 colours) share no
/// node, so one launch per colour runs its rows in parallel with plain adds; within a row one
/// thread adds the lanes' values in lane order, so the face two x-neighbour cells share is summed
/// as in sequence. A thread's two cell buffers are local arrays of packs (3D k = 7 with 8 lanes:
/// 2 · 576 entries of 64 B, 72 KiB, in the tuning row's padded layout): no team, no scratch, no
/// barrier.

#include <Kokkos_Core.hpp>

#include <stdexcept>

#include "core/simd_pack.hpp"
#include "discretization/laplace_kernels.hpp"

namespace tensormg {

template <int dim, int n, class Number, class ExecSpace>
struct CellBatchKernel : CellSteps<dim, n, simd::Pack<Number, simd::native_width<Number>>, ExecSpace> {
  static constexpr int W = simd::native_width<Number>;
  using P = simd::Pack<Number, W>;
  using Steps = CellSteps<dim, n, P, ExecSpace>;
  using Steps::k, Steps::lines, Steps::cell_extent, Steps::stride_x, Steps::stride_xy, Steps::offset,
      Steps::x_line_start, Steps::last_line_start;

  CellKernelArgs<Number, ExecSpace> args;
  /// The launch's colour: rows (y, z) with y ≡ parity_y, z ≡ parity_z (mod 2); rows_y of them along y.
  int parity_y = 0, parity_z = 0;
  local_index rows_y = 0;

  /// The cells of a batch: lane w holds cell (x0 + w, cy, cz) for w < lanes (the row's last batch
  /// may have fewer than W).
  struct Batch {
    local_index x0 = 0, cy = 0, cz = 0;
    int lanes = W;
  };

  /// The lanes' x line (j, l) when all its nodes are owned (no ghost of the rank's upper layer):
  /// lane w's node i at the returned start + w·k + i; else -1.
  KOKKOS_INLINE_FUNCTION local_index owned_line(const Batch& b, int j, int l) const {
    const NodeBox& box = args.box;
    const local_index ix = b.x0 * k, iy = b.cy * k + j, iz = dim == 3 ? b.cz * k + l : 0;
    if (ix + b.lanes * k < box.o[0] && iy < box.o[1] && (dim == 2 || iz < box.o[2]))
      return ix + box.o[0] * (iy + box.o[1] * iz);
    return -1;
  }
  /// Whether the x line (j, l) lies on the Dirichlet boundary in y or z (all its nodes do).
  KOKKOS_INLINE_FUNCTION bool boundary_line(const Batch& b, int j, int l) const {
    const NodeBox& box = args.box;
    const global_index gy = box.offset[1] + b.cy * k + j, gz = box.offset[2] + b.cz * k + l;
    return gy == 0 || gy == box.global_nodes[1] - 1 || (dim == 3 && (gz == 0 || gz == box.global_nodes[2] - 1));
  }
  /// The Dirichlet nodes of an x line in x: the first lane's node 0 at the brick's lower end, the
  /// last lane's node k at its upper end.
  KOKKOS_INLINE_FUNCTION bool lower_x_boundary(const Batch& b) const { return args.box.offset[0] + b.x0 * k == 0; }
  KOKKOS_INLINE_FUNCTION bool upper_x_boundary(const Batch& b) const {
    return args.box.offset[0] + (b.x0 + b.lanes) * k == args.box.global_nodes[0] - 1;
  }
  /// Lane w's node (i, j, l) in general: -1 past the batch's lanes or for a skipped Dirichlet node.
  KOKKOS_INLINE_FUNCTION local_index node_index(const Batch& b, int w, int i, int j, int l, bool skip_boundary) const {
    if (w >= b.lanes) return -1;
    const local_index ix = (b.x0 + w) * k + i, iy = b.cy * k + j, iz = dim == 3 ? b.cz * k + l : 0;
    if (skip_boundary && args.box.on_boundary(ix, iy, iz)) return -1;
    return args.box.index(ix, iy, iz);
  }

  /// u[i] = the lanes' values at node i of their x line (j, l), Dirichlet nodes as zero where the
  /// operator is constrained: a line of owned nodes lane by lane from one start, others node by node.
  KOKKOS_INLINE_FUNCTION void gather_line(const Batch& b, int j, int l, P (&u)[1][n]) const {
    const bool zero_boundary = args.zero_boundary_input;
    if (zero_boundary && boundary_line(b, j, l)) {
      for (int i = 0; i < n; ++i) u[0][i] = P(Number(0));
      return;
    }
    const local_index start = owned_line(b, j, l);
    if (start >= 0) {
      const Number* s = args.src.data() + start;
      if (b.lanes == W) {
        for (int i = 0; i < n; ++i)
          for (int w = 0; w < W; ++w) u[0][i].set(w, s[w * k + i]);
      } else {
        for (int i = 0; i < n; ++i)
          for (int w = 0; w < W; ++w) u[0][i].set(w, w < b.lanes ? s[w * k + i] : Number(0));
      }
      if (zero_boundary && lower_x_boundary(b)) u[0][0].set(0, Number(0));
      if (zero_boundary && upper_x_boundary(b)) u[0][k].set(b.lanes - 1, Number(0));
    } else {
      for (int i = 0; i < n; ++i)
        for (int w = 0; w < W; ++w) {
          const local_index idx = node_index(b, w, i, j, l, zero_boundary);
          u[0][i].set(w, idx >= 0 ? args.src(idx) : Number(0));
        }
    }
  }

  /// Adds v (a value per lane) to the lanes' node (i, j, l), lane by lane in order (node k of lane w
  /// is node 0 of lane w + 1); nothing to skipped Dirichlet nodes.
  KOKKOS_INLINE_FUNCTION void add_to_nodes(const Batch& b, int i, int j, int l, const P& v) const {
    const bool skip = args.skip_boundary_output;
    if (skip && boundary_line(b, j, l)) return;
    const local_index start = owned_line(b, j, l);
    if (start >= 0) {
      Number* d = args.dst.data() + start + i;
      const int first = skip && i == 0 && lower_x_boundary(b) ? 1 : 0;
      const int last = skip && i == k && upper_x_boundary(b) ? b.lanes - 1 : b.lanes;
      for (int w = first; w < last; ++w) d[w * k] += v[w];
    } else {
      for (int w = 0; w < b.lanes; ++w) {
        const local_index idx = node_index(b, w, i, j, l, skip);
        if (idx >= 0) args.dst(idx) += v[w];
      }
    }
  }

  /// The sink of CellSteps::last_step: output o of the last-direction line (p, q) to the lanes'
  /// nodes (host and device annotated like the steps that call it).
  struct LaneAdder {
    const CellBatchKernel& kernel;
    const Batch& batch;
    int p, q;
    KOKKOS_INLINE_FUNCTION void operator()(int o, const P& v) const {
      if constexpr (dim == 2) kernel.add_to_nodes(batch, p, o, 0, v);
      else kernel.add_to_nodes(batch, p, q, o, v);
    }
  };

  /// Row r of the launch's colour.
  void operator()(local_index r) const {
    Batch b;
    b.cy = parity_y + 2 * (r % rows_y);
    b.cz = dim == 3 ? parity_z + 2 * (r / rows_y) : 0;
    const local_index cells_x = args.box.cells[0];
    P t0[cell_extent], t1[cell_extent];
    for (b.x0 = 0; b.x0 < cells_x; b.x0 += W) {
      b.lanes = cells_x - b.x0 < W ? int(cells_x - b.x0) : W;
      apply(b, t0, t1);
    }
  }

  void apply(const Batch& b, P* t0, P* t1) const {
    // x: t0 = M_x u, t1 = A_x u along lines of constant (y, z), u gathered lane by lane.
    for (int line = 0; line < lines; ++line) {
      const int j = line % n, l = dim == 3 ? line / n : 0;
      P u[1][n];
      gather_line(b, j, l, u);
      this->first_step(u, t0, t1, x_line_start(line));
    }
    if constexpr (dim == 3) {
      // y: in place on both buffers: t0 = M_y t0, t1 = A_y t0 + M_y t1.
      for (int line = 0; line < lines; ++line) {
        const int base = offset(line % n, 0, line / n);
        P r0[1][n], r1[1][n];
        contraction::load_column(t0 + base, stride_x, r0[0]);
        contraction::load_column(t1 + base, stride_x, r1[0]);
        this->middle_step(r0, r1, t0, t1, base);
      }
    }
    // The last direction: v = a A t0 + M (a t1 + b t0), added to the global vector.
    constexpr int stride_last = dim == 2 ? stride_x : stride_xy;
    const P a(args.laplace), m(args.mass);
    for (int line = 0; line < lines; ++line) {
      const int base = dim == 2 ? line : last_line_start(line);
      P r0[1][n], r1[1][n];
      contraction::load_column(t0 + base, stride_last, r0[0]);
      contraction::load_column(t1 + base, stride_last, r1[0]);
      for (int j = 0; j < n; ++j) {
        r1[0][j] = a * r1[0][j] + m * r0[0][j];
        r0[0][j] *= a;
      }
      this->last_step(r0, r1, LaneAdder{*this, b, line % n, line / n});
    }
  }
};

/// One launch per row colour (ScatterMode::simd); dst zeroed by the caller. Host execution spaces
/// only: the operator refuses the mode on a GPU before any launch.
template <int dim, int n, class Number, class ExecSpace>
void launch_cell_batches(const CellKernelArgs<Number, ExecSpace>& args) {
  if constexpr (!runs_on_host<ExecSpace>()) {
    throw std::logic_error("the continuous operator's SIMD cell kernel runs on the host only");
  } else {
    using Kernel = CellBatchKernel<dim, n, Number, ExecSpace>;
    Kernel kernel;
    kernel.args = args;
    kernel.set_matrices(args.host_matrices);
    const local_index cells_y = args.box.cells[1], cells_z = dim == 3 ? args.box.cells[2] : 1;
    if (args.box.cells[0] == 0) return;
    for (int color = 0; color < (dim == 3 ? 4 : 2); ++color) {
      kernel.parity_y = color & 1;
      kernel.parity_z = color >> 1;
      kernel.rows_y = (cells_y - kernel.parity_y + 1) / 2;
      const local_index rows = kernel.rows_y * (dim == 3 ? (cells_z - kernel.parity_z + 1) / 2 : 1);
      if (rows <= 0) continue;
      Kokkos::parallel_for("tensormg::operator::laplace::simd",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>>(0, rows), kernel);
    }
  }
}

}  // namespace tensormg
