#pragma once
/// @file
/// Memory checks before allocating: what the host and the device can still give, a collective
/// check of an estimate against it ("needs X GiB, has Y GiB", exit 2 on every rank), and a tracker
/// of Kokkos allocations that lets tests hold estimates to the truth.

#include <mpi.h>

#include <cstddef>
#include <string>

namespace tensormg {

/// Bytes a run needs per rank, in the default execution space's memory and in host memory.
struct MemoryNeed {
  double device_bytes = 0;
  double host_bytes = 0;
  MemoryNeed& operator+=(const MemoryNeed& o) {
    device_bytes += o.device_bytes;
    host_bytes += o.host_bytes;
    return *this;
  }
};

/// Host memory this process may still allocate: MemAvailable of /proc/meminfo, bounded by the
/// control group's limit (memory.max minus memory.current) where one is set. 0 if unknown.
double host_available_bytes();

/// "12.3 GiB" (or MiB below 1 GiB).
std::string format_bytes(double bytes);

/// Collective. Throws a collective InputError when the need exceeds what is available:
///  - device: each rank's device_bytes against device_available (the rank's own device; pass the
///    host figure when the device memory is host memory: then both needs are added);
///  - host: the sum of host_bytes over the ranks of one node against that node's available memory.
/// what names the run ("the solve", "the benchmark case 3D Q4 1e9 DoFs"); hint says what to change.
void check_memory(const MemoryNeed& need, double device_available, bool device_is_host, MPI_Comm comm,
                  const std::string& what, const std::string& hint);

/// Counts the bytes Kokkos allocates while it lives (current and peak over all memory spaces), via
/// the Kokkos Tools allocation callbacks. One at a time; not thread-safe. For tests.
class AllocationTracker {
 public:
  AllocationTracker();
  ~AllocationTracker();
  AllocationTracker(const AllocationTracker&) = delete;
  AllocationTracker& operator=(const AllocationTracker&) = delete;
  double current_bytes() const;
  double peak_bytes() const;
};

}  // namespace tensormg
