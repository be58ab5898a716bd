#pragma once
// Shared helpers of the perf/ programs: fenced median timing and the ceilings record.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace tensormg::perf {

/// The measured ceilings of a tensormg-ceilings record (0 where not given).
struct Ceilings {
  double dram_GBps = 0, fp64_GFLOPs = 0, fp32_GFLOPs = 0, shared_GBps = 0;
};

/// Reads "key": number from a tensormg-ceilings record (a flat scan: the record is ours).
inline double read_number(const std::string& text, const std::string& key) {
  const auto pos = text.find("\"" + key + "\"");
  if (pos == std::string::npos) return 0;
  const auto colon = text.find(':', pos);
  return std::strtod(text.c_str() + colon + 1, nullptr);
}

/// Loads a ceilings record; an empty path gives zeros (no percentages are printed then).
inline Ceilings load_ceilings(const std::string& path) {
  Ceilings c;
  if (path.empty()) return c;
  std::ifstream in(path);
  TENSORMG_CHECK(in.good(), "cannot read ceilings record '" << path << "'");
  std::stringstream ss;
  ss << in.rdbuf();
  c.dram_GBps = read_number(ss.str(), "dram_copy_GBps");
  c.fp64_GFLOPs = read_number(ss.str(), "fp64_fma_GFLOPs");
  c.fp32_GFLOPs = read_number(ss.str(), "fp32_fma_GFLOPs");
  c.shared_GBps = read_number(ss.str(), "shared_load_GBps");
  TENSORMG_CHECK(c.dram_GBps > 0 && c.fp64_GFLOPs > 0, "'" << path << "' is not a tensormg-ceilings record");
  return c;
}

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
