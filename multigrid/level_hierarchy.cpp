#include "multigrid/level_hierarchy.hpp"

#include <algorithm>
#include <type_traits>

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
LevelHierarchy<ExecSpace, Disc>::LevelHierarchy(const BrickDescription& fine, int degree, MPI_Comm comm)
    : coarsest_refinement_(coarsest_refinement(fine)) {
  TENSORMG_CHECK_COLLECTIVE(comm, fine.refinements >= coarsest_refinement_,
                            "multigrid needs at least two cells per direction on the finest mesh (vertex patches of "
                            "its coarsest level); use at least "
                                << coarsest_refinement_ << " refinements for these coarse cells");
  std::array<int, 3> rank_grid = {0, 0, 0};
  for (int r = coarsest_refinement_; r <= fine.refinements; ++r) {
    BrickDescription brick = fine;
    brick.refinements = r;
    std::shared_ptr<const CartesianMesh> mesh;
    if constexpr (std::is_same_v<Disc, DgSipg>) {
      mesh = std::make_shared<const CartesianMesh>(brick, comm, rank_grid, 1 << (r - coarsest_refinement_));
      rank_grid = mesh->rank_grid();
    } else {
      mesh = std::make_shared<const CartesianMesh>(brick, comm);
    }
    layouts_.push_back(std::make_shared<const layout_type>(mesh, degree));
  }
}

template class LevelHierarchy<DefaultExec, ContinuousQk>;
template class LevelHierarchy<SecondaryExec, ContinuousQk>;
template class LevelHierarchy<DefaultExec, DgSipg>;
template class LevelHierarchy<SecondaryExec, DgSipg>;

}  // namespace tensormg
