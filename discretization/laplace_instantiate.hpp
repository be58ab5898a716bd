#pragma once
/// @file
/// The definition of laplace_kernels_of (laplace_kernel_table.hpp) and the macro that
/// instantiates it for one (dim, k) and every (number type, execution space); included only by
/// the translation units discretization/CMakeLists.txt generates (cmake/TensormgInstantiate.cmake).

#include "discretization/laplace_gather.hpp"
#include "discretization/laplace_kernels.hpp"
#include "discretization/laplace_simd.hpp"

namespace tensormg {

/// The gathering operator's entries (none at k = 1: the Q1 stencil needs no table).
template <int dim, int k, class Number, class ExecSpace>
constexpr auto gather_launcher() {
  if constexpr (k >= 2) return &launch_gather_operator<dim, k, Number, ExecSpace>;
  else return static_cast<void (*)(const CellKernelArgs<Number, ExecSpace>&)>(nullptr);
}
template <int dim, int k, class Number, class ExecSpace>
constexpr auto gather_scratch() {
  if constexpr (k >= 2) return &LaplaceGatherKernel<dim, k, Number, ExecSpace>::scratch_bytes;
  else return static_cast<std::size_t (*)(const GatherTile&)>(nullptr);
}

/// The kernel of cells in SIMD lanes: host execution spaces only.
template <int dim, int k, class Number, class ExecSpace>
constexpr auto simd_launcher() {
  if constexpr (runs_on_host<ExecSpace>()) return &launch_cell_batches<dim, k + 1, Number, ExecSpace>;
  else return static_cast<void (*)(const CellKernelArgs<Number, ExecSpace>&)>(nullptr);
}

template <int dim, int k, class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_of() {
  using Kernel = CellOperatorKernel<dim, k + 1, Number, ExecSpace>;
  return {&launch_cell_operator<dim, k + 1, Number, ExecSpace>,
          &launch_cell_diagonal<dim, k + 1, Number, ExecSpace>,
          default_cells_per_team<dim, k + 1, ExecSpace>(),
          runs_on_host<ExecSpace>() ? 0 : Kernel::lines,
          Kernel::max_team_size,
          &Kernel::scratch_bytes,
          gather_launcher<dim, k, Number, ExecSpace>(),
          gather_scratch<dim, k, Number, ExecSpace>(),
          simd_launcher<dim, k, Number, ExecSpace>()};
}

}  // namespace tensormg

/// For TENSORMG_FOR_EACH_NUMBER_AND_SPACE, with TENSORMG_DIM and TENSORMG_DEGREE defined by the
/// generated unit.
#define TENSORMG_INSTANTIATE_LAPLACE_KERNELS(Number, Exec) \
  template LaplaceKernelTable<Number, Exec> laplace_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
