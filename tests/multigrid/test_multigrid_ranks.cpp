// Multigrid on several ranks, continuous Q_k and DG, against the same computation on one rank (every rank also solves the
// whole problem alone on MPI_COMM_SELF, the reference): one smoothing step, the transfers between
// distributed and replicated levels, full multigrid and MG-preconditioned CG (iteration counts and
// solutions), with uneven partitions and, where the hierarchy distributes its coarse levels too,
// ranks with tiny or no boxes. Run at 1..4 ranks (tests/CMakeLists.txt); the halo exchanges
// themselves (overlap, peer transport): test_halo_exchange_ranks.cpp, in the same executable.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <sstream>
#include <vector>

#include "backends/device_traits.hpp"  // the layouts' partitioner staging
#include "discretization/dg_poisson.hpp"
#include "discretization/poisson_problem.hpp"
#include "multigrid/mixed_full_multigrid.hpp"
#include "multigrid/multigrid.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"
#include "smoothers/vertex_patch_smoother.hpp"
#include "tests/multigrid/ranks_reference.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class MultigridRanksTest : public ::testing::Test {};
TYPED_TEST_SUITE(MultigridRanksTest, ExecSpaces, ExecSpaceName);

/// One smoothing step (every kernel variant, both colour orders) on uneven rank boxes equals the
/// step on one rank: the same patches, colours and arithmetic.
TYPED_TEST(MultigridRanksTest, SmoothingStepEqualsOneRank) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= (dim == 2 ? 4 : 3); ++k)
      for (const auto kernel : {PatchKernel::fused, PatchKernel::separate, PatchKernel::global}) {
        const auto b = brick(dim, {3, 2, 1}, dim == 2 ? 2 : 1, {1.0, 0.7, 1.3});
        const auto layout = std::make_shared<const ContinuousDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_WORLD), k);
        const auto self = std::make_shared<const ContinuousDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_SELF), k);
        LaplaceOptions lo;
        lo.mass_coefficient = 0.5;
        const auto op = std::make_shared<const LaplaceOperator<double, TypeParam>>(layout, lo);
        const auto op_self = std::make_shared<const LaplaceOperator<double, TypeParam>>(self, lo);
        VertexPatchOptions po;
        po.kernel = kernel;
        const VertexPatchSmoother<double, TypeParam> s(op, po), s_self(op_self, po);
        auto x = op->make_vector(), rhs = op->make_vector(), xs = op_self->make_vector(), rhss = op_self->make_vector();
        fill_random(*layout, x, 3);
        fill_random(*layout, rhs, 4);
        fill_random(*self, xs, 3);
        fill_random(*self, rhss, 4);
        for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
          s.smooth(x, rhs, order);
          s_self.smooth(xs, rhss, order);
          EXPECT_LE(difference_to_reference(*layout, x, xs), 1e-13)
              << "dim=" << dim << " k=" << k << " " << to_string(kernel) << " ranks=" << world_size();
        }
        if (world_size() > 1 && layout->mesh().n_local_cells() > 0 && k == 2) EXPECT_GT(max_over_ranks(int(s.halo_entries())), 0);
      }
}

