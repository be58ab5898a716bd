#pragma once
/// @file
/// Point preconditioners for the Krylov solvers (multigrid lives in multigrid/).

#include "core/krylov.hpp"

namespace tensormg {

/// dst = D^{-1} src with D the operator's diagonal.
template <class Vector>
class JacobiPreconditioner {
 public:
  /// diag: the operator's diagonal (owned entries); zero entries give zero.
  explicit JacobiPreconditioner(const Vector& diag) {
    inverse_.reinit_like(diag, "jacobi_inverse_diagonal");
    inverse_.copy_from(diag);
    inverse_.invert_entries();
  }
  void vmult(Vector& dst, const Vector& src) const { dst.pointwise_multiply(inverse_, src); }
  const Vector& inverse_diagonal() const { return inverse_; }

 private:
  Vector inverse_;
};

}  // namespace tensormg
