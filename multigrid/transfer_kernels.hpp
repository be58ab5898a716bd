#pragma once
/// @file
/// Device body of the parent-cell transfer (transfer.hpp) for one (dim, k): a team works on a
/// group of parent cells in scratch; every 1D contraction hands one column along the contracted
/// direction to a thread, which holds it in registers and contracts it with the 1D interpolation
/// matrix P (2k+1 × k+1) held in the functor (constant memory on CUDA), through the shared
/// contraction (core/tensor_contraction.hpp). Prolongation grows one direction per step from
/// k+1 to 2k+1 points, restriction (Pᵀ) shrinks it. Only transfer.cpp launches it, through the
/// table of transfer_instantiate.hpp.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>

#include "backends/device_traits.hpp"
#include "core/fast_divisor.hpp"
#include "core/tensor_contraction.hpp"
#include "multigrid/transfer_kernel_table.hpp"

namespace tensormg {

template <int dim, int k, class Number, class ExecSpace>
struct ParentCellTransferKernel {
  static constexpr int nc = k + 1, nf = 2 * k + 1;
  static constexpr int box = dim == 2 ? nf * nf : nf * nf * nf;  // scratch entries of a cell's buffer
  /// Parent cells per team on a device: enough that the contraction step with the fewest columns
  /// ((k+1)^(dim−1) per cell: prolongation's first, restriction's last) still has a column for
  /// each of a team's 256 threads; the launch lowers it to what the fast scratch holds. (Earlier
  /// ~256 points per team, 256 / (2k+1)^dim cells: one cell per team from 3D k = 3, whose steps
  /// kept 16..49 of 256 threads busy, the transfer 23% of a 3D Q3 V-cycle,
  /// h200-2026-11-29-even-odd-residual/call4. At k = 1, one cell per team of 128 threads had left
  /// most of them idle: half of a 3D Q1 V-cycle on the H100, h100-2026-11-21-multigrid.)
  static constexpr int fewest_columns = dim == 2 ? nc : nc * nc;
  static constexpr int device_cells_per_team = 256 / fewest_columns > 0 ? 256 / fewest_columns : 1;
  /// The team of `cells` parent cells on a device: a thread per point of their boxes, at most 256.
  static int device_team_size(int cells) { return std::min(256, (cells * box + 31) / 32 * 32); }
  /// Outputs' loop unrolled up to 9 outputs (k <= 4), as the operator's n <= 5 rule keeps the
  /// column and the constant-bank operands in registers.
  static constexpr int unroll_out = nf <= 9 ? nf : 1;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<256, 2>>;
  using Member = typename Policy::member_type;

  TransferArgs<Number, ExecSpace> args;
  local_index n_parents = 0;
  int cells_per_team = 1;
  int level = 0;
  FastDivisor by_parents[2];  ///< parents[0], parents[1]
  Number P[nf][nc];

  static std::size_t scratch_bytes(int cells) {
    return Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>::shmem_size(
        2 * std::size_t(box) * cells);
  }

  /// Parent c's place among the parents (cc) and its first coarse node (cn). The two divisions
  /// by the run-time parent counts are multiplications (FastDivisor): with a run-time divisor
  /// each is a ~20-instruction sequence on a GPU, and the gather and the scatter ask this of every
  /// node they move.
  KOKKOS_FORCEINLINE_FUNCTION void parent(local_index c, local_index cc[3], local_index cn[3]) const {
    local_index rest;
    const local_index plane = by_parents[1].divmod(by_parents[0].divmod(c, cc[0]), rest);
    cc[1] = rest;
    cc[2] = plane;
    for (int d = 0; d < 3; ++d) cn[d] = (args.parent_begin[d] + cc[d]) * k;
  }

  /// Extent in direction e of a cell's box before the contraction along d (restriction: the
  /// directions before d have been shrunk to nc, prolongation: grown to nf).
  template <bool restriction>
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int extent(int e, int d) {
    if (e >= dim) return 1;
    return e < d ? (restriction ? nc : nf) : (restriction ? nf : nc);
  }

