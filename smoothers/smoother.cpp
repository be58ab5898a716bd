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
constexpr EnumName<ThreadStructure> structure_names[] = {{ThreadStructure::automatic, "auto"},
                                                         {ThreadStructure::per_dof, "per-dof"},
                                                         {ThreadStructure::per_column, "per-column"},
                                                         {ThreadStructure::per_patch, "per-patch"},
                                                         {ThreadStructure::per_line, "per-line"},
                                                         {ThreadStructure::lanes, "lanes"}};
constexpr EnumName<PatchResidual> residual_names[] = {
    {PatchResidual::automatic, "auto"}, {PatchResidual::full, "full"}, {PatchResidual::boundary, "boundary"}};
constexpr EnumName<HaloOverlap> halo_overlap_names[] = {
    {HaloOverlap::automatic, "auto"}, {HaloOverlap::on, "on"}, {HaloOverlap::off, "off"}};
}  // namespace

std::string to_string(HaloOverlap o) { return enum_name(halo_overlap_names, o); }
HaloOverlap parse_halo_overlap(const std::string& text) { return parse_enum(halo_overlap_names, text, "halo overlap"); }

// Measured (perf/README.md, "Overlapped halo exchange"; H100, FMG solve, ranks sharing the one
// GPU, results/h100-2026-11-24-overlap/call2): overlap / no overlap at 2 ranks Q1 1.10, Q3 0.95,
// Q7 0.97, DG Q3 0.92; at 4 ranks 1.36, 1.15, 1.20. Q1's exchange is one node layer, too little
// to hide behind the extra launches; four ranks time-slicing one GPU lose more to the smaller
// kernels than the exchange costs. With a GPU to each rank and device-to-device halos (H200 x4,
// results/h200x4-2026-11-28-overlap/, FMG at 1.2e9 DoFs) overlap is 1-4% slower at Q1, Q3 and
// Q7: the exchange is short and the split launches cost more than it hides. On the host the
// interior patches occupy the thread that would progress the messages, so nothing travels
// meanwhile.
bool overlaps_halo_exchange(HaloOverlap mode, bool on_device, int degree, int ranks_sharing_device) {
  if (mode != HaloOverlap::automatic) return mode == HaloOverlap::on;
  return on_device && degree >= 2 && ranks_sharing_device == 2;
}

std::string to_string(SmootherKind s) { return enum_name(smoother_names, s); }
std::string to_string(PatchKernel v) { return enum_name(kernel_names, v); }
std::string to_string(LocalSolver v) { return enum_name(local_solver_names, v); }
std::string to_string(ThreadStructure v) { return enum_name(structure_names, v); }
std::string to_string(PatchResidual v) { return enum_name(residual_names, v); }
PatchResidual parse_patch_residual(const std::string& text) { return parse_enum(residual_names, text, "patch residual"); }

SmootherKind parse_smoother_kind(const std::string& text) { return parse_enum(smoother_names, text, "smoother"); }
PatchKernel parse_patch_kernel(const std::string& text) { return parse_enum(kernel_names, text, "smoother kernel"); }
LocalSolver parse_local_solver(const std::string& text) { return parse_enum(local_solver_names, text, "local solver"); }
ThreadStructure parse_thread_structure(const std::string& text) {
  return parse_enum(structure_names, text, "thread structure");
}

}  // namespace tensormg
