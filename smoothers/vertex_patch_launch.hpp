#pragma once
/// @file
/// Launch of the vertex-patch kernels (vertex_patch_kernels.hpp): team size and scratch level per
/// launch, the shared-scratch or generic kernel, and the table of launchers per degree that the
/// host glue (vertex_patch_smoother.cpp) looks up.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/kernel_table.hpp"
#include "core/team_scratch.hpp"
#include "smoothers/vertex_patch_kernels.hpp"

namespace tensormg {

/// Launch facts of one (dim, k) the host glue needs.
template <class Number, class ExecSpace>
struct PatchKernelTable {
  void (*launch)(const PatchKernelArgs<Number, ExecSpace>&) = nullptr;
  int (*scratch_level)(PatchStage, bool per_column, int patches_per_team, int threads_per_patch) = nullptr;
  int (*threads_per_patch)(bool per_column) = nullptr;
  int (*interior_threads_per_patch)() = nullptr;
};

template <class ExecSpace>
constexpr bool patch_kernels_run_on_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

namespace detail {
/// Threads of a device team: patches per team × threads per patch in whole warps, at most the
/// kernel's launch bound.
template <class Kernel>
int patch_team_size(int patches_per_team, int threads_per_patch, bool per_column) {
  int threads = patches_per_team * (threads_per_patch > 0 ? threads_per_patch : Kernel::threads_per_patch(per_column));
  threads = threads > 32 ? (threads + 31) / 32 * 32 : threads;
  return threads < Kernel::max_team_size ? threads : Kernel::max_team_size;
}

/// Scratch level of a launch: 0 (shared memory on the GPU) where the team's scratch fits the fast
/// team scratch (core/team_scratch.hpp), otherwise 1 (global memory).
template <class Kernel>
int patch_scratch_level(PatchStage stage, bool per_column, int patches_per_team, int threads_per_patch) {
  using ExecSpace = typename Kernel::execution_space;
  const std::size_t bytes = Kernel::scratch_bytes(stage, per_column, patches_per_team);
  const int team_size = patch_team_size<Kernel>(patches_per_team, threads_per_patch, per_column);
  return bytes <= fast_team_scratch_bytes<ExecSpace>(team_size) ? 0 : 1;
}

template <class Kernel, class Number, class ExecSpace>
void launch_patch_kernel(const PatchKernelArgs<Number, ExecSpace>& args, const PatchRange& patches, int scratch_level,
                         std::size_t bytes) {
  Kernel kernel{args, patches, scratch_level, {}};
  {
    constexpr int n = Kernel::n, ni = Kernel::ni;
    const Number* h = args.host_reference;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        kernel.cm.M[i][j] = h[i * n + j];
        kernel.cm.A[i][j] = h[n * n + i * n + j];
      }
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < ni; ++j) kernel.cm.S[i][j] = h[2 * n * n + i * ni + j];
  }
  const int ppt = args.patches_per_team;
  const int league = (patches.size() + ppt - 1) / ppt;
  int team_size = 1;
  if constexpr (!patch_kernels_run_on_host<ExecSpace>()) {
    team_size = patch_team_size<Kernel>(ppt, args.threads_per_patch, args.per_column);
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
}  // namespace detail

template <int dim, int k, class Number, class ExecSpace>
void launch_vertex_patch(const PatchKernelArgs<Number, ExecSpace>& args) {
  using Generic = VertexPatchKernel<dim, k, Number, ExecSpace>;
  const detail::PatchRange patches = detail::patch_range(args.box, args.color);
  if (patches.size() == 0) return;
  const std::size_t bytes = Generic::scratch_bytes(args.stage, args.per_column, args.patches_per_team);
  const int scratch_level = detail::patch_scratch_level<Generic>(args.stage, args.per_column, args.patches_per_team, args.threads_per_patch);
  if constexpr (!patch_kernels_run_on_host<ExecSpace>()) {
    if (scratch_level == 0) {
      detail::launch_patch_kernel<VertexPatchKernel<dim, k, Number, ExecSpace, true>>(args, patches, 0, bytes);
      return;
    }
  }
  detail::launch_patch_kernel<Generic>(args, patches, scratch_level, bytes);
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
