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
  /// The team's geometric factors prefetched into L2 at the start by default.
  bool prefetch = false;
  const char* reason = "";
  const char* record = "";
};

namespace detail {
/// The device rows (H100).
inline constexpr BakeOffTuning bake_off_device_rows[] = {
    {1, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {2, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {3, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {4, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {5, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {6, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {7, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
    {8, 256, 2, 256, false, false, "several cells per team of up to 256 threads, one thread per line", "h100-2026-11-25-bp/call1"},
};
}  // namespace detail

/// The row of degree k for the target. Host rows: one cell per team of one thread.
constexpr BakeOffTuning bake_off_tuning(int k, TuningTarget target) {
  for (const BakeOffTuning& row : detail::bake_off_device_rows)
    if (row.k == k) {
      if (target == TuningTarget::device) return row;
      BakeOffTuning host = row;
      host.team_threads = 1;
      host.reason = "host: one cell per team of one thread";
      host.record = "cpu-2026-11-25-bp";
      return host;
    }
  return BakeOffTuning{};
}

}  // namespace tensormg
