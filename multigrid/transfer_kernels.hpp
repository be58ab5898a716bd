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

  /// What a team's threads share about one of its parents, filled once per team: the index of
  /// its first input and first output node where all of its nodes on that side lie in the owned
  /// part of the box (else -1: those go point by point through NodeBox::index), and flags.
  struct CellEntry {
    local_index first_in, first_out;
    local_index c;   ///< the parent's number
    unsigned flags;  ///< bit d: restriction, the last parent of the domain in d (owns its nodes at
                     ///< 2k); prolongation, the next parent in d writes the nodes at 2k
  };

  /// Scratch of a team: the two buffers and the parents' table (8-byte aligned after them).
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t buffer_bytes(int cells) { return (2 * sizeof(Number) * box * cells + 7) / 8 * 8; }
  /// A multiple of 16: where the scratch is level 1 (global memory, 3D k >= 7 in double), teams'
  /// scratches follow one another at this stride, and the table's 4-byte entries must stay
  /// aligned in each (a View<char*>'s shmem_size, n + 1 bytes, misaligned them: g31).
  static std::size_t scratch_bytes(int cells) {
    return (buffer_bytes(cells) + sizeof(CellEntry) * std::size_t(cells) + 15) / 16 * 16;
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

  /// First index of a parent's nodes [x, x + n) × [y, y + n) × [z, z + n) where they all lie in
  /// the owned part of the box (consecutive along x, NodeBox's owned-first numbering), else -1.
  template <int n>
  KOKKOS_FORCEINLINE_FUNCTION static local_index owned_first(const NodeBox& box, local_index x, local_index y, local_index z) {
    const bool owned = x + n <= box.o[0] && y + n <= box.o[1] && (dim == 2 || z + n <= box.o[2]);
    return owned ? x + box.o[0] * (y + box.o[1] * z) : local_index(-1);
  }

  /// One team's parents: a table of them, gather, contract, scatter. Gather and scatter give a
  /// thread a point (consecutive threads, consecutive points along x: coalesced), which finds its
  /// parent in the table and its index from the parent's first index where the parent's nodes are
  /// all owned; sizes are compile-time constants per direction of the transfer. (Before: each
  /// point turned its running number into a cell and three coordinates by ~8 run-time integer
  /// divisions and its index through NodeBox::index: 3D Q3's restriction at 57M DoFs took 1.34 ms
  /// in float on the H100, 0.17 TB/s, and floats were no faster than doubles; a thread per row of
  /// points had 2.7x fewer instructions but its loads, 32 rows a warp, were slower in double, g30.)
  template <bool restriction>
  KOKKOS_FORCEINLINE_FUNCTION void apply(const Member& team) const {
    char* shmem = static_cast<char*>(
        team.team_scratch(level).get_shmem(buffer_bytes(cells_per_team) + sizeof(CellEntry) * cells_per_team));
    Number* a = reinterpret_cast<Number*>(shmem);
    Number* b = a + box * cells_per_team;
    CellEntry* table = reinterpret_cast<CellEntry*>(shmem + buffer_bytes(cells_per_team));
    const local_index first = team.league_rank() * cells_per_team;
    const int cells = n_parents - first < cells_per_team ? int(n_parents - first) : cells_per_team;
    const NodeBox &coarse = args.coarse, &fine = args.fine;
    for (int t = team.team_rank(); t < cells; t += team.team_size()) {
      local_index cc[3], cn[3];
      parent(first + t, cc, cn);
      const local_index fx = 2 * cc[0] * k, fy = 2 * cc[1] * k, fz = dim == 3 ? 2 * cc[2] * k : 0;
      CellEntry entry;
      entry.c = first + t;
      entry.flags = 0;
      for (int d = 0; d < dim; ++d) {
        const bool bit = restriction ? coarse.offset[d] + cn[d] + k == coarse.global_nodes[d] - 1
                                     : cc[d] != args.parents[d] - 1;
        entry.flags |= bit ? 1u << d : 0u;
      }
      const local_index coarse_first = owned_first<nc>(coarse, cn[0], cn[1], dim == 3 ? cn[2] : 0);
      const local_index fine_first = owned_first<nf>(fine, fx, fy, fz);
      entry.first_in = restriction ? fine_first : coarse_first;
      entry.first_out = restriction ? coarse_first : fine_first;
      table[t] = entry;
    }
    team.team_barrier();
    // Gather: the parent's nodes, or (restriction) the children's nodes this parent owns (the
    // lower parent takes the nodes of a shared face, also across ranks: a rank reads only its owned
    // fine nodes, and each fine node enters the restriction once over all ranks).
    constexpr unsigned n_in = restriction ? nf : nc;
    constexpr unsigned in_size = dim == 2 ? n_in * n_in : n_in * n_in * n_in;
    const NodeBox& in_box = restriction ? fine : coarse;
    for (unsigned w = team.team_rank(); w < unsigned(cells) * in_size; w += team.team_size()) {
      const unsigned cell = w / in_size, e = w - cell * in_size;
      const unsigned i0 = e % n_in, i1 = (e / n_in) % n_in, i2 = dim == 3 ? e / (n_in * n_in) : 0;
      const CellEntry entry = table[cell];
      Number v = 0;
      bool owned = true;
      if constexpr (restriction)
        owned = (i0 < 2 * k || (entry.flags & 1u)) && (i1 < 2 * k || (entry.flags & 2u)) &&
                (dim == 2 || i2 < 2 * k || (entry.flags & 4u));
      if (owned) {
        if (entry.first_in >= 0) {
          v = args.in.data()[entry.first_in + local_index(i0) + in_box.o[0] * (local_index(i1) + in_box.o[1] * local_index(i2))];
        } else {
          local_index cc[3], cn[3];
          parent(entry.c, cc, cn);
          v = restriction ? args.in(fine.index(2 * cc[0] * k + i0, 2 * cc[1] * k + i1, dim == 3 ? 2 * cc[2] * k + i2 : 0))
                          : args.in(coarse.index(cn[0] + i0, cn[1] + i1, dim == 3 ? cn[2] + i2 : 0));
        }
      }
      a[cell * box + e] = v;
    }
    team.team_barrier();
    const Number* result = contract_all<restriction>(team, cells, a, b);
    // Scatter: restriction adds the parent's coarse values (atomically: neighbours share nodes);
    // prolongation writes the children's nodes but those the next parent along a direction writes.
    constexpr unsigned n_out = restriction ? nc : nf;
    constexpr unsigned out_size = dim == 2 ? n_out * n_out : n_out * n_out * n_out;
    const NodeBox& out_box = restriction ? coarse : fine;
    const bool add = args.mode == 1;
    for (unsigned w = team.team_rank(); w < unsigned(cells) * out_size; w += team.team_size()) {
      const unsigned cell = w / out_size, e = w - cell * out_size;
      const unsigned i0 = e % n_out, i1 = (e / n_out) % n_out, i2 = dim == 3 ? e / (n_out * n_out) : 0;
      const CellEntry entry = table[cell];
      if constexpr (!restriction) {
        const bool written_by_next = (i0 == 2 * k && (entry.flags & 1u)) || (i1 == 2 * k && (entry.flags & 2u)) ||
                                     (dim == 3 && i2 == 2 * k && (entry.flags & 4u));
        if (written_by_next) continue;
      }
      const Number value = result[cell * box + e];
      local_index idx;
      if (entry.first_out >= 0) {
        idx = entry.first_out + local_index(i0) + out_box.o[0] * (local_index(i1) + out_box.o[1] * local_index(i2));
      } else {
        local_index cc[3], cn[3];
        parent(entry.c, cc, cn);
        idx = restriction ? coarse.index(cn[0] + i0, cn[1] + i1, dim == 3 ? cn[2] + i2 : 0)
                          : fine.index(2 * cc[0] * k + i0, 2 * cc[1] * k + i1, dim == 3 ? 2 * cc[2] * k + i2 : 0);
      }
      if constexpr (restriction) Kokkos::atomic_add(&args.out(idx), value);
      else args.out(idx) = add ? args.out(idx) + value : value;
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
