// Multigrid on several ranks, continuous Q_k and DG, against the same computation on one rank (every rank also solves the
// whole problem alone on MPI_COMM_SELF, the reference): one smoothing step, the transfers between
// distributed and replicated levels, full multigrid and MG-preconditioned CG (iteration counts and
// solutions), with uneven partitions and, where the hierarchy distributes its coarse levels too,
// ranks with tiny or no boxes. Run at 1..4 ranks (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "backends/device_traits.hpp"  // the layouts' partitioner staging
#include "discretization/dg_poisson.hpp"
#include "discretization/poisson_problem.hpp"
#include "multigrid/mixed_full_multigrid.hpp"
#include "multigrid/multigrid.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"
#include "smoothers/patch_window.hpp"
#include "smoothers/vertex_patch_smoother.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class MultigridRanksTest : public ::testing::Test {};
TYPED_TEST_SUITE(MultigridRanksTest, ExecSpaces, ExecSpaceName);

BrickDescription brick(int dim, std::array<int, 3> cells, int refinements, std::array<double, 3> upper = {1, 1, 1}) {
  BrickDescription b;
  b.dim = dim;
  b.coarse_cells = cells;
  b.refinements = refinements;
  b.upper = upper;
  return b;
}

/// max |v(global g) − reference(g)| / max |reference| over the owned nodes of all ranks; the
/// reference lives on MPI_COMM_SELF, where local and global (lexicographic) indices agree.
template <class Number, class ExecSpace>
double difference_to_reference(const ContinuousDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& v,
                               const DistributedVector<Number, ExecSpace>& reference) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), reference.view());
  double local[2] = {0, 0}, global[2] = {0, 0};
  for_each_owned_node(layout, [&](local_index l, global_index g, const std::array<double, 3>&) {
    local[0] = std::max(local[0], std::abs(double(h(l)) - double(r(local_index(g)))));
  });
  for (local_index i = 0; i < reference.n_owned(); ++i) local[1] = std::max(local[1], std::abs(double(r(i))));
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

int max_over_ranks(int v) {
  int m = v;
  MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

/// DG: max |v(global value g) − reference(g)| / max |reference|; values are numbered cell-wise,
/// (k+1)^d per cell, cells lexicographic (the reference on MPI_COMM_SELF in global order).
template <class Number, class ExecSpace>
double dg_difference_to_reference(const DgDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& v,
                                  const DistributedVector<Number, ExecSpace>& reference) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), reference.view());
  const CellBox& b = layout.box();
  double local[2] = {0, 0}, global[2] = {0, 0};
  local_index c = 0;
  for (local_index z = 0; z < b.cells[2]; ++z)
    for (local_index y = 0; y < b.cells[1]; ++y)
      for (local_index x = 0; x < b.cells[0]; ++x, ++c) {
        const global_index g = (b.offset[0] + x) + b.global_cells[0] * ((b.offset[1] + y) + b.global_cells[1] * (b.offset[2] + z));
        for (int i = 0; i < b.cell_dofs; ++i)
          local[0] = std::max(local[0], std::abs(double(h(c * b.cell_dofs + i)) - double(r(local_index(g * b.cell_dofs + i)))));
      }
  for (local_index i = 0; i < reference.n_owned(); ++i) local[1] = std::max(local[1], std::abs(double(r(i))));
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

