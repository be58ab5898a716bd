#pragma once
/// @file
/// Launch of the vertex-patch kernels (vertex_patch_columns.hpp, vertex_patch_points.hpp): the
/// kernel of the thread structure, team size and scratch level per launch, the fast-scratch or
/// generic instantiation, and the table of launchers per degree that the host glue
/// (vertex_patch_smoother.cpp) looks up.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/kernel_table.hpp"
#include "smoothers/vertex_patch_columns.hpp"
#include "smoothers/vertex_patch_points.hpp"

namespace tensormg {

/// Launch facts of one (dim, k) the host glue needs.
template <class Number, class ExecSpace>
struct PatchKernelTable {
  void (*launch)(const PatchKernelArgs<Number, ExecSpace>&) = nullptr;
  int (*scratch_level)(PatchStage, bool per_column, int patches_per_team, int threads_per_patch) = nullptr;
  int (*threads_per_patch)(bool per_column) = nullptr;
  int (*interior_threads_per_patch)() = nullptr;
  PatchTuning tuning{};  ///< the row of (dim, k) for ExecSpace (vertex_patch_tuning.hpp)
  /// The fused step with patches in SIMD lanes (vertex_patch_lanes.hpp): host spaces, k >= 2;
  /// null elsewhere.
  void (*launch_lanes)(const PatchKernelArgs<Number, ExecSpace>&) = nullptr;
};

namespace detail {
/// Threads of a device team: patches per team × threads per patch in whole warps, at most the
/// kernel's launch bound.
template <class Kernel>
int patch_team_size(int patches_per_team, int threads_per_patch) {
  constexpr int warp = Kernel::Traits::warp_size;
  int threads = patches_per_team * (threads_per_patch > 0 ? threads_per_patch : Kernel::threads_per_patch());
  threads = threads > warp ? (threads + warp - 1) / warp * warp : threads;
  return threads < Kernel::max_team_size ? threads : Kernel::max_team_size;
}

/// Scratch level of a launch: 0 (shared memory on the GPU) where the team's scratch fits the fast
/// team scratch (DeviceTraits::fast_scratch_bytes), otherwise 1 (global memory).
template <class Kernel>
int patch_scratch_level(PatchStage stage, int patches_per_team, int threads_per_patch) {
  const std::size_t bytes = Kernel::scratch_bytes(stage, patches_per_team);
  const int team_size = patch_team_size<Kernel>(patches_per_team, threads_per_patch);
  return bytes <= Kernel::Traits::fast_scratch_bytes(team_size) ? 0 : 1;
}

template <class Kernel, class Number, class ExecSpace>
void launch_patch_kernel(const PatchKernelArgs<Number, ExecSpace>& args, const PatchRange& patches, int scratch_level) {
  Kernel kernel;
  kernel.args = args;
  kernel.patches = patches;
  kernel.scratch_level = scratch_level;
  set_patch_constants(kernel, args.host_reference);
  const int ppt = args.patches_per_team;
  const std::size_t bytes = Kernel::scratch_bytes(args.stage, ppt);
  const int league = (patches.size() + ppt - 1) / ppt;
  int team_size = 1;
  if constexpr (!runs_on_host<ExecSpace>()) {
    team_size = patch_team_size<Kernel>(ppt, args.threads_per_patch);
    typename Kernel::Policy probe(league, 1);
    probe.set_scratch_size(scratch_level, Kokkos::PerTeam(bytes));
    const int max_size = probe.team_size_max(kernel, Kokkos::ParallelForTag());
    team_size = team_size < max_size ? team_size : max_size;
  }
  typename Kernel::Policy policy(league, team_size);
  policy.set_scratch_size(scratch_level, Kokkos::PerTeam(bytes));
  const char* name = args.stage == PatchStage::fused      ? "tensormg::smoother::vertex_patch::fused"
                     : args.stage == PatchStage::residual ? "tensormg::smoother::vertex_patch::residual"
                                                          : "tensormg::smoother::vertex_patch::solve";
  Kokkos::parallel_for(name, policy, kernel);
}

/// The kernel of one thread structure: generic scratch, or (device, level 0) fast scratch.
template <template <int, int, class, class, bool> class Kernel, int dim, int k, class Number, class ExecSpace>
void launch_patch_structure(const PatchKernelArgs<Number, ExecSpace>& args, const PatchRange& patches) {
  using Generic = Kernel<dim, k, Number, ExecSpace, false>;
  const int scratch_level = patch_scratch_level<Generic>(args.stage, args.patches_per_team, args.threads_per_patch);
  if constexpr (!runs_on_host<ExecSpace>()) {
    if (scratch_level == 0) {
      launch_patch_kernel<Kernel<dim, k, Number, ExecSpace, true>>(args, patches, 0);
      return;
    }
  }
  launch_patch_kernel<Generic>(args, patches, scratch_level);
}
}  // namespace detail

template <int dim, int k, class Number, class ExecSpace>
void launch_vertex_patch(const PatchKernelArgs<Number, ExecSpace>& args) {
  const detail::PatchRange patches = detail::patch_range(args.box, args.color, args.window);
  if (patches.size() == 0) return;
  if (args.per_column) detail::launch_patch_structure<VertexPatchColumnKernel, dim, k>(args, patches);
  else detail::launch_patch_structure<VertexPatchPointKernel, dim, k>(args, patches);
}

/// The launch facts of one (dim, k). Declared here, defined in vertex_patch_instantiate.hpp and
/// instantiated in the translation units smoothers/CMakeLists.txt generates, a few degrees each,
/// so that no unit is slow to compile and the build spreads over the cores.
template <int dim, int k, class Number, class ExecSpace>
PatchKernelTable<Number, ExecSpace> patch_kernels_of();

/// The table of (dim, degree); throws InputError for unsupported degrees (core/kernel_table.hpp).
template <class Number, class ExecSpace>
PatchKernelTable<Number, ExecSpace> patch_kernels(int dim, int degree) {
  return kernel_table<PatchKernelTable<Number, ExecSpace>>(dim, degree, [](auto d, auto k) {
    return patch_kernels_of<decltype(d)::value, decltype(k)::value, Number, ExecSpace>();
  });
}

}  // namespace tensormg
