#include "core/memory.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace tensormg {

namespace {

/// A number from a cgroup v2 file ("max" = no limit = -1), or -1 when the file is absent.
double cgroup_value(const char* path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return -1;
  return std::strtod(word.c_str(), nullptr);
}

struct Tracked {
  double current = 0, peak = 0;
  bool active = false;
} tracked;

void on_allocate(Kokkos::Profiling::SpaceHandle, const char*, const void*, uint64_t size) {
  tracked.current += double(size);
  tracked.peak = std::max(tracked.peak, tracked.current);
}
void on_deallocate(Kokkos::Profiling::SpaceHandle, const char*, const void*, uint64_t size) {
  tracked.current -= double(size);
}

}  // namespace

double host_available_bytes() {
  double available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double value = 0;
  std::string unit;
  while (meminfo >> key >> value) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") {
      available = value * 1024;
      break;
    }
  }
  const double limit = cgroup_value("/sys/fs/cgroup/memory.max");
  const double used = cgroup_value("/sys/fs/cgroup/memory.current");
  if (limit > 0 && used >= 0) available = available > 0 ? std::min(available, limit - used) : limit - used;
  return std::max(available, 0.0);
}

std::string format_bytes(double bytes) {
  char text[64];
  if (bytes >= 0x1p30) std::snprintf(text, sizeof text, "%.1f GiB", bytes / 0x1p30);
  else std::snprintf(text, sizeof text, "%.1f MiB", bytes / 0x1p20);
  return text;
}

void check_memory(const MemoryNeed& need, double device_available, bool device_is_host, MPI_Comm comm,
                  const std::string& what, const std::string& hint) {
  // Ranks of one node share its host memory (and, with a host backend, its "device" memory).
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  const double mine = need.host_bytes + (device_is_host ? need.device_bytes : 0.0);
  double node_need = 0;
  MPI_Allreduce(&mine, &node_need, 1, MPI_DOUBLE, MPI_SUM, node);
  int node_ranks = 1;
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  const double host_available = host_available_bytes();
  std::ostringstream message;
  bool ok = true;
  if (!device_is_host && need.device_bytes > device_available) {
    ok = false;
    message << what << " needs " << format_bytes(need.device_bytes) << " of device memory per rank, the device has "
            << format_bytes(device_available) << " free; " << hint;
  } else if (host_available > 0 && node_need > host_available) {
    ok = false;
    message << what << " needs " << format_bytes(node_need) << " of host memory on this node (" << node_ranks
            << (node_ranks == 1 ? " rank" : " ranks") << "), the node has " << format_bytes(host_available)
            << " available; " << hint;
  }
  check_collective(ok, message.str(), comm);
}

AllocationTracker::AllocationTracker() {
  TENSORMG_CHECK(!tracked.active, "only one AllocationTracker may be alive");
  tracked = Tracked{0, 0, true};
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(on_deallocate);
}

AllocationTracker::~AllocationTracker() {
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
  tracked.active = false;
}

double AllocationTracker::current_bytes() const { return tracked.current; }
double AllocationTracker::peak_bytes() const { return tracked.peak; }

}  // namespace tensormg
