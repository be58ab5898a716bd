#pragma once
/// @file
/// Krylov solvers templated on operator, preconditioner and vector: CG, GMRES(m) and FGMRES(m),
/// both GMRES variants right-preconditioned so the residual they monitor is the true one.
/// Operator and preconditioner provide `void vmult(Vector& dst, const Vector& src) const`.

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

/// Why a solver stopped.
enum class SolverReason {
  converged_relative,  ///< ‖r‖ ≤ rtol ‖r_0‖
  converged_absolute,  ///< ‖r‖ ≤ atol (includes a zero right-hand side with a zero start)
  max_iterations,      ///< iteration limit reached
  diverged,            ///< ‖r‖ > divergence_factor ‖r_0‖
  not_finite,          ///< a NaN or Inf appeared
  breakdown,           ///< p·Ap ≤ 0 in CG, or a zero Krylov vector in GMRES before convergence
  stagnated            ///< multigrid cycles: the residual fell by less than 10% over the last 10 cycles
};
std::string to_string(SolverReason r);
inline bool converged(SolverReason r) {
  return r == SolverReason::converged_relative || r == SolverReason::converged_absolute;
}

struct SolverControl {
  int max_iterations = 1000;
  double rtol = 1e-8;
  double atol = 0;
  double divergence_factor = 1e10;
  int restart = 30;  ///< GMRES/FGMRES basis size
  /// Called with (iteration, residual norm) after every iteration and once for iteration 0.
  std::function<void(int, double)> monitor;
};

struct SolverResult {
  SolverReason reason = SolverReason::max_iterations;
  int iterations = 0;
  double initial_residual = 0;
  double final_residual = 0;  ///< the solver's own residual estimate
  double true_residual = 0;   ///< ‖b − A x‖ recomputed at exit (one extra operator application)
  std::vector<double> history;
  bool converged() const { return tensormg::converged(reason); }
  /// The fractional iteration count of paper 002 §3.3 (Kanschat's): the steps the mean reduction
  /// per step ρ = (‖r_n‖ / ‖r_0‖)^{1/n} needs for a reduction by `reduction` (the tolerance):
  /// n · log(reduction) / log(‖r_n‖ / ‖r_0‖). Integer counts jump with the stopping criterion, this
  /// does not. 0 without iterations; +inf when the residual did not decrease.
  double fractional_iterations(double reduction) const {
    if (iterations == 0) return 0;
    const double ratio = final_residual / initial_residual;
    if (!(ratio > 0) || !(ratio < 1)) return ratio == 0 ? double(iterations) : std::numeric_limits<double>::infinity();
    return iterations * std::log(reduction) / std::log(ratio);
  }
};

/// dst = src.
struct IdentityPreconditioner {
  template <class Vector>
  void vmult(Vector& dst, const Vector& src) const {
    dst.copy_from(src);
  }
};

namespace detail {
/// Recomputes ‖b − A x‖ into result.true_residual (r is scratch) and returns the result.
template <class Operator, class Vector>
SolverResult finish(SolverResult result, const Operator& A, const Vector& x, const Vector& b, Vector& r) {
  using Number = typename Vector::value_type;
  A.vmult(r, x);
  r.axpby(Number(1), b, Number(-1));
  result.true_residual = r.l2_norm();
  return result;
}

/// Shared stopping test; returns true when the solver must stop (reason set).
inline bool check_stop(SolverResult& r, const SolverControl& c, double residual, int iteration) {
  r.final_residual = residual;
  r.iterations = iteration;
  r.history.push_back(residual);
  if (c.monitor) c.monitor(iteration, residual);
  if (!std::isfinite(residual)) {
    r.reason = SolverReason::not_finite;
    return true;
  }
  if (residual <= c.atol || (iteration == 0 && residual == 0)) {
    r.reason = SolverReason::converged_absolute;
    return true;
  }
  if (residual <= c.rtol * r.initial_residual) {
    r.reason = SolverReason::converged_relative;
    return true;
  }
  if (residual > c.divergence_factor * r.initial_residual) {
    r.reason = SolverReason::diverged;
    return true;
  }
  if (iteration >= c.max_iterations) {
    r.reason = SolverReason::max_iterations;
    return true;
  }
  return false;
}
}  // namespace detail

