#pragma once
/// @file
/// Host-side facts about the device of the default execution space, whatever the backend.

#include <string>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/provenance.hpp"

namespace tensormg {

/// The device the default execution space runs on: the GPU's name from the CUDA backend,
/// otherwise the CPU model with its hardware thread count.
inline std::string device_name() {
  if constexpr (cuda_mma::enabled) return cuda_mma::device_properties().name;
  else return cpu_description();
}

}  // namespace tensormg
