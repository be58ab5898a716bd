#pragma once
/// @file
/// −Δu = f on the brick with u = g on its boundary, discretized with continuous Q_k: right-hand
/// side (mass matrix times the interpolant of f), Dirichlet lifting, and L2 / H1-seminorm errors
/// against a known solution.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "discretization/laplace_operator.hpp"

namespace tensormg {

/// The problems of the drivers and tests.
enum class ProblemKind {
  sine,         ///< u = Π sin(π x_i): zero on the unit brick's boundary
  exponential,  ///< u = exp(Σ x_i), f = −d u: inhomogeneous Dirichlet data
  one           ///< f ≡ 1, g = 0, u unknown
};
/// The name of each problem kind, in one table (parse and print both read it).
std::string to_string(ProblemKind kind);
/// Parses a problem name; throws InputError naming the known ones.
ProblemKind parse_problem_kind(const std::string& name);

/// A problem: f, and u with its gradient where they are known (which then also give g).
/// Trivially copyable and evaluated inside kernels, so interpolation and errors run where the
/// vectors live (setup on the device, not a host loop over every node).
struct PoissonProblem {
  ProblemKind kind = ProblemKind::sine;
  int dim = 2;

  std::string name() const { return to_string(kind); }
  bool known_solution() const { return kind != ProblemKind::one; }

  KOKKOS_INLINE_FUNCTION double rhs(double x, double y, double z) const {
    switch (kind) {
      case ProblemKind::sine: return dim * pi() * pi() * solution(x, y, z);
      case ProblemKind::exponential: return -dim * solution(x, y, z);
      case ProblemKind::one: break;
    }
    return 1.0;
  }
  /// u; zero when unknown (kind one).
  KOKKOS_INLINE_FUNCTION double solution(double x, double y, double z) const {
    using Kokkos::Experimental::exp;
    using Kokkos::Experimental::sin;
    switch (kind) {
      case ProblemKind::sine: return sin(pi() * x) * sin(pi() * y) * (dim == 3 ? sin(pi() * z) : 1.0);
      case ProblemKind::exponential: return exp(x + y + (dim == 3 ? z : 0.0));
      case ProblemKind::one: break;
    }
    return 0.0;
  }
  /// ∇u (zero components beyond dim, and everywhere when u is unknown).
  KOKKOS_INLINE_FUNCTION void gradient(double x, double y, double z, double g[3]) const {
    using Kokkos::Experimental::cos;
    using Kokkos::Experimental::sin;
    g[0] = g[1] = g[2] = 0;
    if (kind == ProblemKind::sine) {
      const double s[3] = {sin(pi() * x), sin(pi() * y), dim == 3 ? sin(pi() * z) : 1.0};
      const double c[3] = {cos(pi() * x), cos(pi() * y), cos(pi() * z)};
      g[0] = pi() * c[0] * s[1] * s[2];
      g[1] = pi() * s[0] * c[1] * s[2];
      if (dim == 3) g[2] = pi() * s[0] * s[1] * c[2];
    } else if (kind == ProblemKind::exponential) {
      const double u = solution(x, y, z);
      g[0] = g[1] = u;
      if (dim == 3) g[2] = u;
    }
  }
  // Host conveniences.
  double rhs(const std::array<double, 3>& x) const { return rhs(x[0], x[1], x[2]); }
  double solution(const std::array<double, 3>& x) const { return solution(x[0], x[1], x[2]); }
  std::array<double, 3> gradient(const std::array<double, 3>& x) const {
    std::array<double, 3> g;
    gradient(x[0], x[1], x[2], g.data());
    return g;
  }

 private:
  KOKKOS_INLINE_FUNCTION static constexpr double pi() { return 3.14159265358979323846; }
};

/// The problem of that name in dim dimensions; throws InputError for unknown names.
PoissonProblem make_poisson_problem(const std::string& name, int dim);
/// The names make_poisson_problem accepts.
std::vector<std::string> poisson_problem_names();

/// Builds the linear system A x = b of the constrained operator: b = M f_I on interior rows minus
/// the lifted boundary data A_full g_I, and b = g on Dirichlet rows (so x = g there). Every step
/// runs in ExecSpace (interpolation, mass and Laplace applications).
template <class Number, class ExecSpace>
void assemble_rhs(const LaplaceOperator<Number, ExecSpace>& laplace, const PoissonProblem& problem,
                  DistributedVector<Number, ExecSpace>& rhs);

struct DiscretizationErrors {
  double l2 = 0;  ///< ‖u − u_h‖_{L2}
  double h1 = 0;  ///< |u − u_h|_{H1} (seminorm)
};

/// Errors by Gauss quadrature with k+2 points per direction (collective; one team per cell in
/// ExecSpace).
template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const ContinuousDofLayout<ExecSpace>& layout,
                                    const DistributedVector<Number, ExecSpace>& uh, const PoissonProblem& problem);

}  // namespace tensormg
