#pragma once
/// @file
/// What the DG transfer's host glue (dg_transfer.cpp) needs to launch the transfer kernels
/// (dg_transfer_kernels.hpp) without seeing their bodies: the launch arguments and the per-(dim, k)
/// launcher, declared here and instantiated only in the units multigrid/CMakeLists.txt generates.

#include <Kokkos_Core.hpp>

#include "core/kernel_table.hpp"
#include "discretization/dg_dof_layout.hpp"

namespace tensormg {

/// What one launch needs besides (dim, k, Number, ExecSpace).
template <class Number, class ExecSpace>
struct DgTransferArgs {
  Kokkos::View<const Number*, typename ExecSpace::memory_space> in;
  Kokkos::View<Number*, typename ExecSpace::memory_space> out;
  CellBox coarse, fine;
  bool prolongate = true;               ///< fine = P coarse; else coarse = Pᵀ fine
  bool add = false;                     ///< prolongation only: fine += P coarse
  /// Restriction: the coarse cells [parent_begin, parent_begin + parents) of the coarse box, the
  /// parents of the fine box (all of it when the boxes nest; a part of a replicated coarse level).
  local_index parent_begin[3] = {0, 0, 0};
  local_index parents[3] = {1, 1, 1};
  const double* host_matrices = nullptr;  ///< P_0, P_1: 2 × (k+1) × (k+1), row-major
};

template <class Number, class ExecSpace>
struct DgTransferKernelTable {
  void (*launch)(const DgTransferArgs<Number, ExecSpace>&) = nullptr;
};

template <int dim, int k, class Number, class ExecSpace>
DgTransferKernelTable<Number, ExecSpace> dg_transfer_kernels_of();

template <class Number, class ExecSpace>
DgTransferKernelTable<Number, ExecSpace> dg_transfer_kernels(int dim, int degree) {
  return kernel_table<DgTransferKernelTable<Number, ExecSpace>>(dim, degree, [](auto d, auto k) {
    return dg_transfer_kernels_of<decltype(d)::value, decltype(k)::value, Number, ExecSpace>();
  });
}

}  // namespace tensormg
