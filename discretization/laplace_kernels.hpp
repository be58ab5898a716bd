#pragma once
/// @file
/// Device bodies of the matrix-free continuous Q_k operator a·(Laplace) + b·(mass) on Cartesian
/// cells (paper 000 §3.1): gather the cell's (k+1)^d values, apply the Kronecker sum
///   2D: a (A_y⊗M_x + M_y⊗A_x) + b M_y⊗M_x
///   3D: a (A_z⊗M_y⊗M_x + M_z⊗A_y⊗M_x + M_z⊗M_y⊗A_x) + b M_z⊗M_y⊗M_x
/// by sum factorization with 1D matrices (2D: 4 contractions, 3D: 7; in even-odd form where the
/// tuning row says, core/even_odd_contraction.hpp), scatter-add the result.
/// Only the host glue (laplace_operator.hpp) launches these.

#include <Kokkos_Core.hpp>

#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "backends/device_traits.hpp"
#include "core/even_odd_contraction.hpp"
#include "core/simd_pack.hpp"
#include "core/tensor_contraction.hpp"
#include "discretization/cell_nodes.hpp"
#include "discretization/laplace_kernel_table.hpp"
#include "discretization/laplace_tuning.hpp"

namespace tensormg {

/// The 1D matrices of one (dim, n) held by value in a kernel functor. On CUDA the functor is a
/// kernel parameter (constant memory), and with the contraction loops unrolled every entry has a
/// compile-time offset, so FMAs read it as a constant-bank operand instead of issuing one
/// shared-memory load per FMA.
template <int dim, int n, class Number>
struct Matrices1D {
  Number entry[dim][2][n][n];  // [direction][0: mass, 1: stiffness][row][column]
};

/// The same in even-odd form (core/even_odd_contraction.hpp): about half the entries.
template <int dim, int n, class Number>
struct EvenOddMatrices1D {
  contraction::EvenOdd<n, Number> entry[dim][2];  // [direction][0: mass, 1: stiffness]
};

/// The contraction steps of the cell kernel on the lines of one cell, with the 1D matrices of its
/// (dim, k): shared by the cell kernel below (a thread per line, cells in a team's scratch) and the
/// host's kernel of cells in SIMD lanes (laplace_simd.hpp: Number a simd::Pack, a lane per cell).
/// Buffers hold node (i, j, l) of a cell at offset(i, j, l) from the cell's start.
template <int dim, int n, class Number, class ExecSpace>
struct CellSteps {
  /// Launch bounds, unrolling and face merging from the tuning table (laplace_tuning.hpp): without
  /// a register cap nvcc used 102 registers at k = 4 and 185 at k = 6 on sm_90 (25% and 8%
  /// occupancy; 9.6 GDoF/s at k = 6 in 3D on the H100).
  static constexpr LaplaceTuning tuning = laplace_tuning(dim, n - 1, tuning_target<ExecSpace>());
  static_assert(tuning.dim == dim, "no tuning row for this (dim, k)");
  static constexpr int unroll = tuning.unroll_outputs;
  /// Even-odd form: output pairs o, n − 1 − o (o < half), and the middle row of odd n.
  static constexpr bool even_odd = tuning.even_odd;
  static constexpr int half = n / 2, even_size = (n + 1) / 2;
  static constexpr int pair_unroll = unroll == n ? half : 1;
  static constexpr int k = n - 1;
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  static constexpr int lines = cell_size / n;
  /// Scratch layout (the row's CellScratchStrides for this number type): node (i, j, l) of the
  /// team's cell c at c·cell_stride + i + j·stride_x + l·stride_xy. Dense by default, with an odd
  /// distance of two cells' buffers, so that the lines of neighbouring cells fall into different
  /// banks; the padded strides of a row remove the bank conflicts left (3D k >= 5).
  static constexpr CellScratchStrides strides =
      (std::is_same_v<simd::scalar_t<Number>, float> ? tuning.scratch_float : tuning.scratch_double).resolved(dim, n);
  static constexpr int stride_x = strides.x, stride_xy = strides.xy, cell_stride = strides.cell;
  static constexpr int cell_extent = dim == 2 ? n * stride_x : n * stride_xy;
  static_assert(stride_x >= n && (dim == 2 || stride_xy >= n * stride_x) && cell_stride >= cell_extent,
                "a row's scratch strides must not overlap lines, planes or cells");
  /// Offset of node (i, j, l) in a cell's buffer.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int offset(int i, int j, int l) { return i + j * stride_x + l * stride_xy; }
  /// The first node of x line `line` = j + n·l, and of last-direction line `line` = i + n·j (3D),
  /// without the split into coordinates where the strides make it linear (every row but 3D k = 6;
  /// the split cost registers: dense 3D k = 5 0.95x, h200-2026-12-02-cell-layout/call4, and
  /// padded 74 registers instead of 72, call3).
  KOKKOS_FORCEINLINE_FUNCTION static int x_line_start(int line) {
    if constexpr (dim == 2 || stride_xy == n * stride_x) return line * stride_x;
    else return offset(0, line % n, line / n);
  }
  KOKKOS_FORCEINLINE_FUNCTION static int last_line_start(int line) {
    if constexpr (stride_x == n) return line;
    else return offset(line % n, line / n, 0);
  }

