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
  const char* reason = "";
  const char* record = "";
};

namespace detail {
/// The device rows (H100).
inline constexpr BakeOffTuning bake_off_device_rows[] = {
    // Staging E-vectors through scratch measured 0.76-0.97x of line-wise access (call2-element-io);
    // prefetching the factors 1.06-1.41x (FP64), except BP3.0 at k = 6: 0.91x (call3-prefetch).
    {1, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.14/1.16/1.31x)", "h100-2026-11-25-bp/call3-prefetch"},
    {2, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.09/1.35/1.38x)", "h100-2026-11-25-bp/call3-prefetch"},
    {3, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.07/1.25/1.37x)", "h100-2026-11-25-bp/call3-prefetch"},
    {4, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.06/1.20/1.41x)", "h100-2026-11-25-bp/call3-prefetch"},
    {5, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.06/1.18/1.12x)", "h100-2026-11-25-bp/call3-prefetch"},
    {6, 256, 2, 256, false, {true, true, false}, "cells per team of up to 256 threads, a thread per line; factors prefetched for BP1.0/BP3.5 (1.08/1.16x), not BP3.0 (0.91x)", "h100-2026-11-25-bp/call3-prefetch"},
    {7, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.07/1.00/1.10x)", "h100-2026-11-25-bp/call3-prefetch"},
    {8, 256, 2, 256, false, {true, true, true}, "cells per team of up to 256 threads, a thread per line; factors prefetched (1.12/1.07/1.15x)", "h100-2026-11-25-bp/call3-prefetch"},
};
}  // namespace detail

/// The row of degree k for the target. Host rows: one cell per team of one thread.
constexpr BakeOffTuning bake_off_tuning(int k, TuningTarget target) {
  for (const BakeOffTuning& row : detail::bake_off_device_rows)
    if (row.k == k) {
      if (target == TuningTarget::device) return row;
      BakeOffTuning host = row;
      host.team_threads = 1;
      host.reason = "host: one cell per team of one thread, no prefetch (the host has none)";
      for (bool& p : host.prefetch) p = false;
      host.record = "cpu-2026-11-25-bp";
      return host;
    }
  return BakeOffTuning{};
}

}  // namespace tensormg
