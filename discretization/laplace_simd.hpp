#pragma once
/// @file
/// The continuous Q_k operator on the host with cells in SIMD lanes (ScatterMode::simd; deal.II's
/// VectorizedArray over cells): a thread takes a row of cells along x and works on W of them at
/// once, W the lanes of the host's widest vector register (simd::native_width), lane w holding
/// cell x0 + w of the row. The arithmetic is the cell kernel's (CellSteps of laplace_kernels.hpp,
/// even-odd where the tuning row says) on simd::Pack numbers, so one vector FMA does a multiply-add
/// of W cells; the gather from and the scatter to the global vector go lane by lane.
///
/// No atomics: rows of one parity colour (2D: y even / odd, 3D: (y, z) mod 2, 4 colours) share no
/// node, so one launch per colour runs its rows in parallel with plain adds; within a row one
/// thread adds the lanes' values in lane order, so the face two x-neighbour cells share is summed
/// as in sequence. A thread's two cell buffers are local arrays (W cells' values per entry, 2 ·
/// 64 · 512 B = 64 KiB at 3D k = 7 with 8 lanes): no team, no scratch, no barrier.

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
  using CellInfo = CellNodes<dim, k>;

  CellKernelArgs<Number, ExecSpace> args;
  detail::CellRange all;  ///< every cell of the box, lexicographic
  /// The launch's colour: rows (y, z) with y ≡ parity_y, z ≡ parity_z (mod 2); rows_y of them along y.
  int parity_y = 0, parity_z = 0;
  local_index rows_y = 0;

  /// The W cells of a batch: lane w holds cell x0 + w of the row, or none past its end.
  struct Batch {
    CellInfo info[W];
    bool valid[W];
    /// Every lane valid and on the fast path (owned, no Dirichlet node): node (i, j, l) of lane w
    /// at first + w·k + i + o_x (j + o_y l).
    bool fast = true;
    local_index first = 0;
  };

  /// Local index of node (i, j, l) of lane w's cell; -1 for no cell or a skipped Dirichlet node.
  KOKKOS_INLINE_FUNCTION local_index index(const Batch& b, int w, int i, int j, int l, bool skip_boundary) const {
    if (b.fast) return b.first + w * k + i + args.box.o[0] * (j + args.box.o[1] * local_index(l));
    if (!b.valid[w]) return -1;
    return b.info[w].index(args.box, i, j, l, skip_boundary);
  }

  /// Adds output o of a last-direction line (p, q) to the lanes' nodes, lane by lane (the sink of
  /// CellSteps::last_step; host and device annotated like the steps that call it).
  struct LaneAdder {
    const CellBatchKernel& kernel;
    const Batch& batch;
    int p, q;
    KOKKOS_INLINE_FUNCTION void operator()(int o, const P& v) const {
      for (int w = 0; w < W; ++w) {
        const local_index idx = dim == 2 ? kernel.index(batch, w, p, o, 0, kernel.args.skip_boundary_output)
                                         : kernel.index(batch, w, p, q, o, kernel.args.skip_boundary_output);
        if (idx >= 0) kernel.args.dst(idx) += v[w];
      }
    }
  };

  /// Row r of the launch's colour.
  void operator()(local_index r) const {
    const local_index cy = parity_y + 2 * (r % rows_y), cz = dim == 3 ? parity_z + 2 * (r / rows_y) : 0;
    const local_index cells_x = args.box.cells[0];
    const local_index row_first = cells_x * (cy + args.box.cells[1] * cz);
    P t0[cell_extent], t1[cell_extent];
    for (local_index x0 = 0; x0 < cells_x; x0 += W) {
      Batch b;
      for (int w = 0; w < W; ++w) {
        b.valid[w] = x0 + w < cells_x;
        if (b.valid[w]) b.info[w] = CellInfo(args.box, all, row_first + x0 + w);
        b.fast = b.fast && b.valid[w] && b.info[w].fast;
      }
      b.first = b.info[0].first_node;
      apply(b, t0, t1);
    }
  }

  void apply(const Batch& b, P* t0, P* t1) const {
    // x: t0 = M_x u, t1 = A_x u along lines of constant (y, z), u gathered lane by lane.
    for (int line = 0; line < lines; ++line) {
      const int j = line % n, l = dim == 3 ? line / n : 0;
      P u[1][n];
      if (b.fast) {
        const Number* s = args.src.data() + index(b, 0, 0, j, l, false);
        for (int i = 0; i < n; ++i)
          for (int w = 0; w < W; ++w) u[0][i].set(w, s[w * k + i]);
      } else {
        for (int i = 0; i < n; ++i)
          for (int w = 0; w < W; ++w) {
            const local_index idx = index(b, w, i, j, l, args.zero_boundary_input);
            u[0][i].set(w, idx >= 0 ? args.src(idx) : Number(0));
          }
      }
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
    kernel.all = detail::cell_range(args.box, -1);
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
