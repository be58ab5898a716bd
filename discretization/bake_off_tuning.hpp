#pragma once
/// @file
/// The tuning table of the bake-off cell kernels (bake_off_kernels.hpp): one row per degree with
/// the reason and the record (under perf/results/) that decided it; the kernels and the host glue
/// read the same row. tests/smoothers/test_tuning_tables.cpp checks every row's invariants.

#include "core/device_traits.hpp"

namespace tensormg {

struct BakeOffTuning {
  int k = 0;
  /// Launch bounds: at most max_team_size threads, min_teams_per_sm teams per SM.
  int max_team_size = 256;
  int min_teams_per_sm = 2;
  /// Threads a team aims at when cells per team is automatic: a team has one thread per line of
  /// its largest step, (quadrature points per direction)² per cell.
  int team_threads = 256;
  /// E-vectors staged through scratch (coalesced) by default, not read along lines.
  bool staged = false;
  /// The team's geometric factors prefetched into L2 at the start by default, per problem
  /// (BP1.0, BP3.5, BP3.0: the order of enum BakeOff).
  bool prefetch[3] = {false, false, false};
  /// The full operator (fused gather): the continuous vector gathered and added to through
  /// scratch, node by node, by default, per problem; else along the first and last steps' lines.
  bool staged_fused[3] = {false, false, false};
  const char* reason = "";
  const char* record = "";
  /// The 1D contractions in even-odd form (core/even_odd_contraction.hpp: I centro-symmetric, D
  /// centro-antisymmetric; half the FMAs and table entries) per problem. Last, so that the rows
  /// of earlier records read as before.
  bool even_odd[3] = {false, false, false};
  /// Cells per team when the user does not choose, per problem; 0: as many as team_threads holds
  /// (team_threads / lines), lowered at launch to what the team scratch holds. A kernel at its
  /// launch bound's register cap keeps 16 warps per SM at most, so a team whose warps do not
  /// divide 16 leaves some of them empty (bake_off_kernels.hpp, default_bake_off_cells_per_team).
  int cells_per_team[3] = {0, 0, 0};
  /// The staged fused gather/scatter reads each cell's node map from team scratch (formed once
  /// per cell) instead of forming it for every node, per problem. Compiled in only where set: the
  /// table's code alone cost the element kernels and the line-wise operators 3-14% where their
  /// registers spill (h200-2026-12-03-bp-occupancy/call3); read from scratch along lines it
  /// measured 0.92-0.98x at BP3.0 (call2).
  bool node_maps[3] = {false, false, false};
  /// The stored factors and the trilinear geometry as kernels of their own (else one kernel with a
  /// run-time branch), per problem. The trilinear Jacobians' registers in the one kernel cost BP1.0
  /// FP64 k = 4 127 instead of 62 registers and 0.70x (h200-2026-12-03-bp-geometry-split, split
  /// against one kernel: BP1.0 element 1.16-1.71x, operator 1.09-1.53x at k = 2..8); the split
  /// stored BP3.5 and BP3.0 kernels measured 0.76-0.96x at k = 5..8 (BP3.0 k = 6 0.76x), 1.00-1.02x
  /// below, so they keep the one kernel.
  bool split_geometry[3] = {true, false, false};
};

namespace detail {
/// The device rows (H100; the fused gather's staging measured on an H200, h200-2026-11-28-bp-fused;
/// the even-odd form on an H200, h200-2026-11-29-even-odd/call4: element kernel and full operator
/// with / without it, FP64 2e7 DoFs, decided in FP64; kept off where it lost or was neutral).
inline constexpr BakeOffTuning bake_off_device_rows[] = {
    // Staging E-vectors through scratch measured 0.76-0.97x of line-wise access (call2-element-io);
    // prefetching the factors 1.06-1.41x (FP64), except BP3.0 at k = 6: 0.91x (call3-prefetch).
    // Staging the fused gather/scatter (h200-2026-11-28-bp-fused, FP64 2e7 DoFs, staged / lines
    // at k = 2..8): BP1.0 0.85 1.11 1.32 1.04 1.25 0.94 0.88, BP3.5 0.94 1.07 1.18 1.05 1.10 1.08
    // 0.93, BP3.0 0.75-0.90 (k = 1 not measured: lines).
    {1, 256, 2, 256, false, {true, true, true}, {false, false, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.14/1.16/1.31x); fused gather along lines; even-odd (FP64 element 1.18/0.95/1.03x, operator 1.21/0.90/1.06x for BP1.0/BP3.5/BP3.0)",
     "h200-2026-11-29-even-odd/call4", {true, false, true}},
    {2, 256, 2, 256, false, {true, true, true}, {false, false, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.09/1.35/1.38x); fused gather along lines (staged 0.85/0.94/0.88x); even-odd (FP64 element 1.00/1.06/0.99x, operator 1.00/1.04/1.02x for BP1.0/BP3.5/BP3.0)",
     "h200-2026-11-29-even-odd/call4", {true, true, true}},
    {3, 256, 2, 256, false, {true, true, true}, {true, true, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.07/1.25/1.37x); fused gather staged for BP1.0/BP3.5 (1.11/1.07x), not BP3.0 (0.82x); even-odd (FP64 element 1.00/0.99/1.03x, operator 1.00/1.00/1.01x for BP1.0/BP3.5/BP3.0); node maps from scratch for the staged BP3.5 gather (operator 1.03/1.03x stored/trilinear, h200-2026-12-03-bp-occupancy/call1); BP3.5 8 cells per team (with the padded scratch rows, against 16: operator 1.10-1.12x, BP5 CG 1.07-1.08x stored/trilinear, h200-2026-12-03-bp-scratch-rows/call3 cells-k3)",
     "h200-2026-12-03-bp-scratch-rows/call3", {true, false, true}, {0, 8, 0}, {false, true, false}},
    {4, 256, 2, 256, false, {true, true, true}, {true, true, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.06/1.20/1.41x); fused gather staged for BP1.0/BP3.5 (1.32/1.18x), not BP3.0 (0.82x); even-odd (FP64 element 1.04/0.98/1.03x, operator 1.01/0.99/1.03x for BP1.0/BP3.5/BP3.0); node maps from scratch for the staged BP3.5 gather (operator 1.03/1.07x stored/trilinear, h200-2026-12-03-bp-occupancy/call1)",
     "h200-2026-11-29-even-odd/call4", {true, false, true}, {0, 0, 0}, {false, true, false}},
    {5, 256, 2, 256, false, {true, true, true}, {true, true, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.06/1.18/1.12x); fused gather staged for BP1.0/BP3.5 (1.04/1.05x), not BP3.0 (0.82x); even-odd (FP64 element 1.35/1.02/1.16x, operator 1.42/1.01/1.03x for BP1.0/BP3.5/BP3.0); cells per team BP3.5 3, BP3.0 1 (h200-2026-12-03-bp-occupancy/call2; the rest h200-2026-11-29-even-odd/call4: BP5 CG 1.07/1.03x and BP3 CG 1.05/1.07x stored/trilinear against the 7 and 3 that fill 256 threads: at the 128-register cap an SM keeps 16 warps, and 7 x 36 threads took 8 warps of them per team); node maps from scratch for the staged BP3.5 gather (operator 1.08/1.12x at 3 cells)",
     "h200-2026-12-03-bp-occupancy/call2", {true, true, true}, {0, 3, 1}, {false, true, false}},
    {6, 256, 2, 256, false, {true, true, false}, {true, true, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched for BP1.0/BP3.5 (1.08/1.16x), not BP3.0 (0.91x); fused gather staged for BP1.0/BP3.5 (1.25/1.10x), not BP3.0 (0.90x); even-odd (FP64 element 1.00/1.11/1.02x, operator 1.11/1.06/1.04x for BP1.0/BP3.5/BP3.0); cells per team BP3.5 3 (h200-2026-12-03-bp-occupancy/call2; the rest h200-2026-11-29-even-odd/call4:BP5 CG 1.04/1.06x against 4: 196 threads in 7 warps leave 2 of the 16 per SM empty); node maps from scratch for the staged BP3.5 gather (operator 1.08/1.11x at 3 cells)",
     "h200-2026-12-03-bp-occupancy/call2", {true, true, true}, {0, 3, 0}, {false, true, false}},
    {7, 256, 2, 256, false, {true, true, true}, {false, true, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.07/1.00/1.10x); fused gather staged for BP3.5 (1.08x), not BP1.0/BP3.0 (0.94/0.75x); even-odd (FP64 element 1.10/1.00/1.36x, operator 0.98/1.09/1.24x for BP1.0/BP3.5/BP3.0); cells per team BP3.5 2 (h200-2026-12-03-bp-occupancy/call2; the rest h200-2026-11-29-even-odd/call4:BP5 CG 1.10/1.14x against 3: 192 threads, 2 teams and 12 warps per SM); node maps from scratch for the staged BP3.5 gather (operator 1.01/1.03x at 2 cells)",
     "h200-2026-12-03-bp-occupancy/call2", {true, true, true}, {0, 2, 0}, {false, true, false}},
    {8, 256, 2, 256, false, {true, true, true}, {false, false, false},
     "cells per team of up to 256 threads, a thread per line; factors prefetched (1.12/1.07/1.15x); fused gather along lines (staged 0.88/0.93/0.75x); even-odd (FP64 element 1.28/1.20/1.23x, operator 1.03/1.08/1.15x for BP1.0/BP3.5/BP3.0); cells per team BP3.5 1 (h200-2026-12-03-bp-occupancy/call2; the rest h200-2026-11-29-even-odd/call4:BP5 CG 1.05/1.04x against 2: 162 threads in 6 warps, 2 teams per SM)",
     "h200-2026-12-03-bp-occupancy/call2", {true, true, true}, {0, 1, 0}},
};
}  // namespace detail

/// The row of degree k for the target. Host rows: one cell per team of one thread.
constexpr BakeOffTuning bake_off_tuning(int k, TuningTarget target) {
  for (const BakeOffTuning& row : detail::bake_off_device_rows)
    if (row.k == k) {
      if (target == TuningTarget::device) return row;
      BakeOffTuning host = row;
      host.team_threads = 1;
      host.reason = "host: one cell per team of one thread, no prefetch (the host has none), fused gather along lines";
      for (bool& p : host.prefetch) p = false;
      for (bool& f : host.staged_fused) f = false;
      for (int& c : host.cells_per_team) c = 0;
      // node_maps as on the device: the host tests run the same staged code.
      host.record = "cpu-2026-11-25-bp";
      return host;
    }
  return BakeOffTuning{};
}

}  // namespace tensormg
