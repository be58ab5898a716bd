#pragma once
/// @file
/// Unpreconditioned conjugate gradients with fused vector updates (paper 004, Algorithm 1): the
/// solver of the low-order comparison, where the operator is cheap enough that the vector sweeps
/// of textbook CG are a visible share of an iteration.

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <type_traits>
#include <utility>

#include "core/krylov.hpp"
#include "core/types.hpp"
#include "core/vector_sweeps.hpp"

namespace tensormg {

namespace detail {
/// Whether Operator has `double vmult_dot(Vector& dst, const Vector& src) const` (dst = A src,
/// returning src·dst over all ranks, formed inside its kernel).
template <class Operator, class Vector, class = void>
struct has_vmult_dot : std::false_type {};
template <class Operator, class Vector>
struct has_vmult_dot<Operator, Vector,
                     std::void_t<decltype(std::declval<const Operator&>().vmult_dot(std::declval<Vector&>(),
                                                                                     std::declval<const Vector&>()))>>
    : std::true_type {};

/// ap = A p and p·ap: the operator's vmult_dot where it has one, else vmult and a dot product.
template <class Operator, class Vector>
double apply_and_dot(const Operator& A, Vector& ap, const Vector& p) {
  if constexpr (has_vmult_dot<Operator, Vector>::value) {
    return A.vmult_dot(ap, p);
  } else {
    A.vmult(ap, p);
    return double(p.dot(ap));
  }
}

/// The sweep of r −= α ap with ‖r‖²: loads r_i and ap_i, stores the new r_i, adds its square.
template <class View>
struct CgResidualSweep {
  using Number = typename View::non_const_value_type;
  struct values {
    Number r, ap;
  };
  Number alpha;
  View r, ap;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {r(i), ap(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    const Number ri = v.r - alpha * v.ap;
    r(i) = ri;
    return double(ri) * double(ri);
  }
};

/// r −= α ap in one pass over two vectors; returns ‖r‖² after the update (all ranks). Vector is
/// a DistributedVector.
template <class Vector>
double cg_residual_update(typename Vector::value_type alpha, const Vector& ap, Vector& r) {
  using Number = typename Vector::value_type;
  using Exec = typename Vector::execution_space;
  using View = typename Vector::view_type;
  const double local = sweep_sum<Number, Exec>("tensormg::krylov::cg_residual_update", std::size_t(r.n_owned()),
                                               CgResidualSweep<View>{alpha, r.view(), ap.view()});
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, r.comm());
  return global;
}

/// x += α p, then p = r + β p, in one pass over three vectors (the x update of the iteration
/// whose p this is, moved here from the residual's pass: same operations, one vector less read).
template <class View>
struct CgDirectionUpdate {
  using Number = typename View::non_const_value_type;
  Number alpha, beta;
  View r, p, x;
  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const {
    const Number pi = p(i);
    x(i) += alpha * pi;
    p(i) = r(i) + beta * pi;
  }
};

template <class Vector>
void cg_solution_and_direction_update(typename Vector::value_type alpha, typename Vector::value_type beta,
                                      const Vector& r, Vector& p, Vector& x) {
  using Exec = typename Vector::execution_space;
  using View = typename Vector::view_type;
  Kokkos::parallel_for("tensormg::krylov::cg_solution_and_direction_update", Kokkos::RangePolicy<Exec>(0, r.n_owned()),
                       CgDirectionUpdate<View>{alpha, beta, r.view(), p.view(), x.view()});
}
}  // namespace detail

/// Unpreconditioned conjugate gradients with fused vector updates (paper 004 Algorithm 1, its
/// sweeps regrouped): per iteration one operator application with p·Ap (formed inside the
/// operator's kernel where it offers vmult_dot, else a dot product), one pass r −= αAp with ‖r‖²,
/// and one pass x += αp, p = r + βp (the solution's update deferred to the direction's pass, where
/// p is read anyway): 3 vector reads and 1 write, then 3 reads and 2 writes, instead of the six
/// sweeps of solve_cg with the identity. The iterates are those of textbook CG.
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
    const double pap = detail::apply_and_dot(A, ap, p);
    if (!std::isfinite(pap) || !(pap > 0)) {
      result.reason = std::isfinite(pap) ? SolverReason::breakdown : SolverReason::not_finite;
      result.iterations = it;
      return detail::finish(result, A, x, b, r);
    }
    const double alpha = rr / pap;
    const double rr_new = detail::cg_residual_update(Number(alpha), ap, r);
    if (detail::check_stop(result, c, std::sqrt(rr_new), it)) {
      x.add(Number(alpha), p);
      return detail::finish(result, A, x, b, r);
    }
    detail::cg_solution_and_direction_update(Number(alpha), Number(rr_new / rr), r, p, x);
    rr = rr_new;
  }
}

}  // namespace tensormg