  std::conditional_t<even_odd, EvenOddMatrices1D<dim, n, Number>, Matrices1D<dim, n, Number>> m;

  /// The matrices from the host copy [direction][mass, stiffness][i][j] (row-major).
  void set_matrices(const simd::scalar_t<Number>* host) {
    for (int d = 0; d < dim; ++d)
      for (int w = 0; w < 2; ++w) {
        const simd::scalar_t<Number>* a = host + (d * 2 + w) * n * n;
        if constexpr (even_odd) {
          // Exact only for centro-symmetric matrices (those of a Cartesian cell: rounding level).
          const double deviation = contraction::make_even_odd(a, m.entry[d][w]);
          if (deviation > 64 * std::numeric_limits<simd::scalar_t<Number>>::epsilon())
            throw std::logic_error("the continuous Q" + std::to_string(n - 1) +
                                   " operator's 1D matrices are not centro-symmetric (relative deviation " +
                                   std::to_string(deviation) + "); its kernel needs the even-odd form");
        } else {
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) m.entry[d][w][i][j] = a[i * n + j];
        }
      }
  }

  /// The first step on a line u read from the global vector: t0 = M_x u, t1 = A_x u at
  /// base + i (i < n).
  KOKKOS_INLINE_FUNCTION void first_step(const Number (&r)[1][n], Number* t0, Number* t1, int base) const {
    if constexpr (even_odd) {
      Number re[1][even_size], ro[1][half];
      contraction::split_even_odd(r, re, ro);
      TENSORMG_UNROLL(pair_unroll)
      for (int o = 0; o < half; ++o) {
        DeviceTraits<ExecSpace>::template keep_unroll<pair_unroll, half>();
        Number lo[1], hi[1];
        contraction::dot_even_odd(m.entry[0][0], o, re, ro, lo, hi);
        t0[base + o] = lo[0];
        t0[base + n - 1 - o] = hi[0];
        contraction::dot_even_odd(m.entry[0][1], o, re, ro, lo, hi);
        t1[base + o] = lo[0];
        t1[base + n - 1 - o] = hi[0];
      }
      if constexpr (n % 2 == 1) {
        Number v[1];
        contraction::dot_even_middle(m.entry[0][0], re, ro, v);
        t0[base + half] = v[0];
        contraction::dot_even_middle(m.entry[0][1], re, ro, v);
        t1[base + half] = v[0];
      }
    } else {
      TENSORMG_UNROLL(unroll)
      for (int i = 0; i < n; ++i) {
        DeviceTraits<ExecSpace>::template keep_unroll<unroll, n>();
        Number sm[1], sa[1];
        contraction::dot_two(m.entry[0][0][i], m.entry[0][1][i], r, sm, sa);
        t0[base + i] = sm[0];
        t1[base + i] = sa[0];
      }
    }
  }

