#pragma once
/// @file
/// What the host glue (dg_laplace_operator.cpp) needs to launch the DG (SIPG) cell kernels
/// without seeing their bodies: the launch arguments, the 1D data held by value in the functor,
/// and the per-(dim, k) table of launchers.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/kernel_table.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "discretization/laplace_kernel_table.hpp"  // CellKernelTable
#include "discretization/sipg_matrices_1d.hpp"

namespace tensormg {

/// The 1D SIPG data of one direction, in the kernel's precision (sipg_matrices_1d.hpp): mass,
/// interior line block, face derivatives, the couplings to the neighbours' face data, and the
/// diagonal of the cell block for the four boundary positions.
template <int n, class Number>
struct SipgLine1D {
  Number mass[n][n];
  Number cell[n][n];               ///< the interior cell block (boundary faces by mirror data)
  Number d_left[n], d_right[n];    ///< φ_j'(0), φ_j'(h)
  Number right_value[n], right_derivative[n], left_value[n], left_derivative[n];
  Number diagonal[4][n];           ///< diagonal of the cell block by position (diagonal kernel)
};

template <int dim, int n, class Number>
struct SipgMatrices {
  SipgLine1D<n, Number> line[dim];
};

/// Everything a launch needs besides dim, n = k+1, Number and ExecSpace.
template <class Number, class ExecSpace>
struct DgKernelArgs {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const Number*, memory_space> src;
  Kokkos::View<Number*, memory_space> dst;
  /// The 1D data of the dim directions, on the host (copied into the functor at launch).
  const SipgMatrices1D* lines = nullptr;
  CellBox box;
  Number laplace = 1, mass = 0;
  int cells_per_team = 1;
};

/// The kernels of one (dim, k), looked up at run time.
template <class Number, class ExecSpace>
using DgLaplaceKernelTable = CellKernelTable<DgKernelArgs<Number, ExecSpace>>;

template <int dim, int k, class Number, class ExecSpace>
DgLaplaceKernelTable<Number, ExecSpace> dg_laplace_kernels_of();

/// The kernels of (dim, degree); throws InputError for unsupported degrees.
template <class Number, class ExecSpace>
DgLaplaceKernelTable<Number, ExecSpace> dg_laplace_kernels(int dim, int degree) {
  return kernel_table<DgLaplaceKernelTable<Number, ExecSpace>>(dim, degree, [](auto d, auto k) {
    return dg_laplace_kernels_of<decltype(d)::value, decltype(k)::value, Number, ExecSpace>();
  });
}

}  // namespace tensormg