/// Prolongation and restriction between every pair of levels, replicated or distributed, equal
/// the one-rank transfers.
TYPED_TEST(MultigridRanksTest, TransfersEqualOneRank) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 3})
      for (int replicate : {0, 2})
        for (const auto kernel : {TransferKernel::automatic, TransferKernel::by_parent_cell, TransferKernel::by_node}) {
          // Q1 has two kernels: by node (automatic: a thread per node on the host, 3D z-column
          // segments on a GPU; here also segments of 3) and by parent cell
          if (k != 1 && kernel != TransferKernel::automatic) continue;
          HierarchyOptions ho;
          ho.replicate_below_cells_per_rank = replicate;
          ho.replicate_below_dofs = 0;  // the same levels on the host and the device
          const auto b = brick(dim, {3, 1, 2}, dim == 2 ? 3 : 2);
          const LevelHierarchy<TypeParam> h(b, k, MPI_COMM_WORLD, ho), hs(b, k, MPI_COMM_SELF);
          ASSERT_EQ(h.n_levels(), hs.n_levels());
          if (world_size() == 1) EXPECT_EQ(h.first_distributed_level(), 0);
          else EXPECT_GE(h.first_distributed_level(), 1);
          for (int l = 1; l < h.n_levels(); ++l) {
            // The reference on one rank: the automatic kernel (Q1: by node); here the kernel of the loop.
            const Transfer<double, TypeParam> t(h.layout(l - 1), h.layout(l), kernel, kernel == TransferKernel::by_node ? 3 : 0),
                ts(hs.layout(l - 1), hs.layout(l));
            ASSERT_EQ(t.kernel(), k == 1 && kernel != TransferKernel::by_parent_cell ? TransferKernel::by_node
                                                                                   : TransferKernel::by_parent_cell);
            DistributedVector<double, TypeParam> u(h.layout(l - 1)->partitioner()), us(hs.layout(l - 1)->partitioner());
            DistributedVector<double, TypeParam> v(h.layout(l)->partitioner()), vs(hs.layout(l)->partitioner());
            fill_random(*h.layout(l - 1), u, 7);
            fill_random(*hs.layout(l - 1), us, 7);
            t.prolongate(v, u);
            ts.prolongate(vs, us);
            const std::string what = " level " + std::to_string(l) + " dim=" + std::to_string(dim) + " k=" + std::to_string(k) +
                                     " replicate=" + std::to_string(replicate) + (kernel == TransferKernel::by_parent_cell ? " by parent cell" : "") +
                                     (kernel == TransferKernel::by_node ? " column segments of 3" : "");
            EXPECT_LE(difference_to_reference(*h.layout(l), v, vs), 1e-14) << "prolongation" << what;
            fill_random(*h.layout(l), v, 8);
            fill_random(*hs.layout(l), vs, 8);
            t.restrict_to(u, v);
            ts.restrict_to(us, vs);
            EXPECT_LE(difference_to_reference(*h.layout(l - 1), u, us), 1e-13) << "restriction" << what;
            t.prolongate_add(v, u);
            ts.prolongate_add(vs, us);
            EXPECT_LE(difference_to_reference(*h.layout(l), v, vs), 1e-13) << "prolongate_add" << what;
          }
        }
}

/// DG: prolongation and restriction between every pair of levels, replicated or distributed,
/// equal the one-rank transfers.
TYPED_TEST(MultigridRanksTest, DgTransfersEqualOneRank) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int replicate : {0, 2}) {
      HierarchyOptions ho;
      ho.replicate_below_cells_per_rank = replicate;
      ho.replicate_below_dofs = 0;
      const auto b = brick(dim, {3, 1, 2}, dim == 2 ? 3 : 2);
      const LevelHierarchy<TypeParam, DgSipg> h(b, 2, MPI_COMM_WORLD, ho), hs(b, 2, MPI_COMM_SELF);
      for (int l = 1; l < h.n_levels(); ++l) {
        const DgTransfer<double, TypeParam> t(h.layout(l - 1), h.layout(l)), ts(hs.layout(l - 1), hs.layout(l));
        DistributedVector<double, TypeParam> u(h.layout(l - 1)->partitioner()), us(hs.layout(l - 1)->partitioner());
        DistributedVector<double, TypeParam> v(h.layout(l)->partitioner()), vs(hs.layout(l)->partitioner());
        dg_fill(*h.layout(l - 1), u, 7);
        dg_fill(*hs.layout(l - 1), us, 7);
        t.prolongate(v, u);
        ts.prolongate(vs, us);
        EXPECT_LE(dg_difference_to_reference(*h.layout(l), v, vs), 1e-14) << "DG prolongation level " << l << " dim=" << dim;
        dg_fill(*h.layout(l), v, 8);
        dg_fill(*hs.layout(l), vs, 8);
        t.restrict_to(u, v);
        ts.restrict_to(us, vs);
        EXPECT_LE(dg_difference_to_reference(*h.layout(l - 1), u, us), 1e-14) << "DG restriction level " << l << " dim=" << dim;
      }
    }
}

struct SolveCase {
  int dim, k;
  std::array<int, 3> cells;
  int refinements;
  int replicate;
};

