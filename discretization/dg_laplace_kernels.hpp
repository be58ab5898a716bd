#pragma once
/// @file
/// Device bodies of the matrix-free DG (SIPG) operator a·(SIPG Laplacian) + b·(mass) on Cartesian
/// cells with cell-wise numbering (sipg_matrices_1d.hpp for the form). Cell-centric: a cell
/// computes its own rows from its values and its face neighbours' face data, so every cell writes
/// only its own values (no atomics, no colouring) and one pass does cells and faces.
///
/// With L_d the interior 1D line block and N_d the coupling to the neighbours along d, the
/// Kronecker sum is evaluated like the continuous operator's (laplace_kernels.hpp):
///   x-lines:  t0 = M_x u,            t1 = L_x u + N_x[u]
///   y-lines:  t0 ← M_y t0,           t1 ← L_y t0 + M_y t1 + N_y[M_x u]
///   z-lines:  v = a (L_z t0 + M_z t1 + N_z[M_y M_x u]) + b M_z t0          (3D; 2D stops at y)
/// N_d needs per line the neighbour's value and derivative on the shared face; for the y and z
/// faces the x-line threads read these face data of the neighbours into scratch and the later
/// steps apply the masses of the directions already done. A face on the brick's boundary uses
/// mirror data (value −u, derivative u' of the cell itself): the interior face term then equals
/// the Nitsche term with σ_b = 2σ, so one interior block per direction serves every cell.

#include <Kokkos_Core.hpp>

#include "backends/device_traits.hpp"
#include "core/tensor_contraction.hpp"
#include "discretization/dg_laplace_kernel_table.hpp"
#include "discretization/dg_laplace_tuning.hpp"

namespace tensormg {

/// One team works on cells_per_team cells, one thread per line of a cell (n^(d−1) lines), any
/// team size (threads stride); work item w is line w / cells_per_team of cell w % cells_per_team.
template <int dim, int n, class Number, class ExecSpace>
struct DgCellOperatorKernel {
  static constexpr LaplaceTuning tuning = dg_laplace_tuning(dim, n - 1, tuning_target<ExecSpace>());
  static constexpr int max_team_size = tuning.max_team_size;
  static constexpr int unroll = tuning.unroll_outputs;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<tuning.max_team_size, tuning.min_teams_per_sm>>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int k = n - 1;
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  static constexpr int lines = cell_size / n;  ///< also the size of a face
  /// Face data per cell: for the y (and z) faces, [side][value, derivative][face node].
  static constexpr int face_entries = (dim - 1) * 4 * lines;
  /// Per cell in scratch: t0, t1 and the face data; odd, so neighbouring cells' lines fall into
  /// different shared-memory banks.
  static constexpr int cell_stride = (2 * cell_size + face_entries) | 1;

  DgKernelArgs<Number, ExecSpace> args;
  SipgMatrices<dim, n, Number> m;

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_entries(int cells_per_team) {
    return std::size_t(cell_stride) * cells_per_team;
  }
  std::size_t team_shmem_size(int /*team_size*/) const { return scratch_bytes(args.cells_per_team); }
  static std::size_t scratch_bytes(int cells_per_team) { return ScratchView::shmem_size(scratch_entries(cells_per_team)); }

