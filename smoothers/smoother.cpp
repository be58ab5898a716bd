#include "smoothers/smoother.hpp"

#include "core/error.hpp"

namespace tensormg {

std::string to_string(SmootherKind s) {
  switch (s) {
    case SmootherKind::vertex_patch: return "vertex-patch";
    case SmootherKind::jacobi: return "jacobi";
    case SmootherKind::chebyshev: return "chebyshev";
    case SmootherKind::gauss_seidel: return "gauss-seidel";
  }
  return "unknown";
}

SmootherKind parse_smoother_kind(const std::string& text) {
  if (text == "vertex-patch") return SmootherKind::vertex_patch;
  if (text == "jacobi") return SmootherKind::jacobi;
  if (text == "chebyshev") return SmootherKind::chebyshev;
  if (text == "gauss-seidel") return SmootherKind::gauss_seidel;
  throw InputError("smoother '" + text + "' is not supported; use vertex-patch, jacobi, chebyshev or gauss-seidel");
}

std::string to_string(PatchKernel v) {
  switch (v) {
    case PatchKernel::automatic: return "auto";
    case PatchKernel::global: return "global";
    case PatchKernel::separate: return "separate";
    case PatchKernel::fused: return "fused";
  }
  return "unknown";
}
std::string to_string(LocalSolver v) { return v == LocalSolver::inverse ? "inverse" : "fast-diagonalization"; }
std::string to_string(ThreadStructure v) { return v == ThreadStructure::per_dof ? "per-dof" : "per-column"; }

PatchKernel parse_patch_kernel(const std::string& text) {
  if (text == "auto") return PatchKernel::automatic;
  if (text == "global") return PatchKernel::global;
  if (text == "separate") return PatchKernel::separate;
  if (text == "fused") return PatchKernel::fused;
  throw InputError("smoother kernel '" + text + "' is not supported; use auto, global, separate or fused");
}
LocalSolver parse_local_solver(const std::string& text) {
  if (text == "fast-diagonalization" || text == "fd") return LocalSolver::fast_diagonalization;
  if (text == "inverse") return LocalSolver::inverse;
  throw InputError("local solver '" + text + "' is not supported; use fast-diagonalization or inverse");
}
ThreadStructure parse_thread_structure(const std::string& text) {
  if (text == "per-dof") return ThreadStructure::per_dof;
  if (text == "per-column") return ThreadStructure::per_column;
  throw InputError("thread structure '" + text + "' is not supported; use per-dof or per-column");
}

}  // namespace tensormg