template <class Number, class ExecSpace>
void dg_fill(const DgDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v, std::uint64_t seed) {
  fill_by_global_index(layout, v, [seed](global_index g) { return random_value(g, seed); });
}

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
        for (const auto kernel : {TransferKernel::automatic, TransferKernel::by_parent_cell}) {
          if (k != 1 && kernel != TransferKernel::automatic) continue;  // Q1 has two kernels: by node (automatic) and by parent cell
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
            const Transfer<double, TypeParam> t(h.layout(l - 1), h.layout(l), kernel), ts(hs.layout(l - 1), hs.layout(l));
            ASSERT_EQ(t.kernel(), k == 1 && kernel == TransferKernel::automatic ? TransferKernel::by_node
                                                                                : TransferKernel::by_parent_cell);
            DistributedVector<double, TypeParam> u(h.layout(l - 1)->partitioner()), us(hs.layout(l - 1)->partitioner());
            DistributedVector<double, TypeParam> v(h.layout(l)->partitioner()), vs(hs.layout(l)->partitioner());
            fill_random(*h.layout(l - 1), u, 7);
            fill_random(*hs.layout(l - 1), us, 7);
            t.prolongate(v, u);
            ts.prolongate(vs, us);
            const std::string what = " level " + std::to_string(l) + " dim=" + std::to_string(dim) + " k=" + std::to_string(k) +
                                     " replicate=" + std::to_string(replicate) + (kernel == TransferKernel::by_parent_cell ? " by parent cell" : "");
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
  const MixedFullMultigrid<TypeParam> mixed(h), mixeds(hs);
  const auto& A = mixed.cycle().fine_operator();
  const auto& As = mixeds.cycle().fine_operator();
  DistributedVector<double, TypeParam> rhs(h->finest()->partitioner()), rhss(hs->finest()->partitioner());
  const LaplaceOperator<double, TypeParam> Ad(h->finest()), Ads(hs->finest());
  assemble_rhs(Ad, problem, rhs);
  assemble_rhs(Ads, problem, rhss);
  auto x = Ad.make_vector(), xs = Ads.make_vector();
  (void)A;
  (void)As;
  const auto r = mixed.solve(Ad, x, rhs, control);
  const auto rs = mixeds.solve(Ads, xs, rhss, control);
  ASSERT_TRUE(r.converged());
  EXPECT_EQ(r.iterations, rs.iterations);
  EXPECT_LE(difference_to_reference(*h->finest(), x, xs), 1e-6);  // float cycles: rounding differs by rank count
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

/// Entries (owned) where a and b differ bitwise, the most of any rank.
template <class Number, class ExecSpace>
int bitwise_differences(const DistributedVector<Number, ExecSpace>& a, const DistributedVector<Number, ExecSpace>& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  int differ = 0;
  for (local_index i = 0; i < a.n_owned(); ++i) differ += ha(i) != hb(i);
  return max_over_ranks(differ);
}

/// The overlap split (smoothers/patch_window.hpp) on every small box: boundary windows and the
/// interior are disjoint and cover every vertex patch of every colour; the interior holds no patch
/// that writes into a layer a neighbour receives (cells 1 and C − 2 where there is halo).
TEST(PatchWindow, OverlapSplitPartitionsEveryColour) {
  for (int dim = 2; dim <= 3; ++dim)
    for (local_index c0 = 2; c0 <= 11; ++c0)
      for (int halo = 0; halo < (1 << (2 * dim)); ++halo) {
        const local_index cells[3] = {c0, c0 == 2 ? 9 : 7, dim == 3 ? 8 : 1};
        bool below[3] = {false, false, false}, above[3] = {false, false, false};
        for (int d = 0; d < dim; ++d) below[d] = (halo >> (2 * d)) & 1, above[d] = (halo >> (2 * d + 1)) & 1;
        const OverlapSplit split = split_for_overlap(dim, cells, below, above);
        std::vector<PatchWindow> windows = split.boundary;
        if (split.any_interior) windows.push_back(split.interior);
        for (int color = 0; color < (1 << dim); ++color) {
          // How often each vertex is visited, and whether by the interior window.
          std::map<std::array<local_index, 3>, int> visits;
          std::set<std::array<local_index, 3>> interior;
          for (std::size_t w = 0; w < windows.size(); ++w) {
            local_index first[3] = {0, 0, 0}, count[3] = {1, 1, 1};
            for (int d = 0; d < dim; ++d) {
              const int parity = (color >> d) & 1;
              window_patches(windows[w], d, parity, cells[d] > parity ? (cells[d] - parity) / 2 : 0, first[d], count[d]);
            }
            for (local_index t2 = 0; t2 < count[2]; ++t2)
              for (local_index t1 = 0; t1 < count[1]; ++t1)
                for (local_index t0 = 0; t0 < count[0]; ++t0) {
                  const local_index t[3] = {t0, t1, t2};
                  std::array<local_index, 3> v{0, 0, 0};
                  for (int d = 0; d < dim; ++d) v[d] = 1 + ((color >> d) & 1) + 2 * (first[d] + t[d]);
                  ++visits[v];
                  if (split.any_interior && w + 1 == windows.size()) interior.insert(v);
                }
          }
          std::size_t expected = 1;
          for (int d = 0; d < dim; ++d) {
            const int parity = (color >> d) & 1;
            expected *= std::size_t(cells[d] > parity ? (cells[d] - parity) / 2 : 0);
          }
          ASSERT_EQ(visits.size(), expected) << "dim=" << dim << " cells=" << c0 << " halo=" << halo << " color=" << color;
          for (const auto& [v, n] : visits) {
            ASSERT_EQ(n, 1) << "a patch in two windows";
            for (int d = 0; d < dim; ++d) ASSERT_TRUE(v[d] >= 1 && v[d] <= cells[d] - 1);
          }
          for (const auto& v : interior)
            for (int d = 0; d < dim; ++d) {
              // A patch around v writes into cells v − 1 and v.
              if (below[d]) EXPECT_GT(v[d] - 1, 1) << "interior patch writes the layer sent below";
              if (above[d]) EXPECT_LT(v[d], cells[d] - 2) << "interior patch writes the layer sent above";
            }
        }
      }
}

/// The automatic choice follows its one rule; the names parse back.
TEST(PatchWindow, AutomaticOverlapRule) {
  EXPECT_FALSE(overlaps_halo_exchange(HaloOverlap::automatic, true, 3, 1));  // a GPU to itself: measured slower
  EXPECT_TRUE(overlaps_halo_exchange(HaloOverlap::automatic, true, 2, 2));
  EXPECT_TRUE(overlaps_halo_exchange(HaloOverlap::automatic, true, 7, 2));
  EXPECT_FALSE(overlaps_halo_exchange(HaloOverlap::automatic, true, 1, 1));   // Q1: measured slower
  EXPECT_FALSE(overlaps_halo_exchange(HaloOverlap::automatic, true, 7, 4));   // 4 ranks on one GPU
  EXPECT_FALSE(overlaps_halo_exchange(HaloOverlap::automatic, false, 3, 1));  // host
  EXPECT_TRUE(overlaps_halo_exchange(HaloOverlap::on, false, 1, 8));
  EXPECT_FALSE(overlaps_halo_exchange(HaloOverlap::off, true, 3, 1));
  for (const auto o : {HaloOverlap::automatic, HaloOverlap::on, HaloOverlap::off}) EXPECT_EQ(parse_halo_overlap(to_string(o)), o);
  EXPECT_THROW(parse_halo_overlap("yes"), InputError);
  // The ranks of this node counted per device: the host is never shared; a device id is shared
  // by the ranks that give it.
  EXPECT_EQ(ranks_sharing_device(MPI_COMM_WORLD, -1), 1);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_ranks = 0;
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  EXPECT_EQ(ranks_sharing_device(MPI_COMM_WORLD, 0), node_ranks);
}

/// Overlapping the halo exchange with the interior patches gives bitwise the result without it,
/// and the one-rank result, on boxes large enough to have interior patches (continuous and DG).
TYPED_TEST(MultigridRanksTest, OverlappedExchangeEqualsPlainExchange) {
  for (int dim = 2; dim <= 3; ++dim) {
    const auto b = dim == 2 ? brick(2, {3, 2, 1}, 3, {1.0, 0.7, 1.0}) : brick(3, {3, 2, 2}, 2, {1.0, 0.7, 1.3});
    for (int k : {1, 2}) {
      const auto layout = std::make_shared<const ContinuousDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_WORLD), k);
      const auto self = std::make_shared<const ContinuousDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_SELF), k);
      // Colouring, not atomics: the global kernel's residual must be bitwise reproducible.
      LaplaceOptions lo;
      lo.scatter = ScatterMode::coloring;
      const auto op = std::make_shared<const LaplaceOperator<double, TypeParam>>(layout, lo);
      const auto op_self = std::make_shared<const LaplaceOperator<double, TypeParam>>(self, lo);
      for (const auto kernel : {PatchKernel::fused, PatchKernel::separate, PatchKernel::global}) {
        VertexPatchOptions on, off;
        on.kernel = off.kernel = kernel;
        on.overlap = HaloOverlap::on;
        off.overlap = HaloOverlap::off;
        const VertexPatchSmoother<double, TypeParam> s_on(op, on), s_off(op, off), s_self(op_self, on);
        if (world_size() > 1) EXPECT_GT(max_over_ranks(int(s_on.overlaps_exchange())), 0) << "no rank has interior patches";
        EXPECT_FALSE(s_off.overlaps_exchange());
        auto x_on = op->make_vector(), x_off = op->make_vector(), rhs = op->make_vector();
        auto xs = op_self->make_vector(), rhss = op_self->make_vector();
        fill_random(*layout, x_on, 5);
        fill_random(*layout, x_off, 5);
        fill_random(*layout, rhs, 6);
        fill_random(*self, xs, 5);
        fill_random(*self, rhss, 6);
        for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
          s_on.smooth(x_on, rhs, order);
          s_off.smooth(x_off, rhs, order);
          s_self.smooth(xs, rhss, order);
        }
        EXPECT_EQ(difference_to_reference(*layout, x_on, xs), difference_to_reference(*layout, x_off, xs));
        EXPECT_EQ(bitwise_differences(x_on, x_off), 0) << "dim=" << dim << " k=" << k << " " << to_string(kernel);
        EXPECT_LE(difference_to_reference(*layout, x_on, xs), 1e-13) << "dim=" << dim << " k=" << k << " " << to_string(kernel);
      }
    }
    for (int k : {1, 3}) {
      const auto layout = std::make_shared<const DgDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_WORLD), k);
      const auto self = std::make_shared<const DgDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_SELF), k);
      const auto op = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(layout);
      const auto op_self = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(self);
      for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet}) {
        DgPatchKernelOptions on, off;
        on.overlap = HaloOverlap::on;
        off.overlap = HaloOverlap::off;
        const DgVertexPatchSmoother<double, TypeParam> s_on(op, solver, on), s_off(op, solver, off), s_self(op_self, solver, on);
        if (world_size() > 1) EXPECT_GT(max_over_ranks(int(s_on.overlaps_exchange())), 0) << "no rank has interior patches";
        auto x_on = op->make_vector(), x_off = op->make_vector(), rhs = op->make_vector();
        auto xs = op_self->make_vector(), rhss = op_self->make_vector();
        dg_fill(*layout, x_on, 5);
        dg_fill(*layout, x_off, 5);
        dg_fill(*layout, rhs, 6);
        dg_fill(*self, xs, 5);
        dg_fill(*self, rhss, 6);
        for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
          s_on.smooth(x_on, rhs, order);
          s_off.smooth(x_off, rhs, order);
          s_self.smooth(xs, rhss, order);
        }
        EXPECT_EQ(bitwise_differences(x_on, x_off), 0) << "dg dim=" << dim << " k=" << k << " " << to_string(solver);
        EXPECT_LE(dg_difference_to_reference(*layout, x_on, xs), 1e-12) << "dg dim=" << dim << " k=" << k << " " << to_string(solver);
      }
    }
  }
}

