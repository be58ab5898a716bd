#pragma once
/// @file
/// Hierarchical names for kernels and profiling regions, so that Kokkos Tools and Nsight show the
/// solver's structure ("tensormg::smoother::vertex_patch::fused").

#include <Kokkos_Core.hpp>

#include <initializer_list>
#include <string>

namespace tensormg {

/// Joins parts with "::" under the "tensormg" root: kernel_name({"operator", "laplace"}) ==
/// "tensormg::operator::laplace".
inline std::string kernel_name(std::initializer_list<std::string> parts) {
  std::string name = "tensormg";
  for (const auto& p : parts) {
    name += "::";
    name += p;
  }
  return name;
}

/// Pushes a Kokkos profiling region for its lifetime.
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ScopedRegion(std::initializer_list<std::string> parts) : ScopedRegion(kernel_name(parts)) {}
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

}  // namespace tensormg
