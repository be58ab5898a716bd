#pragma once
/// @file
/// The nested meshes of a brick and their continuous Q_k layouts, coarsest first (paper 000
/// §2.1): built once from the brick description, then shared by everything that works on levels
/// (the V-cycle's operators, smoothers and transfers, the double start of mixed full multigrid,
/// the driver's finest-level operator and right-hand side).

#include <memory>
#include <vector>

#include "discretization/cartesian_mesh.hpp"
#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

template <class ExecSpace>
class LevelHierarchy {
 public:
  using layout_type = ContinuousDofLayout<ExecSpace>;

  /// Levels from the first refinement of `fine` with at least two cells in every direction (the
  /// coarsest level is then made of whole vertex patches) up to `fine` itself. Collective; throws
  /// InputError when `fine` has fewer refinements than that.
  LevelHierarchy(const BrickDescription& fine, int degree, MPI_Comm comm);

  /// The refinement of the coarsest level of a hierarchy over this brick.
  static int coarsest_refinement(const BrickDescription& fine);

  int n_levels() const { return static_cast<int>(layouts_.size()); }
  int degree() const { return layouts_.front()->degree(); }
  /// Refinements of the coarsest level.
  int coarsest_refinement() const { return coarsest_refinement_; }
  const std::shared_ptr<const layout_type>& layout(int level) const { return layouts_.at(level); }
  const std::shared_ptr<const layout_type>& finest() const { return layouts_.back(); }

 private:
  std::vector<std::shared_ptr<const layout_type>> layouts_;
  int coarsest_refinement_ = 0;
};

}  // namespace tensormg
