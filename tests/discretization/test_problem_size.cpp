// Problem sizes (issue 19): counts are computed in 64 bits and checked against what 32-bit local
// indices address before anything is allocated or looped over; memory is estimated first.
#include <gtest/gtest.h>

#include <chrono>

#include "core/error.hpp"
#include "multigrid/memory_estimate.hpp"
#include "smoothers/dg_patch_matrices.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

/// The message of the collective InputError f throws ("" if none).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    return e.what();
  }
  return "";
}

TEST(ProblemSize, ALayoutPastThirtyTwoBitsIsRefusedAtOnce) {
  // 46342^2 nodes on one rank: 2^31 + 97317. Before the fix the count wrapped around in 32 bits.
  const auto start = std::chrono::steady_clock::now();
  const auto mesh = make_mesh(2, {46341, 46341 * world_size(), 1}, 0);
  const std::string message = refusal([&] { ContinuousDofLayout<HostExec> layout(mesh, 1); });
  EXPECT_NE(message.find("32-bit local indices"), std::string::npos) << message;
  // 3D: 10^15 cells; the refusal comes before any loop over the box.
  const auto huge = make_mesh(3, {100000, 100000, 100000}, 0);
  EXPECT_NE(refusal([&] { ContinuousDofLayout<HostExec> layout(huge, 4); }).find("32-bit"), std::string::npos);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(ProblemSize, AMeshPastSixtyTwoBitsIsRefused) {
  BrickDescription b;
  b.dim = 3;
  b.coarse_cells = {1 << 30, 1 << 30, 1 << 30};
  b.refinements = 10;
  EXPECT_NE(refusal([&] { CartesianMesh mesh(b, MPI_COMM_WORLD); }).find("more than 2^62"), std::string::npos);
}

TEST(ProblemSize, SolvesThatCannotFitAreRefusedBeforeAllocating) {
  SolveShape s;
  s.brick.dim = 3;
  s.brick.coarse_cells = {1, 1, 1};
  s.brick.refinements = 8;
  s.degree = 4;
  s.ranks = world_size();
  // 1025^3 nodes: addressable, but ~100 GiB for CG + Jacobi: more than this machine has.
  s.outer_vectors = krylov_vectors("fgmres", 200);
  s.jacobi = true;
  const std::string message = refusal([&] { check_solve_memory(s, MPI_COMM_WORLD); });
  EXPECT_NE(message.find("this solve needs"), std::string::npos) << message;
  EXPECT_NE(message.find("GiB"), std::string::npos) << message;
  // Past 32 bits the index limit is named instead.
  s.brick.refinements = 9;
  s.ranks = 1;
  if (world_size() == 1)
    EXPECT_NE(refusal([&] { check_solve_memory(s, MPI_COMM_WORLD); }).find("32-bit"), std::string::npos);
  // A small solve passes.
  s.brick.refinements = 2;
  s.ranks = world_size();
  EXPECT_EQ(refusal([&] { check_solve_memory(s, MPI_COMM_WORLD); }), "");
}

TEST(ProblemSize, EstimatesGrowWithWhatIsAllocated) {
  SolveShape s;
  s.brick.dim = 3;
  s.brick.refinements = 5;
  s.degree = 3;
  const double cg = estimate_solve_memory(s).device_bytes;
  s.outer_vectors = krylov_vectors("gmres", 50);
  EXPECT_GT(estimate_solve_memory(s).device_bytes, cg);
  s.outer_vectors = krylov_vectors("fmg", 0);
  s.multigrid = true;
  const double mg_double = estimate_solve_memory(s).device_bytes;
  s.mg_number_bytes = 4;
  EXPECT_LT(estimate_solve_memory(s).device_bytes, mg_double);
  const double mixed = estimate_solve_memory(s).device_bytes;
  s.mixed_full_multigrid = true;  // adds the double hierarchy below the float one
  EXPECT_GT(estimate_solve_memory(s).device_bytes, mixed);
  EXPECT_EQ(krylov_vectors("fgmres", 10), 24);
}

TEST(ProblemSize, DgDenseInversesAreCounted) {
  SolveShape s;
  s.brick.dim = 3;
  s.brick.refinements = 5;
  s.degree = 3;
  s.discontinuous = true;
  s.multigrid = true;
  s.outer_vectors = krylov_vectors("fmg", 0);
  const double fd = estimate_solve_memory(s).device_bytes;
  s.dg_dense_inverse = true;
  // Levels 2..5 smooth (level 1, 2 cells per direction, is the coarse solve): 4, 8, 16, 32 cells
  // per direction, 3 boundary positions each, 27 blocks of (2·4)^3 squared doubles per level.
  EXPECT_DOUBLE_EQ(estimate_solve_memory(s).device_bytes - fd, 4.0 * 27 * 512 * 512 * 8);
  EXPECT_EQ(dg_patch_positions(2), std::vector<int>({3}));
  EXPECT_EQ(dg_patch_positions(3), std::vector<int>({1, 2}));
  EXPECT_EQ(dg_patch_positions(6), std::vector<int>({0, 1, 2}));
  EXPECT_EQ(dg_dense_inverse_entries(2, 2, {2, 5, 1}), std::size_t(3 * 36 * 36));
}

TEST(Layout, ConstrainedNodesMatchAScanOfTheWholeBox) {
  // The list is built from the rows that can hold boundary nodes; compare with every node's test.
  for (int dim : {2, 3})
    for (int k : {1, 3})
      for (const auto cells : {std::array<int, 3>{1, 1, 1}, std::array<int, 3>{3, 2, 5}}) {
        const auto layout = make_layout<HostExec>(make_mesh(dim, cells, 2), k);
        const NodeBox& b = layout->box();
        std::vector<local_index> scan;
        for (local_index iz = 0; iz < b.o[2]; ++iz)
          for (local_index iy = 0; iy < b.o[1]; ++iy)
            for (local_index ix = 0; ix < b.o[0]; ++ix)
              if (b.on_boundary(ix, iy, iz)) scan.push_back(b.index(ix, iy, iz));
        EXPECT_EQ(owned_boundary_node_list(b), scan) << dim << "D Q" << k;
        const auto& view = layout->constrained_nodes();
        ASSERT_EQ(view.extent(0), scan.size());
        for (std::size_t i = 0; i < scan.size(); ++i) EXPECT_EQ(view(i), scan[i]);
      }
}

}  // namespace