/// Preconditioned conjugate gradients for SPD A and SPD P. x holds the start and the result.
template <class Operator, class Vector, class Preconditioner>
SolverResult solve_cg(const Operator& A, Vector& x, const Vector& b, const Preconditioner& P, const SolverControl& c) {
  ScopedRegion region("tensormg::krylov::cg");
  using Number = typename Vector::value_type;
  SolverResult result;
  Vector r, z, p, ap;
  r.reinit_like(x, "cg_r");
  z.reinit_like(x, "cg_z");
  p.reinit_like(x, "cg_p");
  ap.reinit_like(x, "cg_ap");
  A.vmult(r, x);
  r.axpby(Number(1), b, Number(-1));  // r = b - A x
  result.initial_residual = r.l2_norm();
  if (detail::check_stop(result, c, result.initial_residual, 0)) return detail::finish(result, A, x, b, r);
  P.vmult(z, r);
  p.copy_from(z);
  double rz = r.dot(z);
  for (int it = 1;; ++it) {
    A.vmult(ap, p);
    const double pap = p.dot(ap);
    if (!std::isfinite(pap) || !std::isfinite(rz)) {
      result.reason = SolverReason::not_finite;
      result.iterations = it;
      return detail::finish(result, A, x, b, r);
    }
    if (pap <= 0) {
      result.reason = SolverReason::breakdown;
      result.iterations = it;
      return detail::finish(result, A, x, b, r);
    }
    const double alpha = rz / pap;
    x.add(Number(alpha), p);
    r.add(Number(-alpha), ap);
    if (detail::check_stop(result, c, r.l2_norm(), it)) return detail::finish(result, A, x, b, r);
    P.vmult(z, r);
    const double rz_new = r.dot(z);
    p.axpby(Number(1), z, Number(rz_new / rz));  // p = z + beta p
    rz = rz_new;
  }
}

