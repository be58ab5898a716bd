#include "discretization/low_order_operator.hpp"

#include <cmath>

#include "core/device_traits.hpp"
#include "core/enum_names.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
constexpr EnumName<LowOrderProblem> problem_names[] = {{LowOrderProblem::laplace, "laplace"},
                                                       {LowOrderProblem::elasticity, "elasticity"}};
constexpr EnumName<LowOrderGeometry> geometry_names[] = {{LowOrderGeometry::on_the_fly, "on-the-fly"},
                                                         {LowOrderGeometry::stored, "stored"}};
constexpr EnumName<LowOrderScatter> scatter_names[] = {{LowOrderScatter::atomic, "atomic"},
                                                       {LowOrderScatter::coloured, "coloured"},
                                                       {LowOrderScatter::coloured, "colored"}};

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

/// J⁻¹ (row-major, K[d][i] = ∂ξ_d/∂x_i) and w det J at Gauss point q of the cell with vertices x.
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

/// One cell of paper 004's Algorithm 2. Problem: components 1 (Laplace) or 3 (elasticity). Stored:
/// J⁻¹ and w det J read from `factors` instead of computed. Coloured: the thread's cell is
/// order(first + i) and the additions are plain; else cell i with atomic additions. Diagonal:
/// the operator's diagonal instead of a product (src unused).
template <class ExecSpace, int components, bool stored, bool coloured, bool diagonal>
struct LowOrderCellKernel {
  using mem = typename ExecSpace::memory_space;
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<const double*, mem> coefficient, lambda, mu;
  Kokkos::View<const double**, Kokkos::LayoutRight, mem> factors;
  Kokkos::View<const local_index*, mem> order;
  local_index first = 0;
  Kokkos::View<const double*, mem> src;
  Kokkos::View<double*, mem> dst;

  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const {
    const local_index c = coloured ? order(first + i) : i;
    local_index v[8];
    bool fixed[8];
    double u[8][components], out[8][components];
    double x[8][3];
TENSORMG_UNROLL_ALL
    for (int a = 0; a < 8; ++a) {
      const local_index id = cells(c, a);
      fixed[a] = id < 0;
      v[a] = fixed[a] ? ~id : id;
TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) {
        u[a][m] = (diagonal || fixed[a]) ? 0.0 : src(v[a] * components + m);
        out[a][m] = 0;
      }
      if (!stored) {
        for (int d = 0; d < 3; ++d) x[a][d] = points(v[a], d);
      }
    }
    const double kappa = components == 1 ? coefficient(c) : 0.0;
    const double lam = components == 3 ? lambda(c) : 0.0, shear = components == 3 ? mu(c) : 0.0;
TENSORMG_UNROLL_ALL
    for (int q = 0; q < 8; ++q) {
      double K[9], wdet;
      if (stored) {
TENSORMG_UNROLL_ALL
        for (int e = 0; e < 9; ++e) K[e] = factors(q * 10 + e, c);
        wdet = factors(q * 10 + 9, c);
      } else {
        cell_geometry(x, q, K, wdet);
      }
      if (components == 1) {
        if (diagonal) {
TENSORMG_UNROLL_ALL
          for (int a = 0; a < 8; ++a) {
            double g2 = 0;
TENSORMG_UNROLL_ALL
            for (int m = 0; m < 3; ++m) {
              double g = 0;
TENSORMG_UNROLL_ALL
              for (int d = 0; d < 3; ++d) g += K[d * 3 + m] * shape_gradient(a, q, d);
              g2 += g * g;
            }
            out[a][0] += kappa * wdet * g2;
          }
          continue;
        }
        // ∇_ξ u, then ∇_x u = J⁻ᵀ ∇_ξ u, flux κ w det J ∇_x u, back to ξ: J⁻¹ flux.
        double gr[3] = {0, 0, 0};
TENSORMG_UNROLL_ALL
        for (int a = 0; a < 8; ++a)
TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) gr[d] += u[a][0] * shape_gradient(a, q, d);
        double flux[3];
TENSORMG_UNROLL_ALL
        for (int m = 0; m < 3; ++m) flux[m] = kappa * wdet * (K[m] * gr[0] + K[3 + m] * gr[1] + K[6 + m] * gr[2]);
        double back[3];
TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) back[d] = K[d * 3] * flux[0] + K[d * 3 + 1] * flux[1] + K[d * 3 + 2] * flux[2];
TENSORMG_UNROLL_ALL
        for (int a = 0; a < 8; ++a)
TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) out[a][0] += back[d] * shape_gradient(a, q, d);
      } else {
        if (diagonal) {
          // u = e_m φ_a: a(u, u) = w det J (μ |∇φ_a|² + (λ + μ) (∂_m φ_a)²).
TENSORMG_UNROLL_ALL
          for (int a = 0; a < 8; ++a) {
            double g[3], g2 = 0;
TENSORMG_UNROLL_ALL
            for (int m = 0; m < 3; ++m) {
              g[m] = 0;
TENSORMG_UNROLL_ALL
              for (int d = 0; d < 3; ++d) g[m] += K[d * 3 + m] * shape_gradient(a, q, d);
              g2 += g[m] * g[m];
            }
TENSORMG_UNROLL_ALL
            for (int m = 0; m < 3; ++m) out[a][m] += wdet * (shear * g2 + (lam + shear) * g[m] * g[m]);
          }
          continue;
        }
        // H[m][d] = ∂u_m/∂ξ_d; ∇u = H J⁻¹; σ = λ tr ε I + 2μ ε (times w det J); T = σ J⁻ᵀ.
        double H[3][3] = {};
TENSORMG_UNROLL_ALL
        for (int a = 0; a < 8; ++a)
TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) {
            const double g = shape_gradient(a, q, d);
TENSORMG_UNROLL_ALL
            for (int m = 0; m < 3; ++m) H[m][d] += u[a][m] * g;
          }
        double G[3][3];
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
        double T[3][3];
