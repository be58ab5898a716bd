#pragma once
// Shared helpers of the perf/ programs: fenced median timing and the ceilings record.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

namespace tensormg::perf {

/// Runs f for at least `warmup_seconds` (and at least once) to warm up, then `repeats` times with a
/// fence after each, and returns the median wall time in seconds (METHOD.md: warm up, repeat, take
/// the median). The timed warm-up matters on GPUs: after seconds of host-only work (assembling a
/// CRS matrix) one warm-up call was not enough; FP32 cases that followed such work measured
/// 2–3 GDoF/s in a sweep and 18–20 GDoF/s when run alone (H100, perf/README.md).
template <class F>
double median_seconds(int repeats, F&& f, double warmup_seconds = 0.3) {
  const auto w0 = std::chrono::steady_clock::now();
  do {
    f();
    Kokkos::fence();
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() < warmup_seconds);
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace tensormg::perf