/// DG full multigrid and MG-GMRES: the same iteration counts and solutions as on one rank.
// The halo refreshes copied device to device between ranks whose GPUs reach each other's memory
// (HaloTransport::automatic: CUDA IPC, on one node) give bitwise what the host-staged ones give,
// with the exchange overlapped or not, in double and float; on a device backend with several
// ranks some neighbours are reached so (ranks sharing one GPU or GPUs that are peers), on the
// host backends none.
TYPED_TEST(MultigridRanksTest, PeerTransportEqualsStagedTransport) {
  const bool device = !runs_on_host<TypeParam>();
  for (int dim = 2; dim <= 3; ++dim) {
    const auto b = dim == 2 ? brick(2, {3, 2, 1}, 3, {1.0, 0.7, 1.0}) : brick(3, {3, 2, 2}, 2, {1.0, 0.7, 1.3});
    const int k = 2;
    const auto layout = std::make_shared<const ContinuousDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_WORLD), k);
    LaplaceOptions lo;
    lo.scatter = ScatterMode::coloring;
    const auto op = std::make_shared<const LaplaceOperator<double, TypeParam>>(layout, lo);
    const auto opf = std::make_shared<const LaplaceOperator<float, TypeParam>>(layout, lo);
    for (const auto kernel : {PatchKernel::fused, PatchKernel::separate}) {
      for (const auto overlap : {HaloOverlap::on, HaloOverlap::off}) {
        VertexPatchOptions peer, staged;
        peer.kernel = staged.kernel = kernel;
        peer.overlap = staged.overlap = overlap;
        staged.transport = HaloTransport::staged;
        const VertexPatchSmoother<double, TypeParam> s_peer(op, peer), s_staged(op, staged);
        const VertexPatchSmoother<float, TypeParam> f_peer(opf, peer), f_staged(opf, staged);
        EXPECT_EQ(s_staged.halo_peer_sends(), 0);
        if (world_size() > 1)
          EXPECT_EQ(max_over_ranks(s_peer.halo_peer_sends()) > 0, device) << "peer neighbours on a device backend only";
        auto x_peer = op->make_vector(), x_staged = op->make_vector(), rhs = op->make_vector();
        auto y_peer = opf->make_vector(), y_staged = opf->make_vector(), rhsf = opf->make_vector();
        fill_random(*layout, x_peer, 5);
        fill_random(*layout, x_staged, 5);
        fill_random(*layout, rhs, 6);
        fill_random(*layout, y_peer, 5);
        fill_random(*layout, y_staged, 5);
        fill_random(*layout, rhsf, 6);
        for (int sweep = 0; sweep < 2; ++sweep)
          for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
            s_peer.smooth(x_peer, rhs, order);
            s_staged.smooth(x_staged, rhs, order);
            f_peer.smooth(y_peer, rhsf, order);
            f_staged.smooth(y_staged, rhsf, order);
          }
        EXPECT_EQ(bitwise_differences(x_peer, x_staged), 0) << "dim=" << dim << " " << to_string(kernel) << " " << to_string(overlap);
        EXPECT_EQ(bitwise_differences(y_peer, y_staged), 0) << "float dim=" << dim << " " << to_string(kernel);
      }
    }
    const auto dg = std::make_shared<const DgDofLayout<TypeParam>>(std::make_shared<CartesianMesh>(b, MPI_COMM_WORLD), 2);
    const auto dg_op = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(dg);
    DgPatchKernelOptions peer, staged;
    staged.transport = HaloTransport::staged;
    const DgVertexPatchSmoother<double, TypeParam> d_peer(dg_op, DgLocalSolver::dirichlet, peer),
        d_staged(dg_op, DgLocalSolver::dirichlet, staged);
    if (world_size() > 1) EXPECT_EQ(max_over_ranks(d_peer.halo_peer_sends()) > 0, device);
    auto x_peer = dg_op->make_vector(), x_staged = dg_op->make_vector(), rhs = dg_op->make_vector();
    dg_fill(*dg, x_peer, 5);
    dg_fill(*dg, x_staged, 5);
    dg_fill(*dg, rhs, 6);
    for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
      d_peer.smooth(x_peer, rhs, order);
      d_staged.smooth(x_staged, rhs, order);
    }
    EXPECT_EQ(bitwise_differences(x_peer, x_staged), 0) << "dg dim=" << dim;
  }
}

