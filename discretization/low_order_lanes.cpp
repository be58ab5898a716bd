// The lanes evaluation of the Q1 operators (LowOrderEvaluation::lanes): a cell's 8 points over
// 1, 2, 4 or 8 threads of a warp. Its own unit: the 12 kernel instantiations of a CUDA build took
// most of low_order_operator.cpp's compile time.
#include <type_traits>

#include "discretization/low_order_cell.hpp"

namespace tensormg::low_order {

namespace {
/// The lanes evaluation (LowOrderEvaluation::lanes): the factorized tensor steps, point by point.
/// A cell's vertices and Gauss points are both 2×2×2, numbered lexicographically (bit d of the
/// index: the side along ξ_d), and point q lies nearest vertex q. Thread r of the cell's
/// `lanes` threads (consecutive lanes of a warp) holds points p·lanes + r, p < 8 / lanes: a value
/// per point is an array of P = 8 / lanes numbers. Along ξ_d every point has one partner (index
/// xor 2^d): in another thread (a shuffle, 2^d < lanes) or in the same one (a register). Then along
/// d, at the point of a vertex's own side (weights g_high for its own vertex, g_low for the other):
///   interpolation  (gh·own + gl·partner),  difference  ±(own − partner)  (+ on the high side),
/// and the transposes: interpolation is its own, the difference's is ±(own + partner).
/// ∇_ξ of a field at the Gauss points: difference along d, interpolation along the other two (6
/// exchanges); the integration back to the vertices the transposed steps (8 exchanges). Between
/// them every thread applies point_flux at its own points.
template <class ExecSpace, int components, int lanes, bool stored, bool coloured>
struct LowOrderLaneKernel : LowOrderCellData<ExecSpace> {
  static_assert(lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8, "a cell has 8 points");
  static_assert(lanes == 1 || DeviceTraits<ExecSpace>::has_warps, "threads of one cell must share a warp");
  static constexpr int P = 8 / lanes;
  using Traits = DeviceTraits<ExecSpace>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Data = LowOrderCellData<ExecSpace>;
  using Data::cells, Data::points, Data::coefficient, Data::lambda, Data::mu, Data::factors, Data::order;
  using mem = typename ExecSpace::memory_space;
  local_index first = 0;
  local_index n = 0;  ///< cells of this launch
  int cells_per_team = 1;
  Kokkos::View<const double*, mem> src;
  Kokkos::View<double*, mem> dst;

  using Points = double[P];

  /// Bit d of the point index of the thread's p-th point.
  template <int d>
  KOKKOS_FORCEINLINE_FUNCTION static int side(int p, int r) {
    if constexpr ((1 << d) < lanes)
      return (r >> d) & 1;
    else
      return ((p * lanes) >> d) & 1;
  }
  /// +1 on the high side along d, −1 on the low one.
  template <int d>
  KOKKOS_FORCEINLINE_FUNCTION static double sign(int p, int r) {
    return side<d>(p, r) ? 1.0 : -1.0;
  }
  /// y = the partner's values along d.
  template <int d>
  KOKKOS_FORCEINLINE_FUNCTION static void partner(const Points& x, Points& y) {
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      if constexpr ((1 << d) < lanes)
        y[p] = Traits::template shuffle_xor<lanes>(x[p], 1 << d);
      else
        y[p] = x[p ^ ((1 << d) / lanes)];
    }
  }

