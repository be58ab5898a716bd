#pragma once
/// @file
/// Device bodies of the DG transfer between nested levels (paper 002 §3): prolongation is the
/// embedding of the coarse DG function into the children of each coarse cell, fine child
/// c = (c_x, c_y, c_z) of a cell getting (P_{c_z} ⊗ P_{c_y} ⊗ P_{c_x}) u_coarse with
/// P_c[i][j] = φ_j((c + ξ_i) / 2) (the coarse basis at the child's Gauss–Lobatto nodes);
/// restriction is its transpose, Σ over the children of (P_{c_z}ᵀ ⊗ P_{c_y}ᵀ ⊗ P_{c_x}ᵀ) u_child.
/// Cell-wise numbering makes both gathers: a team of threads (one per line) per cell, each cell
/// written by one team, no atomics. Only dg_transfer.cpp launches these.

#include <Kokkos_Core.hpp>

#include "backends/device_traits.hpp"
#include "core/tensor_contraction.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "multigrid/dg_transfer_kernel_table.hpp"

namespace tensormg {

/// One team per output cell (a fine cell when prolongating, a coarse cell when restricting), one
/// thread per line (n^(d−1)); any team size works (threads stride). Scratch: two cell buffers.
template <int dim, int n, class Number, class ExecSpace>
struct DgTransferKernel {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  static constexpr int lines = cell_size / n;
  static constexpr int children = 1 << dim;

  DgTransferArgs<Number, ExecSpace> args;
  Number p[2][n][n];  ///< P_0, P_1: [child][fine node][coarse basis]

  static std::size_t scratch_bytes() { return ScratchView::shmem_size(2 * cell_size); }

  /// Input line of n values at `start` with `stride` → out[o·out_stride] = (P_c or P_cᵀ) line.
  KOKKOS_INLINE_FUNCTION void line_step(int child, bool transposed, const Number* in, int stride, Number* out,
                                        int out_stride) const {
    Number x[1][n];
    contraction::load_column(in, stride, x[0]);
    TENSORMG_UNROLL_ALL
    for (int o = 0; o < n; ++o) {
      Number v[1];
      if (transposed) contraction::dot_column(p[child], o, x, v);
      else contraction::dot(p[child][o], x, v);
      out[o * out_stride] = v[0];
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Number* const t0 = static_cast<Number*>(team.team_scratch(0).get_shmem(sizeof(Number) * 2 * cell_size));
    Number* const t1 = t0 + cell_size;
    const int rank = team.team_rank(), size = team.team_size();
    const local_index cell = team.league_rank();
    if (args.prolongate) {
      // Fine cell `cell`: its parent and its child position per direction.
      local_index fc[3], pc[3];
      args.fine.coordinates(cell, fc);
      int child[3] = {0, 0, 0};
      for (int d = 0; d < 3; ++d) {
        const global_index g = args.fine.offset[d] + fc[d];
        child[d] = d < dim ? int(g % 2) : 0;
        pc[d] = d < dim ? local_index(g / 2 - args.coarse.offset[d]) : 0;
      }
      const Number* const u = args.in.data() + std::size_t(args.coarse.cell_index(pc[0], pc[1], pc[2])) * cell_size;
      Number* const v = args.out.data() + std::size_t(cell) * cell_size;
      apply(team, rank, size, child, false, args.add, u, t0, t1, v);
    } else {
      // Coarse cell `cell` of the parents: the sum over its children; a thread adds to the same
      // outputs for every child (its last-direction lines), the first child assigns.
      local_index cc[3];
      cc[0] = args.parent_begin[0] + cell % args.parents[0];
      cc[1] = args.parent_begin[1] + (cell / args.parents[0]) % args.parents[1];
      cc[2] = args.parent_begin[2] + cell / (args.parents[0] * args.parents[1]);
      Number* const v = args.out.data() + std::size_t(args.coarse.cell_index(cc[0], cc[1], cc[2])) * cell_size;
      for (int ch = 0; ch < children; ++ch) {
        const int child[3] = {ch & 1, (ch >> 1) & 1, (ch >> 2) & 1};
        local_index fc[3] = {0, 0, 0};
        for (int d = 0; d < dim; ++d) fc[d] = local_index(2 * (args.coarse.offset[d] + cc[d]) + child[d] - args.fine.offset[d]);
        const Number* const u = args.in.data() + std::size_t(args.fine.cell_index(fc[0], fc[1], fc[2])) * cell_size;
        team.team_barrier();  // the previous child's buffers and outputs are done
        apply(team, rank, size, child, true, ch > 0, u, t0, t1, v);
      }
    }
  }

  /// out = (or +=, with add) (M_z ⊗ M_y ⊗ M_x) u with M_d = P_{child_d} (or its transpose).
  KOKKOS_INLINE_FUNCTION void apply(const Member& team, int rank, int size, const int child[3], bool transposed,
                                    bool add, const Number* u, Number* t0, Number* t1, Number* out) const {
    // x-lines of u → t0.
    for (int line = rank; line < lines; line += size) line_step(child[0], transposed, u + line * n, 1, t0 + line * n, 1);
    team.team_barrier();
    if constexpr (dim == 2) {
      for (int i = rank; i < n; i += size) {
        Number tmp[n];
        line_step(child[1], transposed, t0 + i, n, tmp, 1);
        for (int o = 0; o < n; ++o) out[i + n * o] = add ? out[i + n * o] + tmp[o] : tmp[o];
      }
    } else {
      // y-lines of t0 → t1 at (x, z) = (line % n, line / n).
      for (int line = rank; line < lines; line += size) {
        const int base = line % n + n * n * (line / n);
        line_step(child[1], transposed, t0 + base, n, t1 + base, n);
      }
      team.team_barrier();
      // z-lines of t1 → out at (x, y) = (line % n, line / n).
      for (int line = rank; line < lines; line += size) {
        Number tmp[n];
        line_step(child[2], transposed, t1 + line, n * n, tmp, 1);
        for (int o = 0; o < n; ++o) out[line + n * n * o] = add ? out[line + n * n * o] + tmp[o] : tmp[o];
      }
    }
  }
};

template <int dim, int n, class Number, class ExecSpace>
void launch_dg_transfer(const DgTransferArgs<Number, ExecSpace>& args) {
  using Kernel = DgTransferKernel<dim, n, Number, ExecSpace>;
  Kernel kernel{args, {}};
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) kernel.p[c][i][j] = static_cast<Number>(args.host_matrices[(c * n + i) * n + j]);
  const local_index cells = args.prolongate ? args.fine.n_owned_cells : args.parents[0] * args.parents[1] * args.parents[2];
  if (cells == 0) return;
  const int team_size = runs_on_host<ExecSpace>() ? 1 : Kernel::lines;
  Kokkos::parallel_for(args.prolongate ? "tensormg::dg_transfer::prolongate" : "tensormg::dg_transfer::restrict",
                       typename Kernel::Policy(cells, team_size).set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes())),
                       kernel);
}

template <int dim, int k, class Number, class ExecSpace>
DgTransferKernelTable<Number, ExecSpace> dg_transfer_kernels_of() {
  return {&launch_dg_transfer<dim, k + 1, Number, ExecSpace>};
}

}  // namespace tensormg

#define TENSORMG_INSTANTIATE_DG_TRANSFER_KERNELS(Number, Exec) \
  template DgTransferKernelTable<Number, Exec> dg_transfer_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
