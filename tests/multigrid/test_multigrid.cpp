// Multigrid: transfer (Pᵀ, polynomial reproduction), exact coarse solve, mesh-independent
// iteration counts of full multigrid, symmetry of the V-cycle, mixed precision, a cycle on the
// iterate as the correction of its residual, and the refusal of meshes too coarse for a vertex patch. Several ranks: test_multigrid_ranks.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "core/preconditioners.hpp"
#include "discretization/poisson_problem.hpp"
#include "multigrid/mixed_full_multigrid.hpp"
#include "multigrid/multigrid.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class MultigridTest : public ::testing::Test {};
TYPED_TEST_SUITE(MultigridTest, ExecSpaces, ExecSpaceName);

/// Every (dim, k) the parent-cell transfer is compiled for (multigrid/transfer_kernels.hpp).
TYPED_TEST(MultigridTest, RestrictionIsTransposeOfProlongation) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= tensormg::max_degree(dim); ++k) {
      const auto coarse = make_layout<TypeParam>(make_mesh(dim, {3, 2, 2}, 0, {1.0, 0.5, 2.0}), k);
      const auto fine = make_layout<TypeParam>(make_mesh(dim, {3, 2, 2}, 1, {1.0, 0.5, 2.0}), k);
      const Transfer<double, TypeParam> t(coarse, fine);
      DistributedVector<double, TypeParam> u(coarse->partitioner()), ru(coarse->partitioner());
      DistributedVector<double, TypeParam> v(fine->partitioner()), pu(fine->partitioner());
      fill_random(*coarse, u, 1 + k);
      fill_random(*fine, v, 2 + k);
      t.prolongate(pu, u);
      t.restrict_to(ru, v);
      const double lhs = pu.dot(v), rhs = u.dot(ru);
      EXPECT_NEAR(lhs, rhs, 1e-12 * std::abs(lhs)) << "dim=" << dim << " k=" << k;
      EXPECT_GT(pu.l2_norm(), 0.1 * u.l2_norm()) << "dim=" << dim << " k=" << k;
      EXPECT_GT(ru.l2_norm(), 0.0) << "dim=" << dim << " k=" << k;
      // prolongate_add adds.
      DistributedVector<double, TypeParam> w(fine->partitioner());
      w.copy_from(v);
      t.prolongate_add(w, u);
      w.add(-1.0, v);
      EXPECT_LE(relative_max_difference(w, pu), 1e-14);
    }
}

/// The Q1 by-node transfer (the default at k = 1) equals the by-parent-cell sum factorization in
/// all three modes, on odd and even cell counts, a thread per node and per segment of a z column;
/// other degrees refuse it.
TYPED_TEST(MultigridTest, Q1TransferByNodeEqualsByParentCell) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim) {
    const auto coarse = make_layout<TypeParam>(make_mesh(dim, {3, 2, 5}, 0, {1.0, 0.5, 2.0}), 1);
    const auto fine = make_layout<TypeParam>(make_mesh(dim, {3, 2, 5}, 1, {1.0, 0.5, 2.0}), 1);
    const Transfer<double, TypeParam> cell(coarse, fine, TransferKernel::by_parent_cell);
    // By node: automatic, a thread per node, and 3D z columns cut into segments (of 2, 3, and of
    // more nodes than a column has: odd and even segment starts, a segment ending mid-column).
    for (const int column : {0, 1, 2, 3, 64}) {
      if (dim == 2 && column > 1) continue;
      const Transfer<double, TypeParam> node(coarse, fine, TransferKernel::automatic, column);
      ASSERT_EQ(node.kernel(), TransferKernel::by_node);
      const std::string what = " dim=" + std::to_string(dim) + " column nodes " + std::to_string(column);
      DistributedVector<double, TypeParam> u(coarse->partitioner()), v(fine->partitioner());
      fill_random(*coarse, u, 7);
      fill_random(*fine, v, 8);
      DistributedVector<double, TypeParam> a(fine->partitioner()), b(fine->partitioner());
      a.fill(5.0);  // prolongation overwrites
      node.prolongate(a, u);
      cell.prolongate(b, u);
      EXPECT_LE(relative_max_difference(a, b), 1e-15) << "prolongate" << what;
      a.copy_from(v);
      b.copy_from(v);
      node.prolongate_add(a, u);
      cell.prolongate_add(b, u);
      EXPECT_LE(relative_max_difference(a, b), 1e-15) << "prolongate_add" << what;
      DistributedVector<double, TypeParam> ra(coarse->partitioner()), rb(coarse->partitioner());
      ra.fill(5.0);  // restriction overwrites
      node.restrict_to(ra, v);
      cell.restrict_to(rb, v);
      EXPECT_LE(relative_max_difference(ra, rb), 1e-14) << "restrict" << what;
    }
    EXPECT_THROW((Transfer<double, TypeParam>(coarse, fine, TransferKernel::by_node, -1)), InputError);
    const auto q2c = make_layout<TypeParam>(make_mesh(dim, {3, 2, 5}, 0), 2);
    const auto q2f = make_layout<TypeParam>(make_mesh(dim, {3, 2, 5}, 1), 2);
    EXPECT_THROW((Transfer<double, TypeParam>(q2c, q2f, TransferKernel::by_node)), InputError);
  }
}

