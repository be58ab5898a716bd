#pragma once
/// @file
/// What the host glue (laplace_operator.cpp) needs to launch the continuous Q_k cell kernels
/// without seeing their bodies: the launch arguments and the per-(dim, k) table of launchers.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/kernel_table.hpp"
#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

/// The tile of the gathering operator at k >= 2 (laplace_gather.hpp): segments per team in x and
/// y (y: 3D only) and z cells per team (2D: y cells).
struct GatherTile {
  int x = 1, y = 1;
  local_index z_cells = 1;
  /// Threads of a GPU team: one per output column.
  constexpr std::int64_t columns(int dim, int k) const { return std::int64_t(x) * k * (dim == 3 ? std::int64_t(y) * k : 1); }
};

/// Everything a launch needs besides dim, n = k+1, Number and ExecSpace.
template <class Number, class ExecSpace>
struct CellKernelArgs {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const Number*, memory_space> src;
  Kokkos::View<Number*, memory_space> dst;
  /// 1D matrices of the cell, [direction][0: mass, 1: stiffness][i][j], row-major: on the device
  /// (for the diagonal kernel) and on the host (copied into the operator functor at launch).
  Kokkos::View<const Number*, memory_space> matrices;
  const Number* host_matrices = nullptr;
  NodeBox box;
  Number laplace = 1, mass = 0;
  bool zero_boundary_input = true;  ///< Dirichlet nodes read as zero (constrained operator)
  bool skip_boundary_output = true; ///< nothing is added to Dirichlet rows
  bool atomic = true;               ///< atomic scatter (all cells at once) or plain adds (one color)
  bool store_interior = false;      ///< plain stores at the nodes inside a cell (dst zero there)
  int color = -1;                   ///< -1: all cells; 0..2^d-1: cells with (c_d mod 2) = bit d
  int cells_per_team = 1;
  GatherTile gather_tile;  ///< ScatterMode::gather at k >= 2
};

/// The kernels of one (dim, k) of a cell-kernel family (the continuous operator here, the DG one
/// in dg_laplace_kernel_table.hpp), looked up at run time; Args: the family's launch arguments.
template <class Args>
struct CellKernelTable {
  using launch_fn = void (*)(const Args&);
  launch_fn apply = nullptr;
  launch_fn diagonal = nullptr;
  int default_cells_per_team = 1;
  int threads_per_cell = 1;  ///< team threads per cell on a GPU (one per line)
  int max_team_size = 1;
  std::size_t (*scratch_bytes)(int cells_per_team) = nullptr;
  /// The gathering operator (continuous, k >= 2; laplace_gather.hpp) and its team scratch.
  launch_fn gather = nullptr;
  std::size_t (*gather_scratch_bytes)(const GatherTile&) = nullptr;
  /// Host execution spaces: the continuous operator with cells in SIMD lanes (laplace_simd.hpp).
  launch_fn simd = nullptr;
};

/// Cells per team of an operator: the user's choice (1..256; 0 = automatic), refused with the
/// limit it breaks (threads of the launch bound, scratch of the backend); automatic: the table's
/// default, shrunk until a team's scratch fits. Throws a local InputError (callers make it
/// collective). `what` names the operator in messages ("Q3 in 3D").
template <class ExecSpace, class Args>
int choose_cells_per_team(const CellKernelTable<Args>& table, int requested, const std::string& what) {
  TENSORMG_CHECK(requested >= 0 && requested <= 256,
                 "cells per team must be in 0..256 (0 = automatic), given " << requested);
  const std::size_t scratch_max = Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0);
  if (requested > 0) {
    TENSORMG_CHECK(requested * table.threads_per_cell <= table.max_team_size,
                   requested << " cells per team need " << requested * table.threads_per_cell << " threads for "
                             << what << "; at most " << table.max_team_size << " are allowed; choose at most "
                             << table.max_team_size / std::max(table.threads_per_cell, 1));
    TENSORMG_CHECK(table.scratch_bytes(requested) <= scratch_max,
                   requested << " cells per team need " << table.scratch_bytes(requested) << " bytes of team scratch for "
                             << what << "; this backend allows " << scratch_max << "; choose fewer cells per team");
    return requested;
  }
  int cells = table.default_cells_per_team;
  while (cells > 1 && table.scratch_bytes(cells) > scratch_max) --cells;
  return cells;
}

/// The kernels of one (dim, k) of the continuous operator.
template <class Number, class ExecSpace>
using LaplaceKernelTable = CellKernelTable<CellKernelArgs<Number, ExecSpace>>;

/// The kernels of one (dim, k). Declared here, defined in laplace_instantiate.hpp and instantiated
/// in the translation units discretization/CMakeLists.txt generates, a few degrees each.
template <int dim, int k, class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_of();

/// The kernels of (dim, degree); throws InputError for unsupported degrees (core/kernel_table.hpp).
template <class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels(int dim, int degree) {
  return kernel_table<LaplaceKernelTable<Number, ExecSpace>>(dim, degree, [](auto d, auto k) {
    return laplace_kernels_of<decltype(d)::value, decltype(k)::value, Number, ExecSpace>();
  });
}

}  // namespace tensormg
