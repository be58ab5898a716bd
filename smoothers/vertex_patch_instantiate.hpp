#pragma once
/// @file
/// The definition of patch_kernels_of (vertex_patch_launch.hpp) and the macro that instantiates
/// it for one (dim, k) and every (number type, execution space); included only by the
/// translation units smoothers/CMakeLists.txt generates from vertex_patch_instantiate.cpp.in.

#include "smoothers/vertex_patch_launch.hpp"

namespace tensormg {

template <int dim, int k, class Number, class ExecSpace>
PatchKernelTable<Number, ExecSpace> patch_kernels_of() {
  using Kernel = VertexPatchKernel<dim, k, Number, ExecSpace>;
  return {&launch_vertex_patch<dim, k, Number, ExecSpace>, &detail::patch_scratch_level<Kernel>,
          &Kernel::threads_per_patch, &Kernel::interior_threads_per_patch};
}

}  // namespace tensormg

/// For TENSORMG_FOR_EACH_NUMBER_AND_SPACE, with TENSORMG_DIM and TENSORMG_DEGREE defined by the
/// generated unit.
#define TENSORMG_INSTANTIATE_PATCH_KERNELS(Number, Exec) \
  template PatchKernelTable<Number, Exec> patch_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
