// CG, GMRES, FGMRES on the Q_k Laplacian: convergence, reason codes, NaN detection, breakdown.
#include <gtest/gtest.h>

#include <limits>

#include "core/krylov.hpp"
#include "core/preconditioners.hpp"
#include "discretization/laplace_operator.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class Krylov : public ::testing::Test {
 protected:
  using Vector = DistributedVector<double, ExecSpace>;
  Krylov()
      : layout(make_layout<ExecSpace>(make_mesh(2, {3, 2, 1}, 2, {1.0, 0.8, 1.0}), 2)), A(layout) {
    b = A.make_vector();
    x = A.make_vector();
    fill_random(*layout, b, 3);
  }
  std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout;
  LaplaceOperator<double, ExecSpace> A;
  Vector b, x;

  double true_relative_residual() {
    auto r = A.make_vector();
    A.vmult(r, x);
    r.axpby(1.0, b, -1.0);
    return r.l2_norm() / b.l2_norm();
  }
};
TYPED_TEST_SUITE(Krylov, ExecSpaces, ExecSpaceName);

/// -A: symmetric negative definite, so CG breaks down at once.
template <class Op>
struct Negated {
  const Op& op;
  template <class V>
  void vmult(V& dst, const V& src) const {
    op.vmult(dst, src);
    dst.scale(-1.0);
  }
};

/// Returns NaN from its third application on.
template <class Op>
struct PoisonedAfter {
  const Op& op;
  mutable int calls = 0;
  template <class V>
  void vmult(V& dst, const V& src) const {
    op.vmult(dst, src);
    if (++calls >= 3) dst.fill(std::numeric_limits<double>::quiet_NaN());
  }
};

/// Jacobi whose damping changes at every application: fine for FGMRES, not a fixed operator.
template <class V>
struct VaryingJacobi {
  const JacobiPreconditioner<V>& jacobi;
  mutable int calls = 0;
  void vmult(V& dst, const V& src) const {
    jacobi.vmult(dst, src);
    dst.scale(1.0 + 0.5 * ((calls++ % 3) - 1));
  }
};

TYPED_TEST(Krylov, AllSolversConvergeToTheTolerance) {
  auto diag = this->A.make_vector();
  this->A.compute_diagonal(diag);
  const JacobiPreconditioner<typename TestFixture::Vector> jacobi(diag);
  SolverControl c;
  c.rtol = 1e-10;
  c.restart = 20;
  for (int solver = 0; solver < 4; ++solver) {
    this->x.fill(0.0);
    SolverResult r;
    if (solver == 0) r = solve_cg(this->A, this->x, this->b, IdentityPreconditioner{}, c);
    if (solver == 1) r = solve_cg(this->A, this->x, this->b, jacobi, c);
    if (solver == 2) r = solve_gmres(this->A, this->x, this->b, jacobi, c);
    if (solver == 3) r = solve_fgmres(this->A, this->x, this->b, VaryingJacobi<typename TestFixture::Vector>{jacobi}, c);
    EXPECT_EQ(r.reason, SolverReason::converged_relative) << "solver " << solver << ": " << to_string(r.reason);
    EXPECT_GT(r.iterations, 1);
    EXPECT_LE(r.final_residual, 1e-10 * r.initial_residual);
    EXPECT_LE(this->true_relative_residual(), 1e-9) << "solver " << solver;
    EXPECT_NEAR(r.true_residual / this->b.l2_norm(), this->true_relative_residual(), 1e-12);
    EXPECT_EQ(static_cast<int>(r.history.size()), r.iterations + 1);
  }
}

TYPED_TEST(Krylov, ZeroRightHandSideTakesNoIteration) {
  this->b.fill(0.0);
  for (int solver = 0; solver < 3; ++solver) {
    this->x.fill(0.0);
    const SolverControl c;
    const auto r = solver == 0   ? solve_cg(this->A, this->x, this->b, IdentityPreconditioner{}, c)
                   : solver == 1 ? solve_gmres(this->A, this->x, this->b, IdentityPreconditioner{}, c)
                                 : solve_fgmres(this->A, this->x, this->b, IdentityPreconditioner{}, c);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(r.reason, SolverReason::converged_absolute);
  }
}

TYPED_TEST(Krylov, StopsAtTheIterationLimit) {
  SolverControl c;
  c.rtol = 1e-14;
  c.max_iterations = 4;
  c.restart = 3;  // the limit falls inside the second GMRES cycle
  const auto cg = solve_cg(this->A, this->x, this->b, IdentityPreconditioner{}, c);
  EXPECT_EQ(cg.reason, SolverReason::max_iterations);
  EXPECT_EQ(cg.iterations, 4);
  this->x.fill(0.0);
  const auto gm = solve_gmres(this->A, this->x, this->b, IdentityPreconditioner{}, c);
  EXPECT_EQ(gm.reason, SolverReason::max_iterations);
  EXPECT_EQ(gm.iterations, 4);
}

TYPED_TEST(Krylov, DetectsNaNAtOnce) {
  // In the right-hand side: before the first iteration.
  auto bad = this->A.make_vector();
  bad.copy_from(this->b);
  fill_by_global_index(*this->layout, bad, [](global_index g) { return g == 7 ? std::nan("") : 1.0; });
  for (int solver = 0; solver < 2; ++solver) {
    this->x.fill(0.0);
    const auto r = solver == 0 ? solve_cg(this->A, this->x, bad, IdentityPreconditioner{}, {})
                               : solve_gmres(this->A, this->x, bad, IdentityPreconditioner{}, {});
    EXPECT_EQ(r.reason, SolverReason::not_finite);
    EXPECT_EQ(r.iterations, 0);
  }
  // From the operator in iteration 2 (the first application computes the initial residual).
  PoisonedAfter<LaplaceOperator<double, TypeParam>> poisoned{this->A};
  this->x.fill(0.0);
  const auto r = solve_cg(poisoned, this->x, this->b, IdentityPreconditioner{}, {});
  EXPECT_EQ(r.reason, SolverReason::not_finite);
  EXPECT_EQ(r.iterations, 2);
}

TYPED_TEST(Krylov, CgReportsBreakdownOnAnIndefiniteOperator) {
  Negated<LaplaceOperator<double, TypeParam>> negated{this->A};
  const auto r = solve_cg(negated, this->x, this->b, IdentityPreconditioner{}, {});
  EXPECT_EQ(r.reason, SolverReason::breakdown);
  EXPECT_EQ(r.iterations, 1);
}

}  // namespace
