#pragma once
/// @file
/// Unpreconditioned conjugate gradients with fused vector updates (paper 004, Algorithm 1): the
/// solver of the low-order comparison, where the operator is cheap enough that the vector sweeps
/// of textbook CG are a visible share of an iteration.

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cmath>

#include "core/krylov.hpp"
#include "core/types.hpp"

namespace tensormg {

namespace detail {
/// CG's fused update (paper 004 Algorithm 1), one pass over four vectors: x += α p, r −= α ap;
/// returns ‖r‖² after the update (all ranks). Vector is a DistributedVector.
template <class Vector>
double cg_fused_update(typename Vector::value_type alpha, const Vector& p, const Vector& ap, Vector& x, Vector& r) {
  using Number = typename Vector::value_type;
  using Exec = typename Vector::execution_space;
  const auto rv = r.view(), pv = p.view(), apv = ap.view(), xv = x.view();
  double local = 0;
  Kokkos::parallel_reduce(
      "tensormg::krylov::cg_fused_update", Kokkos::RangePolicy<Exec>(0, r.n_owned()),
      KOKKOS_LAMBDA(local_index i, double& sum) {
        xv(i) += alpha * pv(i);
        const Number ri = rv(i) - alpha * apv(i);
        rv(i) = ri;
        sum += double(ri) * double(ri);
      },
      local);
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, r.comm());
  return global;
}
}  // namespace detail

/// Unpreconditioned conjugate gradients with fused vector updates (paper 004 Algorithm 1): per
/// iteration one operator application, one dot product p·Ap, one pass x += αp, r −= αAp with ‖r‖²,
/// one pass p = r + βp (four vector sweeps instead of the six of solve_cg with the identity).
template <class Operator, class Vector>
SolverResult solve_cg_fused(const Operator& A, Vector& x, const Vector& b, const SolverControl& c) {
  ScopedRegion region("tensormg::krylov::cg_fused");
  using Number = typename Vector::value_type;
  SolverResult result;
  Vector r, p, ap;
  r.reinit_like(x, "cg_r");
  p.reinit_like(x, "cg_p");
  ap.reinit_like(x, "cg_ap");
  A.vmult(r, x);
  r.axpby(Number(1), b, Number(-1));  // r = b - A x
  double rr = r.dot(r);
  result.initial_residual = std::sqrt(rr);
  if (detail::check_stop(result, c, result.initial_residual, 0)) return detail::finish(result, A, x, b, r);
  p.copy_from(r);
  for (int it = 1;; ++it) {
    A.vmult(ap, p);
    const double pap = p.dot(ap);
    if (!std::isfinite(pap) || !(pap > 0)) {
      result.reason = std::isfinite(pap) ? SolverReason::breakdown : SolverReason::not_finite;
      result.iterations = it;
      return detail::finish(result, A, x, b, r);
    }
    const double alpha = rr / pap;
    const double rr_new = detail::cg_fused_update(Number(alpha), p, ap, x, r);
    if (detail::check_stop(result, c, std::sqrt(rr_new), it)) return detail::finish(result, A, x, b, r);
    p.axpby(Number(1), r, Number(rr_new / rr));  // p = r + beta p
    rr = rr_new;
  }
}

}  // namespace tensormg
