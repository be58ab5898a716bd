#pragma once
/// @file
/// Matrix-free DG (SIPG) operator a·(SIPG Laplacian) + b·(mass) on discontinuous Q_k with
/// Dirichlet data imposed weakly (Nitsche), so there are no constrained rows: vmult is the whole
/// symmetric positive definite matrix (sipg_matrices_1d.hpp states the form and the penalty).
/// Host-built 1D data + device functor (dg_laplace_kernels.hpp); (dim, k) dispatched from one table.

#include <memory>
#include <string>
#include <vector>

#include "core/distributed_vector.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "discretization/dg_laplace_kernel_table.hpp"
#include "discretization/sipg_matrices_1d.hpp"
#include "smoothers/dg_vertex_patch_kernel_table.hpp"  // the patch kernel of DgEvaluation::patch

namespace tensormg {

/// How vmult evaluates the operator.
enum class DgEvaluation {
  cell,  ///< cell-centric: each cell its own rows, cell and face integrals in one pass (the default)
  patch  ///< patch-wise (paper 001 §2.1, Fig. 1): per vertex patch the Kronecker sum of split 1D
         ///< two-cell matrices, added over 2^d colours of patches; one rank, >= 2 cells per direction
};
std::string to_string(DgEvaluation e);
/// Parses "cell" or "patch"; throws InputError naming them.
DgEvaluation parse_dg_evaluation(const std::string& text);

struct DgLaplaceOptions {
  double laplace_coefficient = 1;  ///< a
  double mass_coefficient = 0;     ///< b
  double penalty_factor = 1;       ///< γ of σ = γ k (k+1) / h (> 0)
  int cells_per_team = 0;          ///< 0: chosen per (dim, k) and backend
  DgEvaluation evaluation = DgEvaluation::cell;
  /// DgEvaluation::patch: line or block contractions (tensor cores) in the patch kernel.
  DgPatchContraction patch_contraction = DgPatchContraction::automatic;
};

template <class Number, class ExecSpace = DefaultExec>
class DgLaplaceOperator {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using value_type = Number;

  /// Collective; invalid options throw a collective InputError.
  DgLaplaceOperator(std::shared_ptr<const DgDofLayout<ExecSpace>> layout, DgLaplaceOptions options = {});

  /// dst = A src. Updates src's ghosts.
  void vmult(vector_type& dst, const vector_type& src) const;
  /// r = b − A x (the multigrid cycle's residual): A x, then b − A x.
  void residual(vector_type& r, const vector_type& x, const vector_type& b) const {
    vmult(r, x);
    r.axpby(Number(1), b, Number(-1));
  }
  /// The diagonal of A, owned entries.
  void compute_diagonal(vector_type& diag) const;

  const DgDofLayout<ExecSpace>& layout() const { return *layout_; }
  const std::shared_ptr<const DgDofLayout<ExecSpace>>& layout_ptr() const { return layout_; }
  const DgLaplaceOptions& options() const { return options_; }
  int cells_per_team() const { return cells_per_team_; }
  vector_type make_vector(const std::string& name = "vector") const { return vector_type(layout_->partitioner(), name); }
  /// The 1D data of each direction (h of that direction, the operator's penalty).
  const std::vector<SipgMatrices1D>& lines() const { return lines_; }
  /// Floating-point operations of one vmult on this rank by the sum-factorization count of the
  /// kernel (2 per multiply-add, face data included).
  double flops_per_vmult() const;

 private:
  std::shared_ptr<const DgDofLayout<ExecSpace>> layout_;
  DgLaplaceOptions options_;
  DgLaplaceKernelTable<Number, ExecSpace> kernels_;
  int cells_per_team_ = 1;
  std::vector<SipgMatrices1D> lines_;
  // DgEvaluation::patch: the DG vertex-patch kernel in its operator mode, with the split 1D
  // matrices per direction and boundary position (DgPatchData's layout, L and M).
  void vmult_patchwise(vector_type& dst, const vector_type& src) const;
  DgPatchKernelTable<Number, ExecSpace> patch_kernels_;
  Kokkos::View<Number*, typename ExecSpace::memory_space> patch_data_;
  std::vector<Number> host_patch_data_;
};

}  // namespace tensormg
