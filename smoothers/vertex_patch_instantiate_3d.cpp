// Instantiation of the 3D vertex-patch smoother kernels: degrees 1..8, float and double,
// for DefaultExec and SecondaryExec. One file per dimension so they compile in parallel.
#include "core/error.hpp"
#include "smoothers/vertex_patch_launch.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
PatchKernelTable<Number, ExecSpace> patch_kernels_3d(int degree) {
  TENSORMG_CHECK(degree >= 1 && degree <= 8, "degree " << degree << " is not supported in 3D; use 1..8");
  return lookup_patch_kernels<3, Number, ExecSpace>(degree, std::make_integer_sequence<int, 8>{});
}

#define TENSORMG_INSTANTIATE(Number, Exec) \
  template PatchKernelTable<Number, Exec> patch_kernels_3d<Number, Exec>(int);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
