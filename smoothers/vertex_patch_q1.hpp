#pragma once
/// @file
/// The vertex-patch smoother at k = 1 with a thread per patch (ThreadStructure::per_patch, a launch
/// per colour) or per segment of a line of patches (ThreadStructure::per_line, two colours a pass:
/// VertexPatchQ1PairKernel below). A Q1 vertex patch has one interior node, its vertex: the local
/// residual is the vertex's row of b − A x over its 3^d closure (the stencil of
/// discretization/q1_stencil.hpp) and the local solve a division by the diagonal entry, which is
/// what the fast diagonalization of the 1 × 1 patch matrix computes. A colour's patches are 2
/// nodes apart in every direction, so a thread per patch reads its closure straight from the
/// vector, without the team scratch, the 1D contractions and the synchronisation the per-column
/// kernel (vertex_patch_columns.hpp) spends on one unknown. Same colours, same patches, same
/// result as the other kernels (tests).
///
/// Full residual: x_v += (b − A x)_v / A_vv. Boundary residual (paper 000 §4.1.3): the vertex's
/// own value read as zero and the quotient stored, x_v = (b − A x|_{x_v = 0})_v / A_vv. Dirichlet
/// neighbours zero their 1D weights rather than guard the loads (a finite entry times zero), and
/// the owned-box index arithmetic is a code path of its own: the first, guarded form issued ~365
/// instructions a patch at 71% of the issue slots (ncu, h200-2026-11-29-q1-stencil/call2).

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "core/device_traits.hpp"
#include "discretization/q1_stencil.hpp"
#include "smoothers/vertex_patch_args.hpp"

namespace tensormg {

/// What both k = 1 kernels read: the vectors, the box, the stencil's weights and coefficients.
template <class Number, class ExecSpace>
struct Q1PatchStencil {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<Number*, memory_space> x;
  Kokkos::View<const Number*, memory_space> b;
  NodeBox box;
  Q1Weights1D<Number> w[3];  ///< the weights of a vertex with cells on every side
  Number laplace = 1, mass = 0;
  Number inverse_diagonal = 1;
  bool boundary_residual = true;

  Q1BoundaryLayers boundary;  ///< of PatchKernelArgs' box

  /// From the launch's arguments; `dir`: the 1D cell matrices per direction, `inv_diagonal`: 1 / A_vv.
  void assign(const PatchKernelArgs<Number, ExecSpace>& args, const Q1Direction<Number> (&dir)[3], Number inv_diagonal) {
    x = args.x;
    b = args.b;
    box = args.box;
    for (int d = 0; d < 3; ++d) w[d] = dir[d].weights(true, true);
    laplace = args.laplace;
    mass = args.mass;
    inverse_diagonal = inv_diagonal;
    boundary_residual = args.boundary_residual;
    boundary = Q1BoundaryLayers(args.box);
  }

  /// The vertex's weights in direction d with those towards a Dirichlet neighbour zeroed.
  KOKKOS_FORCEINLINE_FUNCTION Q1Weights1D<Number> weights(int d, local_index vertex) const {
    Q1Weights1D<Number> v = w[d];
    boundary.zero_dirichlet(d, vertex, v);
    return v;
  }
};

template <int dim, class Number, class ExecSpace>
struct VertexPatchQ1Kernel : Q1PatchStencil<Number, ExecSpace> {
  using Base = Q1PatchStencil<Number, ExecSpace>;
  using Base::b, Base::box, Base::boundary, Base::boundary_residual, Base::inverse_diagonal, Base::laplace, Base::mass,
      Base::weights, Base::x;
  detail::PatchRange patches;

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
    kernel.assign(args, dir, inverse_diagonal);
    kernel.patches = patches;
    Kokkos::parallel_for("tensormg::smoother::vertex_patch::q1",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<local_index>>(0, patches.size()), kernel);
  };
  if (args.box.dim == 2) run(VertexPatchQ1Kernel<2, Number, ExecSpace>{});
  else run(VertexPatchQ1Kernel<3, Number, ExecSpace>{});
}