/// Full multigrid and MG-preconditioned CG: the same iteration counts and solutions (≤ 1e-10) as
/// on one rank, k = 1..4 in 2D and 3D, uneven boxes; replicate 0 distributes every level above the
/// coarsest, so rank boxes get tiny, and at 3 ranks one rank has none.
TYPED_TEST(MultigridRanksTest, SolvesEqualOneRank) {
  std::vector<SolveCase> cases;
  for (int k = 1; k <= 4; ++k) {
    cases.push_back({2, k, {1, 1, 1}, 4, 0});
    cases.push_back({2, k, {3, 2, 1}, 3, 2});
    cases.push_back({3, k, {1, 1, 1}, k <= 2 ? 3 : 2, 0});
  }
  cases.push_back({3, 2, {2, 1, 3}, 2, 1});
  for (const auto& c : cases) {
    std::ostringstream what;
    what << "dim=" << c.dim << " k=" << c.k << " refinements=" << c.refinements << " replicate=" << c.replicate
         << " ranks=" << world_size();
    HierarchyOptions ho;
    ho.replicate_below_cells_per_rank = c.replicate;
    ho.replicate_below_dofs = 0;
    const auto b = brick(c.dim, c.cells, c.refinements);
    const auto h = std::make_shared<const LevelHierarchy<TypeParam>>(b, c.k, MPI_COMM_WORLD, ho);
    const auto hs = std::make_shared<const LevelHierarchy<TypeParam>>(b, c.k, MPI_COMM_SELF);
    const Multigrid<double, TypeParam> mg(h), mgs(hs);
    const auto problem = make_poisson_problem("sine", c.dim);
    const auto& A = mg.fine_operator();
    const auto& As = mgs.fine_operator();
    auto rhs = A.make_vector(), rhss = As.make_vector();
    assemble_rhs(A, problem, rhs);
    assemble_rhs(As, problem, rhss);
    SolverControl control;
    control.rtol = 1e-10;
    control.max_iterations = 60;
    auto x = A.make_vector(), xs = As.make_vector();
    const auto r = solve_full_multigrid(mg, A, x, rhs, control);
    const auto rs = solve_full_multigrid(mgs, As, xs, rhss, control);
    ASSERT_TRUE(r.converged()) << what.str();
    EXPECT_EQ(r.iterations, rs.iterations) << "FMG " << what.str();
    EXPECT_LE(difference_to_reference(*h->finest(), x, xs), 1e-10) << "FMG " << what.str();
    x.fill(0.0);
    xs.fill(0.0);
    const auto q = solve_cg(A, x, rhs, MultigridPreconditioner<double, double, TypeParam>(mg), control);
    const auto qs = solve_cg(As, xs, rhss, MultigridPreconditioner<double, double, TypeParam>(mgs), control);
    ASSERT_TRUE(q.converged()) << what.str();
    EXPECT_EQ(q.iterations, qs.iterations) << "MG-CG " << what.str();
    EXPECT_LE(difference_to_reference(*h->finest(), x, xs), 1e-10) << "MG-CG " << what.str();
  }
}

/// The other smoothers and mixed precision on several ranks: the same cycles as on one rank.
TYPED_TEST(MultigridRanksTest, PointSmoothersAndMixedPrecisionEqualOneRank) {
  const auto b = brick(2, {2, 3, 1}, 3);
  HierarchyOptions ho;
  ho.replicate_below_cells_per_rank = 0;
  ho.replicate_below_dofs = 0;
  const auto h = std::make_shared<const LevelHierarchy<TypeParam>>(b, 2, MPI_COMM_WORLD, ho);
  const auto hs = std::make_shared<const LevelHierarchy<TypeParam>>(b, 2, MPI_COMM_SELF);
  const auto problem = make_poisson_problem("sine", 2);
  SolverControl control;
  control.rtol = 1e-9;
  control.max_iterations = 200;
  for (const auto kind : {SmootherKind::jacobi, SmootherKind::chebyshev}) {
    MultigridOptions o;
    o.smoother = kind;
    const Multigrid<double, TypeParam> mg(h, {}, o), mgs(hs, {}, o);
    auto rhs = mg.fine_operator().make_vector(), rhss = mgs.fine_operator().make_vector();
    assemble_rhs(mg.fine_operator(), problem, rhs);
    assemble_rhs(mgs.fine_operator(), problem, rhss);
    auto x = rhs, xs = rhss;
    x = mg.fine_operator().make_vector();
    xs = mgs.fine_operator().make_vector();
    const auto r = solve_full_multigrid(mg, mg.fine_operator(), x, rhs, control);
    const auto rs = solve_full_multigrid(mgs, mgs.fine_operator(), xs, rhss, control);
    ASSERT_TRUE(r.converged()) << to_string(kind);
    EXPECT_EQ(r.iterations, rs.iterations) << to_string(kind);
    EXPECT_LE(difference_to_reference(*h->finest(), x, xs), 1e-9) << to_string(kind);
  }
  // Mixed full multigrid, the start's cycles in double and as float corrections.
  DistributedVector<double, TypeParam> rhs(h->finest()->partitioner()), rhss(hs->finest()->partitioner());
  const LaplaceOperator<double, TypeParam> Ad(h->finest()), Ads(hs->finest());
  assemble_rhs(Ad, problem, rhs);
  assemble_rhs(Ads, problem, rhss);
  for (const MixedStart start : {MixedStart::double_cycles, MixedStart::float_corrections}) {
    const MixedFullMultigrid<TypeParam> mixed(h, {}, {}, start), mixeds(hs, {}, {}, start);
    auto x = Ad.make_vector(), xs = Ads.make_vector();
    const auto r = mixed.solve(Ad, x, rhs, control);
    const auto rs = mixeds.solve(Ads, xs, rhss, control);
    ASSERT_TRUE(r.converged()) << to_string(start);
    EXPECT_EQ(r.iterations, rs.iterations) << to_string(start);
    // float cycles: rounding differs by rank count
    EXPECT_LE(difference_to_reference(*h->finest(), x, xs), 1e-6) << to_string(start);
  }
}

