#include "multigrid/level_hierarchy.hpp"

#include <algorithm>
#include <type_traits>

#include "core/device_traits.hpp"
#include "core/error.hpp"

namespace tensormg {

template <class ExecSpace, class Disc>
int LevelHierarchy<ExecSpace, Disc>::coarsest_refinement(const BrickDescription& fine) {
  int r_min = 0;
  for (int d = 0; d < fine.dim; ++d) {
    int r = 0;
    while ((fine.coarse_cells[d] << r) < 2) ++r;
    r_min = std::max(r_min, r);
  }
  return r_min;
}

int first_distributed_refinement(const BrickDescription& fine, int degree, bool discontinuous,
                                 const std::array<int, 3>& grid, const HierarchyOptions& options, bool on_host) {
  const int r_min = LevelHierarchy<DefaultExec>::coarsest_refinement(fine);
  const double dof_threshold = options.replicate_below_dofs >= 0 ? options.replicate_below_dofs
                               : on_host                       ? 0.0
                                                               : double(1 << 17);
  for (int r = r_min + 1; r <= fine.refinements; ++r) {
    bool enough = true;
    double dofs = 1;
    for (int d = 0; d < fine.dim; ++d) {
      const global_index cells = global_index(fine.coarse_cells[d]) << r;
      dofs *= discontinuous ? double(cells) * (degree + 1) : double(cells) * degree + 1;
      enough = enough && cells / 2 >= global_index(options.replicate_below_cells_per_rank) * grid[d];
    }
    if (enough && dofs > dof_threshold) return r;
  }
  return fine.refinements;
}

template <class ExecSpace, class Disc>
LevelHierarchy<ExecSpace, Disc>::LevelHierarchy(const BrickDescription& fine, int degree, MPI_Comm comm,
                                                HierarchyOptions options)
    : coarsest_refinement_(coarsest_refinement(fine)) {
  TENSORMG_CHECK_COLLECTIVE(comm, fine.refinements >= coarsest_refinement_,
                            "multigrid needs at least two cells per direction on the finest mesh (vertex patches of "
                            "its coarsest level); use at least "
                                << coarsest_refinement_ << " refinements for these coarse cells");
  TENSORMG_CHECK_COLLECTIVE(comm, options.replicate_below_cells_per_rank >= 0,
                            "replicate_below_cells_per_rank must be >= 0");
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const int n = fine.refinements - coarsest_refinement_ + 1;
  const auto brick_of = [&](int level) {
    BrickDescription brick = fine;
    brick.refinements = coarsest_refinement_ + level;
    return brick;
  };
  if (ranks == 1) {
    for (int l = 0; l < n; ++l)
      layouts_.push_back(std::make_shared<const layout_type>(
          std::make_shared<const CartesianMesh>(brick_of(l), comm, options.rank_grid), degree, options.transport));
    return;
  }
  // The process grid of the finest mesh (validated there: a wrong grid is a collective error).
  const auto finest = std::make_shared<const CartesianMesh>(brick_of(n - 1), comm, options.rank_grid);
  const std::array<int, 3> grid = finest->rank_grid();
  first_distributed_ = first_distributed_refinement(fine, degree, std::is_same_v<Disc, DgSipg>, grid, options,
                                                    runs_on_host<ExecSpace>()) -
                       coarsest_refinement_;
  for (int l = 0; l < n; ++l) {
    std::shared_ptr<const CartesianMesh> mesh;
    if (l < first_distributed_) mesh = std::make_shared<const CartesianMesh>(brick_of(l), MPI_COMM_SELF);
    else if (first_distributed_ == 0) mesh = finest;  // one level
    else mesh = std::make_shared<const CartesianMesh>(brick_of(l), comm, grid, 1 << (l - first_distributed_ + 1));
    layouts_.push_back(std::make_shared<const layout_type>(mesh, degree, options.transport));
  }
}

template class LevelHierarchy<DefaultExec, ContinuousQk>;
TENSORMG_IF_SECOND_SPACE(template class LevelHierarchy<SecondaryExec, ContinuousQk>;)
template class LevelHierarchy<DefaultExec, DgSipg>;
TENSORMG_IF_SECOND_SPACE(template class LevelHierarchy<SecondaryExec, DgSipg>;)

}  // namespace tensormg
