#pragma once
/// @file
/// The definition of patch_kernels_of (vertex_patch_launch.hpp) and the macro that instantiates
/// it for one (dim, k) and every (number type, execution space); included only by the
/// translation units smoothers/CMakeLists.txt generates (cmake/TensormgInstantiate.cmake).

#include "smoothers/vertex_patch_lanes.hpp"
#include "smoothers/vertex_patch_launch.hpp"

namespace tensormg {

/// The lanes kernel's launcher where it exists (host spaces, k >= 2).
template <int dim, int k, class Number, class ExecSpace>
constexpr auto lanes_launcher() {
  void (*launch)(const PatchKernelArgs<Number, ExecSpace>&) = nullptr;
  if constexpr (runs_on_host<ExecSpace>() && k >= 2) launch = &launch_vertex_patch_lanes<dim, k, Number, ExecSpace>;
  return launch;
}

template <int dim, int k, class Number, class ExecSpace>
PatchKernelTable<Number, ExecSpace> patch_kernels_of() {
  using Columns = VertexPatchColumnKernel<dim, k, Number, ExecSpace>;
  using Points = VertexPatchPointKernel<dim, k, Number, ExecSpace>;
  return {&launch_vertex_patch<dim, k, Number, ExecSpace>,
          [](PatchStage stage, bool per_column, int ppt, int threads) {
            return per_column ? detail::patch_scratch_level<Columns>(stage, ppt, threads)
                              : detail::patch_scratch_level<Points>(stage, ppt, threads);
          },
          [](bool per_column) { return per_column ? Columns::threads_per_patch() : Points::threads_per_patch(); },
          &Columns::interior_threads_per_patch, Columns::tuning, lanes_launcher<dim, k, Number, ExecSpace>()};
}

}  // namespace tensormg

/// For TENSORMG_FOR_EACH_NUMBER_AND_SPACE, with TENSORMG_DIM and TENSORMG_DEGREE defined by the
/// generated unit.
#define TENSORMG_INSTANTIATE_PATCH_KERNELS(Number, Exec) \
  template PatchKernelTable<Number, Exec> patch_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
