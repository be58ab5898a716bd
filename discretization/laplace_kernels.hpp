#pragma once
/// @file
/// Device bodies of the matrix-free continuous Q_k operator a·(Laplace) + b·(mass) on Cartesian
/// cells (paper 000 §3.1): gather the cell's (k+1)^d values, apply the Kronecker sum
///   2D: a (A_y⊗M_x + M_y⊗A_x) + b M_y⊗M_x
///   3D: a (A_z⊗M_y⊗M_x + M_z⊗A_y⊗M_x + M_z⊗M_y⊗A_x) + b M_z⊗M_y⊗M_x
/// by sum factorization with 1D matrices (2D: 4 contractions, 3D: 7), scatter-add the result.
/// Only the host glue (laplace_operator.hpp) launches these.

#include <Kokkos_Core.hpp>

#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

/// Everything a launch needs besides dim, n = k+1, Number and ExecSpace.
template <class Number, class ExecSpace>
struct CellKernelArgs {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const Number*, memory_space> src;
  Kokkos::View<Number*, memory_space> dst;
  /// 1D matrices of the cell, [direction][0: mass, 1: stiffness][i][j], row-major.
  Kokkos::View<const Number*, memory_space> matrices;
  NodeBox box;
  Number laplace = 1, mass = 0;
  bool zero_boundary_input = true;  ///< Dirichlet nodes read as zero (constrained operator)
  bool skip_boundary_output = true; ///< nothing is added to Dirichlet rows
  bool atomic = true;               ///< atomic scatter (all cells at once) or plain adds (one color)
  int color = -1;                   ///< -1: all cells; 0..2^d-1: cells with (c_d mod 2) = bit d
  int cells_per_team = 1;
};

namespace detail {

/// Number of cells a launch visits and the map from a running cell number to cell coordinates.
struct CellRange {
  local_index extent[3] = {1, 1, 1};  // cells per direction in the visited (sub)set
  int parity[3] = {0, 0, 0};
  int stride = 1;
  KOKKOS_INLINE_FUNCTION local_index size() const { return extent[0] * extent[1] * extent[2]; }
  KOKKOS_INLINE_FUNCTION void coordinates(local_index c, local_index out[3]) const {
    out[0] = parity[0] + stride * (c % extent[0]);
    out[1] = parity[1] + stride * ((c / extent[0]) % extent[1]);
    out[2] = parity[2] + stride * (c / (extent[0] * extent[1]));
  }
};

inline CellRange cell_range(const NodeBox& box, int color) {
  CellRange r;
  for (int d = 0; d < 3; ++d) {
    if (color < 0 || d >= box.dim) {
      r.extent[d] = box.cells[d];
      r.parity[d] = 0;
    } else {
      r.parity[d] = (color >> d) & 1;
      r.extent[d] = box.cells[d] > r.parity[d] ? (box.cells[d] - r.parity[d] + 1) / 2 : 0;
    }
  }
  r.stride = color < 0 ? 1 : 2;
  return r;
}

}  // namespace detail

/// One team works on cells_per_team cells in scratch memory. Thread structure: each contraction
/// step hands one 1D line (n values along the contracted direction) to a thread, so a team of
/// cells_per_team · n^(d-1) threads does one line each; any team size works (threads stride).
template <int dim, int n, class Number, class ExecSpace>
struct CellOperatorKernel {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int k = n - 1;
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  static constexpr int lines = cell_size / n;
  static constexpr int matrix_size = 2 * dim * n * n;

  CellKernelArgs<Number, ExecSpace> args;
  detail::CellRange cells;

  /// Scratch layout per team: the 1D matrices, then three cell buffers per cell (u, t0, t1).
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_entries(int cells_per_team) {
    return matrix_size + 3 * cell_size * cells_per_team;
  }
  std::size_t team_shmem_size(int /*team_size*/) const {
    return ScratchView::shmem_size(scratch_entries(args.cells_per_team));
  }

  KOKKOS_INLINE_FUNCTION static const Number* mat(const Number* m, int d, int which) {
    return m + (d * 2 + which) * n * n;
  }

