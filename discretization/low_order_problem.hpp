#pragma once
/// @file
/// What a Q1 solve on an unstructured hexahedral mesh needs around its operator: load vectors and
/// L2 errors by 2×2×2 Gauss quadrature through the trilinear map, nodal interpolation, and the
/// manufactured solutions of the tests and `tensormg-loworder` (u = Π sin(π x_i) for Laplace,
/// u = (1, 1, 1) Π sin(π x_i) for elasticity, on [0, 1]³ with uniform material).

#include <functional>

#include "core/distributed_vector.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/low_order_operator.hpp"

namespace tensormg {

/// A vector field of `components` values at a point: f(x, values).
using PointFunction = std::function<void(const double* x, double* values)>;

/// b_i = ∫ f · φ_i over the rank's cells (then added across ranks); Dirichlet entries zero.
template <class ExecSpace>
void assemble_load_vector(const HexLayout<ExecSpace>& layout, const PointFunction& f,
                          DistributedVector<double, ExecSpace>& b);

/// The same for a constant f (components values of f used), on the device: no host loop over
/// the cells (the programs' loads without a manufactured solution).
template <class ExecSpace>
void assemble_constant_load(const HexLayout<ExecSpace>& layout, const double (&f)[3],
                            DistributedVector<double, ExecSpace>& b);

/// u_i = f(x_i) at every local vertex (owned and ghost).
template <class ExecSpace>
void interpolate(const HexLayout<ExecSpace>& layout, const PointFunction& f, DistributedVector<double, ExecSpace>& u);

/// ‖u_h − u‖_{L2} over the whole mesh (all ranks), by 3×3×3 Gauss quadrature per cell. Updates
/// u_h's ghosts.
template <class ExecSpace>
double l2_error(const HexLayout<ExecSpace>& layout, const DistributedVector<double, ExecSpace>& u_h,
                const PointFunction& exact);

/// The manufactured solution of `problem` and its right-hand side f = −∇·(κ∇u) (κ = 1) or
/// −∇·σ(u) with Lamé constants (lambda, mu).
struct LowOrderManufactured {
  LowOrderProblem problem = LowOrderProblem::laplace;
  double lambda = 0, mu = 0;
  void solution(const double* x, double* u) const;
  void rhs(const double* x, double* f) const;
};

}  // namespace tensormg
