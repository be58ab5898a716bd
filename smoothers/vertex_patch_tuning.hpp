#pragma once
/// @file
/// The tuning table of the vertex-patch kernels (vertex_patch_columns.hpp, vertex_patch_points.hpp):
/// one row per (dim, k, target), each with the reason and the record (under perf/results/) that
/// decided it. The kernels take their compile-time choices from the row, the host glue
/// (vertex_patch_smoother.cpp) its team shape; tests/smoothers/test_vertex_patch_tuning.cpp checks
/// every row's invariants, and the smoother tests run every (dim, k) of the table against the
/// sequential reference.

#include "core/device_traits.hpp"
#include "core/simd_pack.hpp"

namespace tensormg {

struct PatchTuning {
  int dim = 0, k = 0;
  /// Columns per thread of the per-column steps (register blocking): each matrix entry (a uniform
  /// constant-bank load on sm_90) feeds C FMAs, and C output chains are independent.
  int columns_per_thread = 1;
  /// Columns per thread of the residual's x step, the widest (n² columns).
  int x_columns = 1;
  /// 3D: the y step in whole rounds of one block per thread and a warp-level pass over the lines
  /// left (needs warps of at least 2k − 1 lanes), instead of blocks in two rounds.
  bool y_rounds = false;
  /// Launch bounds: at most max_team_size threads per team, min_teams_per_sm teams per SM (the
  /// register cap is 64 K / (max_team_size · min_teams_per_sm)).
  int max_team_size = 256;
  int min_teams_per_sm = 4;
  /// Unrolling of the loops over a column's 2k − 1 outputs.
  int unroll_interior = 1;
  /// v += a·b + c·d as two chained FMAs rather than DMUL + DFMA + DADD.
  bool chained_fma = false;
  /// 3D: the x step prefetches b's interior rows into L2 for the last residual step.
  bool prefetch_b = false;
  /// Steps that share a direction merged (residual's last step with the first Sᵀ, Sᵀ·Λ⁻¹·S along x).
  bool merge_steps = false;
  /// 3D: the residual and solve boxes kept in place in the line buffer (z stride (2k−1)(2k+1)).
  bool column_in_place = false;
  /// Device, 3D: one thread per C interior columns (not per closure column) by default.
  bool interior_threads = false;
  /// Threads a team aims at when patches per team is automatic: per-column and per-point kernel.
  int team_threads = 128;
  int point_team_threads = 128;
  const char* reason = "";
  const char* record = "";
  /// The Boundary local residual (paper 000 §4.1.3, PatchResidual) where the options leave it to
  /// the row: x read on the patch boundary layer only, the solve's result stored, not added. On for
  /// every row: one smoothing step, boundary / full in the same call (H200, ~3e7 DoFs,
  /// h200-2026-11-28-boundary-residual/call2): 3D FP64 k = 1..7 1.04, 1.07, 1.13, 1.14, 1.21, 1.16,
  /// 1.15 (k = 8: fused + boundary 1.33x the global kernel), FP32 1.03–1.18; 2D FP64 k = 1..10
  /// 1.00–1.11, none below 1.00 (call1).
  bool boundary_residual = true;
  /// Per-column team target of the float kernels where it differs from team_threads (0: the same):
  /// float halves the scratch and the registers per value, so other team shapes win (float sweeps
  /// of patches per team, call1 full residual, call2 boundary: 3D k = 4 8 patches 1.12x the 4 of
  /// team_threads, k = 6 2 patches 1.08x the 3, k = 7 1 patch 1.14x the 2, which also lets the
  /// y rounds run).
  int float_team_threads = 0;
  /// The fast diagonalization's Ŝᵀ and Ŝ in mode-split form (core/even_odd_contraction.hpp): the
  /// k symmetric eigenvectors act on a column's even part, the k − 1 antisymmetric ones on its odd
  /// part, at half the FMAs (k >= 2). One smoothing step with / without it (H200, ~3e7 DoFs,
  /// h200-2026-11-29-even-odd/call5): 2D FP64 k = 2..10 1.03, 1.18, 1.09, 1.05, 1.26, 1.16, 1.26,
  /// 1.28, 1.36; 3D FP64 k = 2..8 1.03, 1.03, 1.12, 1.05, 0.95, 0.99, 1.02 (FP32 1.03, 1.02, 1.03,
  /// 1.05, 0.91, 1.05, 1.15): on everywhere from k = 2 but 3D k = 6 (its two columns per thread
  /// and outputs unrolled by two leave the mode loop with a run-time branch).
  bool even_odd = false;
  /// The local residual's contractions with the 2k − 1 interior rows of the closure matrices M̂, Â
  /// in even-odd form (core/even_odd_contraction.hpp: both are centro-symmetric for a patch of two
  /// equal cells): a column's even and odd parts feed a pair of outputs at the FMAs of one (k >= 2).
  bool even_odd_residual = false;
  /// Teams per SM of the float kernels' launch bounds where they differ from min_teams_per_sm
  /// (0: the same): a float column needs half the registers, so more teams fit without the
  /// spilling the double kernel would suffer. One smoothing step, 4 teams against 3 (H200,
  /// h200-2026-11-29-even-odd-residual/call3): 3D k = 7 FP32 1.11x (FP64 0.83x), k = 8 3 against
  /// 2 FP32 1.22x (FP64 0.84x); k = 6 FP32 1.00x (left at 3). 3D k = 3, 5 against 4 (H100,
  /// h100-2026-12-07-time-to-solution/g26, same call, two rounds): FP32 step 14.28 against 13.21
  /// GDoF/s (1.08x; ncu: 6 teams a SM by registers before, 46.9% occupancy), 6 teams 14.36 / 14.22.
  int float_min_teams_per_sm = 0;
  /// Unrolling of the float kernels' even-odd loops over output pairs (residual and Ŝ) where it
  /// differs from the double ones' (0: half of unroll_interior, all pairs where that unrolls every
  /// output). Every pair unrolled, one smoothing step against half of unroll_interior (H200,
  /// h200-2026-11-29-even-odd-residual/call5): 3D k = 8 FP32 1.47x (FP64 0.96x); k = 6, 7 FP32
  /// 0.88x, 0.84x (FP64 0.73x, 0.55x: spilled).
  int float_unroll_pairs = 0;
  /// k = 1: a thread per patch (ThreadStructure::per_patch, vertex_patch_q1.hpp) where the thread
  /// structure is automatic: the patch's one unknown needs no team, scratch or contraction.
  bool per_patch = false;
  /// The float kernels keep the direct Ŝᵀ, Ŝ where the row's `even_odd` is on. 3D k = 6, one
  /// smoothing step mode-split / direct (H200, ~3e7 DoFs, h200-2026-12-05-mode-loops/call1, best
  /// of two rounds each): FP64 1.05x, FP32 0.93x; H100 (h100-2026-12-05-mode-loops/call2) with this
  /// row against the direct solve in both: FP64 1.02x, FP32 1.00x.
  bool float_direct_solve = false;
  /// k = 1 with per_patch: the two colours of a pair in one pass, a thread per segment of a line
  /// (ThreadStructure::per_line, VertexPatchQ1PairKernel) where the thread structure is automatic.
  /// Off on the H100: one smoothing step, 3D ~1e8 DoFs, per line / per patch (g20, same call, two
  /// rounds) FP64 1.14x, FP32 0.95x, 2D 1.04x / 0.91x; the 3D V-cycle at 17M FP64 0.96x; FMG Q1
  /// 135M double 1.05x, mixed 0.97x (h100-2026-12-06-q1-pairs). On for the host rows (patch_tuning).
  bool per_line = false;
  /// Host, k >= 2: W patches of a colour in the lanes of a SIMD register (ThreadStructure::lanes,
  /// vertex_patch_lanes.hpp) where the thread structure is automatic. Off on every device row.
  bool lanes = false;
};

namespace detail {
/// The device rows (H100). Columns: dim, k, C, x_columns, y_rounds, max_team_size, min_teams_per_sm,
/// unroll_interior, chained_fma, prefetch_b, merge_steps, column_in_place, interior_threads,
/// team_threads, point_team_threads, reason, record, boundary_residual, float_team_threads, even_odd,
/// even_odd_residual, float_min_teams_per_sm, float_unroll_pairs, per_patch, float_direct_solve.
inline constexpr PatchTuning patch_device_rows[] = {
    // 2D: one column per thread; 4 teams of 256 (64 registers) up to k = 4, 3 up to k = 7, 2 above;
    // outputs unrolled fully up to 2k − 1 = 9, not above; teams near 64 threads from k = 3 on.
    {2, 1, 1, 1, false, 256, 4, 1, false, false, true, false, false, 128, 128, "a thread per patch: 3.44x per column (FP64, h200-2026-11-29-q1-stencil/call3); per column: 64 registers at 4 teams (h100-2026-11-21-multigrid/v2-launch-bounds)", "h200-2026-11-29-q1-stencil/call3", true, 0, false, false, 0, 0, true},
    {2, 2, 1, 1, false, 256, 4, 3, false, false, true, false, false, 128, 128, "register cap: 64 registers at 4 teams", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 3, 1, 1, false, 256, 4, 5, false, false, true, false, false, 64, 64, "teams of 64 threads measured faster from k = 3 on", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 4, 1, 1, false, 256, 3, 7, false, false, true, false, false, 64, 64, "3 teams (85 registers): 15.1 GDoF/s vs 11.9 at 4 teams (64) since the kernel split", "h100-2026-11-24-shared-primitives/variants", true, 0, true, true},
    {2, 5, 1, 1, false, 256, 3, 9, false, false, false, false, false, 64, 64, "merged steps spilled above k = 4 (-10% at 3D k = 5)", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 6, 1, 1, false, 256, 3, 1, false, false, false, false, false, 64, 64, "outputs not unrolled above 9 in 2D", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 7, 1, 1, false, 256, 3, 1, false, false, false, false, false, 64, 64, "3 teams (85 registers) up to k = 7 in 2D", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 8, 1, 1, false, 256, 2, 1, false, false, false, false, false, 64, 64, "2 teams (128 registers): columns of 2(2k+1) doubles", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 9, 1, 1, false, 256, 2, 1, false, false, false, false, false, 64, 64, "2 teams (128 registers): columns of 2(2k+1) doubles", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    {2, 10, 1, 1, false, 256, 2, 1, false, false, false, false, false, 64, 64, "2 teams (128 registers): columns of 2(2k+1) doubles", "h100-2026-11-21-multigrid/v2-launch-bounds", true, 0, true, true},
    // 3D: chained FMAs (v19: k = 4 +2%, 5 +6%, 6 +4%), boxes in place (v10: +13% k = 5, +8% k = 6),
    // a thread per interior column from k = 2 on (v8–v10), team targets 128/160/196/256 (v11).
    {3, 1, 1, 1, false, 256, 4, 1, true, false, true, true, false, 256, 128, "a thread per patch: 6.93x per column (FP64, h200-2026-11-29-q1-stencil/call3); per column: 4 teams of 256 (h100-2026-11-22-smoother/v10-final)", "h200-2026-11-29-q1-stencil/call3", true, 0, false, false, 0, 0, true},
    {3, 2, 1, 1, false, 256, 4, 3, true, false, true, true, true, 128, 128, "interior threads; teams of 128", "h100-2026-11-22-smoother/v11-fused-q7-48k", true, 0, true, true},
    {3, 3, 1, 1, false, 256, 4, 5, true, false, true, true, true, 160, 128, "teams of 160 (+27% from the register cap); float 5 teams of 256 (51 registers: 8 teams of 160 a SM instead of 6, +8% FP32 step, H100 g26)", "h100-2026-12-07-time-to-solution/g26", true, 0, true, true, 5},
    {3, 4, 1, 1, false, 224, 4, 7, true, true, true, true, true, 196, 128, "4 teams of 224 with 72 registers (+38%, v12); b prefetch +1..3%; float 8 patches (224 threads by the launch bound)", "h100-2026-11-22-smoother/v12-local-arrays-launch-bounds", true, 392, true, true},
    {3, 5, 1, 1, false, 256, 4, 9, true, false, false, true, true, 256, 128, "4 teams (64 registers) since the even-odd residual: +3% FP64, +13% FP32 over 3 (call3); merged steps -10%; prefetch -10% (v19)", "h200-2026-11-29-even-odd-residual/call3", true, 0, true, true},
    {3, 6, 2, 3, false, 128, 3, 2, true, true, false, true, true, 256, 128, "2 columns per thread (+3%), x step 3 (+2%), prefetch +4%; float 2 patches; mode-split solve in FP64 (1.05x), direct in FP32 (mode-split 0.93x)", "h200-2026-12-05-mode-loops/call1", true, 122, true, true, 0, 0, false, true},
    {3, 7, 2, 3, true, 128, 3, 2, true, true, false, true, true, 256, 128, "2 columns per thread (+3%), x step 3 with y rounds (+21%), prefetch +3%; float 1 patch (y rounds), float 4 teams (+11%, h200-2026-11-29-even-odd-residual/call3)", "h100-2026-11-22-smoother/v21-y-rounds", true, 85, true, true, 4},
    {3, 8, 1, 1, false, 256, 2, 2, true, false, false, true, true, 256, 128, "2 teams (128 registers; 3 teams -16%), float 3 teams (+22%, call3) and every output pair unrolled (+47%, call5); outputs unrolled by 2", "h100-2026-11-22-smoother/v14-unroll-2", true, 0, true, true, 3, 7},
};
}  // namespace detail

/// Where the host's automatic thread structure at k >= 2 is patches in SIMD lanes
/// (ThreadStructure::lanes), by the lanes of the build's widest register (record
/// cpu-2026-12-07-lanes: the VM, 2 cores, ~2e6 DoFs, one smoothing step against a thread per
/// column, FP64 / FP32):
///  - 8 doubles (TENSORMG_NATIVE_ARCH on AVX-512): 3D k = 2..8 2.2-2.8x / 2.2-5.5x, 2D k = 2..10
///    1.3-2.9x / 1.5-4.1x;
///  - 2 doubles (SSE2; 4 not measured, treated as 2): 3D k = 2..8 1.00-1.50x / 1.55-2.1x, 2D
///    k = 2..8 1.03-1.55x / 1.5-2.2x; 2D k = 9, 10 (1.00x, 0.86x in FP64) stay per column.
constexpr bool host_lanes_win(int dim, int k) {
  const bool wide = simd::native_width<double> >= 8;
  return k >= 2 && (wide || dim == 3 || k <= 8);
}

/// The row of (dim, k) for the target. Host rows are the device rows with what only pays on a GPU
/// switched off: the x step in blocks of C (on this VM's OpenMP build k = 6 lost ~7% with 3,
/// cpu-2026-11-22-smoother-y-rounds), no y rounds (they need warps), no prefetch; the launch bounds
/// and team targets do not apply to host teams of one thread.
constexpr PatchTuning patch_tuning(int dim, int k, TuningTarget target) {
  for (const PatchTuning& row : detail::patch_device_rows)
    if (row.dim == dim && row.k == k) {
      if (target == TuningTarget::device) return row;
      PatchTuning host = row;
      host.x_columns = row.columns_per_thread;
      host.y_rounds = false;
      host.prefetch_b = false;
      host.interior_threads = false;
      host.reason = "host: the device row without its GPU-only choices";
      host.record = "cpu-2026-11-22-smoother-y-rounds";
      if (row.per_patch) {  // k = 1
        host.per_line = true;
        host.reason = "host: a thread per line (two colours a pass): one smoothing step 1.2-1.8x per patch, FMG Q1 1.23-1.30x on the VM";
        host.record = "cpu-2026-12-06-q1-pairs";
      } else if (host_lanes_win(dim, k)) {
        host.lanes = true;
        host.reason = "host: patches in SIMD lanes (faster than a thread per column on the VM)";
        host.record = "cpu-2026-12-07-lanes";
      }
      return host;
    }
  return PatchTuning{};  // dim = 0: no such row (kernels static_assert on it)
}

}  // namespace tensormg
