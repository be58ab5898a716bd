// Instantiation of the 2D vertex-patch smoother kernels: degrees 1..10, float and double,
// for DefaultExec and SecondaryExec. One file per dimension so they compile in parallel.
#include "core/error.hpp"
#include "smoothers/vertex_patch_launch.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
PatchKernelTable<Number, ExecSpace> patch_kernels_2d(int degree) {
  TENSORMG_CHECK(degree >= 1 && degree <= 10, "degree " << degree << " is not supported in 2D; use 1..10");
  return lookup_patch_kernels<2, Number, ExecSpace>(degree, std::make_integer_sequence<int, 10>{});
}

#define TENSORMG_INSTANTIATE(Number, Exec) \
  template PatchKernelTable<Number, Exec> patch_kernels_2d<Number, Exec>(int);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
