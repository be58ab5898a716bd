#pragma once
/// @file
/// The Q1 Laplace and elasticity operators of `LowOrderOperator` assembled: element matrices on
/// the host in the textbook form (shape-function gradients at the 2×2×2 Gauss points, for
/// elasticity the 6×24 strain matrix B and K_e = Σ Bᵀ D B w det J), summed into a KokkosSparse CRS
/// matrix of the rank's rows (owned and ghost vertices, as the matrix-free operator adds into
/// ghosts), Dirichlet rows identity and columns zero. The reference of the tests and the SpMV side
/// of paper 004's comparison, with the "NoOp-SpMV" bound: one kernel that streams the matrix and
/// the vectors once without the indirect access, the time a perfect SpMV would take.

#include <KokkosSparse_CrsMatrix.hpp>

#include <vector>

#include "core/distributed_vector.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/low_order_operator.hpp"

namespace tensormg {

/// The element matrix (8×8 Laplace, 24×24 elasticity, row-major; elasticity DoF 3 v + c) of a
/// hexahedron with vertices x[8][3] (lexicographic) and coefficient κ, or Lamé (λ, μ).
std::vector<double> low_order_element_matrix(LowOrderProblem problem, const double (&x)[8][3], double kappa,
                                             double lambda, double mu);

/// The operator on `layout` as a dense N × N matrix (row-major, on the execution space) in the
/// global DoF numbering (vertex `global_vertex()` · C + component), the whole matrix on every rank
/// (each rank's cell sums added by MPI_Allreduce): element matrices as for the CRS, Dirichlet rows
/// and columns those of the identity. What DenseCoarseInverse inverts. Collective; throws
/// InputError when N exceeds max_dofs (checked before allocating N² values).
template <class ExecSpace>
Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space> dense_low_order_matrix(
    const HexLayout<ExecSpace>& layout, LowOrderProblem problem, global_index max_dofs);

template <class ExecSpace = DefaultExec>
class AssembledLowOrder {
 public:
  using vector_type = DistributedVector<double, ExecSpace>;
  using matrix_type = KokkosSparse::CrsMatrix<double, local_index, ExecSpace, void, std::int64_t>;

  AssembledLowOrder(std::shared_ptr<const HexLayout<ExecSpace>> layout, LowOrderProblem problem);

  /// dst = A src, as LowOrderOperator::vmult.
  void vmult(vector_type& dst, const vector_type& src) const;
  /// The NoOp-SpMV bound's kernel: reads every value and column index and the row offsets once,
  /// src contiguously, writes dst once, all coalesced (no indirect access); dst is not A src.
  void stream_matrix(vector_type& dst, const vector_type& src) const;
  std::int64_t nnz() const { return matrix_.nnz(); }
  local_index rows() const { return matrix_.numRows(); }
  /// Bytes of the CRS matrix: values, column indices, row offsets.
  double matrix_bytes() const;
  const matrix_type& matrix() const { return matrix_; }

 private:
  std::shared_ptr<const HexLayout<ExecSpace>> layout_;
  matrix_type matrix_;
  mutable double stream_sum_ = 0;  ///< stream_matrix's reduction, so that its reads are not removed
};

}  // namespace tensormg
