// A Kokkos Tools library (perf/): where a run's wall time goes, kernel by kernel and between them.
//
//   KOKKOS_PROFILE_LIBRARY=build-cuda/perf/libtensormg-kernel-timer.so \
//   TENSORMG_KERNEL_TIMER_OUT=times.txt  build-cuda/drivers/tensormg-poisson ...
//
// Kokkos fences before each begin/end callback while a tool is loaded (Kokkos 3.4,
// Kokkos_Profiling.cpp: MayRequireGlobalFencing), so a kernel's time is the interval between its
// callbacks, launch included. What lies between two callbacks outside any kernel or deep copy (host
// code, allocations, MPI, kernels' fences) is a gap, booked to the event that ends it ("gap before
// allocation X", "gap before kernel Y") or, after a deallocation, to it ("gap after deallocation
// X": Kokkos calls the tool before it frees): on a GPU this is where cudaMalloc, cudaFree and
// host-side work show. Regions (tensormg's ScopedRegion names) are timed inclusive, with the
// kernel time inside them. The run's fences make it slower than an untimed run: compare its
// components with each other, not its total with an untimed solve.
//
// The table goes to TENSORMG_KERNEL_TIMER_OUT (written at Kokkos::finalize; rank 0 of an MPI run
// by OMPI_COMM_WORLD_RANK / PMI_RANK, else every process appends its rank to the name), else to
// standard error. Entries below 0.1% of the total are summed in one line.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Entry {
  double seconds = 0;
  double inner = 0;  // regions: seconds of kernels and deep copies inside
  std::uint64_t calls = 0;
  double bytes = 0;
};

struct State {
  Clock::time_point start, last;
  std::map<std::string, Entry> entries;  // "kernel X", "copy", "gap before ...", "region X", "alloc X"
  std::map<std::uint64_t, std::pair<std::string, Clock::time_point>> kernels;
  std::vector<std::pair<std::string, Clock::time_point>> regions;
  std::vector<double> region_inner;
  Clock::time_point copy_start;
  std::string freeing;  // the deallocation whose free runs after its callback
  std::uint64_t next_id = 0;
};
State* state = nullptr;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Books the time since the last event as a gap before `what` (after a deallocation, whose
/// callback Kokkos makes before it frees, as the free's) and restarts the clock.
void gap_before(const std::string& what) {
  const auto now = Clock::now();
  Entry& e = state->entries[state->freeing.empty() ? "gap before " + what : "gap after " + state->freeing];
  state->freeing.clear();
  e.seconds += std::chrono::duration<double>(now - state->last).count();
  e.calls += 1;
  state->last = now;
}

void work_done(double seconds) {
  for (double& inner : state->region_inner) inner += seconds;
  state->last = Clock::now();
}

void begin_kernel(const char* kind, const char* name, std::uint64_t* id) {
  const std::string key = std::string(kind) + " " + name;
  gap_before(key);
  *id = state->next_id++;
  state->kernels[*id] = {key, Clock::now()};
}

void end_kernel(std::uint64_t id) {
  const auto it = state->kernels.find(id);
  if (it == state->kernels.end()) return;
  const double s = since(it->second.second);
  Entry& e = state->entries[it->second.first];
  e.seconds += s;
  e.calls += 1;
  state->kernels.erase(it);
  work_done(s);
}

std::string output_name() {
  const char* out = std::getenv("TENSORMG_KERNEL_TIMER_OUT");
  if (out == nullptr) return "";
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (rank == nullptr) rank = std::getenv("PMI_RANK");
  if (rank == nullptr || std::string(rank) == "0") return out;
  return std::string(out) + ".rank" + rank;
}

}  // namespace

extern "C" {

struct SpaceHandle {
  char name[64];
};

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  state = new State;
  state->start = state->last = Clock::now();
}

void kokkosp_finalize_library() {
  if (state == nullptr) return;
  const double total = since(state->start);
  std::vector<std::pair<std::string, Entry>> rows(state->entries.begin(), state->entries.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  const std::string name = output_name();
  FILE* f = name.empty() ? stderr : std::fopen(name.c_str(), "w");
  if (f == nullptr) f = stderr;
  std::fprintf(f, "# tensormg kernel timer: %.6f s from Kokkos::initialize to finalize (fenced run)\n", total);
  std::fprintf(f, "# %12s %8s %12s %10s %12s  %s\n", "seconds", "%", "calls", "us/call", "MB | inner s", "what");
  double small = 0;
  std::uint64_t small_count = 0;
  for (const auto& [what, e] : rows) {
    if (e.seconds < 1e-3 * total && what.rfind("region ", 0) != 0) {
      small += e.seconds;
      small_count += 1;
      continue;
    }
    // A region's inner seconds at the precision of its seconds (a check compares the two); bytes in MB.
    const bool region = what.rfind("region ", 0) == 0;
    std::fprintf(f, "  %12.6f %8.2f %12llu %10.1f %12.*f  %s\n", e.seconds, 100 * e.seconds / total,
                 static_cast<unsigned long long>(e.calls), 1e6 * e.seconds / std::max<std::uint64_t>(e.calls, 1),
                 region ? 6 : 3, region ? e.inner : e.bytes / 1e6, what.c_str());
  }
  std::fprintf(f, "  %12.6f %8.2f %12llu %10s %12s  (%llu entries below 0.1%% each)\n", small, 100 * small / total,
               static_cast<unsigned long long>(small_count), "", "", static_cast<unsigned long long>(small_count));
  if (f != stderr) std::fclose(f);
  delete state;
  state = nullptr;
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("kernel", name, id); }
void kokkosp_end_parallel_for(std::uint64_t id) { end_kernel(id); }
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("kernel", name, id); }
void kokkosp_end_parallel_reduce(std::uint64_t id) { end_kernel(id); }
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("kernel", name, id); }
void kokkosp_end_parallel_scan(std::uint64_t id) { end_kernel(id); }

void kokkosp_push_profile_region(const char* name) {
  gap_before(std::string("region ") + name);
  state->regions.emplace_back(name, Clock::now());
  state->region_inner.push_back(0);
}

void kokkosp_pop_profile_region() {
  if (state->regions.empty()) return;
  gap_before("end of region " + state->regions.back().first);
  Entry& e = state->entries["region " + state->regions.back().first];
  e.seconds += since(state->regions.back().second);
  e.inner += state->region_inner.back();
  e.calls += 1;
  state->regions.pop_back();
  state->region_inner.pop_back();
}

void kokkosp_begin_deep_copy(SpaceHandle, const char*, const void*, SpaceHandle, const char*, const void*, std::uint64_t size) {
  gap_before("deep copy");
  state->copy_start = Clock::now();
  state->entries["deep copy"].bytes += double(size);
}

void kokkosp_end_deep_copy() {
  const double s = since(state->copy_start);
  Entry& e = state->entries["deep copy"];
  e.seconds += s;
  e.calls += 1;
  work_done(s);
}

void kokkosp_allocate_data(SpaceHandle space, const char* name, const void*, std::uint64_t size) {
  const std::string key = "allocation " + std::string(space.name) + " " + name;
  gap_before(key);
  state->entries["gap before " + key].bytes += double(size);
}

void kokkosp_deallocate_data(SpaceHandle space, const char* name, const void*, std::uint64_t size) {
  const std::string key = "deallocation " + std::string(space.name) + " " + name;
  gap_before(key);
  state->freeing = key;
  state->entries["gap after " + key].bytes += double(size);
}

}  // extern "C"
