#pragma once
/// @file
/// The tuning table of the DG (SIPG) cell kernel (dg_laplace_kernels.hpp), one row per (dim, k,
/// target), in the LaplaceTuning form of the continuous kernel (launch bounds, unrolling of a
/// line's outputs, threads per team; DG cells write only their own values, so merge_faces is
/// unused). The rows follow one rule until the kernel has its own sweep: outputs unrolled up to
/// k + 1 = 5 (the continuous kernel's limit before spills), 256 threads and 3 teams per SM.

#include "core/device_traits.hpp"
#include "discretization/laplace_tuning.hpp"

namespace tensormg {

constexpr LaplaceTuning dg_laplace_tuning(int dim, int k, TuningTarget target) {
  LaplaceTuning row;
  row.dim = dim;
  row.k = k;
  row.max_team_size = 256;
  row.min_teams_per_sm = 3;
  row.unroll_outputs = k + 1 <= 5 ? k + 1 : 1;
  row.merge_faces = false;
  row.team_threads = target == TuningTarget::device ? 128 : 1;
  row.reason = target == TuningTarget::device
                   ? "rule: outputs unrolled up to k + 1 = 5, 3 teams of 256 per SM (first DG version)"
                   : "host: one cell per team of one thread by default";
  row.record = target == TuningTarget::device ? "h100-2026-11-24-dg" : "cpu-2026-11-24-dg";
  return row;
}

}  // namespace tensormg
