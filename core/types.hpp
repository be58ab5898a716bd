#pragma once
/// @file
/// Execution/memory-space and precision aliases used across tensormg.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace tensormg {

/// Global indices (DoFs, cells) may exceed 2^31 on large meshes.
using global_index = std::int64_t;
/// Local (per-rank) indices stay 32-bit: index arrays are read in every kernel.
using local_index = std::int32_t;

/// The device execution space (Cuda in a CUDA build, OpenMP/Serial otherwise).
using DefaultExec = Kokkos::DefaultExecutionSpace;
/// The host execution space used for set-up and host references.
using HostExec = Kokkos::DefaultHostExecutionSpace;
/// Memory space of an execution space.
template <class ExecSpace>
using MemorySpaceOf = typename ExecSpace::memory_space;

/// Floating-point configuration of a solve.
enum class Precision {
  double_precision,  ///< all data and arithmetic in double
  single_precision,  ///< all data and arithmetic in float
  mixed              ///< outer solver in double, multigrid preconditioner in float
};

/// "double", "float" or "mixed".
std::string to_string(Precision p);
/// Parses "double", "float"/"single" or "mixed"; throws InputError naming the allowed values.
Precision parse_precision(const std::string& text);

/// Short name of a floating-point type, for kernel names and records.
template <class Number>
constexpr const char* number_name() {
  if constexpr (std::is_same_v<Number, double>) return "double";
  else if constexpr (std::is_same_v<Number, float>) return "float";
  else return "other";
}

}  // namespace tensormg
