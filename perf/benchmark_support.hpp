#pragma once
// Shared helpers of the perf/ programs: fenced median timing and the ceilings record.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

namespace tensormg::perf {

/// Runs f once to warm up, then `repeats` times with a fence after each, and returns the median
/// wall time in seconds (METHOD.md: warm up, repeat, take the median).
template <class F>
double median_seconds(int repeats, F&& f) {
  f();
  Kokkos::fence();
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