/// A partitioner whose every rank ghosts entries of every other rank (uneven counts, both
/// directions per pair, ghosts of one owner not in owner order): update_ghosts gives each ghost its
/// owner's value and compress_add adds every ghost into its owner, exactly (small integers), and
/// the peer transport gives bitwise the staged one's result, double and float. On a device backend
/// with several ranks the automatic transport does write device to device in both directions.
TYPED_TEST(MultigridRanksTest, PartitionerPeerTransportEqualsStagedTransport) {
  using Exec = TypeParam;
  const int rank = world_rank(), size = world_size();
  const auto owned_count = [](int r) { return local_index(40 + 13 * r); };
  std::vector<global_index> first(size + 1, 0);
  for (int r = 0; r < size; ++r) first[r + 1] = first[r] + owned_count(r);
  std::vector<global_index> ghost_ids;
  std::vector<int> ghost_owner;
  for (int s = size - 1; s >= 0; --s) {
    if (s == rank) continue;
    for (local_index i = owned_count(s) - 1; i >= 0; --i)
      if ((3 * i + rank + s) % 4 == 0) {
        ghost_ids.push_back(first[s] + i);
        ghost_owner.push_back(s);
      }
  }
  const auto owned_local = [&](global_index g) { return local_index(g - first[rank]); };
  using Staging = typename DeviceTraits<Exec>::halo_staging;  // the layouts' choice
  const auto peer = std::make_shared<const Partitioner<Exec>>(MPI_COMM_WORLD, owned_count(rank), ghost_ids, ghost_owner,
                                                              owned_local, HaloTransport::automatic, Staging{});
  const auto staged = std::make_shared<const Partitioner<Exec>>(MPI_COMM_WORLD, owned_count(rank), ghost_ids,
                                                                ghost_owner, owned_local, HaloTransport::staged, Staging{});
  EXPECT_EQ(staged->n_peer_sends() + staged->n_reverse_peer_sends(), 0);
  if (size > 1) {
    const bool device = !runs_on_host<Exec>();
    EXPECT_EQ(max_over_ranks(peer->n_peer_sends()) > 0, device) << "peer neighbours on a device backend only";
    EXPECT_EQ(max_over_ranks(peer->n_reverse_peer_sends()) > 0, device);
  }
  const local_index n_owned = owned_count(rank), n_local = peer->n_local();
  const auto value = [](global_index g) { return double(g % 97 + 1); };
  const auto ghost_share = [&](global_index g) { return double((g + 2 * rank) % 5 + 1); };
  // What compress_add must leave in owned entry g: its value plus the shares of all ranks ghosting it.
  std::vector<double> expected_sum(n_owned);
  for (local_index i = 0; i < n_owned; ++i) {
    const global_index g = first[rank] + i;
    expected_sum[i] = value(g);
    for (int r = 0; r < size; ++r)
      if (r != rank && (3 * i + r + rank) % 4 == 0) expected_sum[i] += double((g + 2 * r) % 5 + 1);
  }
  const auto check = [&](auto number) {
    using Number = decltype(number);
    using Vector = DistributedVector<Number, Exec>;
    Vector vp(peer), vs(staged);
    const auto fill = [&](Vector& v, bool ghosts_too) {
      auto h = Kokkos::create_mirror_view(v.view());
      for (local_index i = 0; i < n_local; ++i)
        h(i) = i < n_owned ? Number(value(first[rank] + i)) : ghosts_too ? Number(ghost_share(ghost_ids[i - n_owned])) : Number(-1);
      Kokkos::deep_copy(v.view(), h);
    };
    // Entries of v other than want(i) (no early return: every rank goes on to the collectives).
    const auto mismatches = [&](const Vector& v, auto&& want) {
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
      int wrong = 0;
      for (local_index i = 0; i < n_local; ++i) wrong += double(h(i)) != want(i);
      return wrong;
    };
    for (Vector* v : {&vp, &vs}) {
      fill(*v, false);
      v->update_ghosts();
      EXPECT_EQ(mismatches(*v, [&](local_index i) { return value(i < n_owned ? first[rank] + i : ghost_ids[i - n_owned]); }), 0)
          << "update_ghosts, " << (v == &vp ? "automatic" : "staged") << ", " << sizeof(Number) << "-byte numbers";
    }
    for (Vector* v : {&vp, &vs}) {
      fill(*v, true);
      v->compress_add();
      EXPECT_EQ(mismatches(*v, [&](local_index i) { return i < n_owned ? expected_sum[i] : 0.0; }), 0)
          << "compress_add, " << (v == &vp ? "automatic" : "staged") << ", " << sizeof(Number) << "-byte numbers";
    }
    EXPECT_EQ(bitwise_differences(vp, vs), 0);
  };
  for (int repeat = 0; repeat < 2; ++repeat) {  // the buffers reused, in both directions
    check(double{});
    check(float{});
  }
}

TEST(HaloTransport, NamesRoundTrip) {
  EXPECT_EQ(parse_halo_transport("auto"), HaloTransport::automatic);
  EXPECT_EQ(parse_halo_transport("staged"), HaloTransport::staged);
  EXPECT_EQ(to_string(HaloTransport::staged), "staged");
  EXPECT_THROW(parse_halo_transport("nvlink"), InputError);
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
