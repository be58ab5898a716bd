#pragma once
/// @file
/// Entry header of the CUDA-only backend. This is the one place in tensormg that asks whether the
/// CUDA backend is compiled; everything CUDA-specific (device queries, inline-PTX mma kernels,
/// swizzled layouts, Contraction specializations for Kokkos::Cuda) sits behind it.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace tensormg::cuda_mma {

/// Properties of the CUDA device the default execution space runs on.
struct DeviceProperties {
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;
  int sm_clock_khz = 0;      ///< maximum SM clock
  int memory_clock_khz = 0;  ///< maximum memory clock
  int memory_bus_bits = 0;
  std::size_t global_memory_bytes = 0;
  int l2_bytes = 0;
  int shared_memory_per_sm_bytes = 0;
  int shared_memory_per_block_bytes = 0;  ///< without the opt-in (what Kokkos 3.4 launches with)
  int shared_memory_per_block_optin_bytes = 0;
};

/// Throughput of one tensor-core instruction shape, measured by a loop of independent `mma.sync`.
struct MmaRate {
  std::string shape;      ///< e.g. "f64.m16n8k16"
  bool available = false; ///< false when the compiled architecture lacks the shape
  double flops_per_second = 0;
  double seconds = 0;
  double checksum = 0;    ///< sum of all results, so the work cannot be optimized away
};

#if defined(KOKKOS_ENABLE_CUDA)
#define TENSORMG_CUDA_MMA_ENABLED 1
inline constexpr bool enabled = true;
DeviceProperties device_properties();
/// Shared memory a block may have without the opt-in, for the device of the default execution
/// space (queried once; device_traits_cuda.hpp).
std::size_t shared_memory_per_block();
/// Shared memory a block may have with the opt-in (227 KB on Hopper; queried once).
std::size_t shared_memory_per_block_optin();
/// Free memory of the device of the default execution space (cudaMemGetInfo).
std::size_t free_memory_bytes();
/// Number of usable CUDA devices; 0 with the reason in `why` when there is none (no GPU, no
/// driver, CUDA_VISIBLE_DEVICES empty). Safe to call before Kokkos is initialized.
int usable_device_count(std::string& why);
/// Runs the FP64 m8n8k4, FP64 m16n8k16 (sm_90) and FP16 m16n8k16 (FP32 accumulate) loops.
std::vector<MmaRate> measure_mma_rates();
#else
#define TENSORMG_CUDA_MMA_ENABLED 0
inline constexpr bool enabled = false;
[[noreturn]] inline DeviceProperties device_properties() {
  throw std::logic_error("tensormg was built without the CUDA backend: no CUDA device properties");
}
[[noreturn]] inline std::size_t shared_memory_per_block() {
  throw std::logic_error("tensormg was built without the CUDA backend: no CUDA shared memory");
}
[[noreturn]] inline std::size_t shared_memory_per_block_optin() {
  throw std::logic_error("tensormg was built without the CUDA backend: no CUDA shared memory");
}
[[noreturn]] inline std::size_t free_memory_bytes() {
  throw std::logic_error("tensormg was built without the CUDA backend: no CUDA memory");
}
inline int usable_device_count(std::string& why) {
  why = "tensormg was built without the CUDA backend";
  return 0;
}
[[noreturn]] inline std::vector<MmaRate> measure_mma_rates() {
  throw std::logic_error("tensormg was built without the CUDA backend: no mma instructions");
}
#endif

}  // namespace tensormg::cuda_mma
