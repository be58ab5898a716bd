#include "multigrid/level_hierarchy.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace tensormg {

template <class ExecSpace>
int LevelHierarchy<ExecSpace>::coarsest_refinement(const BrickDescription& fine) {
  int r_min = 0;
  for (int d = 0; d < fine.dim; ++d) {
    int r = 0;
    while ((fine.coarse_cells[d] << r) < 2) ++r;
    r_min = std::max(r_min, r);
  }
  return r_min;
}

template <class ExecSpace>
LevelHierarchy<ExecSpace>::LevelHierarchy(const BrickDescription& fine, int degree, MPI_Comm comm)
    : coarsest_refinement_(coarsest_refinement(fine)) {
  TENSORMG_CHECK_COLLECTIVE(comm, fine.refinements >= coarsest_refinement_,
                            "multigrid needs at least two cells per direction on the finest mesh (vertex patches of "
                            "its coarsest level); use at least "
                                << coarsest_refinement_ << " refinements for these coarse cells");
  for (int r = coarsest_refinement_; r <= fine.refinements; ++r) {
    BrickDescription brick = fine;
    brick.refinements = r;
    layouts_.push_back(std::make_shared<const layout_type>(std::make_shared<const CartesianMesh>(brick, comm), degree));
  }
}

template class LevelHierarchy<DefaultExec>;
template class LevelHierarchy<SecondaryExec>;

}  // namespace tensormg
