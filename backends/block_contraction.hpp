#pragma once
/// @file
/// BlockContraction (core/block_contraction.hpp) with the specialisation of every compiled backend
/// in view; kernels include this one (as backends/device_traits.hpp for DeviceTraits).

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/block_contraction.hpp"

#if TENSORMG_CUDA_MMA_ENABLED
#include "backends/cuda_mma/block_contraction_cuda.hpp"
#endif
