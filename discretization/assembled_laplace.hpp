#pragma once
/// @file
/// The same operator as LaplaceOperator, assembled into a KokkosSparse CRS matrix: the reference
/// for tests and the SpMV baseline of tensormg-bench-operator. On a Cartesian box the rank's
/// local matrix is a Kronecker sum of assembled 1D matrices, so rows are built from products of
/// 1D rows instead of element by element (fast enough for tens of millions of rows).

#include <KokkosSparse_CrsMatrix.hpp>

#include <memory>

#include "core/distributed_vector.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "discretization/laplace_operator.hpp"

namespace tensormg {

template <class Number, class ExecSpace = DefaultExec>
class AssembledLaplace {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using matrix_type = KokkosSparse::CrsMatrix<Number, local_index, ExecSpace, void, std::int64_t>;

  /// Assembles the rank's rows (owned and ghost nodes, columns in local numbering); Dirichlet
  /// rows and columns are left out and act as identity in vmult, as in LaplaceOperator.
  AssembledLaplace(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout, double laplace_coefficient = 1,
                   double mass_coefficient = 0);

  void vmult(vector_type& dst, const vector_type& src) const;
  /// Only the local sparse product y = A_local x, without communication or Dirichlet rows (the
  /// kernel the benchmark times).
  void spmv_local(vector_type& dst, const vector_type& src) const;
  const matrix_type& matrix() const { return matrix_; }
  std::int64_t nnz() const { return matrix_.nnz(); }
  /// Bytes the CRS arrays occupy.
  std::size_t bytes() const;

 private:
  std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout_;
  matrix_type matrix_;
  Kokkos::View<local_index*, typename ExecSpace::memory_space> boundary_owned_;
};

}  // namespace tensormg