  /// The middle step of 3D on a y-line of both buffers (r0 from t0, r1 from t1), in place:
  /// t0 = M_y r0, t1 = A_y r0 + M_y r1 at base + j·stride_x (j < n).
  KOKKOS_INLINE_FUNCTION void middle_step(const Number (&r0)[1][n], const Number (&r1)[1][n], Number* t0, Number* t1,
                                          int base) const {
    if constexpr (even_odd) {
      Number e0[1][even_size], o0[1][half], e1[1][even_size], o1[1][half];
      contraction::split_even_odd(r0, e0, o0);
      contraction::split_even_odd(r1, e1, o1);
      TENSORMG_UNROLL(pair_unroll)
      for (int o = 0; o < half; ++o) {
        DeviceTraits<ExecSpace>::template keep_unroll<pair_unroll, half>();
        Number lo[1], hi[1];
        contraction::dot_even_odd(m.entry[1][0], o, e0, o0, lo, hi);
        t0[base + o * stride_x] = lo[0];
        t0[base + (n - 1 - o) * stride_x] = hi[0];
        contraction::dot_sum_even_odd(m.entry[1][1], e0, o0, m.entry[1][0], e1, o1, o, lo, hi);
        t1[base + o * stride_x] = lo[0];
        t1[base + (n - 1 - o) * stride_x] = hi[0];
      }
      if constexpr (n % 2 == 1) {
        Number v[1];
        contraction::dot_even_middle(m.entry[1][0], e0, o0, v);
        t0[base + half * stride_x] = v[0];
        contraction::dot_sum_even_middle(m.entry[1][1], e0, m.entry[1][0], e1, v);
        t1[base + half * stride_x] = v[0];
      }
    } else {
      // t1: two independent FMA chains (split).
      TENSORMG_UNROLL(unroll)
      for (int jo = 0; jo < n; ++jo) {
        DeviceTraits<ExecSpace>::template keep_unroll<unroll, n>();
        Number s0[1], s1[1];
        contraction::dot_two_sum<contraction::Pair::split>(m.entry[1][0][jo], m.entry[1][1][jo], r0, r1, s0, s1);
        t0[base + jo * stride_x] = s0[0];
        t1[base + jo * stride_x] = s1[0];
      }
    }
  }

  /// The last direction's step on a line: v_o = Σ_j A[o][j] r0[j] + Σ_j M[o][j] r1[j] (A, M of
  /// the last direction), handed to sink(o, v_o) for every o < n.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void last_step(const Number (&r0)[1][n], const Number (&r1)[1][n], const Sink& sink) const {
    constexpr int last = dim - 1;
    if constexpr (even_odd) {
      Number e0[1][even_size], o0[1][half], e1[1][even_size], o1[1][half];
      contraction::split_even_odd(r0, e0, o0);
      contraction::split_even_odd(r1, e1, o1);
      TENSORMG_UNROLL(pair_unroll)
      for (int o = 0; o < half; ++o) {
        DeviceTraits<ExecSpace>::template keep_unroll<pair_unroll, half>();
        Number lo[1], hi[1];
        contraction::dot_sum_even_odd(m.entry[last][1], e0, o0, m.entry[last][0], e1, o1, o, lo, hi);
        sink(o, lo[0]);
        sink(n - 1 - o, hi[0]);
      }
      if constexpr (n % 2 == 1) {
        Number v[1];
        contraction::dot_sum_even_middle(m.entry[last][1], e0, m.entry[last][0], e1, v);
        sink(half, v[0]);
      }
    } else {
      // Two independent FMA chains (split), summed at the end.
      TENSORMG_UNROLL(unroll)
      for (int o = 0; o < n; ++o) {
        DeviceTraits<ExecSpace>::template keep_unroll<unroll, n>();
        Number v[1];
        contraction::dot_sum<contraction::Pair::split>(m.entry[last][1][o], r0, m.entry[last][0][o], r1, v);
        sink(o, v[0]);
      }
    }
  }
};

/// One team works on cells_per_team cells in scratch memory. Thread structure: each contraction
/// step hands one 1D line (n values along the contracted direction) to a thread, so a team of
/// cells_per_team · n^(d-1) threads does one line each; any team size works (threads stride).
/// Work item w is line w / cells_per_team of cell w % cells_per_team: neighbouring threads work on
/// neighbouring cells (consecutive along x), so their global loads and atomic adds are k values
/// apart, and with an odd cell stride in scratch their shared-memory accesses hit distinct banks.
/// The first step reads its x-lines straight from the global vector and the last one adds its
/// z-lines (2D: y-lines) to it, so scratch holds only the two intermediate buffers and a team
/// passes d − 1 barriers. Up to k = 4, cells of a team that are x-neighbours add their shared
/// face once (merges_left), which saves 1/(k+1) of the atomic adds.
template <int dim, int n, class Number, class ExecSpace>
struct CellOperatorKernel : CellSteps<dim, n, Number, ExecSpace> {
  using Steps = CellSteps<dim, n, Number, ExecSpace>;
  using Steps::tuning, Steps::k, Steps::lines, Steps::cell_stride, Steps::stride_x, Steps::stride_xy, Steps::offset,
      Steps::x_line_start, Steps::last_line_start, Steps::first_step, Steps::middle_step;
  static constexpr int max_team_size = tuning.max_team_size;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<tuning.max_team_size, tuning.min_teams_per_sm>>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  CellKernelArgs<Number, ExecSpace> args;
  detail::CellRange cells;

