#pragma once
/// @file
/// The definition of transfer_kernels_of (transfer_kernels.hpp) and the macro that instantiates
/// it for one (dim, k) and every (number type, execution space); included only by the translation
/// units multigrid/CMakeLists.txt generates (cmake/TensormgInstantiate.cmake).

#include "multigrid/transfer_kernels.hpp"

namespace tensormg {

template <int dim, int k, class Number, class ExecSpace>
TransferKernelTable<Number, ExecSpace> transfer_kernels_of() {
  return {&launch_parent_cell_transfer<dim, k, Number, ExecSpace>};
}

}  // namespace tensormg

#define TENSORMG_INSTANTIATE_TRANSFER_KERNELS(Number, Exec) \
  template TransferKernelTable<Number, Exec> transfer_kernels_of<TENSORMG_DIM, TENSORMG_DEGREE, Number, Exec>();
