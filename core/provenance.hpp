#pragma once
/// @file
/// Where a result came from: code version, build, Kokkos configuration, machine, time.

#include <string>
#include <vector>

#include "core/json.hpp"

namespace tensormg {

/// git hash of the source the binary was built from ("-dirty" when it had local changes).
std::string git_hash();
/// Kokkos version and enabled execution spaces, e.g. "Kokkos 3.4.1 [Cuda,Serial] HOPPER90".
std::string kokkos_configuration();
/// Name of the default execution space ("Cuda", "OpenMP", "Serial").
std::string backend_name();
/// The CPU model (from /proc/cpuinfo) with the hardware thread count. The device of the default
/// execution space, whatever the backend, is backends/device.hpp's device_name().
std::string cpu_description();
/// UTC time as ISO 8601.
std::string utc_now();
/// Host name of this process.
std::string host_name();

/// A JSON object with all of the above plus the rank count, the command line and the device
/// (backends/device.hpp's device_name()).
Json provenance_record(const std::vector<std::string>& command_line, int ranks, const std::string& device);

}  // namespace tensormg
