// Instantiation table of the 3D continuous Q_k operator kernels: degrees 1..8, float and
// double, for DefaultExec and SecondaryExec. Split by dimension so nvcc compiles them in parallel.
#include <utility>

#include "core/error.hpp"
#include "discretization/laplace_kernels.hpp"

namespace tensormg {

namespace {
template <class Number, class ExecSpace, int... n>
LaplaceKernelTable<Number, ExecSpace> lookup(int degree, std::integer_sequence<int, n...>) {
  LaplaceKernelTable<Number, ExecSpace> table;
  ((degree + 1 == n + 2 ? (void)(table = {&launch_cell_operator<3, n + 2, Number, ExecSpace>,
                                          &launch_cell_diagonal<3, n + 2, Number, ExecSpace>,
                                          default_cells_per_team<3, n + 2, ExecSpace>(),
                                          runs_on_host<ExecSpace>() ? 0 : CellOperatorKernel<3, n + 2, Number, ExecSpace>::lines,
                                          CellOperatorKernel<3, n + 2, Number, ExecSpace>::max_team_size,
                                          &CellOperatorKernel<3, n + 2, Number, ExecSpace>::scratch_bytes})
                        : (void)0),
   ...);
  return table;
}
}  // namespace

template <class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_3d(int degree) {
  TENSORMG_CHECK(degree >= 1 && degree <= 8, "degree " << degree << " is not supported in 3D; use 1..8");
  return lookup<Number, ExecSpace>(degree, std::make_integer_sequence<int, 8>{});
}

template LaplaceKernelTable<double, DefaultExec> laplace_kernels_3d<double, DefaultExec>(int);
template LaplaceKernelTable<float, DefaultExec> laplace_kernels_3d<float, DefaultExec>(int);
template LaplaceKernelTable<double, SecondaryExec> laplace_kernels_3d<double, SecondaryExec>(int);
template LaplaceKernelTable<float, SecondaryExec> laplace_kernels_3d<float, SecondaryExec>(int);

}  // namespace tensormg
