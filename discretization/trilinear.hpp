#pragma once
/// @file
/// The Jacobian of a trilinear hexahedron, on the host and in kernels: its determinant for the
/// validity check of unstructured meshes (check_hex_mesh, HexLayout's parallel check), and along
/// lines of points for the bake-off kernels' trilinear geometry (TrilinearLine).

#include <Kokkos_Macros.hpp>

namespace tensormg {

/// The reference points where a cell's determinant must be positive: the 8 Gauss points of the
/// 2×2×2 rule, then the 8 vertices (lexicographic).
inline constexpr int hex_check_points = 16;
KOKKOS_INLINE_FUNCTION void hex_check_point(int q, double (&xi)[3]) {
  const double g0 = 0.21132486540518711775, g1 = 0.78867513459481288225;  // 1/2 ∓ 1/(2√3)
  for (int d = 0; d < 3; ++d) xi[d] = q < 8 ? (((q >> d) & 1) ? g1 : g0) : double(((q - 8) >> d) & 1);
}

/// det of the Jacobian of the trilinear map of the 8 vertices x[v][d] at reference point xi.
KOKKOS_INLINE_FUNCTION double trilinear_det(const double (&x)[8][3], const double (&xi)[3]) {
  double J[3][3] = {};
  for (int v = 0; v < 8; ++v) {
    double value[3], slope[3];
    for (int d = 0; d < 3; ++d) {
      const bool upper = (v >> d) & 1;
      value[d] = upper ? xi[d] : 1 - xi[d];
      slope[d] = upper ? 1 : -1;
    }
    const double grad[3] = {slope[0] * value[1] * value[2], value[0] * slope[1] * value[2],
                            value[0] * value[1] * slope[2]};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) J[r][c] += x[v][r] * grad[c];
  }
  return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}

/// The Jacobian of a trilinear cell along a line of points in ξ_z (ξ_x = s, ξ_y = t fixed), from
/// its 8 vertices X[corner · 3 + i] (corner = c_x + 2 c_y + 4 c_z) on the reference cell [0, 1]³:
/// ∂x/∂ξ_x and ∂x/∂ξ_y are linear in ξ_z there, ∂x/∂ξ_z is constant. The bake-off kernels'
/// trilinear geometry forms the factors from it point by point (BakeOffGeometry::trilinear).
struct TrilinearLine {
  double x0[3], x1[3], y0[3], y1[3], z[3];  // ∂x/∂ξ_x = x0 + ξ_z x1, ∂x/∂ξ_y = y0 + ξ_z y1, ∂x/∂ξ_z = z
  KOKKOS_FORCEINLINE_FUNCTION TrilinearLine(const double* X, double s, double t) {
    for (int i = 0; i < 3; ++i) {
      const auto v = [&](int corner) { return X[corner * 3 + i]; };
      // Edges along x at (y, z) = (0, 0), (1, 0), (0, 1), (1, 1), interpolated in y at t: at z = 0 and 1.
      const double ex0 = (v(1) - v(0)) + t * ((v(3) - v(2)) - (v(1) - v(0)));
      const double ex1 = (v(5) - v(4)) + t * ((v(7) - v(6)) - (v(5) - v(4)));
      x0[i] = ex0;
      x1[i] = ex1 - ex0;
      const double ey0 = (v(2) - v(0)) + s * ((v(3) - v(1)) - (v(2) - v(0)));
      const double ey1 = (v(6) - v(4)) + s * ((v(7) - v(5)) - (v(6) - v(4)));
      y0[i] = ey0;
      y1[i] = ey1 - ey0;
      const double ez0 = (v(4) - v(0)) + s * ((v(5) - v(1)) - (v(4) - v(0)));
      const double ez1 = (v(6) - v(2)) + s * ((v(7) - v(3)) - (v(6) - v(2)));
      z[i] = ez0 + t * (ez1 - ez0);
    }
  }
  /// J at ξ_z = u.
  KOKKOS_FORCEINLINE_FUNCTION void jacobian(double u, double (&J)[3][3]) const {
    for (int i = 0; i < 3; ++i) {
      J[i][0] = x0[i] + u * x1[i];
      J[i][1] = y0[i] + u * y1[i];
      J[i][2] = z[i];
    }
  }
  /// w det J at ξ_z = u.
  KOKKOS_FORCEINLINE_FUNCTION double weighted_det(double u, double w) const {
    double J[3][3];
    jacobian(u, J);
    return w * (J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]));
  }
};
/// Floating-point operations of TrilinearLine (2 per multiply-add): per line, for each of the 3
/// components, 12 edge differences, 6 interpolations of two of them (3 each), the z column's
/// interpolation (3) and the x1, y1 differences (2); per point the two linear columns (3 × 2 × 2);
/// weighted_det adds 15.
inline constexpr double trilinear_line_flops = 3 * 35, trilinear_point_flops = 12, trilinear_det_flops = 15;

/// det J at check point q (hex_check_point), formed as TrilinearLine forms it: the validity
/// checks' value (check_hex_mesh, HexLayout's parallel check), the same on the host and on a device.
KOKKOS_INLINE_FUNCTION double trilinear_check_det(const double (&x)[8][3], int q) {
  double xi[3];
  hex_check_point(q, xi);
  return TrilinearLine(&x[0][0], xi[0], xi[1]).weighted_det(xi[2], 1.0);
}

/// Whether det J > 0 at every check point. The 16 points lie on 8 lines in ξ_z of 2 points each
/// (Gauss points q and q + 4 for q < 4, vertices q and q + 4 for 8 <= q < 12): one TrilinearLine
/// per line, about 3× fewer flops than trilinear_det at each point.
KOKKOS_INLINE_FUNCTION bool trilinear_cell_valid(const double (&x)[8][3]) {
  for (int l = 0; l < 8; ++l) {
    const int q = l < 4 ? l : l + 4;
    double low[3], high[3];
    hex_check_point(q, low);
    hex_check_point(q + 4, high);
    const TrilinearLine line(&x[0][0], low[0], low[1]);
    if (!(line.weighted_det(low[2], 1.0) > 0) || !(line.weighted_det(high[2], 1.0) > 0)) return false;
  }
  return true;
}

}  // namespace tensormg
