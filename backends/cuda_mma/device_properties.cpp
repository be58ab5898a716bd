#include <cuda_runtime.h>

#include <string>

#include "backends/cuda_mma/cuda_mma.hpp"

namespace tensormg::cuda_mma {

namespace {
int attribute(cudaDeviceAttr what, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, what, device) != cudaSuccess) return 0;
  return value;
}

/// A positive byte count of the default execution space's device; throws naming `name` otherwise.
std::size_t device_bytes(cudaDeviceAttr what, const char* name) {
  const int value = attribute(what, Kokkos::Cuda().cuda_device());
  if (value <= 0) throw std::runtime_error(std::string("cudaDeviceGetAttribute(") + name + ") failed");
  return std::size_t(value);
}
}  // namespace

DeviceProperties device_properties() {
  const int device = Kokkos::Cuda().cuda_device();
  cudaDeviceProp prop{};
  const cudaError_t err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("cudaGetDeviceProperties failed: ") + cudaGetErrorString(err));
  DeviceProperties p;
  p.name = prop.name;
  p.compute_capability_major = prop.major;
  p.compute_capability_minor = prop.minor;
  p.multiprocessors = prop.multiProcessorCount;
  // CUDA 13 removed the clock fields from cudaDeviceProp; the attributes remain.
  p.sm_clock_khz = attribute(cudaDevAttrClockRate, device);
  p.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
  p.memory_bus_bits = prop.memoryBusWidth;
  p.global_memory_bytes = prop.totalGlobalMem;
  p.l2_bytes = prop.l2CacheSize;
  p.shared_memory_per_sm_bytes = static_cast<int>(prop.sharedMemPerMultiprocessor);
  p.shared_memory_per_block_bytes = static_cast<int>(prop.sharedMemPerBlock);
  p.shared_memory_per_block_optin_bytes = static_cast<int>(prop.sharedMemPerBlockOptin);
  return p;
}

std::size_t shared_memory_per_block() {
  static const std::size_t bytes = device_bytes(cudaDevAttrMaxSharedMemoryPerBlock, "cudaDevAttrMaxSharedMemoryPerBlock");
  return bytes;
}

std::size_t shared_memory_per_block_optin() {
  static const std::size_t bytes =
      device_bytes(cudaDevAttrMaxSharedMemoryPerBlockOptin, "cudaDevAttrMaxSharedMemoryPerBlockOptin");
  return bytes;
}

std::size_t free_memory_bytes() {
  std::size_t free = 0, total = 0;
  const cudaError_t err = cudaMemGetInfo(&free, &total);
  if (err != cudaSuccess) throw std::runtime_error(std::string("cudaMemGetInfo failed: ") + cudaGetErrorString(err));
  return free;
}

int usable_device_count(std::string& why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    why = cudaGetErrorString(err);
    return 0;
  }
  if (count == 0) why = "no CUDA device is visible (check CUDA_VISIBLE_DEVICES)";
  return count;
}

}  // namespace tensormg::cuda_mma
