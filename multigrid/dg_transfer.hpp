#pragma once
/// @file
/// Matrix-free transfer of DG functions between two nested levels (the fine mesh is the coarse
/// one refined once, with rank boxes that nest, or a coarse level replicated on every rank: every
/// fine cell's parent on the same rank): prolongation = embedding, restriction = its transpose
/// (dg_transfer_kernels.hpp), summed over the ranks for a replicated coarse level.

#include <memory>

#include "core/distributed_vector.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "multigrid/dg_transfer_kernel_table.hpp"

namespace tensormg {

template <class Number, class ExecSpace = DefaultExec>
class DgTransfer {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;

  /// Collective; throws InputError when the levels do not nest (degree, refinement, rank boxes)
  /// and the coarse level is not replicated.
  DgTransfer(std::shared_ptr<const DgDofLayout<ExecSpace>> coarse, std::shared_ptr<const DgDofLayout<ExecSpace>> fine);

  /// fine = P coarse (owned values; no communication).
  void prolongate(vector_type& fine, const vector_type& coarse) const;
  /// fine += P coarse (owned values; no communication): the V-cycle's correction.
  void prolongate_add(vector_type& fine, const vector_type& coarse) const;
  /// coarse = Pᵀ fine (owned values; an allreduce for a replicated coarse level).
  void restrict_to(vector_type& coarse, const vector_type& fine) const;
  /// P_0 and P_1 (2 × (k+1) × (k+1), row-major).
  const std::vector<double>& matrices() const { return p_; }

 private:
  std::shared_ptr<const DgDofLayout<ExecSpace>> coarse_, fine_;
  DgTransferKernelTable<Number, ExecSpace> kernels_;
  void launch(vector_type& out, const vector_type& in, bool prolongate, bool add) const;
  std::vector<double> p_;
  bool replicated_coarse_ = false;
  local_index parent_begin_[3] = {0, 0, 0}, parents_[3] = {1, 1, 1};
};

}  // namespace tensormg