/// With times collected, several ranks report the halo exchanges' part of the finest smoothing.
TYPED_TEST(MultigridRanksTest, ReportsTheHaloExchangeShare) {
  MultigridOptions o;
  o.collect_times = true;
  const Multigrid<double, TypeParam> mg(brick(2, {2, 2, 1}, 4), 2, MPI_COMM_WORLD, {}, o);
  auto rhs = mg.fine_operator().make_vector(), x = mg.fine_operator().make_vector();
  assemble_rhs(mg.fine_operator(), make_poisson_problem("sine", 2), rhs);
  for (int i = 0; i < 3; ++i) mg.vcycle(x, rhs);
  const auto t = mg.times();
  ASSERT_TRUE(t.count("smoothing"));
  if (world_size() == 1) {
    EXPECT_EQ(t.count("smoothing: halo exchange"), 0u);
    return;
  }
  ASSERT_TRUE(t.count("smoothing: halo exchange"));
  EXPECT_GT(t.at("smoothing: halo exchange"), 0.0);
  EXPECT_LT(t.at("smoothing: halo exchange"), t.at("smoothing"));
  mg.reset_times();
  EXPECT_EQ(mg.times().count("smoothing: halo exchange"), 0u);
}

/// DG: one smoothing step of every local solver on uneven boxes equals the one-rank step, with
/// fast diagonalization and (full, Dirichlet) with the dense inverses.
TYPED_TEST(MultigridRanksTest, DgSmoothingStepEqualsOneRank) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 3})
      for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet, DgLocalSolver::clamped})
      for (const auto inversion : {DgPatchInversion::fast_diagonalization, DgPatchInversion::inverse}) {
        if (solver == DgLocalSolver::clamped && (k < 3 || inversion == DgPatchInversion::inverse)) continue;
        const DgPatchKernelOptions kernel{DgPatchLayout::padded, 0, inversion};
        const auto b = brick(dim, {3, 2, 1}, dim == 2 ? 2 : 1, {1.0, 0.7, 1.3});
        const auto layout = std::make_shared<const DgDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_WORLD), k);
        const auto self = std::make_shared<const DgDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_SELF), k);
        const auto op = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(layout);
        const auto op_self = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(self);
        const DgVertexPatchSmoother<double, TypeParam> s(op, solver, kernel), s_self(op_self, solver, kernel);
        auto x = op->make_vector(), rhs = op->make_vector(), xs = op_self->make_vector(), rhss = op_self->make_vector();
        dg_fill(*layout, x, 3);
        dg_fill(*layout, rhs, 4);
        dg_fill(*self, xs, 3);
        dg_fill(*self, rhss, 4);
        for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
          s.smooth(x, rhs, order);
          s_self.smooth(xs, rhss, order);
          EXPECT_LE(dg_difference_to_reference(*layout, x, xs), 1e-12)
              << "dim=" << dim << " k=" << k << " " << to_string(solver) << " " << to_string(inversion)
              << " ranks=" << world_size();
        }
      }
}

