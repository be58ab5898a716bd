#pragma once
/// @file
/// The nested meshes of an unstructured hexahedral mesh refined uniformly (discretization/
/// hex_refinement.hpp) and their Q1 layouts, coarsest first: the levels of the low-order multigrid
/// (multigrid/low_order_multigrid.hpp) and, on its finest level, the layout the solver works on.
///
/// Distribution: the coarsest mesh is cut by recursive coordinate bisection (hex_partition) and
/// every child cell stays on its parent's rank, so the vertices a fine cell interpolates from are
/// on its rank and the transfer needs no communication beyond the vectors' own ghost exchange.
/// The balance is therefore that of the coarsest cells: it needs at least as many cells as ranks.
/// Materials likewise: a layered material is decided on the coarsest cells (hex_cell_modulus) and
/// children keep their parent's, so material interfaces follow the faces of every level (as the
/// region tags of a real mesh do) and the coarse operators see the fine problem's materials.
/// Order (HexOrdering::morton): the coarsest cells are sorted along the Z-order curve of their
/// centroids, and every refinement puts a cell's 8 children, in Z order, in its place
/// (refined_cell_sequence), so no finer level sorts its cells.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "discretization/hex_layout.hpp"
#include "discretization/hex_refinement.hpp"

namespace tensormg {

template <class ExecSpace = DefaultExec>
class HexHierarchy {
 public:
  using layout_type = HexLayout<ExecSpace>;

  /// Collective. Level 0 is `coarse`, level l its l-th uniform refinement, up to `refinements`.
  /// Throws a collective InputError for refinements outside 0..12 and for what HexLayout or
  /// refine_hex_mesh refuse.
  HexHierarchy(const HexMesh& coarse, int refinements, int components, const HexDirichlet& dirichlet,
               const HexMaterialOptions& material, MPI_Comm comm, HexOrdering ordering = HexOrdering::morton);

  int n_levels() const { return int(layouts_.size()); }
  const std::shared_ptr<const layout_type>& layout(int level) const { return layouts_.at(level); }
  const std::shared_ptr<const layout_type>& fine_layout() const { return layouts_.back(); }
  /// The interpolation stencils from level l − 1 to level l (1 ≤ l < n_levels()); their `fine`
  /// mesh is not kept (the layouts hold what the levels need). Where ExecSpace's memory is not the
  /// host's the stencils stay on the device (stencils(l)) and these vectors are empty.
  const HexRefinement& refinement(int level) const { return refinements_.at(level - 1); }
  const DeviceHexStencils<ExecSpace>& stencils(int level) const { return stencils_.at(level - 1); }
  /// Wall-clock seconds of the set-up on this rank by step, summed over the levels: "refinement"
  /// (refine_hex_mesh), then the layouts' steps (HexLayout::setup_seconds).
  std::vector<std::pair<std::string, double>> setup_seconds() const;

 private:
  std::vector<std::shared_ptr<const layout_type>> layouts_;
  std::vector<HexRefinement> refinements_;
  std::vector<DeviceHexStencils<ExecSpace>> stencils_;  ///< empty views on the host backends
  double refinement_seconds_ = 0;
};

}  // namespace tensormg
