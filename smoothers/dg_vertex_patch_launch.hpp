#pragma once
/// @file
/// Launch of the DG vertex-patch kernels (dg_vertex_patch_kernels.hpp): the line kernel or the
/// block kernel (portable, tensor-core or FP16 contractions) by the arguments and the tuning row,
/// patches and threads per team, the scratch level a launch can really get and the kernel of it
/// (fast scratch on a device at level 0, generic otherwise), the 1D matrices of an
/// interior patch copied into the functor, and the table entry per (dim, k) that
/// dg_vertex_patch_smoother.cpp looks up.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "smoothers/dg_vertex_patch_kernels.hpp"

namespace tensormg {

/// The block path as a kernel of its own, contractions by Blocks: compiled apart from the line
/// kernel, it is given only the registers its own code needs (in one kernel with the line path
/// and no register cap nvcc gave the tensor-core path 254: one block per SM, 0.37x the line
/// kernel, h100-2026-11-25-tensor-cores/call4).
template <class Kernel, class Blocks, bool fast>
struct DgPatchBlockKernel {
  Kernel kernel;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kernel::template BlockPolicy<Blocks>::member_type& team) const {
    kernel.template block_team<Blocks, fast>(team);
  }
};

/// The line kernel with fast scratch (a device launch at level 0): a kernel of its own beside the
/// generic one (Kernel::operator()), as the continuous smoother's two bodies (one kernel branching
/// between them at run time lost 6–14%, h100-2026-11-22-smoother v6).
template <class Kernel>
struct DgPatchFastKernel {
  Kernel kernel;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Kernel::Member& team) const { kernel.template body<true>(team); }
};

/// Whether a launch takes the fast-scratch kernel: on a device at level 0 where the arguments ask
/// for it or, with DgPatchScratchPointer::automatic, on the block path (`blocks`) and where the
/// tuning row puts it for the line kernel's number.
template <class Kernel, class Number, class ExecSpace>
bool dg_patch_fast_scratch(const DgPatchArgs<Number, ExecSpace>& args, bool blocks) {
  if (runs_on_host<ExecSpace>() || args.scratch_level != 0) return false;
  if (args.scratch_pointer != DgPatchScratchPointer::automatic) return args.scratch_pointer == DgPatchScratchPointer::fast;
  return blocks || (sizeof(Number) == 8 ? Kernel::tuning.fast_lines_fp64 : Kernel::tuning.fast_lines_fp32);
}

/// Launches the block path of `kernel` with the contractions of Blocks, one patch per team.
template <class Blocks, class Kernel>
void launch_dg_patch_blocks(Kernel kernel, local_index patches) {
  using ExecSpace = typename Kernel::Policy::execution_space;
  const int team_size = runs_on_host<ExecSpace>() ? 1 : Kernel::template block_team_size<Blocks>;
  const std::size_t bytes = Kernel::template block_scratch_bytes<Blocks>();
  // Tensor cores may take the opt-in shared memory (blocks of 16: 96 KB, two teams per SM); the
  // portable contraction keeps the 48 KB of the line kernel.
  const std::size_t fast = Blocks::tensor_cores ? DeviceTraits<ExecSpace>::large_scratch_bytes(team_size)
                                                : DeviceTraits<ExecSpace>::fast_scratch_bytes(team_size);
  kernel.args.scratch_level = bytes <= fast ? 0 : 1;
  typename Kernel::template BlockPolicy<Blocks> policy(patches, team_size);
  policy.set_scratch_size(kernel.args.scratch_level, Kokkos::PerTeam(bytes));
  const char* name = Blocks::tensor_cores ? "tensormg::smoother::dg_vertex_patch_mma" : "tensormg::smoother::dg_vertex_patch_blocks";
  if constexpr (!runs_on_host<ExecSpace>()) {
    if (dg_patch_fast_scratch<Kernel>(kernel.args, true))
      return Kokkos::parallel_for(name, policy, DgPatchBlockKernel<Kernel, Blocks, true>{kernel});
  }
  Kokkos::parallel_for(name, policy, DgPatchBlockKernel<Kernel, Blocks, false>{kernel});
}