TYPED_TEST(MultigridTest, ProlongationReproducesCoarsePolynomials) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= tensormg::max_degree(dim); ++k) {
      const auto coarse = make_layout<TypeParam>(make_mesh(dim, {2, 3, 2}, 0, {1.5, 1.0, 0.7}), k);
      const auto fine = make_layout<TypeParam>(make_mesh(dim, {2, 3, 2}, 1, {1.5, 1.0, 0.7}), k);
      const auto poly = [k](const std::array<double, 3>& x) {
        return std::pow(x[0] - 0.3, k) * (1 + x[1]) + std::pow(x[1], k) * std::pow(x[2] + 0.2, k) - 2 * x[2];
      };
      DistributedVector<double, TypeParam> uc(coarse->partitioner()), uf(fine->partitioner()), pf(fine->partitioner());
      interpolate(*coarse, uc, poly);
      interpolate(*fine, uf, poly);
      const Transfer<double, TypeParam> t(coarse, fine);
      t.prolongate(pf, uc);
      EXPECT_LE(relative_max_difference(pf, uf), k <= 5 ? 1e-13 : 1e-12) << "dim=" << dim << " k=" << k;
    }
}

template <class ExecSpace>
void check_coarse_solve(int dim, std::array<int, 3> cells, int k) {
  const Multigrid<double, ExecSpace> mg(brick(dim, cells, 0, {1.0, 0.7, 1.3}), k, MPI_COMM_WORLD);
  const auto& op = *mg.level(0).op;
  auto x = op.make_vector(), b = op.make_vector(), r = op.make_vector();
  fill_random(*mg.level(0).layout, b, 11);
  mg.coarse_solve(x, b);
  op.vmult(r, x);
  r.axpby(1.0, b, -1.0);
  EXPECT_LE(r.l2_norm(), 1e-11 * b.l2_norm()) << "dim=" << dim << " k=" << k;
}

TYPED_TEST(MultigridTest, CoarseSolveIsExact) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int k : {1, 3}) {
    check_coarse_solve<TypeParam>(2, {2, 2, 1}, k);  // one patch
    check_coarse_solve<TypeParam>(2, {3, 2, 1}, k);  // several patches: CG
    check_coarse_solve<TypeParam>(3, {2, 2, 2}, k);
    check_coarse_solve<TypeParam>(3, {2, 3, 2}, k);
  }
  const Multigrid<double, TypeParam> one(brick(2, {1, 1, 1}, 1), 2, MPI_COMM_WORLD);
  EXPECT_TRUE(one.coarse_is_single_patch());
}

template <class ExecSpace, class MGNumber = double>
SolverResult fmg_solve(int dim, int k, int refinements, MultigridOptions options = {}, double rtol = 1e-9) {
  const Multigrid<MGNumber, ExecSpace> mg(brick(dim, {1, 1, 1}, refinements), k, MPI_COMM_WORLD, {}, options);
  const auto layout = mg.level(mg.n_levels() - 1).layout;
  const LaplaceOperator<double, ExecSpace> A(layout);
  auto x = A.make_vector(), b = A.make_vector();
  assemble_rhs(A, make_poisson_problem("one", dim), b);
  SolverControl control;
  control.rtol = rtol;
  control.max_iterations = 100;
  return solve_full_multigrid(mg, A, x, b, control);
}