  /// The face data of the neighbour across face (d, side) of cell `cell` (coordinates cc) along
  /// the line that starts at offset `start` of a cell and advances by `stride`: the value and the
  /// derivative on the shared face, or the mirror data of the cell itself on the brick's boundary.
  KOKKOS_INLINE_FUNCTION void face_data(local_index cell, const local_index cc[3], int d, int side, int start,
                                        int stride, Number& value, Number& derivative) const {
    const local_index nb = args.box.neighbor(cc, d, side);
    Number x[n];
    contraction::load_column(args.src.data() + std::size_t(nb >= 0 ? nb : cell) * cell_size + start, stride, x);
    const auto& line = m.line[d];
    // Upper neighbour: its lower face (node 0, φ'(0)); lower neighbour: its upper face. Mirror:
    // the cell's own face (d, side), value negated.
    const bool lower_face = (nb >= 0) == (side == 1);
    Number s = 0;
    TENSORMG_UNROLL_ALL
    for (int j = 0; j < n; ++j) s += (lower_face ? line.d_left[j] : line.d_right[j]) * x[j];
    derivative = s;
    value = nb >= 0 ? (lower_face ? x[0] : x[k]) : -(lower_face ? x[0] : x[k]);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int cpt = args.cells_per_team;
    const local_index first = team.league_rank() * cpt;
    Number* const scratch = static_cast<Number*>(team.team_scratch(0).get_shmem(sizeof(Number) * scratch_entries(cpt)));
    const int rank = team.team_rank(), size = team.team_size();
    const local_index n_cells = args.box.n_owned_cells;
    const int items = cpt * lines;
    const int rank_cell = rank % cpt, rank_line = rank / cpt;

    // x-lines: t0 = M_x u, t1 = L_x u + N_x[u]; the face data of the y (and z) neighbours.
    for (int w = rank; w < items; w += size) {
      const int c = w == rank ? rank_cell : w % cpt, line = w == rank ? rank_line : w / cpt;
      const local_index cell = first + c;
      if (cell >= n_cells) continue;
      local_index cc[3];
      args.box.coordinates(cell, cc);
      Number* const t0 = scratch + c * cell_stride;
      Number* const t1 = t0 + cell_size;
      Number* const faces = t1 + cell_size;
      Number u[1][n];
      contraction::load_column(args.src.data() + std::size_t(cell) * cell_size + line * n, 1, u[0]);
      Number lv, ld, rv, rd;
      face_data(cell, cc, 0, 0, line * n, 1, lv, ld);
      face_data(cell, cc, 0, 1, line * n, 1, rv, rd);
      const auto& x = m.line[0];
      TENSORMG_UNROLL(unroll)
      for (int i = 0; i < n; ++i) {
        DeviceTraits<ExecSpace>::template keep_unroll<unroll, n>();
        Number sm[1], sl[1];
        contraction::dot_two(x.mass[i], x.cell[i], u, sm, sl);
        t0[line * n + i] = sm[0];
        t1[line * n + i] = sl[0] + x.left_value[i] * lv + x.left_derivative[i] * ld + x.right_value[i] * rv +
                           x.right_derivative[i] * rd;
      }
      // Face data along y at (x, z) = (line % n, line / n), along z at (x, y) = (line % n, line / n).
      const int p = line % n, q = line / n;
      for (int side = 0; side < 2; ++side) {
        face_data(cell, cc, 1, side, p + n * n * q, n, faces[(side * 2 + 0) * lines + line],
                  faces[(side * 2 + 1) * lines + line]);
        if constexpr (dim == 3)
          face_data(cell, cc, 2, side, p + n * q, n * n, faces[4 * lines + (side * 2 + 0) * lines + line],
                    faces[4 * lines + (side * 2 + 1) * lines + line]);
      }
    }
    team.team_barrier();

    const auto& y = m.line[1];
    if constexpr (dim == 2) {
      // y-lines (last): v = a (L_y t0 + M_y t1 + N_y[M_x u]) + b M_y t0.
      for (int w = rank; w < items; w += size) {
        const int c = w == rank ? rank_cell : w % cpt, i = w == rank ? rank_line : w / cpt;
        const local_index cell = first + c;
        if (cell >= n_cells) continue;
        const Number* const t0 = scratch + c * cell_stride;
        const Number* const t1 = t0 + cell_size;
        const Number* const faces = t1 + cell_size;
        Number r0[1][n], r1[1][n];
        contraction::load_column(t0 + i, n, r0[0]);
        contraction::load_column(t1 + i, n, r1[0]);
        Number f[4];  // M_x applied to the face data: [lower value, lower derivative, upper value, upper derivative]
        TENSORMG_UNROLL_ALL
        for (int a = 0; a < 4; ++a) {
          Number s[1];
          contraction::dot(m.line[0].mass[i], *reinterpret_cast<const Number(*)[1][n]>(faces + a * lines), s);
          f[a] = args.laplace * s[0];
        }
        finish_line(y, r0, r1, f, args.dst.data() + std::size_t(cell) * cell_size + i, n);
      }
    } else {
      // y-lines: t0 ← M_y t0, t1 ← L_y t0 + M_y t1 + N_y[M_x u], in place.
      for (int w = rank; w < items; w += size) {
        const int c = w == rank ? rank_cell : w % cpt, line = w == rank ? rank_line : w / cpt;
        if (first + c >= n_cells) continue;
        Number* const t0 = scratch + c * cell_stride;
        Number* const t1 = t0 + cell_size;
        const Number* const faces = t1 + cell_size;
        const int p = line % n, q = line / n;  // the y-line at (x, z) = (p, q)
        const int base = p + n * n * q;
        Number r0[1][n], r1[1][n];
        contraction::load_column(t0 + base, n, r0[0]);
        contraction::load_column(t1 + base, n, r1[0]);
        Number f[4];
        TENSORMG_UNROLL_ALL
        for (int a = 0; a < 4; ++a) {
          Number s[1];
          contraction::dot(m.line[0].mass[p], *reinterpret_cast<const Number(*)[1][n]>(faces + a * lines + n * q), s);
          f[a] = s[0];
        }
        TENSORMG_UNROLL(unroll)
        for (int jo = 0; jo < n; ++jo) {
          DeviceTraits<ExecSpace>::template keep_unroll<unroll, n>();
          Number s0[1], s1[1];
          contraction::dot_two_sum<contraction::Pair::split>(y.mass[jo], y.cell[jo], r0, r1, s0, s1);
          t0[base + jo * n] = s0[0];
          t1[base + jo * n] = s1[0] + y.left_value[jo] * f[0] + y.left_derivative[jo] * f[1] +
                              y.right_value[jo] * f[2] + y.right_derivative[jo] * f[3];
        }
      }
      team.team_barrier();
      // z-lines (last): v = a (L_z t0 + M_z t1 + N_z[M_y M_x u]) + b M_z t0.
      const auto& z = m.line[2];
      for (int w = rank; w < items; w += size) {
        const int c = w == rank ? rank_cell : w % cpt, line = w == rank ? rank_line : w / cpt;
        const local_index cell = first + c;
        if (cell >= n_cells) continue;
        const Number* const t0 = scratch + c * cell_stride;
        const Number* const t1 = t0 + cell_size;
        const Number* const faces = t1 + cell_size + 4 * lines;
        const int p = line % n, q = line / n;  // the z-line at (x, y) = (p, q)
        Number r0[1][n], r1[1][n];
        contraction::load_column(t0 + line, n * n, r0[0]);
        contraction::load_column(t1 + line, n * n, r1[0]);
        Number f[4];
        TENSORMG_UNROLL_ALL
        for (int a = 0; a < 4; ++a) {
          // M_y M_x applied to the face data (an n × n array, x fastest) at (p, q).
          Number rows[1][n];
          TENSORMG_UNROLL_ALL
          for (int qq = 0; qq < n; ++qq) {
            Number s[1];
            contraction::dot(m.line[0].mass[p], *reinterpret_cast<const Number(*)[1][n]>(faces + a * lines + n * qq), s);
            rows[0][qq] = s[0];
          }
          Number s[1];
          contraction::dot(y.mass[q], rows, s);
          f[a] = args.laplace * s[0];
        }
        finish_line(z, r0, r1, f, args.dst.data() + std::size_t(cell) * cell_size + line, n * n);
      }
    }
  }

