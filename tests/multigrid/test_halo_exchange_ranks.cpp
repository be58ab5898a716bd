// The halo exchanges of the multi-rank smoothers: the overlap split of each colour's patches
// (smoothers/patch_window.hpp), the overlapped exchange against the plain one, and the peer
// (device-to-device) transport against the staged one, each bitwise. Run at 1..4 ranks within
// test_multigrid_ranks (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>
#include <vector>

#include "backends/device_traits.hpp"  // the layouts' partitioner staging
#include "discretization/dg_poisson.hpp"
#include "discretization/poisson_problem.hpp"
#include "multigrid/multigrid.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"
#include "smoothers/patch_window.hpp"
#include "smoothers/vertex_patch_smoother.hpp"
#include "tests/multigrid/ranks_reference.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class HaloExchangeRanksTest : public ::testing::Test {};
TYPED_TEST_SUITE(HaloExchangeRanksTest, ExecSpaces, ExecSpaceName);

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
TYPED_TEST(HaloExchangeRanksTest, OverlappedExchangeEqualsPlainExchange) {
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
TYPED_TEST(HaloExchangeRanksTest, PeerTransportEqualsStagedTransport) {
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
TYPED_TEST(HaloExchangeRanksTest, PartitionerPeerTransportEqualsStagedTransport) {
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

}  // namespace
