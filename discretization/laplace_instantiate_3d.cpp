// Instantiation of the 3D continuous Q_k operator kernels: degrees 1..8, float and double,
// for DefaultExec and SecondaryExec. One file per dimension so nvcc compiles them in parallel.
#include "core/error.hpp"
#include "discretization/laplace_kernels.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_3d(int degree) {
  TENSORMG_CHECK(degree >= 1 && degree <= 8, "degree " << degree << " is not supported in 3D; use 1..8");
  return lookup_laplace_kernels<3, Number, ExecSpace>(degree, std::make_integer_sequence<int, 8>{});
}

template LaplaceKernelTable<double, DefaultExec> laplace_kernels_3d<double, DefaultExec>(int);
template LaplaceKernelTable<float, DefaultExec> laplace_kernels_3d<float, DefaultExec>(int);
template LaplaceKernelTable<double, SecondaryExec> laplace_kernels_3d<double, SecondaryExec>(int);
template LaplaceKernelTable<float, SecondaryExec> laplace_kernels_3d<float, SecondaryExec>(int);

}  // namespace tensormg