  /// g[d] = ∂f/∂ξ_d at the thread's Gauss points, from f at its vertices.
  KOKKOS_FORCEINLINE_FUNCTION static void gradient(const Points& f, int r, Points (&g)[3]) {
    Points o, dx, ix, ydx, dix, iix, a, b;
    partner<0>(f, o);
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      dx[p] = sign<0>(p, r) * (f[p] - o[p]);
      ix[p] = gauss_high * f[p] + gauss_low * o[p];
    }
    partner<1>(dx, a);
    partner<1>(ix, b);
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      ydx[p] = gauss_high * dx[p] + gauss_low * a[p];
      dix[p] = sign<1>(p, r) * (ix[p] - b[p]);
      iix[p] = gauss_high * ix[p] + gauss_low * b[p];
    }
    partner<2>(ydx, a);
    partner<2>(dix, b);
    partner<2>(iix, o);
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      g[0][p] = gauss_high * ydx[p] + gauss_low * a[p];
      g[1][p] = gauss_high * dix[p] + gauss_low * b[p];
      g[2][p] = sign<2>(p, r) * (iix[p] - o[p]);
    }
  }

  /// out = Σ_q Σ_d F[d](q) ∂N_a/∂ξ_d(q) at the thread's vertices a (the transpose of gradient):
  /// along ξ_z, ξ_y, ξ_x in turn, F[1] and F[2] summed before the last step (both interpolate there).
  KOKKOS_FORCEINLINE_FUNCTION static void integrate(const Points (&F)[3], int r, Points& out) {
    Points a, b, c, za, zb, zc, ya, ybc;
    partner<2>(F[0], a);
    partner<2>(F[1], b);
    partner<2>(F[2], c);
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      za[p] = gauss_high * F[0][p] + gauss_low * a[p];
      zb[p] = gauss_high * F[1][p] + gauss_low * b[p];
      zc[p] = sign<2>(p, r) * (F[2][p] + c[p]);
    }
    partner<1>(za, a);
    partner<1>(zb, b);
    partner<1>(zc, c);
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      ya[p] = gauss_high * za[p] + gauss_low * a[p];
      ybc[p] = sign<1>(p, r) * (zb[p] + b[p]) + (gauss_high * zc[p] + gauss_low * c[p]);
    }
    partner<0>(ya, a);
    partner<0>(ybc, b);
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) out[p] = sign<0>(p, r) * (ya[p] + a[p]) + (gauss_high * ybc[p] + gauss_low * b[p]);
  }

  /// Cell i of the launch, thread r of its lanes; an inactive thread (a team's cells past the
  /// end) repeats the last cell for the exchanges and adds nothing.
  KOKKOS_FORCEINLINE_FUNCTION void cell(local_index i, int r, bool active) const {
    const local_index c = coloured ? order(first + i) : i;
    local_index v[P];
    bool fixed[P];
    Points u[components], x[3];
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      const local_index id = cells(c, p * lanes + r);
      fixed[p] = id < 0;
      v[p] = fixed[p] ? ~id : id;
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) u[m][p] = fixed[p] ? 0.0 : src(v[p] * components + m);
      if constexpr (!stored) {
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) x[d][p] = points(v[p], d);
      }
    }
    Points J[3][3], H[components][3];  // J[i][d] = ∂x_i/∂ξ_d, H[m][d] = ∂u_m/∂ξ_d at the points
    if constexpr (!stored) {
      TENSORMG_UNROLL_ALL
      for (int i = 0; i < 3; ++i) gradient(x[i], r, J[i]);
    }
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < components; ++m) gradient(u[m], r, H[m]);
    const double kappa = components == 1 ? coefficient(c) : 0.0;
    const double lam = components == 3 ? lambda(c) : 0.0, shear = components == 3 ? mu(c) : 0.0;
    Points F[components][3];
    TENSORMG_UNROLL_ALL
    for (int p = 0; p < P; ++p) {
      const int q = p * lanes + r;
      double K[9], wdet;
      if constexpr (stored) {
        TENSORMG_UNROLL_ALL
        for (int e = 0; e < 9; ++e) K[e] = factors(q * 10 + e, c);
        wdet = factors(q * 10 + 9, c);
      } else {
        double Jq[3][3];
        TENSORMG_UNROLL_ALL
        for (int i = 0; i < 3; ++i)
          TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) Jq[i][d] = J[i][d][p];
        invert_jacobian(Jq, K, wdet);
      }
      double Hq[components][3], T[components][3];
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m)
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) Hq[m][d] = H[m][d][p];
      point_flux<components>(Hq, K, wdet, kappa, lam, shear, T);
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m)
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) F[m][d][p] = T[m][d];
    }
    TENSORMG_UNROLL_ALL
    for (int m = 0; m < components; ++m) {
      Points out;
      integrate(F[m], r, out);
      TENSORMG_UNROLL_ALL
      for (int p = 0; p < P; ++p) {
        if (!active || fixed[p]) continue;
        if constexpr (coloured)
          dst(v[p] * components + m) += out[p];
        else
          Kokkos::atomic_add(&dst(v[p] * components + m), out[p]);
      }
    }
  }

  /// One thread per cell (lanes = 1).
  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const { cell(i, 0, true); }
  /// A team of cells_per_team × lanes threads; thread t works on cell t / lanes as its lane t % lanes.
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int t = team.team_rank();
    const local_index i = local_index(team.league_rank()) * cells_per_team + t / lanes;
    const bool active = i < n;
    cell(active ? i : n - 1, t % lanes, active);
  }
};

