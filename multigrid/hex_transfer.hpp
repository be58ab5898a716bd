#pragma once
/// @file
/// Transfer between two levels of a HexHierarchy: prolongation P is the Q1 interpolation of the
/// coarse function at the fine vertices (the refinement's stencils: weights 1, 1/2, 1/4, 1/8 of
/// the coarse vertices of the edge, face or cell a fine vertex sits on), restriction its transpose.
/// Both are stored as index/weight lists (rows of up to 8 entries; about 3.4 per fine vertex) and
/// applied to every component of a vector field. Dirichlet vertices take no part on either level
/// (P has zero rows and columns there, R = Pᵀ): the correction is zero on them.
///
/// Rank-local: fine cells live on their parent's rank (hex_hierarchy.hpp), so every coarse vertex
/// a fine owned vertex needs is a local (owned or ghost) coarse vertex. Each row sums its entries
/// in the order of the mesh's vertex numbers, whatever the ranks; restriction adds the ghost rows'
/// sums into their owners (compress).

#include <memory>

#include "core/distributed_vector.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/hex_refinement.hpp"

namespace tensormg {

template <class ExecSpace = DefaultExec>
class HexTransfer {
 public:
  using vector_type = DistributedVector<double, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;

  /// refinement: from the coarse layout's mesh to the fine layout's (HexHierarchy::refinement);
  /// its stencils, or where given on ExecSpace `stencils` (HexHierarchy::stencils).
  HexTransfer(const HexLayout<ExecSpace>& coarse, const HexLayout<ExecSpace>& fine, const HexRefinement& refinement,
              const DeviceHexStencils<ExecSpace>* stencils = nullptr);

  /// fine += P coarse on the owned fine entries that are not Dirichlet, from the coarse entries that
  /// are not Dirichlet (coarse's ghosts are updated).
  void prolongate_add(vector_type& fine, const vector_type& coarse) const;
  /// coarse = Pᵀ fine from the owned fine entries; the coarse Dirichlet entries are zero.
  void restrict_to(vector_type& coarse, const vector_type& fine) const;

  /// Device bytes of the two index/weight lists.
  double device_bytes() const;

 private:
  struct Rows {
    Kokkos::View<local_index*, memory_space> offsets, columns;
    Kokkos::View<double*, memory_space> weights;
  };
  /// y(row) (+)= Σ w x(column) for every row and component.
  void apply(const Rows& rows, const vector_type& x, vector_type& y, bool add) const;
  int components_ = 1;
  Rows prolongation_;  ///< rows: owned fine vertices; columns: local coarse vertices
  Rows restriction_;   ///< rows: local coarse vertices; columns: owned fine vertices
};

}  // namespace tensormg
