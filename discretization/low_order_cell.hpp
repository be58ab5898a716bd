#pragma once
/// @file
/// What the low-order (Q1) cell kernels share (paper 004, Algorithm 2): the 2-point Gauss rule, the
/// trilinear shape gradients and the Jacobian's inverse, the factorized tensor steps (gradients at
/// the Gauss points from edge differences and their transpose), the quadrature-point operator of
/// Laplace and elasticity, and the data every cell kernel reads. The thread-per-cell and block
/// kernels live in low_order_operator.cpp, the lanes kernel in low_order_lanes.cpp.

#include "backends/device_traits.hpp"
#include "discretization/low_order_operator.hpp"

namespace tensormg::low_order {

/// The 2-point Gauss rule on [0, 1]: points 1/2 ∓ 1/(2√3), weights 1/2 (cell weight 1/8).
constexpr double gauss_low = 0.21132486540518711775, gauss_high = 0.78867513459481288225;

/// Reference gradient component d of the trilinear shape function of vertex v at Gauss point q
/// (both lexicographic): ±1 in direction d times the 1D values g_high where the vertex and the
/// point lie on the same side, g_low elsewhere.
KOKKOS_FORCEINLINE_FUNCTION double shape_gradient(int v, int q, int d) {
  double value = ((v >> d) & 1) ? 1.0 : -1.0;
  for (int e = 0; e < 3; ++e)
    if (e != d) value *= (((v >> e) & 1) == ((q >> e) & 1)) ? gauss_high : gauss_low;
  return value;
}

/// J⁻¹ (row-major, K[d][i] = ∂ξ_d/∂x_i) and w det J from J[i][d] = ∂x_i/∂ξ_d.
KOKKOS_FORCEINLINE_FUNCTION void invert_jacobian(const double (&J)[3][3], double (&K)[9], double& wdet) {
  const double c00 = J[1][1] * J[2][2] - J[1][2] * J[2][1];
  const double c01 = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  const double c02 = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  const double det = J[0][0] * c00 + J[0][1] * c01 + J[0][2] * c02;
  const double r = 1.0 / det;
  // K = J⁻¹ = adj(J) / det.
  K[0] = c00 * r;
  K[1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) * r;
  K[2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) * r;
  K[3] = c01 * r;
  K[4] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) * r;
  K[5] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) * r;
  K[6] = c02 * r;
  K[7] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) * r;
  K[8] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) * r;
  wdet = 0.125 * det;
}

/// J⁻¹ and w det J at Gauss point q of the cell with vertices x, J summed point by point
/// (paper 004 Algorithm 2: 8 × 9 multiply-adds per point).
KOKKOS_FORCEINLINE_FUNCTION void cell_geometry(const double (&x)[8][3], int q, double (&K)[9], double& wdet) {
  double J[3][3] = {};  // J[i][d] = ∂x_i/∂ξ_d
  TENSORMG_UNROLL_ALL
  for (int v = 0; v < 8; ++v)
    TENSORMG_UNROLL_ALL
    for (int d = 0; d < 3; ++d) {
      const double g = shape_gradient(v, q, d);
      TENSORMG_UNROLL_ALL
      for (int i = 0; i < 3; ++i) J[i][d] += x[v][i] * g;
    }
  invert_jacobian(J, K, wdet);
}

// The factorized evaluation. On a Q1 cell the derivative along ξ_d is the difference of the two
// vertices of each edge along d, the same at both Gauss points of that direction, interpolated
// linearly along the other two directions e1 < e2. So ∂u/∂ξ_d takes 4 values at the 8 Gauss
// points, indexed t = q_e1 + 2 q_e2, and costs 24 flops per direction instead of 8 × 16.
KOKKOS_FORCEINLINE_FUNCTION constexpr int first_other(int d) { return d == 0 ? 1 : 0; }
KOKKOS_FORCEINLINE_FUNCTION constexpr int second_other(int d) { return d == 2 ? 1 : 2; }
/// The index t of Gauss point q among the 4 values of a derivative along d.
KOKKOS_FORCEINLINE_FUNCTION constexpr int across(int q, int d) {
  return ((q >> first_other(d)) & 1) | (((q >> second_other(d)) & 1) << 1);
}

/// g[d][t] = ∂u/∂ξ_d at the Gauss points (4 distinct values per direction) from the vertex values.
KOKKOS_FORCEINLINE_FUNCTION void gauss_gradients(const double (&u)[8], double (&g)[3][4]) {
  TENSORMG_UNROLL_ALL
  for (int d = 0; d < 3; ++d) {
    const int e1 = first_other(d), e2 = second_other(d);
    double s[2][2];  // s[q1][b2]: edge differences interpolated along e1
    TENSORMG_UNROLL_ALL
    for (int b2 = 0; b2 < 2; ++b2) {
      const int a0 = b2 << e2, a1 = (1 << e1) | (b2 << e2);
      const double t0 = u[a0 | (1 << d)] - u[a0], t1 = u[a1 | (1 << d)] - u[a1];
      s[0][b2] = t0 + gauss_low * (t1 - t0);
      s[1][b2] = t0 + gauss_high * (t1 - t0);
    }
    TENSORMG_UNROLL_ALL
    for (int q1 = 0; q1 < 2; ++q1) {
      const double diff = s[q1][1] - s[q1][0];
      g[d][q1] = s[q1][0] + gauss_low * diff;
      g[d][q1 + 2] = s[q1][0] + gauss_high * diff;
    }
  }
}

