// Instantiation of the 2D continuous Q_k operator kernels: degrees 1..10, float and double,
// for DefaultExec and SecondaryExec. One file per dimension so nvcc compiles them in parallel.
#include "core/error.hpp"
#include "discretization/laplace_kernels.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
LaplaceKernelTable<Number, ExecSpace> laplace_kernels_2d(int degree) {
  TENSORMG_CHECK(degree >= 1 && degree <= 10, "degree " << degree << " is not supported in 2D; use 1..10");
  return lookup_laplace_kernels<2, Number, ExecSpace>(degree, std::make_integer_sequence<int, 10>{});
}

#define TENSORMG_INSTANTIATE(Number, Exec) \
  template LaplaceKernelTable<Number, Exec> laplace_kernels_2d<Number, Exec>(int);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
