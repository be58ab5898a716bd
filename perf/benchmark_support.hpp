#pragma once
// Shared helpers of the perf/ programs: collective fenced median timing, the ceilings record, and
// the checks of benchmark sizes that run before any case is built.

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"

namespace tensormg::perf {

/// The measured ceilings of a tensormg-ceilings record (0 where not given).
struct Ceilings {
  double dram_GBps = 0, fp64_GFLOPs = 0, fp32_GFLOPs = 0, shared_GBps = 0;
  double mma_f64_m8n8k4_GFLOPs = 0;  ///< FP64 tensor cores, the A100 shape (CUDA builds only)
  double mma_f64_m16n8k16_GFLOPs = 0;  ///< FP64 tensor cores, the sm_90 shape (CUDA builds for sm_90)
  double mma_f16_GFLOPs = 0;         ///< FP16 tensor cores, m16n8k16 with FP32 accumulation (CUDA builds only)
};

/// Reads "key": number from a tensormg-ceilings record (a flat scan: the record is ours); 0 if the
/// key is missing or not followed by a finite number.
inline double read_number(const std::string& text, const std::string& key) {
  const auto pos = text.find("\"" + key + "\"");
  if (pos == std::string::npos) return 0;
  const auto colon = text.find(':', pos);
  if (colon == std::string::npos) return 0;
  const double value = std::strtod(text.c_str() + colon + 1, nullptr);
  return std::isfinite(value) ? value : 0;
}

/// Loads a ceilings record; an empty path gives zeros (no percentages are printed then). Throws a
/// local InputError: call it inside collectively().
inline Ceilings load_ceilings(const std::string& path) {
  Ceilings c;
  if (path.empty()) return c;
  std::ifstream in(path);
  TENSORMG_CHECK(in.good(), "cannot read the ceilings record '" << path << "'");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  c.dram_GBps = read_number(text, "dram_copy_GBps");
  c.fp64_GFLOPs = read_number(text, "fp64_fma_GFLOPs");
  c.fp32_GFLOPs = read_number(text, "fp32_fma_GFLOPs");
  c.shared_GBps = read_number(text, "shared_load_GBps");
  c.mma_f64_m8n8k4_GFLOPs = read_number(text, "mma_f64.m8n8k4_GFLOPs");
  c.mma_f64_m16n8k16_GFLOPs = read_number(text, "mma_f64.m16n8k16_GFLOPs");
  c.mma_f16_GFLOPs = read_number(text, "mma_f16.m16n8k16.f32acc_GFLOPs");
  TENSORMG_CHECK(text.find("\"tensormg-ceilings\"") != std::string::npos && c.dram_GBps > 0 && c.fp64_GFLOPs > 0,
                 "'" << path << "' is not a tensormg-ceilings record (run tensormg-ceilings to make one)");
  return c;
}

/// The warm-up of median_seconds in this process: 0.3 s unless the program's --warmup says
/// otherwise (the ctest smoke runs pass 0: one untimed call, then the repeats).
inline double& default_warmup_seconds() {
  static double seconds = 0.3;
  return seconds;
}

/// --warmup SECONDS of every perf program that times with median_seconds; check_warmup_option()
/// after parsing, inside collectively().
inline void add_warmup_option(CLI::App& app) {
  app.add_option("--warmup", default_warmup_seconds(),
                 "seconds each timing runs untimed before its repeats (0..60; 0: one call)");
}
inline void check_warmup_option() {
  const double s = default_warmup_seconds();
  TENSORMG_CHECK(s >= 0 && s <= 60, "--warmup must be in 0..60 seconds, given " << s);
}

/// Collective over comm. Runs f for at least `warmup_seconds` (and at least once) to warm up, then
/// `repeats` times with a fence after each, and returns the median wall time in seconds (METHOD.md:
/// warm up, repeat, take the median). The timed warm-up matters on GPUs: after seconds of host-only
/// work (assembling a CRS matrix) one warm-up call was not enough; FP32 cases that followed such
/// work measured 2–3 GDoF/s in a sweep and 18–20 GDoF/s when run alone (H100, perf/HISTORY.md, "Known anomalies").
///
/// Every rank calls f equally often: f may exchange halos, and a rank that stopped warming up one
/// call earlier than another (each by its own clock) left that one waiting for a halo that never
/// came while it sat in the next collective (issue 19: 7 of 44 two-rank runs hung). So the ranks
/// agree after each warm-up call (on until every rank has warmed up for warmup_seconds), start each
/// timed call together, and a call's time is the slowest rank's.
template <class F>
double median_seconds(MPI_Comm comm, int repeats, F&& f, double warmup_seconds = default_warmup_seconds()) {
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); };
  const auto w0 = clock::now();
  double least_warmed = 0;
  do {
    f();
    Kokkos::fence();
    const double mine = since(w0);
    MPI_Allreduce(&mine, &least_warmed, 1, MPI_DOUBLE, MPI_MIN, comm);
  } while (least_warmed < warmup_seconds);
  std::vector<double> times;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    MPI_Barrier(comm);
    const auto t0 = clock::now();
    f();
    Kokkos::fence();
    const double mine = since(t0);
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    times.push_back(slowest);
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

/// The largest DoF count a benchmark option takes: far beyond any machine, and small enough that
/// cell counts, refinement levels and the rank-grid search stay in range (the memory and 32-bit
/// index checks then give the real limit).
constexpr double max_benchmark_dofs = 1e15;

/// Throws a local InputError unless value is a sensible DoF count (call inside collectively()).
inline void check_dofs(const std::string& option, double value) {
  TENSORMG_CHECK(value >= 1 && value <= max_benchmark_dofs,
                 option << " " << value << " is not a DoF count; use 1.." << max_benchmark_dofs);
}

}  // namespace tensormg::perf
