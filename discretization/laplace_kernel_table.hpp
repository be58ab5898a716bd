#pragma once
/// @file
/// What the host glue (laplace_operator.cpp) needs to launch the continuous Q_k cell kernels
/// without seeing their bodies: the launch arguments and the per-(dim, k) table of launchers.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/kernel_table.hpp"
#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

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
  int color = -1;                   ///< -1: all cells; 0..2^d-1: cells with (c_d mod 2) = bit d
  int cells_per_team = 1;
};

/// The kernels of one (dim, k), looked up at run time.
template <class Number, class ExecSpace>
struct LaplaceKernelTable {
  using launch_fn = void (*)(const CellKernelArgs<Number, ExecSpace>&);
  launch_fn apply = nullptr;
  launch_fn diagonal = nullptr;
  int default_cells_per_team = 1;
  int threads_per_cell = 1;  ///< team threads per cell on a GPU (one per line)
  int max_team_size = 1;
  std::size_t (*scratch_bytes)(int cells_per_team) = nullptr;
};

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