  /// Scratch per team, in Number units: two buffers per cell.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_entries(int cells_per_team) {
    return 2 * std::size_t(cell_stride) * cells_per_team;
  }
  std::size_t team_shmem_size(int /*team_size*/) const { return scratch_bytes(args.cells_per_team); }
  static std::size_t scratch_bytes(int cells_per_team) { return ScratchView::shmem_size(scratch_entries(cells_per_team)); }

  /// Where a cell's nodes are (discretization/cell_nodes.hpp).
  using CellInfo = CellNodes<dim, k>;
  KOKKOS_INLINE_FUNCTION CellInfo cell_info(local_index c) const { return CellInfo(args.box, cells, c); }
  KOKKOS_INLINE_FUNCTION local_index node_index(const CellInfo& info, int i, int j, int l, bool skip_boundary) const {
    return info.index(args.box, i, j, l, skip_boundary);
  }

  /// The cell of work item w, looked up again only when a thread moves on to another cell.
  KOKKOS_INLINE_FUNCTION const CellInfo& info_of(local_index cell, local_index& cached, CellInfo& info) const {
    if (cell != cached) {
      info = cell_info(cell);
      cached = cell;
    }
    return info;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int cpt = args.cells_per_team;
    const local_index first = team.league_rank() * cpt;
    Number* t0 = static_cast<Number*>(team.team_scratch(0).get_shmem(sizeof(Number) * scratch_entries(cpt)));
    Number* t1 = t0 + cell_stride * cpt;
    const int rank = team.team_rank(), size = team.team_size();
    const local_index n_cells = cells.size();
    const int items = cpt * lines;
    local_index cached = -1;
    CellInfo info;
    // On a GPU the team has one thread per work item, so every loop below runs once per thread
    // and the division by the run-time cells per team is done here, once.
    const int rank_cell = rank % cpt, rank_line = rank / cpt;
    const auto cell_of = [&](int w) { return w == rank ? rank_cell : w % cpt; };
    const auto line_of = [&](int w) { return w == rank ? rank_line : w / cpt; };

    // x: t0 = M_x u, t1 = A_x u along lines of constant (y, z), u read from the global vector.
    for (int w = rank; w < items; w += size) {
      const int c = cell_of(w), line = line_of(w);
      if (first + c >= n_cells) continue;
      const CellInfo& ci = info_of(first + c, cached, info);
      const int j = line % n, l = dim == 3 ? line / n : 0;
      Number r[1][n];
      if (ci.fast) {
        contraction::load_column(args.src.data() + node_index(ci, 0, j, l, false), 1, r[0]);
      } else {
        for (int i = 0; i < n; ++i) {
          const local_index idx = node_index(ci, i, j, l, args.zero_boundary_input);
          r[0][i] = idx >= 0 ? args.src(idx) : Number(0);
        }
      }
      first_step(r, t0, t1, c * cell_stride + x_line_start(line));
    }
    team.team_barrier();

    if constexpr (dim == 2) {
      // y (last): v = a A_y t0 + M_y (a t1 + b t0), added to the global vector.
      for (int w = rank; w < items; w += size) {
        const int c = cell_of(w), i = line_of(w);
        if (first + c >= n_cells) continue;
        const CellInfo& ci = info_of(first + c, cached, info);
        if (i == k && merges_right(c, first, ci)) continue;
        const int base = c * cell_stride + i;
        Number r0[1][n], r1[1][n];
        contraction::load_column(t0 + base, stride_x, r0[0]);
        contraction::load_column(t1 + base, stride_x, r1[0]);
        if (i == 0 && merges_left(c, ci)) add_line(t0, t1, base - cell_stride + k, stride_x, r0, r1);
        for (int j = 0; j < n; ++j) {
          r1[0][j] = args.laplace * r1[0][j] + args.mass * r0[0][j];
          r0[0][j] *= args.laplace;
        }
        scatter_line(ci, i, 0, r0, r1);
      }
    } else {
      // y: in place, a thread owns its y-line of both buffers: t0 = M_y t0, t1 = A_y t0 + M_y t1.
      for (int w = rank; w < items; w += size) {
        const int c = cell_of(w), line = line_of(w);
        if (first + c >= n_cells) continue;
        const int base = c * cell_stride + offset(line % n, 0, line / n);
        Number r0[1][n], r1[1][n];
        contraction::load_column(t0 + base, stride_x, r0[0]);
        contraction::load_column(t1 + base, stride_x, r1[0]);
        middle_step(r0, r1, t0, t1, base);
      }
      team.team_barrier();
      // z (last): v = a A_z t0 + M_z (a t1 + b t0), added to the global vector.
      for (int w = rank; w < items; w += size) {
        const int c = cell_of(w), line = line_of(w);
        if (first + c >= n_cells) continue;
        const CellInfo& ci = info_of(first + c, cached, info);
        const int p = line % n;
        if (p == k && merges_right(c, first, ci)) continue;
        const int base = c * cell_stride + last_line_start(line);
        Number r0[1][n], r1[1][n];
        contraction::load_column(t0 + base, stride_xy, r0[0]);
        contraction::load_column(t1 + base, stride_xy, r1[0]);
        if (p == 0 && merges_left(c, ci)) add_line(t0, t1, base - cell_stride + k, stride_xy, r0, r1);
        for (int j = 0; j < n; ++j) {
          r1[0][j] = args.laplace * r1[0][j] + args.mass * r0[0][j];
          r0[0][j] *= args.laplace;
        }
        scatter_line(ci, p, line / n, r0, r1);
      }
    }
  }

  /// Cells c − 1 and c of the team are neighbours in x (consecutive in a row of the full range):
  /// their last-direction lines at x = k (of c − 1) and x = 0 (of c) add to the same nodes, so
  /// the x = 0 line of c takes the sum of both (the last contraction is linear) and the x = k
  /// line of c − 1 adds nothing: one atomic add per shared node instead of two.
  /// Where the tuning row says (k <= 4: +20/+22/+12% at k = 2/3/4 on the H100; with the 3–4 cells
  /// per team of k >= 5 the lines of one warp mix x positions, and the merging lanes diverge).
  static constexpr bool merge_faces = tuning.merge_faces;
  KOKKOS_INLINE_FUNCTION bool merges_left(int c, const CellInfo& ci) const {
    return merge_faces && args.color < 0 && c > 0 && ci.cc[0] > 0;
  }
  KOKKOS_INLINE_FUNCTION bool merges_right(int c, local_index first, const CellInfo& ci) const {
    return merge_faces && args.color < 0 && c + 1 < args.cells_per_team && first + c + 1 < cells.size() &&
           ci.cc[0] + 1 < cells.extent[0];
  }
  /// r0 += t0[start + j·stride], r1 += t1[start + j·stride].
  KOKKOS_INLINE_FUNCTION static void add_line(const Number* t0, const Number* t1, int start, int stride, Number (&r0)[1][n],
                                              Number (&r1)[1][n]) {
    for (int j = 0; j < n; ++j) {
      r0[0][j] += t0[start + j * stride];
      r1[0][j] += t1[start + j * stride];
    }
  }

  /// Adds output o of a line along the last direction, whose other coordinates in the cell are
  /// (p, q), to its node: the sink of last_step (a struct, not a lambda: see
  /// core/tensor_contraction.hpp).
  struct NodeAdder {
    const CellOperatorKernel& kernel;
    const CellInfo& info;
    int p, q;
    bool inner_line;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(int o, Number v) const {
      kernel.add_to_node(info, p, q, o, inner_line && o > 0 && o < k, v);
    }
  };

  /// Adds v[o] = Σ_j A[o][j] r0[j] + Σ_j M[o][j] r1[j] (A, M of the last direction; r0 already
  /// scaled by a) to the n nodes of a line along the last direction whose other coordinates in the
  /// cell are (p, q).
  KOKKOS_INLINE_FUNCTION void scatter_line(const CellInfo& info, int p, int q, const Number (&r0)[1][n],
                                           const Number (&r1)[1][n]) const {
    // Nodes of this line inside the cell (no other cell adds to them) where p, q are. Below k = 3
    // a cell has at most one such node and the check is left out (3D k = 2: it cost 5% of the
    // issue-bound kernel, h200-2026-11-29-even-odd/call3).
    const bool inner_line =
        k >= 3 && args.store_interior && p > 0 && p < k && (dim == 2 || (q > 0 && q < k));
    this->last_step(r0, r1, NodeAdder{*this, info, p, q, inner_line});
  }

  /// Adds v to node o of the line (p, q) along the last direction: a plain store where the node
  /// is inside the cell (`inner`: the vector was zeroed and no other cell touches it), else an
  /// atomic add (all cells at once) or a plain add (one colour); nothing on a skipped Dirichlet node.
  KOKKOS_FORCEINLINE_FUNCTION void add_to_node(const CellInfo& info, int p, int q, int o, bool inner, Number v) const {
    const local_index idx = dim == 2 ? node_index(info, p, o, 0, args.skip_boundary_output)
                                     : node_index(info, p, q, o, args.skip_boundary_output);
    if (idx < 0) return;
    if (inner) args.dst(idx) = v;
    else if (args.atomic) Kokkos::atomic_add(&args.dst(idx), v);
    else args.dst(idx) += v;
  }
};

