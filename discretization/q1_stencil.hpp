#pragma once
/// @file
/// The continuous Q1 operator a·(−Δ) + b·(mass) on a Cartesian box as a 3^d-point stencil built
/// from the 1D cell matrices: what the gathering operator (laplace_q1_gather.hpp) and the k = 1
/// vertex-patch smoother (smoothers/vertex_patch_q1.hpp) share.
///
/// On a Cartesian cell the Q1 stiffness and mass matrices are sums of Kronecker products of the 1D
/// ones (K_d, M_d of the cell's length in direction d), and so is their sum over the cells around
/// a node: row i of the assembled operator is
///   a Σ_d (s_d ⊗ m_others) + b (m_0 ⊗ m_1 ⊗ m_2),
/// where m_d, s_d are the node's three 1D weights (left neighbour, itself, right neighbour) summed
/// over the one or two cells of direction d on either side of it that exist. A plane of 3 × 3
/// values along x and y reduces to two sums (plane_sums) and three planes to the node's value
/// (combine_planes): 6 + 9 multiply-adds per plane, 6 per node, instead of 27 weights.

#include <Kokkos_Core.hpp>

#include "discretization/cartesian_mesh.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

/// A node's 1D weights in one direction: index 0 the lower neighbour, 1 the node, 2 the upper one.
template <class Number>
struct Q1Weights1D {
  Number m[3] = {0, 0, 0};  ///< mass
  Number s[3] = {0, 0, 0};  ///< stiffness
};

/// The 1D cell matrices of one direction (row-major 2 × 2), from which the weights of a node with
/// or without a cell below and above it follow.
template <class Number>
struct Q1Direction {
  Number M[2][2] = {{0, 0}, {0, 0}};
  Number K[2][2] = {{0, 0}, {0, 0}};

  /// The node is the upper node of the cell below (`below`) and the lower node of the cell above.
  KOKKOS_INLINE_FUNCTION Q1Weights1D<Number> weights(bool below, bool above) const {
    Q1Weights1D<Number> w;
    w.m[0] = below ? M[1][0] : Number(0);
    w.s[0] = below ? K[1][0] : Number(0);
    w.m[1] = (below ? M[1][1] : Number(0)) + (above ? M[0][0] : Number(0));
    w.s[1] = (below ? K[1][1] : Number(0)) + (above ? K[0][0] : Number(0));
    w.m[2] = above ? M[0][1] : Number(0);
    w.s[2] = above ? K[0][1] : Number(0);
    return w;
  }
};

/// The brick's boundary (Dirichlet) layers in a box's node coordinates, outside [0, n) where the
/// box does not reach them: 32-bit compares in the kernels instead of NodeBox's 64-bit global ones.
struct Q1BoundaryLayers {
  local_index lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  Q1BoundaryLayers() = default;
  explicit Q1BoundaryLayers(const NodeBox& box) {
    for (int d = 0; d < 3; ++d) {
      lo[d] = local_index(-box.offset[d]);
      hi[d] = local_index(box.global_nodes[d] - 1 - box.offset[d]);
    }
  }
  /// Whether node coordinate i of direction d lies on the brick's boundary.
  KOKKOS_FORCEINLINE_FUNCTION bool contains(int d, local_index i) const { return i == lo[d] || i == hi[d]; }
  /// Node coordinate i's weights in direction d with those towards a Dirichlet node (the node
  /// itself included) zeroed: read as zero, the weight vanishes instead of the value, so every
  /// load is unconditional (a finite entry times zero).
  template <class Number>
  KOKKOS_FORCEINLINE_FUNCTION void zero_dirichlet(int d, local_index i, Q1Weights1D<Number>& w) const {
    for (int a = 0; a < 3; ++a)
      if (contains(d, i + a - 1)) w.m[a] = w.s[a] = Number(0);
  }
};

namespace q1 {

/// The two sums of a plane of 3 × 3 values v[y][x] around a node: mm = Σ my mx v (mass in x and
/// y) and st = Σ (sy mx + my sx) v (stiffness in x or y).
template <class Number>
KOKKOS_FORCEINLINE_FUNCTION void plane_sums(const Number (&v)[3][3], const Q1Weights1D<Number>& wx,
                                            const Q1Weights1D<Number>& wy, Number& mm, Number& st) {
  mm = 0;
  st = 0;
  for (int b = 0; b < 3; ++b) {
    const Number rm = wx.m[0] * v[b][0] + wx.m[1] * v[b][1] + wx.m[2] * v[b][2];
    const Number rs = wx.s[0] * v[b][0] + wx.s[1] * v[b][1] + wx.s[2] * v[b][2];
    mm += wy.m[b] * rm;
    st += wy.m[b] * rs + wy.s[b] * rm;
  }
}

/// 3D: the node's value from the plane sums of the planes below, at and above it.
template <class Number>
KOKKOS_FORCEINLINE_FUNCTION Number combine_planes(const Number (&mm)[3], const Number (&st)[3],
                                                  const Q1Weights1D<Number>& wz, Number laplace, Number mass) {
  Number v = 0;
  for (int c = 0; c < 3; ++c) v += laplace * (wz.m[c] * st[c] + wz.s[c] * mm[c]) + mass * wz.m[c] * mm[c];
  return v;
}

/// 2D: the node's value from its plane's sums.
template <class Number>
KOKKOS_FORCEINLINE_FUNCTION Number combine_plane(Number mm, Number st, Number laplace, Number mass) {
  return laplace * st + mass * mm;
}

/// The 1D Q1 cell matrices of every direction of a mesh (directions beyond its dimension: cell
/// length 1, unused).
template <class Number>
inline void directions(const CartesianMesh& mesh, Q1Direction<Number> (&dir)[3]) {
  for (int d = 0; d < 3; ++d) {
    const CellMatrices1D cm = cell_matrices_1d(1, d < mesh.dim() ? mesh.h()[d] : 1.0);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        dir[d].M[i][j] = Number(cm.m(i, j));
        dir[d].K[i][j] = Number(cm.a(i, j));
      }
  }
}

/// The diagonal entry of a node with cells on every side, in double.
template <class Number>
inline double interior_diagonal(int dim, const Q1Direction<Number> (&dir)[3], double laplace, double mass) {
  double m[3] = {1, 1, 1}, s[3] = {0, 0, 0};
  for (int d = 0; d < dim; ++d) {
    m[d] = double(dir[d].M[1][1]) + double(dir[d].M[0][0]);
    s[d] = double(dir[d].K[1][1]) + double(dir[d].K[0][0]);
  }
  const double stiffness = dim == 2 ? s[0] * m[1] + m[0] * s[1] : s[0] * m[1] * m[2] + m[0] * s[1] * m[2] + m[0] * m[1] * s[2];
  return laplace * stiffness + mass * m[0] * m[1] * m[2];
}

}  // namespace q1
}  // namespace tensormg