TYPED_TEST(MultigridTest, FullMultigridIterationsAreMeshIndependent2D) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  // The forward smoothing order of multigrid iterations (SmoothingOrder): 5 cycles at Q1 from
  // L = 4 on (the symmetric order's contraction settles near 0.25, 11 cycles).
  for (int k : {1, 2, 4}) {
    std::vector<int> its;
    const int first = k == 1 ? 4 : 3;
    for (int L = first; L <= first + 2; ++L) {
      const auto r = fmg_solve<TypeParam>(2, k, L);
      EXPECT_TRUE(r.converged()) << "k=" << k << " L=" << L;
      its.push_back(r.iterations);
    }
    const auto [lo, hi] = std::minmax_element(its.begin(), its.end());
    EXPECT_LE(*hi - *lo, 1) << "k=" << k << " iterations " << its[0] << " " << its[1] << " " << its[2];
    EXPECT_LE(*hi, k == 1 ? 6 : 3) << "k=" << k;
  }
}

/// Forward order (both smoothing steps coarse-vertex patches last) against the symmetric one:
/// fewer full multigrid cycles (2D Q1: 5 against 8), and `automatic` picks it for FMG.
TYPED_TEST(MultigridTest, ForwardSmoothingOrderNeedsFewerCycles) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (const int k : {1, 2}) {
    MultigridOptions forward, symmetric;
    forward.order = SmoothingOrder::forward;
    symmetric.order = SmoothingOrder::symmetric;
    const auto f = fmg_solve<TypeParam>(2, k, 5, forward), s = fmg_solve<TypeParam>(2, k, 5, symmetric);
    const auto a = fmg_solve<TypeParam>(2, k, 5);
    ASSERT_TRUE(f.converged() && s.converged() && a.converged());
    EXPECT_LT(f.iterations, s.iterations) << "k=" << k;
    EXPECT_EQ(a.iterations, f.iterations) << "k=" << k;
    ASSERT_EQ(a.history.size(), f.history.size()) << "k=" << k;
    for (std::size_t i = 0; i < a.history.size(); ++i)  // atomic sums on a GPU: not bitwise
      EXPECT_NEAR(a.history[i], f.history[i], 1e-9 * f.history[0]) << "k=" << k << " cycle " << i;
  }
  EXPECT_EQ(parse_smoothing_order(to_string(SmoothingOrder::symmetric)), SmoothingOrder::symmetric);
  EXPECT_THROW(parse_smoothing_order("backward"), InputError);
}

TYPED_TEST(MultigridTest, FullMultigridIterationsAreMeshIndependent3D) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int k : {1, 2, 3}) {
    std::vector<int> its;
    const int first = k == 1 ? 4 : 3;
    for (int L = first; L <= first + 2; ++L) {
      const auto r = fmg_solve<TypeParam>(3, k, L);
      EXPECT_TRUE(r.converged()) << "k=" << k << " L=" << L;
      its.push_back(r.iterations);
    }
    const auto [lo, hi] = std::minmax_element(its.begin(), its.end());
    EXPECT_LE(*hi - *lo, 1) << "k=" << k << " iterations " << its[0] << " " << its[1] << " " << its[2];
    EXPECT_LE(*hi, k == 1 ? 6 : 5) << "k=" << k;
  }
}

TYPED_TEST(MultigridTest, VCycleIsSymmetric) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim)
    for (auto kernel : {PatchKernel::fused, PatchKernel::global}) {
      MultigridOptions o;
      o.patch.kernel = kernel;
      const Multigrid<double, TypeParam> mg(brick(dim, {1, 2, 1}, dim == 2 ? 3 : 2, {1.0, 1.4, 0.9}), 2, MPI_COMM_WORLD, {}, o);
      const auto& layout = *mg.level(mg.n_levels() - 1).layout;
      const auto& A = mg.fine_operator();
      auto x = A.make_vector(), y = A.make_vector(), vx = A.make_vector(), vy = A.make_vector();
      fill_random(layout, x, 5);
      fill_random(layout, y, 6);
      mg.vmult(vx, x);
      mg.vmult(vy, y);
      const double a = y.dot(vx), b = x.dot(vy);
      EXPECT_NEAR(a, b, 1e-12 * std::abs(a)) << "dim=" << dim << " " << to_string(kernel);
      EXPECT_GT(x.dot(vx), 0.0);
    }
}