  /// Loads the n values of a line that starts at p and advances by stride.
  KOKKOS_INLINE_FUNCTION static void load_line(const Number* p, int stride, Number (&r)[n]) {
    for (int j = 0; j < n; ++j) r[j] = p[j * stride];
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int cpt = args.cells_per_team;
    const local_index first = team.league_rank() * cpt;
    Number* scratch = static_cast<Number*>(team.team_scratch(0).get_shmem(sizeof(Number) * scratch_entries(cpt)));
    Number* m = scratch;
    Number* u = scratch + matrix_size;
    Number* t0 = u + cell_size * cpt;
    Number* t1 = t0 + cell_size * cpt;
    const int rank = team.team_rank(), size = team.team_size();
    const local_index n_cells = cells.size();

    for (int e = rank; e < matrix_size; e += size) m[e] = args.matrices(e);

    // Gather R_K u.
    for (int e = rank; e < cpt * cell_size; e += size) {
      const int c = e / cell_size, node = e % cell_size;
      Number value = 0;
      if (first + c < n_cells) {
        local_index cc[3];
        cells.coordinates(first + c, cc);
        const local_index ix = cc[0] * k + node % n, iy = cc[1] * k + (node / n) % n,
                          iz = dim == 3 ? cc[2] * k + node / (n * n) : 0;
        if (!(args.zero_boundary_input && args.box.on_boundary(ix, iy, iz))) value = args.src(args.box.index(ix, iy, iz));
      }
      u[e] = value;
    }
    team.team_barrier();

    // x: t0 = M_x u, t1 = A_x u along lines of constant (y, z).
    for (int w = rank; w < cpt * lines; w += size) {
      const int c = w / lines, line = w % lines;
      const int base = c * cell_size + line * n;
      Number r[n];
      load_line(u + base, 1, r);
      for (int i = 0; i < n; ++i) {
        Number sm = 0, sa = 0;
        for (int j = 0; j < n; ++j) {
          sm += mat(m, 0, 0)[i * n + j] * r[j];
          sa += mat(m, 0, 1)[i * n + j] * r[j];
        }
        t0[base + i] = sm;
        t1[base + i] = sa;
      }
    }
    team.team_barrier();

    if constexpr (dim == 2) {
      // y (last): v = A_y (a t0) + M_y (a t1 + b t0), scattered.
      for (int w = rank; w < cpt * lines; w += size) {
        const int c = w / lines, i = w % lines;
        const int base = c * cell_size + i;
        Number r0[n], r1[n];
        load_line(t0 + base, n, r0);
        load_line(t1 + base, n, r1);
        for (int j = 0; j < n; ++j) r1[j] = args.laplace * r1[j] + args.mass * r0[j];
        scatter_line(c, first, i, 0, r0, r1, mat(m, 1, 1), mat(m, 1, 0));
      }
    } else {
      // y: w1 = M_y t0 (into u), w2 = A_y t0 + M_y t1 (into t0, in place: a thread owns its line).
      for (int w = rank; w < cpt * lines; w += size) {
        const int c = w / lines, line = w % lines;
        const int i = line % n, l = line / n;
        const int base = c * cell_size + i + l * n * n;
        Number r0[n], r1[n];
        load_line(t0 + base, n, r0);
        load_line(t1 + base, n, r1);
        for (int jo = 0; jo < n; ++jo) {
          Number s1 = 0, s2 = 0;
          for (int j = 0; j < n; ++j) {
            s1 += mat(m, 1, 0)[jo * n + j] * r0[j];
            s2 += mat(m, 1, 1)[jo * n + j] * r0[j] + mat(m, 1, 0)[jo * n + j] * r1[j];
          }
          u[base + jo * n] = s1;
          t0[base + jo * n] = s2;
        }
      }
      team.team_barrier();
      // z (last): v = A_z (a w1) + M_z (a w2 + b w1), scattered.
      for (int w = rank; w < cpt * lines; w += size) {
        const int c = w / lines, line = w % lines;
        const int base = c * cell_size + line;
        Number r0[n], r1[n];
        load_line(u + base, n * n, r0);
        load_line(t0 + base, n * n, r1);
        for (int j = 0; j < n; ++j) r1[j] = args.laplace * r1[j] + args.mass * r0[j];
        scatter_line(c, first, line % n, line / n, r0, r1, mat(m, 2, 1), mat(m, 2, 0));
      }
    }
  }

  /// Writes v[o] = a Σ_j A[o][j] r0[j] + Σ_j M[o][j] r1[j] for the n nodes of a line along the last
  /// direction, whose other coordinates are (p, q) within the cell.
  KOKKOS_INLINE_FUNCTION void scatter_line(int c, local_index first, int p, int q, const Number (&r0)[n],
                                           const Number (&r1)[n], const Number* A, const Number* M) const {
    if (first + c >= cells.size()) return;
    local_index cc[3];
    cells.coordinates(first + c, cc);
    for (int o = 0; o < n; ++o) {
      Number v = 0;
      for (int j = 0; j < n; ++j) v += args.laplace * A[o * n + j] * r0[j] + M[o * n + j] * r1[j];
      local_index ix, iy, iz;
      if constexpr (dim == 2) {
        ix = cc[0] * k + p;
        iy = cc[1] * k + o;
        iz = 0;
      } else {
        ix = cc[0] * k + p;
        iy = cc[1] * k + q;
        iz = cc[2] * k + o;
      }
      if (args.skip_boundary_output && args.box.on_boundary(ix, iy, iz)) continue;
      const local_index idx = args.box.index(ix, iy, iz);
      if (args.atomic) Kokkos::atomic_add(&args.dst(idx), v);
      else args.dst(idx) += v;
    }
  }
};