/// Two colours of the k = 1 smoother that differ only in the parity of the last direction (the
/// walk direction; `patch_color` puts them next to each other in the sweep), in one pass: a thread
/// per segment of a line of vertices along the walk direction updates the first colour's vertices
/// and, one step behind, the second colour's between them. On a line the second colour's vertex v
/// needs the first colour's v ± 1, and the first colour's vertex needs the second colour's values
/// from before the sweep; every other node of their closures lies on a neighbouring line of the
/// other colours, which nothing in the pass writes. So the walk (v of the first colour, then v − 1
/// of the second) computes what the two one-colour launches compute, and reads the vector about
/// once where they read it twice (a colour's closures cover every node).
///
/// A thread keeps its line in registers: the stencil of vertex v is the sums over the planes v − 1,
/// v, v + 1 (across the walk direction) of the neighbouring lines' values, loaded once per plane,
/// plus the line's own value times the centre weight (q1_stencil.hpp's sums, split by linearity),
/// and the line's values are the thread's own registers as it updates them. Segment j > 0 of a line
/// starts at a first-colour vertex; the second-colour vertex just below it (the joint of segment
/// j − 1) needs both segments walked and is updated by a second, short launch (`joints`).
template <int dim, class Number, class ExecSpace>
struct VertexPatchQ1PairKernel : Q1PatchStencil<Number, ExecSpace> {
  using Base = Q1PatchStencil<Number, ExecSpace>;
  using typename Base::memory_space;
  using Base::b, Base::box, Base::boundary_residual, Base::inverse_diagonal, Base::laplace, Base::mass, Base::weights,
      Base::x;
  /// x for loads: a node a thread reads is written by no other thread of the launch (neighbouring
  /// lines) or by itself only after it read it, so the read-only path is safe.
  Kokkos::View<const Number*, memory_space, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x_in;
  /// The lines: vertex c_d = 1 + parity_d + 2 t_d in the directions before the walk direction.
  int parity[2] = {0, 0};
  FastDivisor by_extent0;
  local_index n_lines = 0;
  local_index last_vertex = 0;  ///< the walk direction's interior vertices are 1 .. last_vertex
  int first_parity = 0;         ///< the first colour's vertices on a line: v = 1 + first_parity + 2 t
  local_index segment = 0;      ///< even; segment j > 0 starts at vertex 1 + first_parity + j · segment
  local_index segments = 1;
  bool joints = false;  ///< this launch updates the joints (index: line + n_lines · j, j < segments − 1)

  /// A plane of the line's stencil: the neighbouring lines' two sums (mass-like `a`, stiffness-like
  /// `s`) and the line's own value.
  struct Plane {
    Number a = 0, s = 0, value = 0;
  };
  /// The line's weights across the walk direction and the centre's part of the plane sums.
  struct Line {
    local_index c[2] = {0, 0};
    Q1Weights1D<Number> wx, wy;
    Number centre_a = 0, centre_s = 0;
  };

  KOKKOS_FORCEINLINE_FUNCTION bool second(local_index v) const { return ((v - 1 - first_parity) & 1) != 0; }
  KOKKOS_FORCEINLINE_FUNCTION local_index lo(local_index j) const { return j == 0 ? 1 : 1 + first_parity + j * segment; }
  /// The segment's last vertex: the next segment's first − 1 (a joint), or the line's last.
  KOKKOS_FORCEINLINE_FUNCTION local_index hi(local_index j) const {
    return j + 1 < segments ? first_parity + (j + 1) * segment : last_vertex;
  }
  KOKKOS_FORCEINLINE_FUNCTION local_index node(const Line& l, int dx, int dy, local_index p) const {
    return dim == 3 ? box.index(l.c[0] + dx, l.c[1] + dy, p) : box.index(l.c[0] + dx, p, 0);
  }

  KOKKOS_FORCEINLINE_FUNCTION Plane plane(const Line& l, local_index p) const {
    Plane q;
    if (dim == 3) {
      for (int r = 0; r < 3; ++r) {  // rows along x, as q1::plane_sums, the centre left out
        Number rm = 0, rs = 0;
        for (int a = 0; a < 3; ++a) {
          if (r == 1 && a == 1) continue;
          const Number v = x_in(node(l, a - 1, r - 1, p));
          rm += l.wx.m[a] * v;
          rs += l.wx.s[a] * v;
        }
        q.a += l.wy.m[r] * rm;
        q.s += l.wy.m[r] * rs + l.wy.s[r] * rm;
      }
    } else {
      for (int a = 0; a < 3; a += 2) {
        const Number v = x_in(node(l, a - 1, 0, p));
        q.a += l.wx.m[a] * v;
        q.s += l.wx.s[a] * v;
      }
    }
    q.value = x_in(node(l, 0, 0, p));
    return q;
  }

  /// Vertex v's update from its planes; the boundary residual reads its own value as zero.
  KOKKOS_FORCEINLINE_FUNCTION void update(const Line& l, local_index v, const Plane& below, Plane& at, const Plane& above) const {
    const Q1Weights1D<Number> ww = weights(dim - 1, v);
    const Number own = boundary_residual ? Number(0) : at.value;
    const Number a[3] = {below.a + l.centre_a * below.value, at.a + l.centre_a * own, above.a + l.centre_a * above.value};
    const Number s[3] = {below.s + l.centre_s * below.value, at.s + l.centre_s * own, above.s + l.centre_s * above.value};
    Number ax = 0;
    for (int c = 0; c < 3; ++c) ax += laplace * (ww.m[c] * s[c] + ww.s[c] * a[c]) + mass * ww.m[c] * a[c];
    const local_index i = node(l, 0, 0, v);
    const Number correction = (b(i) - ax) * inverse_diagonal;
    at.value = boundary_residual ? correction : at.value + correction;
    x(i) = at.value;
  }