TYPED_TEST(MultigridTest, MixedPrecisionMatchesDouble) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim) {
    const int k = dim == 2 ? 4 : 2, L = dim == 2 ? 4 : 3;
    const auto problem = make_poisson_problem("sine", dim);
    // One hierarchy of levels for the double and the float multigrid.
    const auto hierarchy = std::make_shared<const LevelHierarchy<TypeParam>>(brick(dim, {1, 1, 1}, L), k, MPI_COMM_WORLD);
    const Multigrid<double, TypeParam> mgd(hierarchy);
    const Multigrid<float, TypeParam> mgf(hierarchy);
    const auto layout = hierarchy->finest();
    ASSERT_EQ(mgd.fine_operator().layout_ptr(), layout);
    const auto& A = mgd.fine_operator();
    auto b = A.make_vector();
    assemble_rhs(A, problem, b);
    SolverControl control;
    control.rtol = 1e-10;
    control.max_iterations = 50;
    // CG preconditioned by the V-cycle, double and mixed.
    auto xd = A.make_vector(), xm = A.make_vector();
    const auto rd = solve_cg(A, xd, b, MultigridPreconditioner<double, double, TypeParam>(mgd), control);
    const auto rm = solve_cg(A, xm, b, MultigridPreconditioner<double, float, TypeParam>(mgf), control);
    ASSERT_TRUE(rd.converged());
    ASSERT_TRUE(rm.converged());
    EXPECT_LE(rm.iterations, rd.iterations + 2);
    EXPECT_LE(rm.true_residual, 1e-9 * rm.initial_residual);
    const auto ed = compute_errors(*layout, xd, problem), em = compute_errors(*layout, xm, problem);
    EXPECT_NEAR(em.l2, ed.l2, 1e-3 * ed.l2) << "dim=" << dim;
    // Full multigrid, double and mixed.
    auto fd = A.make_vector(), fm = A.make_vector();
    const auto sd = solve_full_multigrid(mgd, A, fd, b, control);
    const auto sm = solve_full_multigrid(mgf, A, fm, b, control);
    ASSERT_TRUE(sd.converged());
    ASSERT_TRUE(sm.converged());
    EXPECT_LE(sm.true_residual, 1e-10 * b.l2_norm());
    EXPECT_NEAR(compute_errors(*layout, fm, problem).l2, ed.l2, 1e-3 * ed.l2);
    EXPECT_LE(sm.iterations, sd.iterations + 2);
    // Mixed full multigrid with the start's iterate in double below the finest level, its cycles
    // double or float corrections (automatic: double): as many cycles as double.
    EXPECT_EQ(MixedFullMultigrid<TypeParam>(hierarchy).start_kind(), MixedStart::double_cycles);
    auto fx = A.make_vector();
    for (const MixedStart start : {MixedStart::double_cycles, MixedStart::float_corrections}) {
      const MixedFullMultigrid<TypeParam> mixed(hierarchy, {}, {}, start);
      EXPECT_EQ(mixed.start_kind(), start);
      ASSERT_EQ(mixed.start().n_levels(), hierarchy->n_levels() - 1);
      ASSERT_EQ(mixed.cycle().n_levels(), hierarchy->n_levels());
      for (int l = 0; l + 1 < hierarchy->n_levels(); ++l) EXPECT_EQ(mixed.start().level(l).layout, hierarchy->layout(l));
      fx.fill(123.0);  // the start ignores x's input
      const auto sx = mixed.solve(A, fx, b, control);
      const std::string what = "dim=" + std::to_string(dim) + " start " + to_string(start);
      ASSERT_TRUE(sx.converged()) << what;
      EXPECT_LE(sx.iterations, sd.iterations + 1) << what;
      EXPECT_LE(sx.true_residual, 1e-10 * b.l2_norm()) << what;
      EXPECT_NEAR(compute_errors(*layout, fx, problem).l2, ed.l2, 1e-3 * ed.l2) << what;
      // The start alone (no cycle after it): its error is the discretization's, double start or not.
      SolverControl none = control;
      none.max_iterations = 0;
      none.rtol = 1e-30;
      auto fs = A.make_vector();
      mixed.solve(A, fs, b, none);
      EXPECT_LE(compute_errors(*layout, fs, problem).l2, 2 * ed.l2) << what;
    }
    const MixedFullMultigrid<TypeParam> mixed(hierarchy);
    // An operator on another layout (of equal size) is refused, as is a hierarchy of one level.
    const Multigrid<double, TypeParam> other(brick(dim, {1, 1, 1}, L), k, MPI_COMM_WORLD);
    EXPECT_THROW(mixed.solve(other.fine_operator(), fx, b, control), InputError);
    EXPECT_THROW(MixedFullMultigrid<TypeParam>(std::make_shared<const LevelHierarchy<TypeParam>>(brick(dim, {2, 2, 2}, 0), k, MPI_COMM_WORLD)),
                 InputError);
  }
}

