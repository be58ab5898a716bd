#pragma once
/// @file
/// The vertex-patch smoother at k = 1 with a thread per patch (ThreadStructure::per_patch). A Q1
/// vertex patch has one interior node, its vertex: the local residual is the vertex's row of
/// b − A x over its 3^d closure (the stencil of discretization/q1_stencil.hpp) and the local
/// solve a division by the diagonal entry, which is what the fast diagonalization of the 1 × 1
/// patch matrix computes. A colour's patches are 2 nodes apart in every direction, so a thread
/// per patch reads its closure straight from the vector, without the team scratch, the 1D
/// contractions and the synchronisation the per-column kernel (vertex_patch_columns.hpp) spends
/// on one unknown. Same colours, same patches, same result as the other kernels (tests).
///
/// Full residual: x_v += (b − A x)_v / A_vv. Boundary residual (paper 000 §4.1.3): the vertex's
/// own value read as zero and the quotient stored, x_v = (b − A x|_{x_v = 0})_v / A_vv.

#include <Kokkos_Core.hpp>

#include "discretization/q1_stencil.hpp"
#include "smoothers/vertex_patch_args.hpp"

namespace tensormg {

template <int dim, class Number, class ExecSpace>
struct VertexPatchQ1Kernel {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<Number*, memory_space> x;
  Kokkos::View<const Number*, memory_space> b;
  NodeBox box;
  detail::PatchRange patches;
  Q1Weights1D<Number> w[3];  ///< the weights of a vertex with cells on every side
  Number laplace = 1, mass = 0;
  Number inverse_diagonal = 1;
  bool boundary_residual = true;

  KOKKOS_INLINE_FUNCTION void operator()(local_index j) const {
    local_index o[3];
    patches.origin(j, 1, o);  // the closure's first node: the vertex is o + 1
    // Which closure nodes are read: not on the Dirichlet boundary.
    bool read[3][3];
    for (int d = 0; d < 3; ++d)
      for (int a = 0; a < 3; ++a) {
        const global_index g = box.offset[d] + o[d] + a;
        read[d][a] = d >= dim || (g != 0 && g != box.global_nodes[d] - 1);
      }
    // The halo box of several ranks is owned throughout (lexicographic); the layout's box is
    // where all of the closure is owned.
    bool fast = true;
    for (int d = 0; d < dim; ++d) fast = fast && o[d] + 2 < box.o[d];
    const local_index vz = dim == 3 ? o[2] + 1 : 0;
    const local_index vertex = fast ? (o[0] + 1) + box.o[0] * ((o[1] + 1) + box.o[1] * vz) : box.index(o[0] + 1, o[1] + 1, vz);
    Number mm[3] = {0, 0, 0}, st[3] = {0, 0, 0};
    for (int c = 0; c < (dim == 3 ? 3 : 1); ++c) {
      const local_index z = dim == 3 ? o[2] + c : 0;
      Number v[3][3];
      for (int bb = 0; bb < 3; ++bb)
        for (int a = 0; a < 3; ++a) {
          const bool center = a == 1 && bb == 1 && (dim == 2 || c == 1);
          const bool r = read[0][a] && read[1][bb] && (dim == 2 || read[2][c]) && !(center && boundary_residual);
          const local_index xi = o[0] + a, yi = o[1] + bb;
          const local_index idx = center ? vertex : fast ? xi + box.o[0] * (yi + box.o[1] * z) : (r ? box.index(xi, yi, z) : 0);
          v[bb][a] = r ? x(idx) : Number(0);
        }
      q1::plane_sums(v, w[0], w[1], mm[c], st[c]);
    }
    const Number ax = dim == 3 ? q1::combine_planes(mm, st, w[2], laplace, mass) : q1::combine_plane(mm[0], st[0], laplace, mass);
    const Number correction = (b(vertex) - ax) * inverse_diagonal;
    if (boundary_residual) x(vertex) = correction;
    else x(vertex) += correction;
  }
};

/// One colour of the k = 1 smoother with a thread per patch; `dir`: the 1D cell matrices per
/// direction, `inverse_diagonal`: 1 / A_vv.
template <class Number, class ExecSpace>
void launch_vertex_patch_q1(const PatchKernelArgs<Number, ExecSpace>& args, const Q1Direction<Number> (&dir)[3],
                            Number inverse_diagonal) {
  const detail::PatchRange patches = detail::patch_range(args.box, args.color, args.window);
  if (patches.size() == 0) return;
  const auto run = [&](auto kernel) {
    kernel.x = args.x;
    kernel.b = args.b;
    kernel.box = args.box;
    kernel.patches = patches;
    for (int d = 0; d < 3; ++d) kernel.w[d] = dir[d].weights(true, true);
    kernel.laplace = args.laplace;
    kernel.mass = args.mass;
    kernel.inverse_diagonal = inverse_diagonal;
    kernel.boundary_residual = args.boundary_residual;
    Kokkos::parallel_for("tensormg::smoother::vertex_patch::q1",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<local_index>>(0, patches.size()), kernel);
  };
  if (args.box.dim == 2) run(VertexPatchQ1Kernel<2, Number, ExecSpace>{});
  else run(VertexPatchQ1Kernel<3, Number, ExecSpace>{});
}

}  // namespace tensormg