  KOKKOS_INLINE_FUNCTION void operator()(local_index id) const {
    const local_index j = id / n_lines;  // lines fastest: neighbouring threads, neighbouring lines
    local_index t[2] = {0, 0};
    t[1] = by_extent0.divmod(id - j * n_lines, t[0]);
    Line l;
    for (int d = 0; d < dim - 1; ++d) l.c[d] = 1 + parity[d] + 2 * t[d];
    l.wx = weights(0, l.c[0]);
    if (dim == 3) l.wy = weights(1, l.c[1]);
    l.centre_a = dim == 3 ? l.wy.m[1] * l.wx.m[1] : l.wx.m[1];
    l.centre_s = dim == 3 ? l.wy.m[1] * l.wx.s[1] + l.wy.s[1] * l.wx.m[1] : l.wx.s[1];
    const local_index e = hi(j);
    if (joints) {  // both neighbours, e − 1 and e + 1 = lo(j + 1), walked
      Plane at = plane(l, e);
      return update(l, e, plane(l, e - 1), at, plane(l, e + 1));
    }
    const local_index a = lo(j), v0 = second(a) ? a + 1 : a;
    // Planes v − 2 .. v + 1 around the first-colour vertex v (v − 2 only where v − 1 is walked
    // here), the next two loaded before v's updates: their loads overlap the updates' latency.
    Plane p0 = v0 - 1 >= a ? plane(l, v0 - 2) : Plane{}, p1 = plane(l, v0 - 1), p2, p3;
    if (v0 <= e) {
      p2 = plane(l, v0);
      p3 = plane(l, v0 + 1);
    }
    for (local_index v = v0; v <= e; v += 2) {
      Plane n2, n3;
      if (v + 2 <= e) {  // then v + 3 <= e + 1, a node of the box
        n2 = plane(l, v + 2);
        n3 = plane(l, v + 3);
      }
      update(l, v, p1, p2, p3);                     // first colour
      if (v - 1 >= a) update(l, v - 1, p0, p1, p2);  // second colour: v − 2 and v done
      p0 = p2;
      p1 = p3;
      p2 = n2;
      p3 = n3;
    }
    if (second(e) && e == last_vertex) update(l, e, p0, p1, plane(l, e + 1));  // above it: a boundary node
  }
};

/// Colours `first_color` and `first_color` with the last direction's parity flipped, in that
/// order: the walk over segments of lines and the joints between segments, two launches (one
/// rank, the whole box; VertexPatchQ1PairKernel).
template <class Number, class ExecSpace>
void launch_vertex_patch_q1_pair(const PatchKernelArgs<Number, ExecSpace>& args, const Q1Direction<Number> (&dir)[3],
                                 Number inverse_diagonal, int first_color) {
  const int dim = args.box.dim, w = dim - 1;
  const detail::PatchRange first = detail::patch_range(args.box, first_color);
  const local_index last_vertex = args.box.cells[w] - 1;
  local_index n_lines = 1;
  for (int d = 0; d < w; ++d) n_lines *= first.extent[d];
  if (n_lines == 0 || last_vertex < 1) return;
  // As many segments as give ~2^20 threads (a GPU's fill), of at least 4 vertices on a GPU: long
  // ones on large levels (3D at 513^3 nodes: 16 of 32, the joints re-read 3 planes in 32), short
  // ones on small levels, where the walk's sequence of updates would be the time. On a CPU, of at
  // least 16: a thread's consecutive indices are neighbouring lines of one segment, whose planes
  // stay in its cache.
  const local_index shortest = runs_on_host<ExecSpace>() ? 16 : 4;
  local_index segments =
      std::max<local_index>(1, std::min<local_index>((local_index(1) << 20) / n_lines, last_vertex / shortest));
  local_index segment = (last_vertex + segments - 1) / segments;
  segment += segment & 1;  // even: each segment after the first starts at a first-colour vertex
  const int first_parity = first.parity[w];
  // Segment j ≥ 1 exists while its first vertex 1 + first_parity + j · segment ≤ last_vertex.
  segments = 1 + (last_vertex - 1 - first_parity >= 0 ? (last_vertex - 1 - first_parity) / segment : 0);
  const auto run = [&](auto kernel) {
    kernel.assign(args, dir, inverse_diagonal);
    kernel.x_in = args.x;
    for (int d = 0; d < w; ++d) kernel.parity[d] = first.parity[d];
    kernel.by_extent0 = FastDivisor(std::int32_t(first.extent[0]));
    kernel.n_lines = n_lines;
    kernel.last_vertex = last_vertex;
    kernel.first_parity = first_parity;
    kernel.segment = segment;
    kernel.segments = segments;
    using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<local_index>>;
    Kokkos::parallel_for("tensormg::smoother::vertex_patch::q1_pair", Policy(0, n_lines * segments), kernel);
    if (segments == 1) return;
    kernel.joints = true;
    Kokkos::parallel_for("tensormg::smoother::vertex_patch::q1_pair_joints", Policy(0, n_lines * (segments - 1)), kernel);
  };
  if (dim == 2) run(VertexPatchQ1PairKernel<2, Number, ExecSpace>{});
  else run(VertexPatchQ1PairKernel<3, Number, ExecSpace>{});
}

}  // namespace tensormg