TENSORMG_UNROLL_ALL
        for (int m = 0; m < 3; ++m)
TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) T[m][d] = S[m][0] * K[d * 3] + S[m][1] * K[d * 3 + 1] + S[m][2] * K[d * 3 + 2];
TENSORMG_UNROLL_ALL
        for (int a = 0; a < 8; ++a)
TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) {
            const double g = shape_gradient(a, q, d);
TENSORMG_UNROLL_ALL
            for (int m = 0; m < 3; ++m) out[a][m] += T[m][d] * g;
          }
      }
    }
TENSORMG_UNROLL_ALL
    for (int a = 0; a < 8; ++a) {
      if (fixed[a]) continue;
TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) {
        if (coloured)
          dst(v[a] * components + m) += out[a][m];
        else
          Kokkos::atomic_add(&dst(v[a] * components + m), out[a][m]);
      }
    }
  }
};

/// Stores J⁻¹ and w det J of every cell and Gauss point.
template <class ExecSpace>
struct LowOrderGeometryKernel {
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space> factors;
  KOKKOS_INLINE_FUNCTION void operator()(local_index c) const {
    double x[8][3];
    for (int a = 0; a < 8; ++a) {
      const local_index id = cells(c, a);
      const local_index v = id < 0 ? ~id : id;
      for (int d = 0; d < 3; ++d) x[a][d] = points(v, d);
    }
    for (int q = 0; q < 8; ++q) {
      double K[9], wdet;
      cell_geometry(x, q, K, wdet);
      for (int e = 0; e < 9; ++e) factors(q * 10 + e, c) = K[e];
      factors(q * 10 + 9, c) = wdet;
    }
  }
};
}  // namespace

std::string to_string(LowOrderProblem p) { return enum_name(problem_names, p); }
std::string to_string(LowOrderGeometry g) { return enum_name(geometry_names, g); }
std::string to_string(LowOrderScatter s) { return enum_name(scatter_names, s); }
LowOrderProblem parse_low_order_problem(const std::string& text) { return parse_enum(problem_names, text, "problem"); }
LowOrderGeometry parse_low_order_geometry(const std::string& text) {
  return parse_enum(geometry_names, text, "geometry");
}
LowOrderScatter parse_low_order_scatter(const std::string& text) { return parse_enum(scatter_names, text, "scatter"); }

double low_order_flops_per_cell(LowOrderProblem problem, LowOrderGeometry geometry) {
  // Per Gauss point: J (8 × 9 FMA), adjugate, determinant and scaling (9 × 3 + 5 + 10 + 1),
  // then the problem's own work; the shape-function gradients are constants.
  const double jacobian = geometry == LowOrderGeometry::on_the_fly ? 2.0 * 72 + 27 + 5 + 10 + 1 : 0.0;
  const double work = problem == LowOrderProblem::laplace
                          ? 2.0 * 24 + 3 * 5 + 3 + 3 * 5 + 2.0 * 24  // ∇_ξ u, J⁻ᵀ, scale, J⁻¹, add back
                          : 2.0 * 72 + 9 * 5 + 4 + 9 * 4 + 9 * 5 + 2.0 * 72;  // H, H J⁻¹, σ, T, add back
  return 8 * (jacobian + work);
}