/// Threads per team of the lanes kernel with more than one thread per cell.
constexpr int lane_team_threads = 128;

template <class ExecSpace, int components, int lanes, bool stored>
void run_lanes(const HexLayout<ExecSpace>& layout, LowOrderScatter scatter, const HexColouring<ExecSpace>& colouring,
               const FactorView<ExecSpace>& factors, const ValueView<ExecSpace>& src, const ValueView<ExecSpace>& dst) {
  const char* name = components == 1 ? "tensormg::low_order::laplace_lanes" : "tensormg::low_order::elasticity_lanes";
  const auto launch = [&](auto coloured, local_index first, local_index count) {
    using Kernel = LowOrderLaneKernel<ExecSpace, components, lanes, stored, decltype(coloured)::value>;
    if (count <= 0) return;
    const int cells_per_team = lane_team_threads / lanes;
    const Kernel k{layout.cells(), layout.points(), layout.coefficient(), layout.lame_lambda(), layout.lame_mu(),
                   factors,        colouring.order, first, count, cells_per_team, src, dst};
    if constexpr (lanes == 1)
      Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(0, count), k);
    else
      Kokkos::parallel_for(name, typename Kernel::Policy((count + cells_per_team - 1) / cells_per_team, lane_team_threads),
                           k);
  };
  if (scatter == LowOrderScatter::atomic) {
    launch(std::false_type{}, 0, layout.n_cells());
    return;
  }
  const auto& offsets = colouring.offsets;
  for (std::size_t colour = 0; colour + 1 < offsets.size(); ++colour)
    launch(std::true_type{}, offsets[colour], offsets[colour + 1] - offsets[colour]);
}
}  // namespace

template <class ExecSpace, int components, bool stored>
void apply_lanes(const HexLayout<ExecSpace>& layout, const LowOrderOptions& o, const HexColouring<ExecSpace>& colouring,
                 const FactorView<ExecSpace>& factors, const ValueView<ExecSpace>& src, const ValueView<ExecSpace>& dst) {
  const int lanes = o.lanes_per_cell;  // the constructor resolved 0
  if constexpr (DeviceTraits<ExecSpace>::has_warps) {
    if (lanes == 8) return run_lanes<ExecSpace, components, 8, stored>(layout, o.scatter, colouring, factors, src, dst);
    if (lanes == 4) return run_lanes<ExecSpace, components, 4, stored>(layout, o.scatter, colouring, factors, src, dst);
    if (lanes == 2) return run_lanes<ExecSpace, components, 2, stored>(layout, o.scatter, colouring, factors, src, dst);
  }
  TENSORMG_ASSERT(lanes == 1, "lanes per cell " << lanes << " passed the operator's checks");
  run_lanes<ExecSpace, components, 1, stored>(layout, o.scatter, colouring, factors, src, dst);
}

#define TENSORMG_LOW_ORDER_LANES_ONE(Exec, C, S)                                                                  \
  template void apply_lanes<Exec, C, S>(const HexLayout<Exec>&, const LowOrderOptions&, const HexColouring<Exec>&, \
                                        const FactorView<Exec>&, const ValueView<Exec>&, const ValueView<Exec>&);
#define TENSORMG_LOW_ORDER_LANES(Exec)          \
  TENSORMG_LOW_ORDER_LANES_ONE(Exec, 1, false) \
  TENSORMG_LOW_ORDER_LANES_ONE(Exec, 1, true)  \
  TENSORMG_LOW_ORDER_LANES_ONE(Exec, 3, false) \
  TENSORMG_LOW_ORDER_LANES_ONE(Exec, 3, true)
TENSORMG_LOW_ORDER_LANES(DefaultExec)
TENSORMG_IF_SECOND_SPACE(TENSORMG_LOW_ORDER_LANES(SecondaryExec))
#undef TENSORMG_LOW_ORDER_LANES
#undef TENSORMG_LOW_ORDER_LANES_ONE

}  // namespace tensormg::low_order