/// The multigrid iteration borrows the finest level's b and x (and A x where the operator lives on
/// the multigrid's own layout) instead of allocating (cycle_until_converged): what a solve, or the
/// multigrid as a preconditioner, leaves there must not change the next solve. Each solver twice,
/// every level's vectors set to 1e30 in between: the same iterations and solution (to rounding:
/// atomic adds may sum in another order); one precision with A on another layout object (A x
/// allocated) as with the multigrid's own operator.
TYPED_TEST(MultigridTest, RepeatedSolvesBorrowTheFinestLevelAndGiveTheSameResult) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim) {
    const int k = 2, L = dim == 2 ? 4 : 2;
    const auto problem = make_poisson_problem("sine", dim);
    const auto hierarchy = std::make_shared<const LevelHierarchy<TypeParam>>(brick(dim, {1, 1, 1}, L), k, MPI_COMM_WORLD);
    const Multigrid<double, TypeParam> mgd(hierarchy);
    const Multigrid<float, TypeParam> mgf(hierarchy);
    const MixedFullMultigrid<TypeParam> mixed(hierarchy);
    const auto& A = mgd.fine_operator();
    auto b = A.make_vector();
    assemble_rhs(A, problem, b);
    SolverControl control;
    control.rtol = 1e-10;
    control.max_iterations = 50;
    const MixedFullMultigrid<TypeParam> mixed_corrections(hierarchy, {}, {}, MixedStart::float_corrections);
    const auto spoil = [](const auto& mg) {  // what any earlier use may have left, at its worst
      for (int l = 0; l < mg.n_levels(); ++l)
        for (auto* v : {&mg.level(l).x, &mg.level(l).b, &mg.level(l).r}) v->fill(1e30f);
    };
    const auto dirty = [&] {
      spoil(mgd);
      spoil(mgf);
      spoil(mixed.cycle());
      spoil(mixed.start());
      spoil(mixed_corrections.cycle());
      spoil(mixed_corrections.start());
    };
    const std::function<SolverResult(DistributedVector<double, TypeParam>&)> solvers[] = {
        [&](auto& x) { return solve_full_multigrid(mgd, A, x, b, control); },
        [&](auto& x) { return solve_full_multigrid(mgf, A, x, b, control); },
        [&](auto& x) { return solve_vcycles(mgd, A, x, b, control); },
        [&](auto& x) { return solve_vcycles(mgf, A, x, b, control); },
        [&](auto& x) { return mixed.solve(A, x, b, control); },
        [&](auto& x) { return mixed_corrections.solve(A, x, b, control); }};
    int which = 0;
    for (const auto& solve : solvers) {
      auto x1 = A.make_vector(), x2 = A.make_vector();
      const auto r1 = solve(x1);
      dirty();
      const auto r2 = solve(x2);
      ASSERT_TRUE(r1.converged()) << "dim=" << dim << " solver " << which;
      EXPECT_EQ(r1.iterations, r2.iterations) << "dim=" << dim << " solver " << which;
      // Float cycles (solvers 1, 3, 4, 5): the sums' order (atomic adds) may differ in float's last bits.
      const bool float_cycles = which == 1 || which >= 3;
      EXPECT_LE(relative_max_difference(x1, x2), float_cycles ? 1e-6 : 1e-13) << "dim=" << dim << " solver " << which;
      ++which;
    }
    const Multigrid<double, TypeParam> other(brick(dim, {1, 1, 1}, L), k, MPI_COMM_WORLD);
    ASSERT_NE(other.fine_operator().layout_ptr(), A.layout_ptr());
    auto xa = A.make_vector(), xo = A.make_vector();
    solve_full_multigrid(mgd, A, xa, b, control);
    dirty();
    solve_full_multigrid(mgd, other.fine_operator(), xo, b, control);
    EXPECT_LE(relative_max_difference(xa, xo), 1e-13) << "dim=" << dim;
  }
}