/// Diagonal of the same operator: Σ over cells of the element matrix's diagonal (a Kronecker
/// product of 1D diagonals), one thread per (cell, node), atomic adds.
template <int dim, int n, class Number, class ExecSpace>
struct CellDiagonalKernel {
  static constexpr int k = n - 1;
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  CellKernelArgs<Number, ExecSpace> args;
  detail::CellRange cells;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const local_index c = static_cast<local_index>(e / cell_size);
    const int node = static_cast<int>(e % cell_size);
    local_index cc[3];
    cells.coordinates(c, cc);
    const int i[3] = {node % n, (node / n) % n, dim == 3 ? node / (n * n) : 0};
    const local_index ix = cc[0] * k + i[0], iy = cc[1] * k + i[1], iz = dim == 3 ? cc[2] * k + i[2] : 0;
    if (args.skip_boundary_output && args.box.on_boundary(ix, iy, iz)) return;
    Number mass_diag[3], stiff_diag[3];
    for (int d = 0; d < dim; ++d) {
      mass_diag[d] = args.matrices((d * 2 + 0) * n * n + i[d] * n + i[d]);
      stiff_diag[d] = args.matrices((d * 2 + 1) * n * n + i[d] * n + i[d]);
    }
    Number mass_all = 1;
    for (int d = 0; d < dim; ++d) mass_all *= mass_diag[d];
    Number lap = 0;
    for (int d = 0; d < dim; ++d) {
      Number term = stiff_diag[d];
      for (int d2 = 0; d2 < dim; ++d2)
        if (d2 != d) term *= mass_diag[d2];
      lap += term;
    }
    Kokkos::atomic_add(&args.dst(args.box.index(ix, iy, iz)), args.laplace * lap + args.mass * mass_all);
  }
};

}  // namespace tensormg

