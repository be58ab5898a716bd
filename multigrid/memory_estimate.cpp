#include "multigrid/memory_estimate.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/error.hpp"
#include "core/types.hpp"
#include "discretization/solution_output.hpp"
#include "multigrid/level_hierarchy.hpp"
#include "smoothers/dg_patch_matrices.hpp"

namespace tensormg {

namespace {

/// Nodes of the largest rank box of the solve's mesh at refinement r.
double box_nodes(const SolveShape& s, int refinements) {
  std::array<global_index, 3> cells{1, 1, 1};
  for (int d = 0; d < s.brick.dim; ++d) cells[d] = global_index(s.brick.coarse_cells[d]) << std::min(refinements, 40);
  return s.discontinuous ? largest_rank_box_dg_values(s.brick.dim, s.degree, cells, s.ranks, s.rank_grid)
                         : largest_rank_box_nodes(s.brick.dim, s.degree, cells, s.ranks, s.rank_grid);
}

}  // namespace

double largest_rank_box_nodes(int dim, int degree, const std::array<global_index, 3>& cells, int ranks,
                              std::array<int, 3> rank_grid) {
  double total_cells = 1;
  for (int d = 0; d < dim; ++d) total_cells *= double(cells[d]);
  if (rank_grid[0] == 0) {
    // The automatic grid's search needs sane sizes; past 2^62 cells only one answer matters (too
    // large), so any grid does.
    rank_grid = total_cells < 0x1p62 ? choose_rank_grid(dim, ranks, cells) : std::array<int, 3>{ranks, 1, 1};
  }
  double n = 1;
  for (int d = 0; d < dim; ++d) n *= std::ceil(double(cells[d]) / std::max(rank_grid[d], 1)) * degree + 1;
  return n;
}

double largest_rank_box_dg_values(int dim, int degree, const std::array<global_index, 3>& cells, int ranks,
                                  std::array<int, 3> rank_grid) {
  double total_cells = 1;
  for (int d = 0; d < dim; ++d) total_cells *= double(cells[d]);
  if (rank_grid[0] == 0)
    rank_grid = total_cells < 0x1p62 ? choose_rank_grid(dim, ranks, cells) : std::array<int, 3>{ranks, 1, 1};
  double box[3] = {1, 1, 1};
  for (int d = 0; d < dim; ++d) box[d] = std::ceil(double(cells[d]) / std::max(rank_grid[d], 1));
  double owned = 1;
  for (int d = 0; d < dim; ++d) owned *= box[d];
  double ghosts = 0;  // one slab behind each box face (an upper bound: boundary faces have none)
  for (int d = 0; d < dim; ++d) ghosts += 2 * owned / box[d];
  return (owned + ghosts) * std::pow(double(degree + 1), dim);
}

int krylov_vectors(const std::string& solver, int restart) {
  if (solver == "cg") return 4;
  if (solver == "gmres") return restart + 4;
  if (solver == "fgmres") return 2 * restart + 4;
  // fmg, vcycle: A x in the solver's precision in mixed precision (cycle_until_converged; in one
  // precision it is the finest level's b, so this one is spare there); the correction is the
  // finest level's x, counted with the levels.
  return 1;
}

MemoryNeed estimate_solve_memory(const SolveShape& s) {
  MemoryNeed need;
  const double fine = box_nodes(s, s.brick.refinements);
  const double number = s.number_bytes, mg_number = s.mg_number_bytes;
  // Driver: x, b; right-hand side assembly: three temporaries (f, g, lift); outer iteration.
  double vectors = 2 + 3 + s.outer_vectors;
  if (s.jacobi) vectors += 2;
  need.device_bytes += vectors * fine * number;
  if (s.multigrid) {
    int r_min = 0;
    for (int d = 0; d < s.brick.dim; ++d)
      while ((s.brick.coarse_cells[d] << r_min) < 2) ++r_min;
    // Per level: x, b, r (+ the smoother's vectors); the coarsest adds its Jacobi diagonal and
    // inverse; a mixed preconditioner converts through two fine-level vectors.
    double smoother_vectors = 0;
    switch (s.smoother) {
      case SmootherKind::vertex_patch:
        if (s.discontinuous) smoother_vectors = s.dg_global_residual ? 1 : 0;
        else smoother_vectors = s.patch_kernel == PatchKernel::fused ? 0 : 2;
        break;
      case SmootherKind::jacobi: smoother_vectors = 3; break;
      case SmootherKind::chebyshev: smoother_vectors = 5; break;
      case SmootherKind::gauss_seidel: smoother_vectors = 2; break;
    }
    const double stencil = std::pow(2.0 * s.degree + 1, s.brick.dim);
    const bool dense_inverse = s.discontinuous && s.dg_dense_inverse && s.smoother == SmootherKind::vertex_patch;
    // Several ranks: the hierarchy's partition (level_hierarchy.cpp), whose boxes are multiples
    // of the last replicated level's and can exceed the balanced box; each vertex-patch level adds
    // its halo box (x, b and, for continuous unless fused, r: one cell more per side).
    const bool ranked = s.ranks > 1;
    std::array<int, 3> grid = s.rank_grid;
    int first_distributed = r_min, unit_level = r_min;
    const auto cells_at = [&](int r) {
      std::array<global_index, 3> c{1, 1, 1};
      for (int d = 0; d < s.brick.dim; ++d) c[d] = global_index(s.brick.coarse_cells[d]) << std::min(r, 40);
      return c;
    };
    if (ranked) {
      if (grid[0] == 0) grid = choose_rank_grid(s.brick.dim, s.ranks, cells_at(s.brick.refinements));
      HierarchyOptions ho;  // LevelHierarchy's rule with the driver's options
      ho.replicate_below_dofs = s.replicate_below_dofs;
      first_distributed = first_distributed_refinement(s.brick, s.degree, s.discontinuous, grid, ho, device_memory_is_host());
      unit_level = first_distributed > r_min ? first_distributed - 1 : first_distributed;
    }
    // Entries of the largest rank box at refinement r (grown by `grow` cells per side).
    const auto level_box = [&](int r, int grow) {
      if (!ranked) return box_nodes(s, r);
      const auto all = cells_at(r), units = cells_at(unit_level);
      double box[3] = {1, 1, 1}, n = 1, owned = 1, ghosts = 0;
      for (int d = 0; d < s.brick.dim; ++d) {
        box[d] = r < first_distributed ? double(all[d])
                                       : std::ceil(double(units[d]) / grid[d]) * (double(all[d]) / double(units[d]));
        box[d] = std::min(box[d] + 2 * grow, double(all[d]));
        n *= box[d] * s.degree + 1;
        owned *= box[d];
      }
      if (!s.discontinuous) return n;
      if (grow == 0)
        for (int d = 0; d < s.brick.dim; ++d) ghosts += 2 * owned / box[d];
      return (owned + ghosts) * std::pow(double(s.degree + 1), s.brick.dim);
    };
    // The driver's vectors live on the hierarchy's finest box (counted above as the balanced one).
    need.device_bytes += vectors * std::max(0.0, level_box(s.brick.refinements, 0) - fine) * number;
    for (int r = r_min; r <= s.brick.refinements; ++r) {
      const double n = level_box(r, 0);
      if (ranked && s.smoother == SmootherKind::vertex_patch && r >= first_distributed)
        need.device_bytes += (s.patch_kernel == PatchKernel::fused || s.discontinuous ? 2 : 3) * level_box(r, 1) * mg_number;
      need.device_bytes += (3 + (r > r_min ? smoother_vectors : 2)) * n * mg_number;
      // The DG dense-inverse local solve: one P × P block per combination of boundary positions.
      if (dense_inverse && r > r_min) need.device_bytes += double(dg_dense_inverse_entries(s.brick.dim, s.degree, cells_at(r))) * mg_number;
      // Gauss–Seidel assembles each level's matrix on the host (values + column indices + rows).
      if (s.smoother == SmootherKind::gauss_seidel && r > r_min) need.host_bytes += n * stencil * (mg_number + 4) + 2 * n * 8;
    }
    if (s.mg_number_bytes != s.number_bytes) need.device_bytes += 2 * fine * mg_number;
    if (s.mixed_full_multigrid && s.brick.refinements > r_min) {
      SolveShape coarse = s;
      coarse.brick.refinements -= 1;
      for (int r = r_min; r <= coarse.brick.refinements; ++r) {
        need.device_bytes += (3 + (r > r_min ? smoother_vectors : 2)) * box_nodes(coarse, r) * 8;
        if (dense_inverse && r > r_min) need.device_bytes += double(dg_dense_inverse_entries(s.brick.dim, s.degree, cells_at(r))) * 8;
      }
      need.device_bytes += 2 * box_nodes(coarse, coarse.brick.refinements) * 8;  // its b and x
    }
  }
  // Host: the errors' and the output's copies of the owned values (each rank writes its own block;
  // DG adds the values' points and sub-cells).
  need.host_bytes += fine * 8;
  if (s.write_output) need.host_bytes += s.discontinuous ? dg_output_bytes(s.brick.dim, s.degree, fine) : fine * 8;
  need.device_bytes += small_data_margin_bytes;
  return need;
}

bool device_memory_is_host() {
  return std::is_same_v<typename DefaultExec::memory_space, Kokkos::HostSpace>;
}

double device_available_bytes() {
  if (device_memory_is_host()) return host_available_bytes();
  return double(cuda_mma::free_memory_bytes());
}

void check_solve_memory(const SolveShape& shape, MPI_Comm comm) {
  // Local indices are 32-bit: say so before the memory (the more specific limit).
  const double nodes = box_nodes(shape, shape.brick.refinements);
  TENSORMG_CHECK_COLLECTIVE(comm, nodes <= double(std::numeric_limits<local_index>::max()),
                            "a rank would hold " << nodes << (shape.discontinuous ? " DG values" : " nodes") << ", more than the "
                                                 << std::numeric_limits<local_index>::max()
                                                 << " one rank can address with 32-bit local indices; use more MPI "
                                                    "ranks, fewer refinements (-r) or fewer coarse cells (--cells)");
  const MemoryNeed need = estimate_solve_memory(shape);
  check_memory(need, device_available_bytes(), device_memory_is_host(), comm, "this solve",
               "use fewer refinements (-r), fewer coarse cells (--cells), a lower degree or more MPI ranks");
}

}  // namespace tensormg