template <int dim, int n, class Number, class ExecSpace>
void launch_dg_patch(const DgPatchArgs<Number, ExecSpace>& args) {
  using Kernel = DgPatchKernel<dim, n, Number, ExecSpace>;
  const local_index patches = args.patches[0] * args.patches[1] * args.patches[2];
  if (patches == 0) return;
  constexpr int N = Kernel::N;
  const int row = args.layout == DgPatchLayout::padded ? N + 1 : N;
  // Patches per team: the caller's, or the tuning row's on a device (one on the host, where a team
  // is one thread).
  // Block contractions where asked, or by default where the backend's trait has tensor cores for
  // this number and size and the tuning row says they win; never with the dense inverse (its
  // solve is the line kernel's). FP16 products only where check_dg_patch_contraction allows them.
  const DgPatchContraction c = args.contraction;
  const bool half = c == DgPatchContraction::f16 || c == DgPatchContraction::f16ec;
  if (half) check_dg_patch_contraction(c, dim, n - 1, sizeof(Number) == 4, args.use_inverse);
  const bool blocks =
      !args.use_inverse &&
      (half || c == DgPatchContraction::blocks ||
       (c == DgPatchContraction::automatic && Kernel::Blocks::tensor_cores && Kernel::tuning.tensor_cores));
  const int ppt = runs_on_host<ExecSpace>() || blocks ? 1
                  : args.patches_per_team > 0        ? args.patches_per_team
                                                     : Kernel::tuning.patches_per_team;
  Kernel kernel{args, {FastDivisor(args.patches[0]), FastDivisor(args.patches[1])}, row, row * N, ppt, patches, {}};
  using Data = DgPatchData<N>;
  for (int d = 0; d < dim; ++d) {
    const Number* base = args.host_data + Data::offset(d, 0);
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) {
        kernel.interior.l[d][i][j] = base[Data::l + i * N + j];
        kernel.interior.m[d][i][j] = base[Data::m + i * N + j];
        kernel.interior.s[d][i][j] = base[Data::s + i * N + j];
      }
      kernel.interior.lambda[d][i] = base[Data::lambda + i];
    }
  }
  if (blocks) {
    if (!half) return launch_dg_patch_blocks<typename Kernel::Blocks>(kernel, patches);
    if constexpr (Kernel::has_half_blocks) {
      using block::Products;
      if (c == DgPatchContraction::f16)
        return launch_dg_patch_blocks<typename Kernel::template HalfBlocks<Products::f16>>(kernel, patches);
      return launch_dg_patch_blocks<typename Kernel::template HalfBlocks<Products::f16_corrected>>(kernel, patches);
    }
  }
  const int team_size = runs_on_host<ExecSpace>() ? 1 : ppt * Kernel::patch_threads;
  // Shared memory where the team's buffers fit what a launch can really get (3D FP64 up to k = 6
  // with one patch per team on the H100: 47.0 of 47.6 KB; with the opt-in, where the backend has
  // one, up to 227 KB on Hopper), global memory otherwise.
  const std::size_t bytes = Kernel::scratch_bytes(ppt);
  const std::size_t fast = args.opt_in_shared ? DeviceTraits<ExecSpace>::large_scratch_bytes(team_size)
                                              : DeviceTraits<ExecSpace>::fast_scratch_bytes(team_size);
  kernel.args.scratch_level = bytes <= fast ? 0 : 1;
  if constexpr (!runs_on_host<ExecSpace>()) {
    // Opt-in buffers leave fewer teams an SM than the launch bound asks for (3D FP32 k = 8: 49 KB
    // per team, 5 teams): Kokkos refuses such a team, so these buffers go to global memory.
    if (kernel.args.scratch_level == 0 && bytes > DeviceTraits<ExecSpace>::fast_scratch_bytes(team_size)) {
      typename Kernel::Policy probe(1, 1);
      probe.set_scratch_size(0, Kokkos::PerTeam(bytes));
      const int max_size = dg_patch_fast_scratch<Kernel>(kernel.args, false)
                               ? probe.team_size_max(DgPatchFastKernel<Kernel>{kernel}, Kokkos::ParallelForTag())
                               : probe.team_size_max(kernel, Kokkos::ParallelForTag());
      if (max_size < team_size) kernel.args.scratch_level = 1;
    }
  }
  typename Kernel::Policy policy((patches + ppt - 1) / ppt, team_size);
  policy.set_scratch_size(kernel.args.scratch_level, Kokkos::PerTeam(bytes));
  if constexpr (!runs_on_host<ExecSpace>()) {
    if (dg_patch_fast_scratch<Kernel>(kernel.args, false))
      return Kokkos::parallel_for("tensormg::smoother::dg_vertex_patch", policy, DgPatchFastKernel<Kernel>{kernel});
  }
  Kokkos::parallel_for("tensormg::smoother::dg_vertex_patch", policy, kernel);
}

template <int dim, int k, class Number, class ExecSpace>
DgPatchKernelTable<Number, ExecSpace> dg_patch_kernels_of() {
  return {&launch_dg_patch<dim, k + 1, Number, ExecSpace>};
}

}  // namespace tensormg

#define TENSORMG_INSTANTIATE_DG_PATCH_KERNELS(Number, Exec) \
  template DgPatchKernelTable<Number, Exec> dg_patch_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
