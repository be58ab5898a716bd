#pragma once
/// @file
/// L2 and broken H1-seminorm errors of a nodal Q_k function (Gauss–Lobatto Lagrange basis per
/// cell) against a known solution, by Gauss quadrature with k + 2 points per direction: one team
/// per cell in ExecSpace, its nodal values in scratch, a thread per quadrature point. Shared by
/// the continuous and the DG discretizations, which differ only in where a cell's values are
/// (the CellValues argument).

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cmath>

#include "core/error.hpp"
#include "discretization/continuous_dof_layout.hpp"  // NodeCoordinates
#include "discretization/poisson_problem.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

namespace detail {
/// ‖e‖² and |e|²_{H1} of one or more cells.
struct ErrorSums {
  double l2 = 0, h1 = 0;
  KOKKOS_INLINE_FUNCTION ErrorSums& operator+=(const ErrorSums& o) {
    l2 += o.l2;
    h1 += o.h1;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile ErrorSums& o) volatile {
    l2 += o.l2;
    h1 += o.h1;
  }
};
}  // namespace detail
}  // namespace tensormg

namespace Kokkos {
template <>
struct reduction_identity<tensormg::detail::ErrorSums> {
  KOKKOS_FORCEINLINE_FUNCTION static tensormg::detail::ErrorSums sum() { return {}; }
};
}  // namespace Kokkos

namespace tensormg {

namespace detail {
/// One cell per team: its errors by quadrature (cell_errors below).
template <class ExecSpace, class CellValues>
struct CellErrorKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = Kokkos::View<double*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  CellValues values;
  Kokkos::View<double*, typename ExecSpace::memory_space> tables;
  NodeCoordinates coordinates;
  PoissonProblem problem;
  int dim, n, nq, nz, nodes, points, scratch_values;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, ErrorSums& sum) const {
    const local_index c = team.league_rank();
    local_index cc[3];
    global_index gc[3];
    values.cell(c, cc, gc);
    Scratch ue(team.team_scratch(0), scratch_values);
    double* const t = ue.data() + nodes;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, int(tables.extent(0))), [&](int i) { t[i] = tables(i); });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nodes), [&](int node) {
      ue(node) = values.value(c, cc, node % n, (node / n) % n, node / (n * n));
    });
    team.team_barrier();
    const double* val = t;
    const double* der = t + nq * n;
    const double* qpoint = t + 2 * nq * n;
    const double* qweight = qpoint + nq;
    ErrorSums cell;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, points),
        [&](int point, ErrorSums& s) {
          const int p = point % nq, q = (point / nq) % nq, r = point / (nq * nq);
          double v = 0, g[3] = {0, 0, 0};
          for (int l = 0; l < nz; ++l) {
            const double wz = dim == 3 ? val[r * n + l] : 1.0, dz = dim == 3 ? der[r * n + l] : 0.0;
            for (int j = 0; j < n; ++j) {
              double sv = 0, sd = 0;  // the x contraction of row (j, l)
              for (int i = 0; i < n; ++i) {
                const double nodal = ue(i + n * (j + n * l));
                sv += nodal * val[p * n + i];
                sd += nodal * der[p * n + i];
              }
              v += sv * val[q * n + j] * wz;
              g[0] += sd * val[q * n + j] * wz;
              g[1] += sv * der[q * n + j] * wz;
              g[2] += sv * val[q * n + j] * dz;
            }
          }
          const int qi[3] = {p, q, r};
          double x[3] = {0, 0, 0}, w = 1;
          for (int d = 0; d < dim; ++d) {
            const double h = coordinates.h[d];
            x[d] = coordinates.lower[d] + h * (double(gc[d]) + qpoint[qi[d]]);
            w *= qweight[qi[d]] * h;
            g[d] /= h;
          }
          const double e = problem.solution(x[0], x[1], x[2]) - v;
          double ge[3];
          problem.gradient(x[0], x[1], x[2], ge);
          s.l2 += w * e * e;
          for (int d = 0; d < dim; ++d) s.h1 += w * (ge[d] - g[d]) * (ge[d] - g[d]);
        },
        Kokkos::Sum<ErrorSums>(cell));
    Kokkos::single(Kokkos::PerTeam(team), [&] { sum += cell; });
  }
};
}  // namespace detail

/// CellValues: trivially copyable, with
///   void cell(local_index c, local_index cc[3], global_index g[3]) const   (rank and global cell coordinates)
///   double value(local_index c, const local_index cc[3], int i, int j, int l) const   (node (i, j, l))
/// `coordinates` gives the brick's lower corner and the cell sizes. Collective over comm.
template <class ExecSpace, class CellValues>
DiscretizationErrors cell_errors(MPI_Comm comm, int dim, int k, local_index cells, const NodeCoordinates& coordinates,
                                 const CellValues& values, const PoissonProblem& problem) {
  TENSORMG_CHECK(problem.known_solution(), "errors need a known solution; problem '" << problem.name() << "' has none");
  using Memory = typename ExecSpace::memory_space;
  using detail::ErrorSums;
  const int n = k + 1, nq = k + 2;
  // Tables [q][i] of the basis values and derivatives at the Gauss points, then points and weights.
  const auto basis = LagrangeBasis1D::gauss_lobatto(k);
  const auto quad = gauss_quadrature(nq);
  Kokkos::View<double*, Memory> tables("tensormg::errors::tables", 2 * nq * n + 2 * nq);
  {
    const auto t = Kokkos::create_mirror_view(tables);
    for (int q = 0; q < nq; ++q) {
      for (int i = 0; i < n; ++i) {
        t(q * n + i) = basis.value(i, quad.points[q]);
        t(nq * n + q * n + i) = basis.derivative(i, quad.points[q]);
      }
      t(2 * nq * n + q) = quad.points[q];
      t(2 * nq * n + nq + q) = quad.weights[q];
    }
    Kokkos::deep_copy(tables, t);
  }
  const int nz = dim == 3 ? n : 1, qz = dim == 3 ? nq : 1;
  const int nodes = n * n * nz, points = nq * nq * qz;
  using Scratch = Kokkos::View<double*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Policy policy = host ? Policy(cells, 1) : Policy(cells, 64);
  const int scratch_values = nodes + int(tables.extent(0));
  ErrorSums total;
  if (cells > 0)
    Kokkos::parallel_reduce(
        "tensormg::errors", policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(scratch_values))),
        detail::CellErrorKernel<ExecSpace, CellValues>{values, tables, coordinates, problem, dim, n, nq, nz, nodes,
                                                       points, scratch_values},
        Kokkos::Sum<ErrorSums>(total));
  double local[2] = {total.l2, total.h1}, sums[2] = {0, 0};
  MPI_Allreduce(local, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
  return {std::sqrt(sums[0]), std::sqrt(sums[1])};
}

}  // namespace tensormg