/// The transpose of gauss_gradients: out[a] += Σ_d Σ_t f[d][t] ∂N_a/∂ξ_d (f summed over the two
/// Gauss points along d).
KOKKOS_FORCEINLINE_FUNCTION void integrate_gradients(const double (&f)[3][4], double (&out)[8]) {
  TENSORMG_UNROLL_ALL
  for (int d = 0; d < 3; ++d) {
    const int e1 = first_other(d), e2 = second_other(d);
    double s[2][2];  // s[q1][b2]: f interpolated back to the vertices along e2
    TENSORMG_UNROLL_ALL
    for (int q1 = 0; q1 < 2; ++q1) {
      s[q1][0] = gauss_high * f[d][q1] + gauss_low * f[d][q1 + 2];
      s[q1][1] = gauss_low * f[d][q1] + gauss_high * f[d][q1 + 2];
    }
    TENSORMG_UNROLL_ALL
    for (int b2 = 0; b2 < 2; ++b2) {
      const double t0 = gauss_high * s[0][b2] + gauss_low * s[1][b2];
      const double t1 = gauss_low * s[0][b2] + gauss_high * s[1][b2];
      const int a0 = b2 << e2, a1 = (1 << e1) | (b2 << e2);
      out[a0 | (1 << d)] += t0;
      out[a0] -= t0;
      out[a1 | (1 << d)] += t1;
      out[a1] -= t1;
    }
  }
}

/// The quadrature-point operator: from H[m][d] = ∂u_m/∂ξ_d, J⁻¹ (K, row-major) and w det J, the
/// ξ-components T[m][d] that multiply ∂φ_a/∂ξ_d (Laplace κ w det J ∇u J⁻ᵀ; elasticity
/// w det J σ J⁻ᵀ with σ = λ tr ε I + 2μ ε).
template <int components>
KOKKOS_FORCEINLINE_FUNCTION void point_flux(const double (&H)[components][3], const double (&K)[9], double wdet,
                                            double kappa, double lam, double shear, double (&T)[components][3]) {
  if constexpr (components == 1) {
    double flux[3];
    TENSORMG_UNROLL_ALL
    for (int n = 0; n < 3; ++n) flux[n] = kappa * wdet * (H[0][0] * K[n] + H[0][1] * K[3 + n] + H[0][2] * K[6 + n]);
    TENSORMG_UNROLL_ALL
    for (int d = 0; d < 3; ++d) T[0][d] = K[d * 3] * flux[0] + K[d * 3 + 1] * flux[1] + K[d * 3 + 2] * flux[2];
  } else {
    double G[3][3];  // ∇u = H J⁻¹
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < 3; ++m)
      TENSORMG_UNROLL_ALL
      for (int n = 0; n < 3; ++n) G[m][n] = H[m][0] * K[n] + H[m][1] * K[3 + n] + H[m][2] * K[6 + n];
    const double trace = lam * (G[0][0] + G[1][1] + G[2][2]);
    double S[3][3];
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < 3; ++m)
      TENSORMG_UNROLL_ALL
      for (int n = 0; n < 3; ++n) S[m][n] = wdet * (shear * (G[m][n] + G[n][m]) + (m == n ? trace : 0.0));
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < 3; ++m)
      TENSORMG_UNROLL_ALL
      for (int d = 0; d < 3; ++d) T[m][d] = S[m][0] * K[d * 3] + S[m][1] * K[d * 3 + 1] + S[m][2] * K[d * 3 + 2];
  }
}

/// What the cell kernels read: the layout's cells (Dirichlet vertices as ~index), points and
/// per-cell materials, the stored geometry's factors, the cell order of the colours.
template <class ExecSpace>
struct LowOrderCellData {
  using mem = typename ExecSpace::memory_space;
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<const double*, mem> coefficient, lambda, mu;
  Kokkos::View<const double**, Kokkos::LayoutRight, mem> factors;
  Kokkos::View<const local_index*, mem> order;
};

template <class ExecSpace>
using FactorView = Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;
template <class ExecSpace>
using ValueView = Kokkos::View<double*, typename ExecSpace::memory_space>;

/// dst += A src by the lanes evaluation (LowOrderEvaluation::lanes, low_order_lanes.cpp), with
/// o.lanes_per_cell threads per cell (resolved: 1, 2, 4 or 8) and o.scatter atomic or coloured (in
/// the order of `colouring`).
template <class ExecSpace, int components, bool stored>
void apply_lanes(const HexLayout<ExecSpace>& layout, const LowOrderOptions& o, const HexColouring<ExecSpace>& colouring,
                 const FactorView<ExecSpace>& factors, const ValueView<ExecSpace>& src, const ValueView<ExecSpace>& dst);

}  // namespace tensormg::low_order