  /// The last direction: out[o·stride] = a (L t0 + M t1)[o] + b (M t0)[o] + N[o] (f already
  /// scaled by a), a plain store: the cell owns its rows.
  KOKKOS_INLINE_FUNCTION void finish_line(const SipgLine1D<n, Number>& l, Number (&r0)[1][n], Number (&r1)[1][n],
                                          const Number (&f)[4], Number* out, int stride) const {
    TENSORMG_UNROLL_ALL
    for (int j = 0; j < n; ++j) {
      r1[0][j] = args.laplace * r1[0][j] + args.mass * r0[0][j];
      r0[0][j] *= args.laplace;
    }
    TENSORMG_UNROLL(unroll)
    for (int o = 0; o < n; ++o) {
      DeviceTraits<ExecSpace>::template keep_unroll<unroll, n>();
      Number v[1];
      contraction::dot_sum<contraction::Pair::split>(l.cell[o], r0, l.mass[o], r1, v);
      out[o * stride] = v[0] + l.left_value[o] * f[0] + l.left_derivative[o] * f[1] + l.right_value[o] * f[2] +
                        l.right_derivative[o] * f[3];
    }
  }
};

/// Diagonal of the same operator: per (cell, node) the Kronecker sum of the 1D diagonals, with
/// the cell block of the cell's boundary position (the neighbour couplings are off the diagonal).
template <int dim, int n, class Number, class ExecSpace>
struct DgCellDiagonalKernel {
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  DgKernelArgs<Number, ExecSpace> args;
  SipgMatrices<dim, n, Number> m;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const local_index cell = static_cast<local_index>(e / cell_size);
    const int node = static_cast<int>(e % cell_size);
    local_index cc[3];
    args.box.coordinates(cell, cc);
    const int i[3] = {node % n, (node / n) % n, dim == 3 ? node / (n * n) : 0};
    Number mass_diag[3] = {1, 1, 1}, cell_diag[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      const int position = (args.box.on_boundary(cc, d, 0) ? 1 : 0) + (args.box.on_boundary(cc, d, 1) ? 2 : 0);
      mass_diag[d] = m.line[d].mass[i[d]][i[d]];
      cell_diag[d] = m.line[d].diagonal[position][i[d]];
    }
    Number mass_all = 1, lap = 0;
    for (int d = 0; d < dim; ++d) {
      mass_all *= mass_diag[d];
      Number term = cell_diag[d];
      for (int d2 = 0; d2 < dim; ++d2)
        if (d2 != d) term *= mass_diag[d2];
      lap += term;
    }
    args.dst(e) = args.laplace * lap + args.mass * mass_all;
  }
};