TYPED_TEST(MultigridTest, KrylovWithMultigridConvergesFast) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  const Multigrid<double, TypeParam> mg(brick(2, {1, 1, 1}, 5), 3, MPI_COMM_WORLD);
  const auto& A = mg.fine_operator();
  auto b = A.make_vector();
  assemble_rhs(A, make_poisson_problem("exponential", 2), b);
  SolverControl control;
  control.rtol = 1e-9;
  const MultigridPreconditioner<double, double, TypeParam> P(mg);
  for (int solver = 0; solver < 3; ++solver) {
    auto x = A.make_vector();
    const auto r = solver == 0 ? solve_cg(A, x, b, P, control)
                               : solver == 1 ? solve_gmres(A, x, b, P, control) : solve_fgmres(A, x, b, P, control);
    EXPECT_TRUE(r.converged()) << solver;
    EXPECT_LE(r.iterations, 6) << solver;
    EXPECT_LE(r.true_residual, 1.01e-9 * r.initial_residual) << solver;
  }
}

TYPED_TEST(MultigridTest, PointSmoothersConverge) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (auto kind : {SmootherKind::jacobi, SmootherKind::chebyshev, SmootherKind::gauss_seidel}) {
    MultigridOptions o;
    o.smoother = kind;
    const auto r = fmg_solve<TypeParam>(2, 2, 4, o, 1e-8);
    EXPECT_TRUE(r.converged()) << to_string(kind);
    EXPECT_LE(r.iterations, 40) << to_string(kind);
    // The vertex-patch smoother needs fewer cycles than any point smoother.
    EXPECT_LT(fmg_solve<TypeParam>(2, 2, 4, {}, 1e-8).iterations, r.iterations) << to_string(kind);
  }
}

/// The multigrid iteration in one precision (cycle_until_converged) runs x ← V(x, b) instead of
/// x + V(0, b − A x) where Multigrid::consistent_cycle says so, as it does for every continuous
/// cycle: the same for a linear cycle whose Dirichlet rows are identity rows. Checked for every
/// smoother kind, random x (Dirichlet entries included) and b.
TYPED_TEST(MultigridTest, CycleOnTheIterateIsTheCorrectionOfItsResidual) {
  if (world_size() > 1) GTEST_SKIP() << "single rank";
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 3})
      for (auto kind : {SmootherKind::vertex_patch, SmootherKind::jacobi, SmootherKind::chebyshev, SmootherKind::gauss_seidel}) {
        if (kind == SmootherKind::gauss_seidel && (dim == 3 || !runs_on_host<TypeParam>())) continue;
        MultigridOptions o;
        o.smoother = kind;
        const Multigrid<double, TypeParam> mg(brick(dim, {1, 1, 1}, dim == 2 ? 4 : 2), k, MPI_COMM_WORLD, {}, o);
        EXPECT_TRUE(mg.consistent_cycle());
        EXPECT_FALSE(mg.half_precision_products());
        const auto& A = mg.fine_operator();
        const auto& layout = *mg.hierarchy()->finest();
        auto x = A.make_vector(), b = A.make_vector(), r = A.make_vector(), e = A.make_vector();
        fill_random(layout, x, 11 + k);
        fill_random(layout, b, 12 + k);
        A.vmult(r, x);
        r.axpby(1.0, b, -1.0);  // r = b − A x
        mg.correction(e, r);
        e.add(1.0, x);  // x + V(0, b − A x)
        mg.vcycle(x, b);
        EXPECT_LE(relative_max_difference(x, e), 1e-12) << "dim=" << dim << " k=" << k << " " << to_string(kind);
        EXPECT_GT(e.l2_norm(), 0.0);
      }
}

TYPED_TEST(MultigridTest, RefusesTooCoarseMeshes) {
  // (Several ranks: test_multigrid_ranks.cpp.)
  EXPECT_THROW((Multigrid<double, TypeParam>(brick(2, {1, 1, 1}, 0), 2, MPI_COMM_WORLD)), InputError);
  EXPECT_THROW((Multigrid<double, TypeParam>(brick(3, {1, 2, 1}, 0), 2, MPI_COMM_WORLD)), InputError);
}

}  // namespace
