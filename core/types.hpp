#pragma once
/// @file
/// Execution/memory-space and precision aliases used across tensormg.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace tensormg {

/// Global indices (DoFs, cells) may exceed 2^31 on large meshes.
using global_index = std::int64_t;
/// Local (per-rank) indices stay 32-bit: index arrays are read in every kernel.
using local_index = std::int32_t;

/// The device execution space (Cuda in a CUDA build, OpenMP/Serial otherwise).
using DefaultExec = Kokkos::DefaultExecutionSpace;
/// The host execution space used for set-up and host references.
using HostExec = Kokkos::DefaultHostExecutionSpace;
#if defined(TENSORMG_ONE_SPACE)
/// A host build without TENSORMG_SECOND_SPACE (CMakeLists.txt; the default): every template is
/// instantiated and tested for DefaultExec only, and there is no SecondaryExec (the Serial twins
/// of the OpenMP kernels doubled the compile time and ran the same code).
static_assert(std::is_same_v<DefaultExec, HostExec>, "TENSORMG_ONE_SPACE is for host-only builds");
#define TENSORMG_FOR_EACH_NUMBER_AND_SPACE(M) M(double, ::tensormg::DefaultExec) M(float, ::tensormg::DefaultExec)
/// Its argument (an explicit instantiation for SecondaryExec) where the build has a second space.
#define TENSORMG_IF_SECOND_SPACE(...)
#else
/// The second execution space every kernel is instantiated for and tested on: Serial when the
/// host default equals the device default (OpenMP builds), else the host default (Serial or
/// OpenMP next to Cuda).
#if defined(KOKKOS_ENABLE_SERIAL)
using SecondaryExec = std::conditional_t<std::is_same_v<DefaultExec, HostExec>, Kokkos::Serial, HostExec>;
#else
using SecondaryExec = HostExec;
#endif
static_assert(!std::is_same_v<DefaultExec, SecondaryExec>,
              "tensormg instantiates its kernels for two execution spaces: configure Kokkos with "
              "Kokkos_ENABLE_SERIAL=ON next to OpenMP, or with a host space next to Cuda");
/// Calls M(Number, ExecSpace) for every (number type, execution space) pair that tensormg's
/// compiled templates are instantiated for; explicit instantiation lists use it so that the set
/// is named once.
#define TENSORMG_FOR_EACH_NUMBER_AND_SPACE(M)                                            \
  M(double, ::tensormg::DefaultExec) M(float, ::tensormg::DefaultExec)                   \
  M(double, ::tensormg::SecondaryExec) M(float, ::tensormg::SecondaryExec)
/// Its argument (an explicit instantiation for SecondaryExec) where the build has a second space.
#define TENSORMG_IF_SECOND_SPACE(...) __VA_ARGS__
#endif

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