/// The 1D data of the dim directions converted to Number.
template <int dim, int n, class Number>
SipgMatrices<dim, n, Number> sipg_matrices_of(const SipgMatrices1D* lines) {
  SipgMatrices<dim, n, Number> m{};
  for (int d = 0; d < dim; ++d) {
    const SipgMatrices1D& s = lines[d];
    auto& l = m.line[d];
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        l.mass[i][j] = static_cast<Number>(s.m(i, j));
        l.cell[i][j] = static_cast<Number>(s.l(0, i, j));
      }
      l.d_left[i] = static_cast<Number>(s.d_left[i]);
      l.d_right[i] = static_cast<Number>(s.d_right[i]);
      l.right_value[i] = static_cast<Number>(s.right_value[i]);
      l.right_derivative[i] = static_cast<Number>(s.right_derivative[i]);
      l.left_value[i] = static_cast<Number>(s.left_value[i]);
      l.left_derivative[i] = static_cast<Number>(s.left_derivative[i]);
      for (int position = 0; position < 4; ++position) l.diagonal[position][i] = static_cast<Number>(s.l(position, i, i));
    }
  }
  return m;
}

/// Cells per team when the user does not choose: one on the host; on a GPU about the tuning
/// row's team_threads (one per line).
template <int dim, int n, class ExecSpace>
int dg_default_cells_per_team() {
  if constexpr (runs_on_host<ExecSpace>()) return 1;
  using Kernel = DgCellOperatorKernel<dim, n, double, ExecSpace>;
  return cells_per_team_of(Kernel::tuning, Kernel::lines);
}

template <int dim, int n, class Number, class ExecSpace>
void launch_dg_cell_operator(const DgKernelArgs<Number, ExecSpace>& args) {
  using Kernel = DgCellOperatorKernel<dim, n, Number, ExecSpace>;
  const local_index cells = args.box.n_owned_cells;
  if (cells == 0) return;
  const Kernel kernel{args, sipg_matrices_of<dim, n, Number>(args.lines)};
  const int league = (cells + args.cells_per_team - 1) / args.cells_per_team;
  const int team_size = runs_on_host<ExecSpace>() ? 1 : args.cells_per_team * Kernel::lines;
  Kokkos::parallel_for("tensormg::operator::dg_laplace::apply", typename Kernel::Policy(league, team_size), kernel);
}

template <int dim, int n, class Number, class ExecSpace>
void launch_dg_cell_diagonal(const DgKernelArgs<Number, ExecSpace>& args) {
  using Kernel = DgCellDiagonalKernel<dim, n, Number, ExecSpace>;
  const Kernel kernel{args, sipg_matrices_of<dim, n, Number>(args.lines)};
  const std::int64_t work = std::int64_t(args.box.n_owned_cells) * Kernel::cell_size;
  Kokkos::parallel_for("tensormg::operator::dg_laplace::diagonal",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, work), kernel);
}

template <int dim, int k, class Number, class ExecSpace>
DgLaplaceKernelTable<Number, ExecSpace> dg_laplace_kernels_of() {
  using Kernel = DgCellOperatorKernel<dim, k + 1, Number, ExecSpace>;
  return {&launch_dg_cell_operator<dim, k + 1, Number, ExecSpace>,
          &launch_dg_cell_diagonal<dim, k + 1, Number, ExecSpace>,
          dg_default_cells_per_team<dim, k + 1, ExecSpace>(),
          runs_on_host<ExecSpace>() ? 0 : Kernel::lines,
          Kernel::max_team_size,
          &Kernel::scratch_bytes};
}

}  // namespace tensormg

/// For TENSORMG_FOR_EACH_NUMBER_AND_SPACE, with TENSORMG_DIM and TENSORMG_DEGREE defined by the
/// generated unit.
#define TENSORMG_INSTANTIATE_DG_LAPLACE_KERNELS(Number, Exec) \
  template DgLaplaceKernelTable<Number, Exec> dg_laplace_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
