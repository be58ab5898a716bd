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
          std::make_shared<const CartesianMesh>(brick_of(l), comm, options.rank_grid), degree));
    return;
  }
  // The process grid of the finest mesh (validated there: a wrong grid is a collective error).
  const auto finest = std::make_shared<const CartesianMesh>(brick_of(n - 1), comm, options.rank_grid);
  const std::array<int, 3> grid = finest->rank_grid();
  // Distributed from the first level whose coarser neighbour has enough cells per rank and
  // which has more DoFs than the replication threshold.
  const double dof_threshold = options.replicate_below_dofs >= 0 ? options.replicate_below_dofs
                               : runs_on_host<ExecSpace>()     ? 0.0
                                                               : double(1 << 17);
  first_distributed_ = n - 1;
  for (int l = 1; l < n; ++l) {
    bool enough = true;
    double dofs = 1;
    for (int d = 0; d < fine.dim; ++d) {
      const global_index cells = global_index(fine.coarse_cells[d]) << (coarsest_refinement_ + l);
      dofs *= std::is_same_v<Disc, DgSipg> ? double(cells) * (degree + 1) : double(cells) * degree + 1;
      enough = enough && cells / 2 >= global_index(options.replicate_below_cells_per_rank) * grid[d];
    }
    enough = enough && dofs > dof_threshold;
    if (enough) {
      first_distributed_ = l;
      break;
    }
  }
  if (n == 1) first_distributed_ = 0;
  for (int l = 0; l < n; ++l) {
    std::shared_ptr<const CartesianMesh> mesh;
    if (l < first_distributed_) mesh = std::make_shared<const CartesianMesh>(brick_of(l), MPI_COMM_SELF);
    else if (first_distributed_ == 0) mesh = finest;  // one level
    else mesh = std::make_shared<const CartesianMesh>(brick_of(l), comm, grid, 1 << (l - first_distributed_ + 1));
    layouts_.push_back(std::make_shared<const layout_type>(mesh, degree));
  }
}

template class LevelHierarchy<DefaultExec, ContinuousQk>;
TENSORMG_IF_SECOND_SPACE(template class LevelHierarchy<SecondaryExec, ContinuousQk>;)
template class LevelHierarchy<DefaultExec, DgSipg>;
TENSORMG_IF_SECOND_SPACE(template class LevelHierarchy<SecondaryExec, DgSipg>;)

}  // namespace tensormg
