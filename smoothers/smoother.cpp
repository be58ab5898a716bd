#include "smoothers/smoother.hpp"

#include "core/enum_names.hpp"

namespace tensormg {

namespace {
constexpr EnumName<SmootherKind> smoother_names[] = {{SmootherKind::vertex_patch, "vertex-patch"},
                                                     {SmootherKind::jacobi, "jacobi"},
                                                     {SmootherKind::chebyshev, "chebyshev"},
                                                     {SmootherKind::gauss_seidel, "gauss-seidel"}};
constexpr EnumName<PatchKernel> kernel_names[] = {{PatchKernel::automatic, "auto"},
                                                  {PatchKernel::global, "global"},
                                                  {PatchKernel::separate, "separate"},
                                                  {PatchKernel::fused, "fused"}};
constexpr EnumName<LocalSolver> local_solver_names[] = {{LocalSolver::fast_diagonalization, "fast-diagonalization"},
                                                        {LocalSolver::inverse, "inverse"},
                                                        {LocalSolver::fast_diagonalization, "fd"}};
constexpr EnumName<ThreadStructure> structure_names[] = {{ThreadStructure::per_dof, "per-dof"},
                                                         {ThreadStructure::per_column, "per-column"}};
}  // namespace

std::string to_string(SmootherKind s) { return enum_name(smoother_names, s); }
std::string to_string(PatchKernel v) { return enum_name(kernel_names, v); }
std::string to_string(LocalSolver v) { return enum_name(local_solver_names, v); }
std::string to_string(ThreadStructure v) { return enum_name(structure_names, v); }

SmootherKind parse_smoother_kind(const std::string& text) { return parse_enum(smoother_names, text, "smoother"); }
PatchKernel parse_patch_kernel(const std::string& text) { return parse_enum(kernel_names, text, "smoother kernel"); }
LocalSolver parse_local_solver(const std::string& text) { return parse_enum(local_solver_names, text, "local solver"); }
ThreadStructure parse_thread_structure(const std::string& text) {
  return parse_enum(structure_names, text, "thread structure");
}

}  // namespace tensormg
