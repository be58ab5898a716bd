#pragma once
/// @file
/// The tuning table of the continuous Q_k cell kernel (laplace_kernels.hpp): one row per (dim, k,
/// target) with the reason and the record (under perf/results/) that decided it. The kernel and
/// the host glue read the same row; tests/discretization/test_laplace_tuning.cpp checks the
/// invariants of every row.

#include "core/device_traits.hpp"
#include "core/simd_pack.hpp"

namespace tensormg {

/// Where the cell kernel keeps node (i, j, l) of cell c of its team in a scratch buffer:
/// c·cell + i + j·x + l·xy. 0 in a field: dense (x = k + 1, xy = (k + 1)², cell = the cell's node
/// count, made odd). Padded strides change which bank pair a half-warp's doubles (a warp's
/// floats) hit in each contraction step; perf/cell_bank_model.py replays the kernel's accesses
/// and finds them.
struct CellScratchStrides {
  int x = 0, xy = 0, cell = 0;
  /// The strides in effect for a cell of n nodes a direction in `dim` dimensions: the fields set,
  /// the dense ones where 0 (2D has no planes: xy = 0).
  constexpr CellScratchStrides resolved(int dim, int n) const {
    CellScratchStrides r;
    r.x = x > 0 ? x : n;
    r.xy = dim == 2 ? 0 : xy > 0 ? xy : n * r.x;
    const int extent = dim == 2 ? n * r.x : n * r.xy;
    r.cell = cell > 0 ? cell : extent | 1;
    return r;
  }
};

struct LaplaceTuning {
  int dim = 0, k = 0;
  /// Launch bounds: at most max_team_size threads, min_teams_per_sm teams per SM.
  int max_team_size = 256;
  int min_teams_per_sm = 4;
  /// Unrolling of the loops over a line's k + 1 outputs (1: not unrolled).
  int unroll_outputs = 1;
  /// x-neighbour cells of a team add their shared face once (one atomic add per shared node).
  bool merge_faces = false;
  /// Threads a team aims at when cells per team is automatic (one thread per line).
  int team_threads = 128;
  const char* reason = "";
  const char* record = "";
  /// The 1D contractions in even-odd form (core/even_odd_contraction.hpp: half the FMAs and matrix
  /// operands, for the centro-symmetric matrices of Cartesian cells); unrolled outputs are then
  /// unrolled output pairs. Last, so that rows without it (the DG table) keep the direct form.
  bool even_odd = false;
  /// k = 1: the operator gathers each node's stencil (ScatterMode::gather, laplace_q1_gather.hpp)
  /// where the scatter mode is automatic, instead of adding 2^d cell contributions atomically.
  bool gather = false;
  /// The gathered operator in 3D: nodes of a z column per thread (0: the whole column, the host's
  /// choice; a thread per node at 1).
  int gather_z_nodes = 0;
  /// The gathering operator at k >= 2 (laplace_gather.hpp): segments per team in x and y (a GPU
  /// thread per output column: tile_x·k · tile_y·k threads, 2D tile_x·k), z nodes per team in
  /// gather_z_nodes (0: the whole column), z planes per batch (a divisor of k; its scratch grows
  /// with it). The automatic scatter mode gathers where `gather` is set.
  int gather_tile_x = 0, gather_tile_y = 0, gather_planes = 0;
  /// The host (OpenMP) row gathers as well (measured on the VM; the device row's `gather` is the
  /// GPU's choice).
  bool host_gather = false;
  /// The cell kernel's scratch layout per number type (the bank pattern differs: a double takes a
  /// bank pair, and a half-warp is served per wavefront).
  CellScratchStrides scratch_double{}, scratch_float{};
  /// Host rows: the automatic scatter mode is the kernel with cells in SIMD lanes (ScatterMode::simd,
  /// laplace_simd.hpp); set by laplace_tuning, never by a device row.
  bool simd = false;
};

namespace detail {
/// The device rows (H100 for launch bounds and face merging, H200 for the even-odd form). Full
/// unrolling keeps every 1D matrix entry a constant-bank operand. In the direct form, with
/// k + 1 > 5 it kept too many operands live (3D k = 6: 26.8M local-memory spill requests,
/// 9.7 GDoF/s), so there only the inner loop was unrolled; the even-odd form (k >= 3) halves the
/// FMAs and entries of a product, and its (k + 1) / 2 output pairs unroll fully at 3 teams
/// (85 registers): 3D FP64 k = 5..8 1.33–1.46x the direct form, 2D k = 9, 10 1.53x, 1.72x
/// (h200-2026-11-29-even-odd: call1 even-odd against direct, call2 unrolled against not). At k <= 2 the split and combination cost what the
/// form saves (3D k = 2: 0.98x), so those rows keep the direct form. Face merging +20/+22/+12% at
/// k = 2/3/4, −11% at k = 6 (warps mix x positions). Scratch strides padded at 3D k = 5..8, where
/// perf/cell_bank_model.py finds strides without (most of) the bank conflicts Nsight Compute counted
/// (2.3M–4.8M a launch): 1.02–1.05x dense in FP64, as the kernel is then bound by latency at its
/// register cap (h200-2026-12-02-cell-layout).
inline constexpr LaplaceTuning laplace_device_rows[] = {
    {2, 1, 256, 4, 2, true, 128, "gathered: 2.98x the atomic cell kernel (FP64, h200-2026-11-29-q1-stencil/call3); 32 z nodes a thread: 1.03x 16 and 64 (3D FP64, call3); the cell kernel: 4 teams of 256, outputs unrolled, faces merged, direct form (h100-2026-11-22-kernels/v4-final)", "h200-2026-11-29-q1-stencil/call3", false, true, 32, 0, 0, 0, true},
    {2, 2, 256, 4, 3, true, 128, "4 teams of 256 (64 registers), outputs unrolled, faces merged; direct form; gathered by tiles: 2.73x the cell kernel (FP64, 102.4 GDoF/s, h200-2026-12-02-gather/call1); host gathers: 1.95x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", false, true, 64, 64, 1, 2, true},
    {2, 3, 256, 4, 4, true, 128, "even-odd 1.00x direct (atomic scatter), pairs unrolled, faces merged; gathered by tiles: 2.42x the cell kernel (FP64, 107.0 GDoF/s, h200-2026-12-02-gather/call1); host gathers: 1.46x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", true, true, 64, 42, 1, 3, true},
    {2, 4, 256, 4, 5, true, 128, "even-odd 1.01x direct (atomic scatter), pairs unrolled, faces merged; gathered by tiles: 2.24x the cell kernel (FP64, 98.5 GDoF/s, h200-2026-12-02-gather/call1); host gathers: 1.07x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", true, true, 64, 32, 1, 4, true},
    {2, 5, 256, 3, 6, false, 128, "even-odd 1.03x direct (call1); pairs unrolled 1.01x not (41.5 GDoF/s, call2); gathered by tiles: 2.14x the cell kernel (FP64, 89.4 GDoF/s, h200-2026-12-02-gather/call1); host gathers: 1.03x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", true, true, 64, 25, 1, 5, true},
    {2, 6, 256, 3, 7, false, 128, "even-odd 1.05x direct (call1); pairs unrolled 1.02x not (43.9 GDoF/s, call2); gathered by tiles: 1.93x the cell kernel (FP64, 84.8 GDoF/s, h200-2026-12-02-gather/call1)", "h200-2026-12-02-gather/call1", true, true, 64, 21, 1, 6, false},
    {2, 7, 256, 3, 8, false, 128, "even-odd 1.05x direct (call1); pairs unrolled 1.02x not (44.0 GDoF/s, call2); gathered by tiles: 1.63x the cell kernel (FP64, 72.2 GDoF/s, h200-2026-12-02-gather/call1)", "h200-2026-12-02-gather/call1", true, true, 64, 18, 1, 7, false},
    {2, 8, 256, 3, 9, false, 128, "even-odd 1.09x direct (call1); pairs unrolled 1.01x not (45.0 GDoF/s, call2)", "h200-2026-11-29-even-odd", true, false, 64, 16, 1, 8, false},
    {2, 9, 256, 3, 10, false, 128, "even-odd 1.28x direct (call1); pairs unrolled 1.15x not (47.1 GDoF/s, call2)", "h200-2026-11-29-even-odd", true, false, 64, 14, 1, 9, false},
    {2, 10, 256, 3, 11, false, 128, "even-odd 1.44x direct (call1); pairs unrolled 1.11x not (47.4 GDoF/s, call2)", "h200-2026-11-29-even-odd", true, false, 64, 12, 1, 10, false},
    {3, 1, 256, 4, 2, true, 128, "gathered: 7.50x the atomic cell kernel (FP64, h200-2026-11-29-q1-stencil/call3); 32 z nodes a thread: 1.03x 16 and 64 (3D FP64, call3); the cell kernel: 4 teams of 256, outputs unrolled, faces merged, direct form (h100-2026-11-22-kernels/v4-final)", "h200-2026-11-29-q1-stencil/call3", false, true, 32, 0, 0, 0, true},
    {3, 2, 256, 4, 3, true, 128, "faces merged (+20%); direct form (even-odd 0.98x); gathered by tiles: 2.25x the cell kernel (FP64, 61.4 GDoF/s, h200-2026-12-02-gather/call1); tile 8 x 4: 1.06x 16 x 4 (call2 sweep); host gathers: 1.55x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", false, true, 64, 8, 4, 2, true},
    {3, 3, 256, 4, 4, true, 128, "even-odd 1.03x direct (atomic scatter), pairs unrolled, faces merged; gathered by tiles: 1.50x the cell kernel (FP64, 55.3 GDoF/s, h200-2026-12-02-gather/call1); host gathers: 1.51x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", true, true, 60, 10, 2, 3, true},
    {3, 4, 256, 4, 5, true, 128, "even-odd 1.03x direct (atomic scatter), pairs unrolled, faces merged; gathered by tiles: 1.18x the cell kernel (FP64, 47.9 GDoF/s, h200-2026-12-02-gather/call1); tile 4 x 4, 128 z nodes: 1.07x 8 x 2, 64 (call2 sweep); host gathers: 1.33x on the VM (cpu-2026-12-02-gather)", "h200-2026-12-02-gather/call1", true, true, 128, 4, 4, 2, true},
    {3, 5, 256, 3, 6, false, 128, "even-odd 1.21x direct (call1); pairs unrolled 1.11x not (38.4 GDoF/s, call2); padded scratch (perf/cell_bank_model.py): 1.02x dense FP64, 1.00x FP32 with linear line starts (72 registers; 74 and 0.97x without them, call3) (h200-2026-12-02-cell-layout/call6)", "h200-2026-12-02-cell-layout/call6", true, false, 60, 6, 1, 1, false, {7, 42, 252}, {9, 54, 328}},
    {3, 6, 256, 3, 7, false, 128, "even-odd 1.26x direct (call1); pairs unrolled 1.09x not (37.2 GDoF/s, call2); padded scratch (perf/cell_bank_model.py): 1.03x dense FP64, 1.00x FP32 (h200-2026-12-02-cell-layout/call3)", "h200-2026-12-02-cell-layout/call3", true, false, 60, 5, 1, 2, false, {7, 55, 395}, {9, 71, 523}},
    {3, 7, 256, 3, 8, false, 128, "even-odd 1.35x direct (call1); pairs unrolled 1.04x not (38.1 GDoF/s, call2); padded scratch (perf/cell_bank_model.py): no bank conflicts left, 1.05x dense FP64 (39.9 GDoF/s), 1.02x FP32 (h200-2026-12-02-cell-layout/call3)", "h200-2026-12-02-cell-layout/call3", true, false, 56, 4, 1, 1, false, {9, 72, 584}, {9, 72, 592}},
    {3, 8, 256, 3, 9, false, 128, "even-odd 1.35x direct (call1); pairs unrolled 1.10x not (38.3 GDoF/s, call2); padded scratch (perf/cell_bank_model.py): no bank conflicts left, 1.02x dense FP64, 1.01x FP32 with linear line starts (0.98x without them, call3) (h200-2026-12-02-cell-layout/call6)", "h200-2026-12-02-cell-layout/call6", true, false, 64, 4, 1, 2, false, {9, 81, 744}, {9, 89, 816}},
};
}  // namespace detail

/// Cells per team a row asks for when the user does not choose: about team_threads threads, one
/// per line of a cell (`lines`); at least one. (Host rows ask for one thread: one cell.)
constexpr int cells_per_team_of(const LaplaceTuning& row, int lines) {
  const int cells = (row.team_threads + lines / 2) / lines;
  return cells > 0 ? cells : 1;
}

/// Where the host's automatic scatter is the kernel with cells in SIMD lanes (ScatterMode::simd),
/// by the lanes of the build's widest register (record cpu-2026-12-07-simd: the VM, 2 cores, FP64,
/// ~2e6 DoFs, against the row's gathering and the cell kernel, the faster of the two):
///  - 8 doubles (TENSORMG_NATIVE_ARCH on AVX-512): 2D k = 1 2.5x, k = 2..10 2.3-4.1x; 3D k = 2
///    1.35x, k = 3..8 2.1-3.9x; 3D k = 1 (0.49x) stays gathered;
///  - 2 doubles (SSE2, no -march; 4 not measured, treated as 2): 2D k = 2..10 1.07-1.7x, 3D
///    k = 4..8 1.1-1.6x; 2D k = 1 (0.89x), 3D k = 3 (0.88x and 1.07x in two runs) and 3D k = 2
///    (0.55x) stay gathered.
constexpr bool host_simd_wins(int dim, int k) {
  const bool wide = simd::native_width<double> >= 8;
  return dim == 2 ? k >= (wide ? 1 : 2) : k >= (wide ? 2 : 4);
}

/// The row of (dim, k) for the target. Host rows: one cell per team of one thread by default, so
/// launch bounds and team targets do not apply (face merging still runs where a user asks for
/// several cells per team, and the tests do); the automatic scatter is the SIMD kernel where
/// host_simd_wins, else the row's gathering where host_gather.
constexpr LaplaceTuning laplace_tuning(int dim, int k, TuningTarget target) {
  for (const LaplaceTuning& row : detail::laplace_device_rows)
    if (row.dim == dim && row.k == k) {
      if (target == TuningTarget::device) return row;
      LaplaceTuning host = row;
      host.team_threads = 1;
      host.gather_z_nodes = 0;
      host.gather = row.host_gather;
      host.reason = "host: one cell per team of one thread by default";
      host.record = "cpu-2026-11-22-kernels";
      if (k >= 2 && row.host_gather) {
        host.reason = "host: gathered by tiles (faster than the cell kernel on the VM), a tile per team of one thread";
        host.record = "cpu-2026-12-02-gather";
      }
      if (host_simd_wins(dim, k)) {
        host.simd = true;
        host.gather = false;
        host.reason = "host: cells in SIMD lanes, a row of cells per thread (faster than gathering and the cell kernel on the VM)";
        host.record = "cpu-2026-12-07-simd";
      }
      return host;
    }
  return LaplaceTuning{};
}

}  // namespace tensormg
