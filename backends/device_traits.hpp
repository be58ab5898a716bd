#pragma once
/// @file
/// DeviceTraits (core/device_traits.hpp) with the specialisation of every compiled backend in
/// view. Kernel headers include this one; the question of which backend is compiled is asked only
/// in the backend's entry header (backends/cuda_mma/cuda_mma.hpp).

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/device_traits.hpp"

#if TENSORMG_CUDA_MMA_ENABLED
#include "backends/cuda_mma/device_traits_cuda.hpp"
#endif