  /// The contraction along d on the boxes of the team's cells (buffers `box` apart): one thread
  /// per column along d, the column in registers.
  template <int d, bool restriction>
  KOKKOS_FORCEINLINE_FUNCTION void step(const Member& team, int cells, const Number* src, Number* dst) const {
    constexpr int n_in = restriction ? nf : nc, n_out = restriction ? nc : nf;
    constexpr int e0 = extent<restriction>(0, d), e1 = extent<restriction>(1, d), e2 = extent<restriction>(2, d);
    // Strides of the input box and of the output box (which differs in direction d only).
    constexpr int o0 = d == 0 ? n_out : e0, o1 = d == 1 ? n_out : e1;
    constexpr int in_d = d == 0 ? 1 : (d == 1 ? e0 : e0 * e1), out_d = d == 0 ? 1 : (d == 1 ? o0 : o0 * o1);
    // The column's other two coordinates (qa, qb) in direction order, their strides and extents.
    constexpr int in_a = d == 0 ? e0 : 1, in_b = d == 2 ? e0 : e0 * e1;
    constexpr int out_a = d == 0 ? o0 : 1, out_b = d == 2 ? o0 : o0 * o1;
    constexpr int ea = d == 0 ? e1 : e0, eb = d == 2 ? e1 : e2;
    constexpr int columns = ea * eb;
    for (int w = team.team_rank(); w < cells * columns; w += team.team_size()) {
      const int cell = w / columns, q = w % columns, qa = q % ea, qb = q / ea;
      Number x[1][n_in];
      contraction::load_column(src + cell * box + qa * in_a + qb * in_b, in_d, x[0]);
      Number* out = dst + cell * box + qa * out_a + qb * out_b;
      TENSORMG_UNROLL(unroll_out)
      for (int o = 0; o < n_out; ++o) {
        DeviceTraits<ExecSpace>::template keep_unroll<unroll_out, n_out>();
        Number v[1];
        if constexpr (restriction) contraction::dot_column(P, o, x, v);
        else contraction::dot(P[o], x, v);
        out[o * out_d] = v[0];
      }
    }
    team.team_barrier();
  }