namespace tensormg {

/// Cells per team when the user does not choose: one on the host; on a GPU enough cells that a
/// team has about the tuning row's team_threads (one per line). tensormg-bench-operator
/// --cells-per-team sweeps it.
template <int dim, int n, class ExecSpace>
int default_cells_per_team() {
  if constexpr (runs_on_host<ExecSpace>()) return 1;
  using Kernel = CellOperatorKernel<dim, n, double, ExecSpace>;
  return cells_per_team_of(Kernel::tuning, Kernel::lines);
}

template <int dim, int n, class Number, class ExecSpace>
void launch_cell_operator(const CellKernelArgs<Number, ExecSpace>& args) {
  using Kernel = CellOperatorKernel<dim, n, Number, ExecSpace>;
  Kernel kernel;
  kernel.args = args;
  kernel.cells = detail::cell_range(args.box, args.color);
  const local_index cells = kernel.cells.size();
  if (cells == 0) return;
  kernel.set_matrices(args.host_matrices);
  const int league = (cells + args.cells_per_team - 1) / args.cells_per_team;
  const int team_size = runs_on_host<ExecSpace>() ? 1 : args.cells_per_team * Kernel::lines;
  Kokkos::parallel_for("tensormg::operator::laplace::apply", typename Kernel::Policy(league, team_size), kernel);
}

template <int dim, int n, class Number, class ExecSpace>
void launch_cell_diagonal(const CellKernelArgs<Number, ExecSpace>& args) {
  using Kernel = CellDiagonalKernel<dim, n, Number, ExecSpace>;
  const Kernel kernel{args, detail::cell_range(args.box, -1)};
  const std::int64_t work = std::int64_t(kernel.cells.size()) * Kernel::cell_size;
  Kokkos::parallel_for("tensormg::operator::laplace::diagonal", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, work), kernel);
}

}  // namespace tensormg