/// Restarted GMRES(m) (flexible = false: P applied once to the update; P must be a fixed linear
/// operator) or FGMRES(m) (flexible = true: P may change between iterations, e.g. an inner
/// solver; its outputs are stored). Right preconditioning, modified Gram–Schmidt, Givens.
template <class Operator, class Vector, class Preconditioner>
SolverResult solve_gmres(const Operator& A, Vector& x, const Vector& b, const Preconditioner& P,
                         const SolverControl& c, bool flexible = false) {
  ScopedRegion region(flexible ? "tensormg::krylov::fgmres" : "tensormg::krylov::gmres");
  using Number = typename Vector::value_type;
  TENSORMG_CHECK(c.restart >= 1, "GMRES restart length must be at least 1 (given " << c.restart << ")");
  // The Krylov space has at most as many dimensions as there are unknowns.
  const int m = static_cast<int>(std::min<long long>(c.restart, std::max<long long>(x.size(), 1)));
  SolverResult result;
  // The basis vectors are allocated as the iterations reach them: a solve that converges in j
  // iterations holds j + 1 (FGMRES: 2j + 1), not the restart length's (H100, DG Q3 134M DoF: each
  // 1 GiB vector cost ~2.3 ms of the solve, 0.05–0.09 s at the default restart of 30).
  std::vector<Vector> v(m + 1), zs(flexible ? m : 0);
  std::vector<char> v_ready(m + 1, 0), z_ready(flexible ? m : 0, 0);
  const auto ready = [&](std::vector<Vector>& vectors, std::vector<char>& flags, int i, const char* name) -> Vector& {
    if (!flags[i]) {
      vectors[i].reinit_like(x, name);
      flags[i] = 1;
    }
    return vectors[i];
  };
  Vector r, w, t;
  r.reinit_like(x, "gmres_r");
  w.reinit_like(x, "gmres_w");
  t.reinit_like(x, "gmres_t");
  std::vector<double> h((m + 1) * m), cs(m), sn(m), g(m + 1), y(m);
  auto H = [&](int i, int j) -> double& { return h[i * m + j]; };

  A.vmult(r, x);
  r.axpby(Number(1), b, Number(-1));
  double beta = r.l2_norm();
  result.initial_residual = beta;
  if (detail::check_stop(result, c, beta, 0)) return detail::finish(result, A, x, b, r);
  int it = 0;
  while (true) {
    ready(v, v_ready, 0, "gmres_v").copy_from(r);
    v[0].scale(Number(1 / beta));
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = beta;
    int j = 0;
    bool stop = false, happy = false;
    for (; j < m; ++j) {
      ++it;
      Vector& z = flexible ? ready(zs, z_ready, j, "fgmres_z") : t;
      P.vmult(z, v[j]);
      A.vmult(w, z);
      for (int i = 0; i <= j; ++i) {
        H(i, j) = w.dot(v[i]);
        w.add(Number(-H(i, j)), v[i]);
      }
      H(j + 1, j) = w.l2_norm();
      if (!std::isfinite(H(j + 1, j))) {
        result.reason = SolverReason::not_finite;
        result.iterations = it;
        return detail::finish(result, A, x, b, r);
      }
      for (int i = 0; i < j; ++i) {  // previous rotations
        const double a = H(i, j), bb = H(i + 1, j);
        H(i, j) = cs[i] * a + sn[i] * bb;
        H(i + 1, j) = -sn[i] * a + cs[i] * bb;
      }
      const double a = H(j, j), bb = H(j + 1, j);
      const double d = std::hypot(a, bb);
      cs[j] = d > 0 ? a / d : 1;
      sn[j] = d > 0 ? bb / d : 0;
      const double h_next = bb;
      H(j, j) = d;
      H(j + 1, j) = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      stop = detail::check_stop(result, c, std::abs(g[j + 1]), it);
      if (stop) {
        ++j;
        break;
      }
      if (h_next == 0) {  // invariant subspace: the solution is in the current space
        happy = true;
        ++j;
        break;
      }
      ready(v, v_ready, j + 1, "gmres_v").copy_from(w);
      v[j + 1].scale(Number(1 / h_next));
    }
    // y = H(0:j,0:j)^{-1} g(0:j); x += P (V y) or Z y.
    for (int i = j - 1; i >= 0; --i) {
      double s = g[i];
      for (int l = i + 1; l < j; ++l) s -= H(i, l) * y[l];
      y[i] = s / H(i, i);
    }
    if (flexible) {
      for (int i = 0; i < j; ++i) x.add(Number(y[i]), zs[i]);
    } else {
      w.fill(Number(0));
      for (int i = 0; i < j; ++i) w.add(Number(y[i]), v[i]);
      P.vmult(t, w);
      x.add(Number(1), t);
    }
    if (stop) return detail::finish(result, A, x, b, r);
    A.vmult(r, x);
    r.axpby(Number(1), b, Number(-1));
    beta = r.l2_norm();
    if (happy) {
      // The Krylov space became invariant: the true residual decides.
      if (!detail::check_stop(result, c, beta, it)) result.reason = SolverReason::breakdown;
      return detail::finish(result, A, x, b, r);
    }
  }
}

/// FGMRES(m): GMRES with a preconditioner that may change between iterations.
template <class Operator, class Vector, class Preconditioner>
SolverResult solve_fgmres(const Operator& A, Vector& x, const Vector& b, const Preconditioner& P,
                          const SolverControl& c) {
  return solve_gmres(A, x, b, P, c, true);
}

}  // namespace tensormg
