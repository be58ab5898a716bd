#pragma once
/// @file
/// The Jacobian determinant of a trilinear hexahedron, on the host and in kernels: the validity
/// check of unstructured meshes (check_hex_mesh, HexLayout's parallel check).

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

}  // namespace tensormg
