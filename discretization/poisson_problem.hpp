#pragma once
/// @file
/// −Δu = f on the brick with u = g on its boundary, discretized with continuous Q_k: right-hand
/// side (mass matrix times the interpolant of f), Dirichlet lifting, and L2 / H1-seminorm errors
/// against a known solution.

#include <array>
#include <functional>
#include <optional>
#include <string>

#include "discretization/laplace_operator.hpp"

namespace tensormg {

/// A problem: f, and u where it is known (which then also gives g).
struct PoissonProblem {
  std::string name;
  std::function<double(const std::array<double, 3>&)> rhs;
  std::function<double(const std::array<double, 3>&)> solution;                          ///< may be empty
  std::function<std::array<double, 3>(const std::array<double, 3>&)> solution_gradient;  ///< with solution
  bool known_solution() const { return static_cast<bool>(solution); }
};

/// "sine": u = Π sin(π x_i) (zero on the unit cube's boundary); "exponential": u = exp(Σ x_i),
/// f = −d u (inhomogeneous Dirichlet data); "one": f ≡ 1, g = 0, u unknown.
PoissonProblem make_poisson_problem(const std::string& name, int dim);
/// The names make_poisson_problem accepts.
std::vector<std::string> poisson_problem_names();

/// Builds the linear system A x = b of the constrained operator: b = M f_I on interior rows minus
/// the lifted boundary data A_full g_I, and b = g on Dirichlet rows (so x = g there).
template <class Number, class ExecSpace>
void assemble_rhs(const LaplaceOperator<Number, ExecSpace>& laplace, const PoissonProblem& problem,
                  DistributedVector<Number, ExecSpace>& rhs);

struct DiscretizationErrors {
  double l2 = 0;  ///< ‖u − u_h‖_{L2}
  double h1 = 0;  ///< |u − u_h|_{H1} (seminorm)
};

/// Errors by Gauss quadrature with k+2 points per direction (collective, computed on the host).
template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const ContinuousDofLayout<ExecSpace>& layout,
                                    const DistributedVector<Number, ExecSpace>& uh, const PoissonProblem& problem);

}  // namespace tensormg