template <class ExecSpace>
LowOrderOperator<ExecSpace>::LowOrderOperator(std::shared_ptr<const HexLayout<ExecSpace>> layout,
                                              const LowOrderOptions& options)
    : layout_(std::move(layout)), options_(options) {
  const int expected = options_.problem == LowOrderProblem::laplace ? 1 : 3;
  TENSORMG_CHECK(layout_->components() == expected, "the " << to_string(options_.problem) << " operator needs a layout with "
                                                           << expected << " components per vertex, not "
                                                           << layout_->components());
  if (options_.geometry == LowOrderGeometry::stored) {
    geometry_ = decltype(geometry_)("tensormg::low_order::geometry", 80, layout_->n_cells());
    Kokkos::parallel_for("tensormg::low_order::geometry", Kokkos::RangePolicy<ExecSpace>(0, layout_->n_cells()),
                         LowOrderGeometryKernel<ExecSpace>{layout_->cells(), layout_->points(), geometry_});
  }
}

template <class ExecSpace>
double LowOrderOperator<ExecSpace>::flops() const {
  return layout_->n_cells() * low_order_flops_per_cell(options_.problem, options_.geometry);
}

namespace {
template <class ExecSpace, int components, bool stored, bool diagonal>
void run_cells(const HexLayout<ExecSpace>& layout, LowOrderScatter scatter,
               const Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space>& factors,
               const Kokkos::View<double*, typename ExecSpace::memory_space>& src,
               const Kokkos::View<double*, typename ExecSpace::memory_space>& dst) {
  const char* name = components == 1 ? "tensormg::low_order::laplace" : "tensormg::low_order::elasticity";
  if (scatter == LowOrderScatter::atomic) {
    LowOrderCellKernel<ExecSpace, components, stored, false, diagonal> k{
        layout.cells(), layout.points(), layout.coefficient(), layout.lame_lambda(), layout.lame_mu(), factors,
        layout.cell_order(), 0, src, dst};
    Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(0, layout.n_cells()), k);
    return;
  }
  const auto& offsets = layout.colour_offsets();
  for (std::size_t colour = 0; colour + 1 < offsets.size(); ++colour) {
    LowOrderCellKernel<ExecSpace, components, stored, true, diagonal> k{
        layout.cells(), layout.points(), layout.coefficient(), layout.lame_lambda(), layout.lame_mu(), factors,
        layout.cell_order(), offsets[colour], src, dst};
    Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(0, offsets[colour + 1] - offsets[colour]), k);
  }
}

template <class ExecSpace, bool diagonal>
void dispatch(const HexLayout<ExecSpace>& layout, const LowOrderOptions& o,
              const Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space>& factors,
              const Kokkos::View<double*, typename ExecSpace::memory_space>& src,
              const Kokkos::View<double*, typename ExecSpace::memory_space>& dst) {
  const bool stored = o.geometry == LowOrderGeometry::stored;
  if (o.problem == LowOrderProblem::laplace) {
    if (stored)
      run_cells<ExecSpace, 1, true, diagonal>(layout, o.scatter, factors, src, dst);
    else
      run_cells<ExecSpace, 1, false, diagonal>(layout, o.scatter, factors, src, dst);
  } else {
    if (stored)
      run_cells<ExecSpace, 3, true, diagonal>(layout, o.scatter, factors, src, dst);
    else
      run_cells<ExecSpace, 3, false, diagonal>(layout, o.scatter, factors, src, dst);
  }
}

/// dst(i) = value(i) for the constrained DoFs i (value = src for identity rows, 1 for the diagonal).
template <class ExecSpace>
void set_constrained(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& constrained,
                     const Kokkos::View<double*, typename ExecSpace::memory_space>& dst,
                     const Kokkos::View<double*, typename ExecSpace::memory_space>& src, bool unit) {
  Kokkos::parallel_for(
      "tensormg::low_order::constrained", Kokkos::RangePolicy<ExecSpace>(0, constrained.extent(0)),
      KOKKOS_LAMBDA(local_index i) {
        const local_index j = constrained(i);
        dst(j) = unit ? 1.0 : src(j);
      });
}
}  // namespace

template <class ExecSpace>
void LowOrderOperator<ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::low_order::vmult");
  src.update_ghosts();
  dst.fill(0.0);
  dispatch<ExecSpace, false>(*layout_, options_, geometry_, src.view(), dst.view());
  dst.compress_add();
  set_constrained<ExecSpace>(layout_->constrained_dofs(), dst.view(), src.view(), false);
}

template <class ExecSpace>
void LowOrderOperator<ExecSpace>::compute_diagonal(vector_type& diagonal) const {
  diagonal.fill(0.0);
  dispatch<ExecSpace, true>(*layout_, options_, geometry_, diagonal.view(), diagonal.view());
  diagonal.compress_add();
  set_constrained<ExecSpace>(layout_->constrained_dofs(), diagonal.view(), diagonal.view(), true);
}

template class LowOrderOperator<DefaultExec>;
template class LowOrderOperator<SecondaryExec>;

}  // namespace tensormg
