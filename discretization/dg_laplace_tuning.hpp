#pragma once
/// @file
/// The tuning table of the DG (SIPG) cell kernel (dg_laplace_kernels.hpp), one row per (dim, k,
/// target), in the LaplaceTuning form of the continuous kernel (launch bounds, unrolling of a
/// line's outputs, threads per team; DG cells write only their own values, so merge_faces is
/// unused). tests/smoothers/test_tuning_tables.cpp checks every row.

#include "core/device_traits.hpp"
#include "discretization/laplace_tuning.hpp"

namespace tensormg {

namespace detail {
/// The device rows (H100). Launch bounds 256 threads × 3 teams per SM (85 registers) and outputs
/// unrolled up to k + 1 = 5 (the continuous kernel's limit before spills) everywhere; the team
/// size is what the cells-per-team sweeps picked (initial/dg-3d-teams, tuned/dg-2d-teams): teams
/// of one warp or less win in 2D up to k = 7 and in 3D at k = 3, 4.
inline constexpr LaplaceTuning dg_laplace_device_rows[] = {
    {2, 1, 256, 3, 2, false, 32, "16 cells (one warp): 95.2 GDoF/s, 93.0 with 64", "h100-2026-11-24-dg/tuned"},
    {2, 2, 256, 3, 3, false, 24, "8 cells: 87.4 GDoF/s against 76.6 with 43", "h100-2026-11-24-dg/tuned"},
    {2, 3, 256, 3, 4, false, 16, "4 cells: 65.6 GDoF/s against 34.1 with 32", "h100-2026-11-24-dg/tuned"},
    {2, 4, 256, 3, 5, false, 20, "4 cells: 77.5 GDoF/s against 49.8 with 26", "h100-2026-11-24-dg/tuned"},
    {2, 5, 256, 3, 1, false, 48, "8 cells: 66.7 GDoF/s against 56.9 with 21", "h100-2026-11-24-dg/tuned"},
    {2, 6, 256, 3, 1, false, 56, "8 cells: 65.7 GDoF/s against 56.5 with 18", "h100-2026-11-24-dg/tuned"},
    {2, 7, 256, 3, 1, false, 64, "8 cells: 57.6 GDoF/s against 37.4 with 16", "h100-2026-11-24-dg/tuned"},
    {2, 8, 256, 3, 1, false, 128, "14 cells: 48.9 GDoF/s (initial), 43.2 with 16", "h100-2026-11-24-dg/initial"},
    {2, 9, 256, 3, 1, false, 128, "13 cells: 40.5 GDoF/s (initial), 42.6 with 16 (within noise)", "h100-2026-11-24-dg/initial"},
    {2, 10, 256, 3, 1, false, 128, "12 cells: 40.3 GDoF/s (initial), 42.8 with 16 (within noise)", "h100-2026-11-24-dg/initial"},
    {3, 1, 256, 3, 2, false, 128, "rule (not swept): 32 cells of 4 lines", "h100-2026-11-24-dg/initial"},
    {3, 2, 256, 3, 3, false, 128, "14 cells: 44.9 GDoF/s; 3, 6, 8 cells within 2%", "h100-2026-11-24-dg/initial"},
    {3, 3, 256, 3, 4, false, 32, "2 cells (one warp): 57.0 GDoF/s against 37.7 with 8", "h100-2026-11-24-dg/initial"},
    {3, 4, 256, 3, 5, false, 25, "1 cell (one warp): 52.0 GDoF/s against 48.1 with 5", "h100-2026-11-24-dg/initial"},
    {3, 5, 256, 3, 1, false, 108, "3 cells: 39.1 GDoF/s against 36.5 with 4", "h100-2026-11-24-dg/initial"},
    {3, 6, 256, 3, 1, false, 98, "2 cells: 34.0 GDoF/s against 33.0 with 3", "h100-2026-11-24-dg/initial"},
    {3, 7, 256, 3, 1, false, 128, "2 cells: 36.1 GDoF/s against 29.4 with 1 and 31.4 with 3", "h100-2026-11-24-dg/initial"},
    {3, 8, 256, 3, 1, false, 128, "2 cells (not swept: 3 exceed 256 threads)", "h100-2026-11-24-dg/initial"},
};
}  // namespace detail

/// The row of (dim, k) for the target. Host rows: one cell per team of one thread by default.
constexpr LaplaceTuning dg_laplace_tuning(int dim, int k, TuningTarget target) {
  for (const LaplaceTuning& row : detail::dg_laplace_device_rows)
    if (row.dim == dim && row.k == k) {
      if (target == TuningTarget::device) return row;
      LaplaceTuning host = row;
      host.team_threads = 1;
      host.reason = "host: one cell per team of one thread by default";
      host.record = "cpu-2026-11-24-dg";
      return host;
    }
  return LaplaceTuning{};
}

}  // namespace tensormg