  /// The dim steps from buffer a; returns the buffer that holds the result (b in 3D, a in 2D).
  template <bool restriction>
  KOKKOS_FORCEINLINE_FUNCTION Number* contract_all(const Member& team, int cells, Number* a, Number* b) const {
    step<0, restriction>(team, cells, a, b);
    step<1, restriction>(team, cells, b, a);
    if constexpr (dim == 3) {
      step<2, restriction>(team, cells, a, b);
      return b;
    } else {
      return a;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    if (args.mode == 2) apply<true>(team);
    else apply<false>(team);
  }

  /// One team's parents: gather, contract, scatter. Gather and scatter give a thread a row of a
  /// cell's points along x: the row's coordinates and index once, then its points one after
  /// another, at consecutive indices where the row lies in the owned part of the box (NodeBox),
  /// point by point through NodeBox::index where it reaches the ghosts. Sizes are compile-time
  /// constants per direction of the transfer. (Before: a thread per point, which turned its
  /// running number into a cell and three coordinates by ~8 run-time integer divisions; 3D Q3's
  /// restriction then ran at 0.15 TB/s on the H100, floats no faster than doubles, g29.)
  template <bool restriction>
  KOKKOS_FORCEINLINE_FUNCTION void apply(const Member& team) const {
    Number* a = static_cast<Number*>(team.team_scratch(level).get_shmem(2 * sizeof(Number) * box * cells_per_team));
    Number* b = a + box * cells_per_team;
    const local_index first = team.league_rank() * cells_per_team;
    const int cells = n_parents - first < cells_per_team ? int(n_parents - first) : cells_per_team;
    const NodeBox &coarse = args.coarse, &fine = args.fine;
    // Gather: the parent's nodes, or (restriction) the children's nodes this parent owns (the
    // lower parent takes the nodes of a shared face, also across ranks: a rank reads only its owned
    // fine nodes, and each fine node enters the restriction once over all ranks).
    constexpr unsigned n_in = restriction ? nf : nc;
    constexpr unsigned rows_in = dim == 2 ? n_in : n_in * n_in;
    for (unsigned w = team.team_rank(); w < unsigned(cells) * rows_in; w += team.team_size()) {
      const unsigned cell = w / rows_in, r = w - cell * rows_in;
      const int i1 = int(r % n_in), i2 = dim == 3 ? int(r / n_in) : 0;
      local_index cc[3], cn[3];
      parent(first + local_index(cell), cc, cn);
      Number* row = a + cell * box + r * n_in;
      if constexpr (restriction) {
        // Owned by this parent: points below 2k, and those at 2k of the domain's last parent.
        const bool last0 = coarse.offset[0] + cn[0] + k == coarse.global_nodes[0] - 1;
        bool owned = i1 < 2 * k || coarse.offset[1] + cn[1] + k == coarse.global_nodes[1] - 1;
        if (dim == 3) owned = owned && (i2 < 2 * k || coarse.offset[2] + cn[2] + k == coarse.global_nodes[2] - 1);
        const local_index x = 2 * cc[0] * k, y = 2 * cc[1] * k + i1, z = dim == 3 ? 2 * cc[2] * k + i2 : 0;
        if (!owned) {
          for (unsigned i = 0; i < n_in; ++i) row[i] = 0;
        } else if (x + local_index(n_in) <= fine.o[0] && y < fine.o[1] && z < fine.o[2]) {
          const Number* in = args.in.data() + (x + fine.o[0] * (y + fine.o[1] * z));
          for (unsigned i = 0; i < n_in; ++i) row[i] = i < 2 * k || last0 ? in[i] : Number(0);
        } else {
          for (unsigned i = 0; i < n_in; ++i)
            row[i] = i < 2 * k || last0 ? args.in(fine.index(x + local_index(i), y, z)) : Number(0);
        }
      } else {
        const local_index x = cn[0], y = cn[1] + i1, z = dim == 3 ? cn[2] + i2 : 0;
        if (x + local_index(n_in) <= coarse.o[0] && y < coarse.o[1] && z < coarse.o[2]) {
          const Number* in = args.in.data() + (x + coarse.o[0] * (y + coarse.o[1] * z));
          for (unsigned i = 0; i < n_in; ++i) row[i] = in[i];
        } else {
          for (unsigned i = 0; i < n_in; ++i) row[i] = args.in(coarse.index(x + local_index(i), y, z));
        }
      }
    }
    team.team_barrier();
    const Number* result = contract_all<restriction>(team, cells, a, b);
    // Scatter: restriction adds the parent's coarse values (atomically: neighbours share nodes);
    // prolongation writes the children's nodes but those the next parent along a direction writes.
    constexpr unsigned n_out = restriction ? nc : nf;
    constexpr unsigned rows_out = dim == 2 ? n_out : n_out * n_out;
    for (unsigned w = team.team_rank(); w < unsigned(cells) * rows_out; w += team.team_size()) {
      const unsigned cell = w / rows_out, r = w - cell * rows_out;
      const int i1 = int(r % n_out), i2 = dim == 3 ? int(r / n_out) : 0;
      local_index cc[3], cn[3];
      parent(first + local_index(cell), cc, cn);
      const Number* row = result + cell * box + r * n_out;
      if constexpr (restriction) {
        const local_index x = cn[0], y = cn[1] + i1, z = dim == 3 ? cn[2] + i2 : 0;
        if (x + local_index(n_out) <= coarse.o[0] && y < coarse.o[1] && z < coarse.o[2]) {
          Number* out = args.out.data() + (x + coarse.o[0] * (y + coarse.o[1] * z));
          for (unsigned i = 0; i < n_out; ++i) Kokkos::atomic_add(out + i, row[i]);
        } else {
          for (unsigned i = 0; i < n_out; ++i) Kokkos::atomic_add(&args.out(coarse.index(x + local_index(i), y, z)), row[i]);
        }
      } else {
        bool written_by_next = i1 == 2 * k && cc[1] != args.parents[1] - 1;
        if (dim == 3) written_by_next = written_by_next || (i2 == 2 * k && cc[2] != args.parents[2] - 1);
        if (written_by_next) continue;
        // The point at 2k along x belongs to the next parent but on the last one.
        const unsigned n_row = cc[0] != args.parents[0] - 1 ? n_out - 1 : n_out;
        const local_index x = 2 * cc[0] * k, y = 2 * cc[1] * k + i1, z = dim == 3 ? 2 * cc[2] * k + i2 : 0;
        const bool add = args.mode == 1;
        if (x + local_index(n_row) <= fine.o[0] && y < fine.o[1] && z < fine.o[2]) {
          Number* out = args.out.data() + (x + fine.o[0] * (y + fine.o[1] * z));
          for (unsigned i = 0; i < n_row; ++i) out[i] = add ? out[i] + row[i] : row[i];
        } else {
          for (unsigned i = 0; i < n_row; ++i) {
            const local_index idx = fine.index(x + local_index(i), y, z);
            args.out(idx) = add ? args.out(idx) + row[i] : row[i];
          }
        }
      }
    }
  }
};

template <int dim, int k, class Number, class ExecSpace>
void launch_parent_cell_transfer(const TransferArgs<Number, ExecSpace>& args) {
  using Kernel = ParentCellTransferKernel<dim, k, Number, ExecSpace>;
  const local_index parents = args.parents[0] * args.parents[1] * (dim == 3 ? args.parents[2] : 1);
  if (parents == 0) return;
  Kernel kernel;
  kernel.args = args;
  kernel.n_parents = parents;
  kernel.by_parents[0] = FastDivisor(args.parents[0]);
  kernel.by_parents[1] = FastDivisor(args.parents[1]);
  for (int f = 0; f < Kernel::nf; ++f)
    for (int j = 0; j < Kernel::nc; ++j) kernel.P[f][j] = args.host_matrix[f * Kernel::nc + j];
  const bool host = runs_on_host<ExecSpace>();
  int cells = host ? 1 : Kernel::device_cells_per_team;
  // As many cells as the fast scratch holds (3D FP64 k = 3: 8 of the 16 asked for), one at least.
  while (cells > 1 && Kernel::scratch_bytes(cells) > DeviceTraits<ExecSpace>::fast_scratch_bytes(Kernel::device_team_size(cells)))
    --cells;
  kernel.cells_per_team = cells;
  const std::size_t bytes = Kernel::scratch_bytes(cells);
  const int team = host ? 1 : Kernel::device_team_size(cells);
  kernel.level = bytes <= DeviceTraits<ExecSpace>::fast_scratch_bytes(team) ? 0 : 1;
  typename Kernel::Policy policy((parents + kernel.cells_per_team - 1) / kernel.cells_per_team, team);
  policy.set_scratch_size(kernel.level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(args.mode == 2 ? "tensormg::transfer::restrict" : "tensormg::transfer::prolongate", policy, kernel);
}

}  // namespace tensormg
