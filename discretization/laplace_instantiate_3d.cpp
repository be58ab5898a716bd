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

#define TENSORMG_INSTANTIATE(Number, Exec) \
  template LaplaceKernelTable<Number, Exec> laplace_kernels_3d<Number, Exec>(int);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
