#pragma once
/// @file
/// The DG (SIPG) operator of DgLaplaceOperator assembled into a KokkosSparse CRS matrix, built
/// from the 1D blocks with the boundary faces written out as Nitsche terms (sipg_matrices_1d.hpp's
/// four cell blocks) rather than the kernel's mirror data: the independent reference of the
/// tests and the SpMV baseline. Rows: the rank's owned values; columns: owned and ghost values.

#include <KokkosSparse_CrsMatrix.hpp>

#include <memory>

#include "core/distributed_vector.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "discretization/dg_laplace_operator.hpp"

namespace tensormg {

template <class Number, class ExecSpace = DefaultExec>
class AssembledDgLaplace {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using matrix_type = KokkosSparse::CrsMatrix<Number, local_index, ExecSpace, void, std::int64_t>;

  AssembledDgLaplace(std::shared_ptr<const DgDofLayout<ExecSpace>> layout, DgLaplaceOptions options = {});

  /// dst = A src (updates src's ghosts).
  void vmult(vector_type& dst, const vector_type& src) const;
  /// Only the local sparse product (no ghost exchange): the kernel the benchmark times.
  void spmv_local(vector_type& dst, const vector_type& src) const;
  const matrix_type& matrix() const { return matrix_; }
  std::int64_t nnz() const { return matrix_.nnz(); }
  std::size_t bytes() const;

 private:
  std::shared_ptr<const DgDofLayout<ExecSpace>> layout_;
  matrix_type matrix_;
};

}  // namespace tensormg
