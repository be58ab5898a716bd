#pragma once
/// @file
/// The sweep order of the continuous vertex-patch smoother's colours.

namespace tensormg {

/// The colour order of the continuous vertex-patch smoother (every kernel, the sequential
/// reference, one rank or several): a colour is the parities of a patch's vertex, bit d for
/// direction d, and the sweep visits the two colours that differ only in the last direction's
/// parity one after the other: (0,0,0) (0,0,1) (1,0,0) (1,0,1) (0,1,0) … in 3D, (0,0) (0,1) (1,0)
/// (1,1) in 2D; `reverse` walks the same sequence backwards. Two such colours meet only along
/// lines of the last direction, which lets the k = 1 smoother run them in one launch
/// (vertex_patch_q1.hpp: VertexPatchQ1PairKernel).
inline int patch_color(int dim, int step, bool reverse) {
  const int i = reverse ? (1 << dim) - 1 - step : step;
  return (i >> 1) | ((i & 1) << (dim - 1));
}

}  // namespace tensormg
