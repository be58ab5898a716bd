#pragma once
/// @file
/// −Δu = f on the brick with u = g on its boundary, discretized with SIPG on discontinuous Q_k
/// (paper 002 eq. 4): interpolation, the right-hand side with the Nitsche boundary data, and
/// errors. Every step runs in ExecSpace.

#include "discretization/dg_laplace_operator.hpp"
#include "discretization/poisson_problem.hpp"

namespace tensormg {

/// v = f at every owned node (cell by cell; shared faces get each cell's own value). f: a
/// trivially copyable functor with KOKKOS_INLINE_FUNCTION double operator()(double, double, double).
namespace detail {
template <class View, class F>
struct DgInterpolation {
  CellBox box;
  NodeCoordinates c;
  View d;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(local_index l) const {
    using Number = typename View::non_const_value_type;
    const int n = box.degree + 1;
    const local_index cell = l / box.cell_dofs;
    const int node = l - cell * box.cell_dofs;
    local_index cc[3];
    box.coordinates(cell, cc);
    const int i[3] = {node % n, (node / n) % n, node / (n * n)};
    double x[3] = {0, 0, 0};
    for (int e = 0; e < box.dim; ++e) x[e] = c.global(e, (box.offset[e] + cc[e]) * box.degree + i[e]);
    d(l) = static_cast<Number>(f(x[0], x[1], x[2]));
  }
};
}  // namespace detail

template <class Number, class ExecSpace, class F>
void interpolate_on_device(const DgDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v, const F& f) {
  const CellBox box = layout.box();
  using View = typename DistributedVector<Number, ExecSpace>::view_type;
  Kokkos::parallel_for("tensormg::dg::interpolate", Kokkos::RangePolicy<ExecSpace>(0, box.n_owned_cells * box.cell_dofs),
                       detail::DgInterpolation<View, F>{box, layout.node_coordinates(), v.view(), f});
}

/// b = M f_I + Σ over boundary faces ∫_F g_I (σ_b v − ∂ₙv) (g_I: u interpolated on the face's
/// nodes; zero when u is unknown), with the penalty of `laplace`.
template <class Number, class ExecSpace>
void assemble_rhs(const DgLaplaceOperator<Number, ExecSpace>& laplace, const PoissonProblem& problem,
                  DistributedVector<Number, ExecSpace>& rhs);

/// Errors by Gauss quadrature with k+2 points per direction (broken H1 seminorm); collective.
template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const DgDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& uh,
                                    const PoissonProblem& problem);

/// The error in the DG energy norm, ‖u − u_h‖²_DG = Σ_K |u − u_h|²_{H1(K)} + Σ_F σ_F ‖[u − u_h]‖²_F
/// (σ_F the operator's interior penalty σ or boundary penalty σ_b; on the boundary [u − u_h] =
/// g − u_h with g interpolated on the face nodes). The face sums run on the host (a loop over
/// the rank's cells; for tests and moderate sizes), the cell sums as compute_errors. Collective.
template <class Number, class ExecSpace>
double compute_energy_error(const DgLaplaceOperator<Number, ExecSpace>& op, const DistributedVector<Number, ExecSpace>& uh,
                            const PoissonProblem& problem);

}  // namespace tensormg
