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
/// own value read as zero and the quotient stored, x_v = (b − A x|_{x_v = 0})_v / A_vv. Dirichlet
/// neighbours zero their 1D weights rather than guard the loads (a finite entry times zero), and
/// the owned-box index arithmetic is a code path of its own: the first, guarded form issued ~365
/// instructions a patch at 71% of the issue slots (ncu, h200-2026-11-29-q1-stencil/call2).

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

  Q1BoundaryLayers boundary;  ///< of PatchKernelArgs' box

  /// The vertex's weights in direction d with those towards a Dirichlet neighbour zeroed.
  KOKKOS_FORCEINLINE_FUNCTION Q1Weights1D<Number> weights(int d, local_index vertex) const {
    Q1Weights1D<Number> v = w[d];
    boundary.zero_dirichlet(d, vertex, v);
    return v;
  }

  /// x_v's update from its closure; fast: the closure is owned, lexicographic in the owned box.
  template <bool fast>
  KOKKOS_FORCEINLINE_FUNCTION void update(const local_index (&c)[3]) const {
    const Q1Weights1D<Number> wx = weights(0, c[0]), wy = weights(1, c[1]);
    const local_index sy = box.o[0], sz = box.o[0] * box.o[1];
    const local_index vertex = fast ? c[0] + sy * c[1] + (dim == 3 ? sz * c[2] : 0) : box.index(c[0], c[1], dim == 3 ? c[2] : 0);
    const Number center = boundary_residual ? Number(0) : x(vertex);
    Number mm[3], st[3];
    for (int p = 0; p < (dim == 3 ? 3 : 1); ++p) {
      Number v[3][3];
      for (int r = 0; r < 3; ++r)
        for (int a = 0; a < 3; ++a) {
          if (a == 1 && r == 1 && (dim == 2 || p == 1)) {
            v[r][a] = center;
            continue;
          }
          const local_index idx = fast ? vertex + (a - 1) + sy * (r - 1) + (dim == 3 ? sz * (p - 1) : 0)
                                       : box.index(c[0] + a - 1, c[1] + r - 1, dim == 3 ? c[2] + p - 1 : 0);
          v[r][a] = x(idx);
        }
      q1::plane_sums(v, wx, wy, mm[p], st[p]);
    }
    const Number ax =
        dim == 3 ? q1::combine_planes(mm, st, weights(2, c[2]), laplace, mass) : q1::combine_plane(mm[0], st[0], laplace, mass);
    const Number correction = (b(vertex) - ax) * inverse_diagonal;
    if (boundary_residual) x(vertex) = correction;
    else x(vertex) += correction;
  }

  KOKKOS_INLINE_FUNCTION void operator()(local_index j) const {
    local_index o[3];
    patches.origin(j, 1, o);  // the closure's first node: the vertex is o + 1
    const local_index c[3] = {o[0] + 1, o[1] + 1, o[2] + 1};
    // The halo box of several ranks is owned throughout; the layout's box of one rank too.
    bool fast = true;
    for (int d = 0; d < dim; ++d) fast = fast && c[d] + 1 < box.o[d];
    if (fast) update<true>(c);
    else update<false>(c);
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
    kernel.boundary = Q1BoundaryLayers(args.box);
    Kokkos::parallel_for("tensormg::smoother::vertex_patch::q1",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<local_index>>(0, patches.size()), kernel);
  };
  if (args.box.dim == 2) run(VertexPatchQ1Kernel<2, Number, ExecSpace>{});
  else run(VertexPatchQ1Kernel<3, Number, ExecSpace>{});
}

}  // namespace tensormg
