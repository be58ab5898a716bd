#include "discretization/low_order_problem.hpp"

#include <mpi.h>

#include <cmath>
#include <vector>

#include "discretization/trilinear.hpp"

namespace tensormg {

namespace {
/// Trilinear map at reference point ξ ∈ [0, 1]³ of the local cell c: shape values N[8], the
/// physical point x and det J.
struct TrilinearPoint {
  double N[8], x[3], det;
};
TrilinearPoint map_point(const std::vector<double>& points, const local_index* cell, const double (&xi)[3]) {
  TrilinearPoint p{};
  double J[3][3] = {};
  for (int a = 0; a < 8; ++a) {
    double value = 1, grad[3] = {1, 1, 1};
    for (int d = 0; d < 3; ++d) {
      const bool high = (a >> d) & 1;
      const double v1 = high ? xi[d] : 1 - xi[d], g1 = high ? 1 : -1;
      value *= v1;
      for (int e = 0; e < 3; ++e) grad[e] *= e == d ? g1 : v1;
    }
    p.N[a] = value;
    const double* x = &points[3 * std::size_t(cell[a])];
    for (int i = 0; i < 3; ++i) {
      p.x[i] += value * x[i];
      for (int d = 0; d < 3; ++d) J[i][d] += x[i] * grad[d];
    }
  }
  p.det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
          J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  return p;
}

/// Gauss points and weights of n points on [0, 1] (n = 2 or 3).
void gauss_rule(int n, double* x, double* w) {
  if (n == 2) {
    x[0] = 0.5 - 0.5 / std::sqrt(3.0), x[1] = 0.5 + 0.5 / std::sqrt(3.0);
    w[0] = w[1] = 0.5;
  } else {
    x[0] = 0.5 - 0.5 * std::sqrt(0.6), x[1] = 0.5, x[2] = 0.5 + 0.5 * std::sqrt(0.6);
    w[0] = w[2] = 5.0 / 18, w[1] = 8.0 / 18;
  }
}

/// b_a += Σ_q w_q det J(q) N_a(q) f for every non-Dirichlet vertex a of cell c (atomic additions).
template <class ExecSpace>
struct ConstantLoad {
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<double*, typename ExecSpace::memory_space> b;
  double f[3];
  int components;
  KOKKOS_INLINE_FUNCTION void operator()(local_index c) const {
    double x[8][3];
    local_index v[8];
    for (int a = 0; a < 8; ++a) {
      const local_index id = cells(c, a);
      v[a] = id;
      const local_index p = id < 0 ? ~id : id;
      for (int d = 0; d < 3; ++d) x[a][d] = points(p, d);
    }
    double load[8] = {};
    for (int q = 0; q < 8; ++q) {
      double xi[3];
      hex_check_point(q, xi);  // the 2×2×2 Gauss points (weights 1/8)
      const double w = 0.125 * trilinear_det(x, xi);
      for (int a = 0; a < 8; ++a) {
        double n = w;
        for (int d = 0; d < 3; ++d) n *= ((a >> d) & 1) ? xi[d] : 1 - xi[d];
        load[a] += n;
      }
    }
    for (int a = 0; a < 8; ++a)
      if (v[a] >= 0)
        for (int m = 0; m < components; ++m) Kokkos::atomic_add(&b(v[a] * components + m), load[a] * f[m]);
  }
};

template <class ExecSpace>
void copy_to_device(const std::vector<double>& host, DistributedVector<double, ExecSpace>& v) {
  Kokkos::deep_copy(v.view(), Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
}
}  // namespace

template <class ExecSpace>
void assemble_load_vector(const HexLayout<ExecSpace>& layout, const PointFunction& f,
                          DistributedVector<double, ExecSpace>& b) {
  const int C = layout.components();
  std::vector<double> local(std::size_t(layout.n_local_vertices()) * C, 0.0);
  double gx[2], gw[2];
  gauss_rule(2, gx, gw);
  double values[3];
  for (local_index c = 0; c < layout.n_cells(); ++c) {
    const local_index* cell = &layout.host_cells()[8 * std::size_t(c)];
    for (int q = 0; q < 8; ++q) {
      const double xi[3] = {gx[q & 1], gx[(q >> 1) & 1], gx[(q >> 2) & 1]};
      const TrilinearPoint p = map_point(layout.host_points(), cell, xi);
      f(p.x, values);
      const double w = gw[q & 1] * gw[(q >> 1) & 1] * gw[(q >> 2) & 1] * p.det;
      for (int a = 0; a < 8; ++a)
        for (int m = 0; m < C; ++m) local[std::size_t(cell[a]) * C + m] += w * p.N[a] * values[m];
    }
  }
  for (local_index v = 0; v < layout.n_local_vertices(); ++v)
    if (layout.dirichlet_vertex()[v])
      for (int m = 0; m < C; ++m) local[std::size_t(v) * C + m] = 0;
  copy_to_device(local, b);
  b.compress_add();
}

template <class ExecSpace>
void assemble_constant_load(const HexLayout<ExecSpace>& layout, const double (&f)[3],
                            DistributedVector<double, ExecSpace>& b) {
  b.fill(0);
  ConstantLoad<ExecSpace> k{layout.cells(), layout.points(), b.view(), {f[0], f[1], f[2]}, layout.components()};
  Kokkos::parallel_for("tensormg::low_order::constant_load", Kokkos::RangePolicy<ExecSpace>(0, layout.n_cells()), k);
  b.compress_add();
}

template <class ExecSpace>
void interpolate(const HexLayout<ExecSpace>& layout, const PointFunction& f, DistributedVector<double, ExecSpace>& u) {
  const int C = layout.components();
  std::vector<double> local(std::size_t(layout.n_local_vertices()) * C);
  for (local_index v = 0; v < layout.n_local_vertices(); ++v) f(&layout.host_points()[3 * std::size_t(v)], &local[std::size_t(v) * C]);
  copy_to_device(local, u);
}

template <class ExecSpace>
double l2_error(const HexLayout<ExecSpace>& layout, const DistributedVector<double, ExecSpace>& u_h,
                const PointFunction& exact) {
  const int C = layout.components();
  u_h.update_ghosts();
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_h.view());
  double gx[3], gw[3];
  gauss_rule(3, gx, gw);
  double sum = 0, values[3];
  for (local_index c = 0; c < layout.n_cells(); ++c) {
    const local_index* cell = &layout.host_cells()[8 * std::size_t(c)];
    for (int q = 0; q < 27; ++q) {
      const int i[3] = {q % 3, (q / 3) % 3, q / 9};
      const double xi[3] = {gx[i[0]], gx[i[1]], gx[i[2]]};
      const TrilinearPoint p = map_point(layout.host_points(), cell, xi);
      exact(p.x, values);
      const double w = gw[i[0]] * gw[i[1]] * gw[i[2]] * p.det;
      for (int m = 0; m < C; ++m) {
        double uh = 0;
        for (int a = 0; a < 8; ++a) uh += p.N[a] * h(std::size_t(cell[a]) * C + m);
        sum += w * (uh - values[m]) * (uh - values[m]);
      }
    }
  }
  double global = 0;
  MPI_Allreduce(&sum, &global, 1, MPI_DOUBLE, MPI_SUM, layout.comm());
  return std::sqrt(global);
}

void LowOrderManufactured::solution(const double* x, double* u) const {
  const double pi = M_PI;
  const double s = std::sin(pi * x[0]) * std::sin(pi * x[1]) * std::sin(pi * x[2]);
  const int C = n_components(problem);
  for (int m = 0; m < C; ++m) u[m] = s;
}

void LowOrderManufactured::rhs(const double* x, double* f) const {
  const double pi = M_PI;
  const double s[3] = {std::sin(pi * x[0]), std::sin(pi * x[1]), std::sin(pi * x[2])};
  const double c[3] = {std::cos(pi * x[0]), std::cos(pi * x[1]), std::cos(pi * x[2])};
  const double u = s[0] * s[1] * s[2];
  if (problem == LowOrderProblem::laplace) {
    f[0] = 3 * pi * pi * u;
    return;
  }
  // u_m = u for every m: −∇·σ = −μ Δu (1, 1, 1) − (λ + μ) ∇(∇·u), ∇·u = Σ_i ∂_i u.
  for (int j = 0; j < 3; ++j) {
    double grad_div = 0;
    for (int i = 0; i < 3; ++i) {
      if (i == j) {
        grad_div += -pi * pi * u;
      } else {
        const int k = 3 - i - j;
        grad_div += pi * pi * c[i] * c[j] * s[k];
      }
    }
    f[j] = 3 * pi * pi * mu * u - (lambda + mu) * grad_div;
  }
}

#define TENSORMG_LOW_ORDER_PROBLEM(E)                                                                            \
  template void assemble_load_vector(const HexLayout<E>&, const PointFunction&, DistributedVector<double, E>&); \
  template void assemble_constant_load(const HexLayout<E>&, const double(&)[3], DistributedVector<double, E>&); \
  template void interpolate(const HexLayout<E>&, const PointFunction&, DistributedVector<double, E>&);          \
  template double l2_error(const HexLayout<E>&, const DistributedVector<double, E>&, const PointFunction&);
TENSORMG_LOW_ORDER_PROBLEM(DefaultExec)
TENSORMG_IF_SECOND_SPACE(TENSORMG_LOW_ORDER_PROBLEM(SecondaryExec))

}  // namespace tensormg