TYPED_TEST(MultigridRanksTest, DgSolvesEqualOneRank) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= (dim == 2 ? 4 : 2); ++k) {
      const int replicate = k % 2 == 0 ? 0 : 2;  // tiny boxes, or coarse levels replicated
      std::ostringstream what;
      what << "DG dim=" << dim << " k=" << k << " replicate=" << replicate << " ranks=" << world_size();
      const auto b = brick(dim, {1, 1, 1}, dim == 2 ? 4 : 3);
      HierarchyOptions ho;
      ho.replicate_below_cells_per_rank = replicate;
      ho.replicate_below_dofs = 0;
      const auto h = std::make_shared<const LevelHierarchy<TypeParam, DgSipg>>(b, k, MPI_COMM_WORLD, ho);
      const auto hs = std::make_shared<const LevelHierarchy<TypeParam, DgSipg>>(b, k, MPI_COMM_SELF);
      const Multigrid<double, TypeParam, DgSipg> mg(h), mgs(hs);
      const auto problem = make_poisson_problem("sine", dim);
      const auto& A = mg.fine_operator();
      const auto& As = mgs.fine_operator();
      auto rhs = A.make_vector(), rhss = As.make_vector();
      assemble_rhs(A, problem, rhs);
      assemble_rhs(As, problem, rhss);
      SolverControl control;
      control.rtol = 1e-10;
      control.max_iterations = 80;
      auto x = A.make_vector(), xs = As.make_vector();
      const auto r = solve_full_multigrid(mg, A, x, rhs, control);
      const auto rs = solve_full_multigrid(mgs, As, xs, rhss, control);
      ASSERT_TRUE(r.converged()) << what.str();
      EXPECT_EQ(r.iterations, rs.iterations) << "FMG " << what.str();
      EXPECT_LE(dg_difference_to_reference(*h->finest(), x, xs), 1e-10) << "FMG " << what.str();
      x.fill(0.0);
      xs.fill(0.0);
      const auto q = solve_gmres(A, x, rhs, MultigridPreconditioner<double, double, TypeParam, DgSipg>(mg), control);
      const auto qs = solve_gmres(As, xs, rhss, MultigridPreconditioner<double, double, TypeParam, DgSipg>(mgs), control);
      ASSERT_TRUE(q.converged()) << what.str();
      EXPECT_EQ(q.iterations, qs.iterations) << "MG-GMRES " << what.str();
      EXPECT_LE(dg_difference_to_reference(*h->finest(), x, xs), 1e-10) << "MG-GMRES " << what.str();
    }
}

/// Which levels are replicated: by cells per rank and by DoFs (one rank: none).
TYPED_TEST(MultigridRanksTest, ReplicationThresholdsPickTheFirstDistributedLevel) {
  const auto b = brick(2, {1, 1, 1}, 6);  // levels 0..5: 2..64 cells per direction, Q2
  HierarchyOptions ho;
  ho.replicate_below_cells_per_rank = 0;
  ho.replicate_below_dofs = 0;
  const int expect_one = world_size() == 1 ? 0 : 1;
  EXPECT_EQ(LevelHierarchy<TypeParam>(b, 2, MPI_COMM_WORLD, ho).first_distributed_level(), expect_one);
  ho.replicate_below_dofs = 33.0 * 33.0;  // level 4 (32 cells: 65^2 DoFs) is the first above it
  EXPECT_EQ(LevelHierarchy<TypeParam>(b, 2, MPI_COMM_WORLD, ho).first_distributed_level(), world_size() == 1 ? 0 : 4);
  ho.replicate_below_dofs = 1e12;  // all but the finest
  EXPECT_EQ(LevelHierarchy<TypeParam>(b, 2, MPI_COMM_WORLD, ho).first_distributed_level(), world_size() == 1 ? 0 : 5);
  ho.replicate_below_dofs = 0;
  ho.replicate_below_cells_per_rank = 8;  // level l−1 needs 8 × grid cells per direction
  const LevelHierarchy<TypeParam> h(b, 2, MPI_COMM_WORLD, ho);
  if (world_size() > 1) {
    const auto& g = h.finest()->mesh().rank_grid();
    const int widest = std::max(g[0], g[1]);
    int level = 1;
    while ((2 << (level - 1)) < 8 * widest && level < 5) ++level;
    EXPECT_EQ(h.first_distributed_level(), level);
  } else {
    EXPECT_EQ(h.first_distributed_level(), 0);
  }
}

/// A rank grid that does not match the rank count is a collective InputError.
TYPED_TEST(MultigridRanksTest, RefusesAWrongRankGrid) {
  HierarchyOptions ho;
  ho.rank_grid = {world_size() + 1, 1, 1};
  EXPECT_THROW((LevelHierarchy<TypeParam>(brick(2, {2, 2, 1}, 3), 2, MPI_COMM_WORLD, ho)), InputError);
  ho.replicate_below_cells_per_rank = -1;
  ho.rank_grid = {0, 0, 0};
  EXPECT_THROW((LevelHierarchy<TypeParam>(brick(2, {2, 2, 1}, 3), 2, MPI_COMM_WORLD, ho)), InputError);
}

}  // namespace
