#pragma once
/// @file
/// Matrix-free grid transfer between nested continuous Q_k levels (paper 000 §2.1, §3):
/// prolongation = polynomial interpolation from a parent cell to its 2^d children, evaluated by
/// sum factorization over parent cells with the 1D interpolation matrix P (2k+1 × k+1);
/// restriction = its exact transpose. Every fine node is written by one parent cell (the lower
/// one on shared faces), so prolongation needs no atomics and restriction is Pᵀ exactly.
/// Both act on all nodes, Dirichlet nodes included: with zero coarse Dirichlet values the
/// prolongated fine Dirichlet values are zero.

#include <memory>
#include <vector>

#include "core/distributed_vector.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "multigrid/transfer_kernel_table.hpp"

namespace tensormg {

/// The 1D interpolation matrix from a cell's k+1 Gauss–Lobatto nodes to the 2k+1 nodes of its
/// two halves: P[f * (k+1) + c] = φ_c(x_f), x_f in [0, 1].
std::vector<double> interpolation_matrix_1d(int degree);

/// How the transfer is evaluated.
enum class TransferKernel {
  automatic,        ///< by_node for k = 1, by_parent_cell otherwise (any rank count)
  by_parent_cell,   ///< one team per group of parent cells, sum factorization in scratch (any k)
  by_node           ///< k = 1 only: one thread per output node (3D: per segment of a z column),
                    ///< ≤ 2^d (prolongation) or 3^d (restriction) weights of 1 and 1/2, no
                    ///< scratch, no atomics
};

template <class Number, class ExecSpace = DefaultExec>
class Transfer {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  /// fine must be coarse refined once (same brick, twice the cells per direction), with rank
  /// boxes that nest (each fine rank box the refinement of the coarse one) or a coarse level
  /// replicated on every rank (LevelHierarchy builds both). Restriction sums the ranks' shares
  /// (into the owners, or over all ranks for a replicated coarse level); prolongation reads the
  /// coarse ghosts. by_node needs k = 1 (InputError otherwise).
  /// column_nodes: by_node in 3D, the outputs of a z column a thread computes (0: automatic,
  /// 1: a thread per node).
  Transfer(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> coarse,
           std::shared_ptr<const ContinuousDofLayout<ExecSpace>> fine,
           TransferKernel kernel = TransferKernel::automatic, int column_nodes = 0);
  TransferKernel kernel() const { return kernel_; }
  /// fine = P coarse.
  void prolongate(vector_type& fine, const vector_type& coarse) const;
  /// fine += P coarse.
  void prolongate_add(vector_type& fine, const vector_type& coarse) const;
  /// coarse = Pᵀ fine.
  void restrict_to(vector_type& coarse, const vector_type& fine) const;

 private:
  enum class Mode { assign, add, transpose };
  void apply(Mode mode, vector_type& out, const vector_type& in) const;
  void apply_by_node(Mode mode, vector_type& out, const vector_type& in) const;
  /// by_node, 3D: outputs of a z column per thread for the output box o.
  local_index column_nodes(const NodeBox& o) const;
  void launch_parent_cells(Mode mode, vector_type& out, const vector_type& in) const;
  std::shared_ptr<const ContinuousDofLayout<ExecSpace>> coarse_, fine_;
  TransferKernel kernel_ = TransferKernel::automatic;
  int z_nodes_ = 0;
  std::vector<Number> matrix_;  ///< P on the host, copied into the kernel functor at launch
  void (*launch_)(const TransferArgs<Number, ExecSpace>&) = nullptr;
  bool replicated_coarse_ = false;
  local_index parent_begin_[3] = {0, 0, 0}, parents_[3] = {1, 1, 1};
};

}  // namespace tensormg