/// Diagonal of the same operator: Σ over cells of the element matrix's diagonal (a Kronecker
/// product of 1D diagonals), one thread per (cell, node), atomic adds.
template <int dim, int n, class Number, class ExecSpace>
struct CellDiagonalKernel {
  static constexpr int k = n - 1;
  static constexpr int cell_size = dim == 2 ? n * n : n * n * n;
  CellKernelArgs<Number, ExecSpace> args;
  detail::CellRange cells;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const local_index c = static_cast<local_index>(e / cell_size);
    const int node = static_cast<int>(e % cell_size);
    local_index cc[3];
    cells.coordinates(c, cc);
    const int i[3] = {node % n, (node / n) % n, dim == 3 ? node / (n * n) : 0};
    const local_index ix = cc[0] * k + i[0], iy = cc[1] * k + i[1], iz = dim == 3 ? cc[2] * k + i[2] : 0;
    if (args.skip_boundary_output && args.box.on_boundary(ix, iy, iz)) return;
    Number mass_diag[3], stiff_diag[3];
    for (int d = 0; d < dim; ++d) {
      mass_diag[d] = args.matrices((d * 2 + 0) * n * n + i[d] * n + i[d]);
      stiff_diag[d] = args.matrices((d * 2 + 1) * n * n + i[d] * n + i[d]);
    }
    Number mass_all = 1;
    for (int d = 0; d < dim; ++d) mass_all *= mass_diag[d];
    Number lap = 0;
    for (int d = 0; d < dim; ++d) {
      Number term = stiff_diag[d];
      for (int d2 = 0; d2 < dim; ++d2)
        if (d2 != d) term *= mass_diag[d2];
      lap += term;
    }
    Kokkos::atomic_add(&args.dst(args.box.index(ix, iy, iz)), args.laplace * lap + args.mass * mass_all);
  }
};

}  // namespace tensormg

namespace tensormg {

/// True for execution spaces that run on the host (team size 1, one cell per team there).
template <class ExecSpace>
constexpr bool runs_on_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

/// Cells per team when the user does not choose: one on the host; on a GPU enough cells that a
/// team has about 128 threads (one per line). tensormg-bench-operator --cells-per-team sweeps it.
template <int dim, int n, class ExecSpace>
int default_cells_per_team() {
  if constexpr (runs_on_host<ExecSpace>()) return 1;
  constexpr int lines = dim == 2 ? n : n * n;
  return (128 + lines / 2) / lines > 0 ? (128 + lines / 2) / lines : 1;
}

template <int dim, int n, class Number, class ExecSpace>
void launch_cell_operator(const CellKernelArgs<Number, ExecSpace>& args) {
  using Kernel = CellOperatorKernel<dim, n, Number, ExecSpace>;
  const Kernel kernel{args, detail::cell_range(args.box, args.color)};
  const local_index cells = kernel.cells.size();
  if (cells == 0) return;
  const int league = (cells + args.cells_per_team - 1) / args.cells_per_team;
  const int team_size = runs_on_host<ExecSpace>() ? 1 : args.cells_per_team * Kernel::lines;
  Kokkos::parallel_for("tensormg::operator::laplace::apply", typename Kernel::Policy(league, team_size), kernel);
}

template <int dim, int n, class Number, class ExecSpace>
void launch_cell_diagonal(const CellKernelArgs<Number, ExecSpace>& args) {
  using Kernel = CellDiagonalKernel<dim, n, Number, ExecSpace>;
  const Kernel kernel{args, detail::cell_range(args.box, -1)};
  const std::int64_t work = std::int64_t(kernel.cells.size()) * Kernel::cell_size;
  Kokkos::parallel_for("tensormg::operator::laplace::diagonal", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(0, work), kernel);
}

/// The kernels of one (dim, k), looked up at run time.
template <class Number, class ExecSpace>
struct LaplaceKernelTable {
  using launch_fn = void (*)(const CellKernelArgs<Number, ExecSpace>&);
  launch_fn apply = nullptr;
  launch_fn diagonal = nullptr;
  int default_cells_per_team = 1;
};

/// Defined in laplace_instantiate_2d.cpp / _3d.cpp; throw InputError for unsupported degrees.
template <class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_2d(int degree);
template <class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_3d(int degree);

}  // namespace tensormg
