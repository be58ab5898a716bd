#pragma once
/// @file
/// What the transfer's host glue (transfer.cpp) needs to launch the parent-cell kernels
/// (transfer_kernels.hpp) without seeing their bodies: the launch arguments and the per-(dim, k)
/// launcher.

#include <Kokkos_Core.hpp>

#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

/// What one transfer launch needs besides (dim, k, Number, ExecSpace).
template <class Number, class ExecSpace>
struct TransferArgs {
  Kokkos::View<const Number*, typename ExecSpace::memory_space> in;
  Kokkos::View<Number*, typename ExecSpace::memory_space> out;
  NodeBox coarse, fine;
  /// The parent cells: coarse box cells [parent_begin, parent_begin + parents) per direction, the
  /// parents of the fine box's cells (parent_begin = 0 and parents = coarse cells when the levels'
  /// rank boxes nest; the fine box's place in a replicated coarse level otherwise).
  local_index parent_begin[3] = {0, 0, 0};
  local_index parents[3] = {1, 1, 1};
  int mode = 0;                         ///< 0 fine = P coarse, 1 fine += P coarse, 2 coarse = Pᵀ fine
  const Number* host_matrix = nullptr;  ///< P, (2k+1) × (k+1) row-major, copied into the functor
};

/// The launcher of one (dim, k), looked up at run time (transfer_instantiate.hpp).
template <class Number, class ExecSpace>
struct TransferKernelTable {
  void (*launch)(const TransferArgs<Number, ExecSpace>&) = nullptr;
};

/// The launcher of one (dim, k). Declared here, instantiated in the translation units
/// multigrid/CMakeLists.txt generates (transfer_instantiate.hpp).
template <int dim, int k, class Number, class ExecSpace>
TransferKernelTable<Number, ExecSpace> transfer_kernels_of();

}  // namespace tensormg
