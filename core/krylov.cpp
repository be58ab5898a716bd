#include "core/krylov.hpp"

namespace tensormg {

std::string to_string(SolverReason r) {
  switch (r) {
    case SolverReason::converged_relative: return "converged (relative tolerance)";
    case SolverReason::converged_absolute: return "converged (absolute tolerance)";
    case SolverReason::max_iterations: return "maximum iterations reached";
    case SolverReason::diverged: return "diverged";
    case SolverReason::not_finite: return "NaN or Inf encountered";
    case SolverReason::breakdown: return "breakdown";
    case SolverReason::stagnated: return "stagnated";
  }
  return "unknown";
}

}  // namespace tensormg
