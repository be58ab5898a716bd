// The DG vertex-patch smoother against a sequential host implementation of Algorithm 1 of paper
// 002 (dense patch matrices, patch by patch, colour by colour) for the three local solvers and both
// colour orders; one patch covering the whole mesh makes one full smoothing step an exact solve
// (every degree, including those whose patch buffers leave the fast scratch on a GPU). Several
// ranks: tests/multigrid/test_multigrid_ranks.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "backends/block_contraction.hpp"
#include "core/device_traits.hpp"
#include "discretization/assembled_dg_laplace.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class DgVertexPatch : public ::testing::Test {};
TYPED_TEST_SUITE(DgVertexPatch, ExecSpaces, ExecSpaceName);

/// One smoothing step on the host, dense: x ← S(x, b).
void reference_step(const std::shared_ptr<const DgDofLayout<HostExec>>& layout_ptr, const DgLaplaceOptions& options,
                    DgLocalSolver solver, bool forward, std::vector<double>& x, const std::vector<double>& b) {
  const DgDofLayout<HostExec>& layout = *layout_ptr;
  const CellBox& box = layout.box();
  const int dim = box.dim, k = box.degree, n = k + 1, N = 2 * n;
  const AssembledDgLaplace<double, HostExec> global(layout_ptr, options);
  const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().graph.row_map);
  const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().graph.entries);
  const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().values);
  const local_index size = box.n_owned_cells * box.cell_dofs;
  const int colors = 1 << dim;
  for (int step = 0; step < colors; ++step) {
    const int color = forward ? step : colors - 1 - step;
    std::vector<double> r(size);
    for (local_index i = 0; i < size; ++i) {
      double ax = 0;
      for (auto e = rows(i); e < rows(i + 1); ++e) ax += vals(e) * x[cols(e)];
      r[i] = b[i] - ax;
    }
    local_index count[3] = {1, 1, 1};
    for (int d = 0; d < dim; ++d) count[d] = std::max<local_index>(0, (box.cells[d] - ((color >> d) & 1)) / 2);
    for (local_index pz = 0; pz < count[2]; ++pz)
      for (local_index py = 0; py < count[1]; ++py)
        for (local_index px = 0; px < count[0]; ++px) {
          const local_index rest[3] = {px, py, pz};
          std::array<DgPatchMatrices1D, 3> full, local;
          local_index c0[3] = {0, 0, 0};
          std::array<SeparableBlock1D, 3> full_blocks{}, local_blocks{};
          for (int d = 0; d < dim; ++d) {
            const local_index v = 1 + ((color >> d) & 1) + 2 * rest[d];
            c0[d] = v - 1;
            const bool lower = v == 1, upper = v + 1 == box.cells[d];
            const double h = layout.mesh().h()[d];
            full[d] = dg_patch_matrices_1d(k, h, options.penalty_factor, lower, upper, DgLocalSolver::full);
            local[d] = dg_patch_matrices_1d(k, h, options.penalty_factor, lower, upper, solver);
            full_blocks[d] = full[d].block();
            local_blocks[d] = local[d].block();
          }
          // Patch values (X, Y, Z), x fastest, and their global indices.
          const int P = dim == 2 ? N * N : N * N * N;
          std::vector<local_index> index(P);
          for (int e = 0; e < P; ++e) {
            const int X = e % N, Y = (e / N) % N, Z = dim == 3 ? e / (N * N) : 0;
            const local_index cell = box.cell_index(c0[0] + X / n, c0[1] + Y / n, dim == 3 ? c0[2] + Z / n : 0);
            index[e] = cell * box.cell_dofs + X % n + n * (Y % n + n * (Z % n));
          }
          std::vector<double> a;  // the patch cells' residual matrix (Dirichlet, clamped)
          if (solver != DgLocalSolver::full) {
            std::array<SeparableBlock1D, 3> residual_blocks = full_blocks;
            for (int d = 0; d < dim; ++d) residual_blocks[d].laplace = local[d].residual_laplace.data();
            a = separable_matrix(dim, residual_blocks, options.laplace_coefficient, options.mass_coefficient);
          }
          // The residual on the patch values: the global one (full) or the patch cells' own.
          std::vector<double> rp(P);
          for (int e = 0; e < P; ++e) {
            if (solver == DgLocalSolver::full) {
              rp[e] = r[index[e]];
            } else {
              double au = 0;
              for (int f = 0; f < P; ++f) au += a[std::size_t(e) * P + f] * x[index[f]];
              rp[e] = b[index[e]] - au;
            }
          }
          // W = Z_x ⊗ Z_y ⊗ Z_z (P × m): the local space's basis in the patch values.
          const int sz[3] = {local[0].size, local[1].size, dim == 3 ? local[2].size : 1};
          const int m = sz[0] * sz[1] * sz[2];
          std::vector<double> W(std::size_t(P) * m, 1.0);
          for (int e = 0; e < P; ++e)
            for (int j = 0; j < m; ++j) {
              const int pc[3] = {e % N, (e / N) % N, e / (N * N)};
              const int ic[3] = {j % sz[0], (j / sz[0]) % sz[1], j / (sz[0] * sz[1])};
              for (int d = 0; d < dim; ++d) W[std::size_t(e) * m + j] *= local[d].basis[std::size_t(pc[d]) * local[d].size + ic[d]];
            }
          std::vector<double> rl(m, 0.0), dl(m, 0.0);
          for (int j = 0; j < m; ++j)
            for (int e = 0; e < P; ++e) rl[j] += W[std::size_t(e) * m + j] * rp[e];
          const auto inv = separable_inverse(dim, local_blocks, options.laplace_coefficient, options.mass_coefficient);
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) dl[i] += inv[std::size_t(i) * m + j] * rl[j];
          for (int e = 0; e < P; ++e) {
            double delta = 0;
            for (int j = 0; j < m; ++j) delta += W[std::size_t(e) * m + j] * dl[j];
            x[index[e]] += delta;
          }
        }
  }
}

/// The operator of the step tests: penalty 1.5, mass coefficient 0.1.
DgLaplaceOptions step_options() {
  DgLaplaceOptions options;
  options.penalty_factor = 1.5;
  options.mass_coefficient = 0.1;
  return options;
}

/// x(i) = random_value(i, 11), b(i) = random_value(i, 12), rounded to the vectors' number; the
/// same values in double in hx, hb (the sequential reference's inputs).
template <class Vector>
void set_random(Vector& x, Vector& b, std::vector<double>& hx, std::vector<double>& hb) {
  using Number = typename Vector::value_type;
  const local_index size = x.n_owned();
  std::vector<Number> nx(size), nb(size);
  hx.resize(size);
  hb.resize(size);
  for (local_index i = 0; i < size; ++i) {
    hx[i] = nx[i] = Number(random_value(i, 11));
    hb[i] = nb[i] = Number(random_value(i, 12));
  }
  Kokkos::deep_copy(x.view(), Kokkos::View<Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(nx.data(), size));
  Kokkos::deep_copy(b.view(), Kokkos::View<Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(nb.data(), size));
}

/// Entry i of a host vector or a host View.
template <class T>
double entry(const std::vector<T>& v, std::size_t i) { return double(v[i]); }
template <class V>
double entry(const V& v, std::size_t i) { return double(v(i)); }

/// max |a_i − ref_i| / max |ref_i| over the first `size` entries.
template <class A, class Ref>
double relative_max_difference_n(const A& a, const Ref& ref, std::size_t size) {
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < size; ++i) {
    worst = std::max(worst, std::abs(entry(a, i) - entry(ref, i)));
    scale = std::max(scale, std::abs(entry(ref, i)));
  }
  return worst / scale;
}

template <class ExecSpace>
void compare_step(int dim, int k, std::array<int, 3> cells, DgLocalSolver solver, bool forward,
                  DgPatchLayout patch_layout = DgPatchLayout::padded, int patches_per_team = 0,
                  DgPatchInversion inversion = DgPatchInversion::fast_diagonalization,
                  DgPatchContraction contraction = DgPatchContraction::automatic) {
  const auto mesh = make_mesh(dim, cells, 0, {1.0, 0.7, 1.3});
  const DgLaplaceOptions options = step_options();
  const auto layout = std::make_shared<DgDofLayout<ExecSpace>>(mesh, k);
  const auto host_layout = std::make_shared<DgDofLayout<HostExec>>(mesh, k);
  const auto op = std::make_shared<const DgLaplaceOperator<double, ExecSpace>>(layout, options);
  DgPatchKernelOptions kernel{patch_layout, patches_per_team, inversion};
  kernel.contraction = contraction;
  const DgVertexPatchSmoother<double, ExecSpace> smoother(op, solver, kernel);
  auto x = op->make_vector(), b = op->make_vector();
  std::vector<double> hx, hb;
  set_random(x, b, hx, hb);
  smoother.smooth(x, b, forward ? SweepOrder::forward : SweepOrder::reverse);
  reference_step(host_layout, options, solver, forward, hx, hb);
  const auto dx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  EXPECT_LE(relative_max_difference_n(dx, hx, hx.size()), 1e-11) << "dim=" << dim << " k=" << k << " " << to_string(solver)
                                  << (forward ? " forward " : " reverse ") << to_string(patch_layout)
                                  << " patches per team " << patches_per_team << " " << to_string(inversion) << " "
                                  << to_string(contraction) << " contraction";
}

TYPED_TEST(DgVertexPatch, MatchesSequentialHostImplementation) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::full, DgLocalSolver::clamped}) {
    const int k0 = solver == DgLocalSolver::clamped ? 3 : 1;  // clamped needs k >= 3
    for (int k = k0; k <= 4; ++k) compare_step<TypeParam>(2, k, {5, 6, 1}, solver, k % 2 == 1);
    // 4 cells per direction: interior patches (matrices held by the functor) and boundary ones.
    for (int k = k0; k <= 2; ++k) compare_step<TypeParam>(3, k, {4, 4, 4}, solver, k == 1);
    compare_step<TypeParam>(3, 3, {2, 3, 2}, solver, false);
  }
  // The unpadded scratch layout of the bank-conflict study computes the same step.
  for (int k = 1; k <= 3; ++k) compare_step<TypeParam>(2, k, {5, 4, 1}, DgLocalSolver::dirichlet, true, DgPatchLayout::plain);
  compare_step<TypeParam>(3, 3, {3, 3, 3}, DgLocalSolver::dirichlet, true, DgPatchLayout::plain);
  compare_step<TypeParam>(3, 3, {3, 3, 3}, DgLocalSolver::full, false, DgPatchLayout::plain);
  // On a device: one patch per team where the tuning row puts several, and 3 (colours of 8 and 4
  // patches: teams with empty slots). The host runs one patch per team.
  compare_step<TypeParam>(2, 3, {5, 6, 1}, DgLocalSolver::dirichlet, true, DgPatchLayout::padded, 1);
  compare_step<TypeParam>(3, 1, {4, 4, 4}, DgLocalSolver::full, true, DgPatchLayout::padded, 1);
  compare_step<TypeParam>(3, 1, {5, 5, 4}, DgLocalSolver::dirichlet, false, DgPatchLayout::padded, 3);
  compare_step<TypeParam>(2, 2, {7, 5, 1}, DgLocalSolver::full, true, DgPatchLayout::padded, 3);
}

/// Block contractions (DgPatchContraction::blocks; on CUDA in FP64 at k = 3 the tensor-core
/// kernel, elsewhere the portable block contraction) compute the step of the sequential host
/// implementation: every local solver, interior and boundary patches, 2D and 3D; and the line
/// kernel still does where `auto` now takes blocks (CUDA k = 3).
TYPED_TEST(DgVertexPatch, BlockContractionsMatchSequentialHostImplementation) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  constexpr auto fd = DgPatchInversion::fast_diagonalization;
  constexpr auto padded = DgPatchLayout::padded;
  for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::full, DgLocalSolver::clamped}) {
    const int k0 = solver == DgLocalSolver::clamped ? 3 : 1;
    // Under the sanitizers (testing::sanitized) 2D k <= 2 and no 3D sweep.
    for (int k = k0; k <= (sanitized ? 2 : 4); ++k)
      compare_step<TypeParam>(2, k, {5, 6, 1}, solver, k % 2 == 1, padded, 0, fd, DgPatchContraction::blocks);
    for (int k = k0; k <= (sanitized ? 0 : 3); ++k)
      compare_step<TypeParam>(3, k, {4, 4, 4}, solver, k != 2, padded, 0, fd, DgPatchContraction::blocks);
    compare_step<TypeParam>(3, 3, {2, 3, 2}, solver, false, padded, 0, fd, DgPatchContraction::blocks);
    if (!sanitized) compare_step<TypeParam>(3, 3, {4, 4, 4}, solver, true, padded, 0, fd, DgPatchContraction::lines);
  }
  // The dense inverse keeps the line kernel whatever the contraction says.
  compare_step<TypeParam>(3, 2, {3, 3, 3}, DgLocalSolver::dirichlet, true, padded, 0, DgPatchInversion::inverse,
                          DgPatchContraction::blocks);
  EXPECT_EQ(parse_dg_patch_contraction("blocks"), DgPatchContraction::blocks);
  EXPECT_EQ(to_string(DgPatchContraction::automatic), "auto");
  EXPECT_THROW(parse_dg_patch_contraction("mma"), InputError);
}

/// Two smoothing steps (forward, reverse) of the DG smoother with the kernel variant `kernel` from
/// the same random x and b (set_random's); the values on the host and the options as resolved.
template <class Number, class ExecSpace>
auto two_steps(const std::shared_ptr<const DgLaplaceOperator<Number, ExecSpace>>& op, DgLocalSolver solver,
               const DgPatchKernelOptions& kernel) {
  const DgVertexPatchSmoother<Number, ExecSpace> smoother(op, solver, kernel);
  auto x = op->make_vector(), b = op->make_vector();
  std::vector<double> hx, hb;
  set_random(x, b, hx, hb);
  smoother.smooth(x, b, SweepOrder::forward);
  smoother.smooth(x, b, SweepOrder::reverse);
  return std::make_pair(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view()), smoother.kernel_options());
}

/// The DG operator of the variant comparisons below on a mesh of `cells`, anisotropic cells.
template <class Number, class ExecSpace>
auto comparison_operator(int dim, int k, std::array<int, 3> cells) {
  const auto layout = std::make_shared<DgDofLayout<ExecSpace>>(make_mesh(dim, cells, 0, {1.0, 0.7, 1.3}), k);
  return std::make_shared<const DgLaplaceOperator<Number, ExecSpace>>(layout, step_options());
}

/// Relative max-norm difference of two double smoothing steps with block contractions against
/// the line kernel's (for sizes whose sequential reference is too slow to run: 3D k = 7, N = 16,
/// the FP64 m16n8k16 tensor-core blocks on CUDA).
template <class ExecSpace>
double blocks_against_lines(int dim, int k, std::array<int, 3> cells, DgLocalSolver solver) {
  const auto op = comparison_operator<double, ExecSpace>(dim, k, cells);
  DgPatchKernelOptions kernel{DgPatchLayout::padded, 0, DgPatchInversion::fast_diagonalization};
  kernel.contraction = DgPatchContraction::lines;
  const auto lines = two_steps(op, solver, kernel).first;
  kernel.contraction = DgPatchContraction::blocks;
  const auto blocks = two_steps(op, solver, kernel).first;
  return relative_max_difference_n(blocks, lines, lines.extent(0));
}

/// N = 16 (k = 7): block contractions (on CUDA sm_90 the FP64 m16n8k16 tensor cores in the opt-in
/// shared memory) give the line kernel's two steps, every local solver, 2D and 3D, interior and
/// boundary patches.
TYPED_TEST(DgVertexPatch, N16BlockContractionsMatchLineKernel) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::full, DgLocalSolver::clamped}) {
    EXPECT_LE(blocks_against_lines<TypeParam>(3, 7, {3, 4, 3}, solver), 1e-12) << "3D " << to_string(solver);
    EXPECT_LE(blocks_against_lines<TypeParam>(2, 7, {5, 4, 1}, solver), 1e-12) << "2D " << to_string(solver);
  }
}

/// 2(k + 1) = 10, 12, 14 (k = 4..6): block contractions (on CUDA sm_90 the FP64 m16n8k16 tensor
/// cores on blocks padded to 16, core/block_contraction.hpp) give the line kernel's two steps,
/// every local solver, interior and boundary patches; 2D at k = 6. Under the sanitizers k = 4.
TYPED_TEST(DgVertexPatch, PaddedBlockContractionsMatchLineKernel) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::full, DgLocalSolver::clamped}) {
    for (int k = 4; k <= (sanitized ? 4 : 6); ++k)
      EXPECT_LE(blocks_against_lines<TypeParam>(3, k, {3, 4, 3}, solver), 1e-12) << "3D k = " << k << " " << to_string(solver);
    EXPECT_LE(blocks_against_lines<TypeParam>(2, 6, {5, 4, 1}, solver), 1e-12) << "2D k = 6 " << to_string(solver);
  }
}

/// Relative max-norm difference of two smoothing steps of the line kernel with its team buffers in
/// the opt-in shared memory against the same steps with them in the block's shared memory or,
/// where they do not fit (3D FP64 k >= 7), global-memory scratch: the same arithmetic, so the same
/// values. On the host both are the host scratch.
template <class Number, class ExecSpace>
double opt_in_against_block(int k, DgLocalSolver solver) {
  const auto op = comparison_operator<Number, ExecSpace>(3, k, {3, 4, 3});
  DgPatchKernelOptions kernel{DgPatchLayout::padded, 0, DgPatchInversion::fast_diagonalization};
  kernel.contraction = DgPatchContraction::lines;
  kernel.shared_memory = DgPatchSharedMemory::block;
  const auto [block, block_options] = two_steps(op, solver, kernel);
  EXPECT_EQ(block_options.shared_memory, DgPatchSharedMemory::block);
  kernel.shared_memory = DgPatchSharedMemory::opt_in;
  const auto [opt_in, opt_in_options] = two_steps(op, solver, kernel);
  EXPECT_EQ(opt_in_options.shared_memory, DgPatchSharedMemory::opt_in);
  return relative_max_difference_n(opt_in, block, block.extent(0));
}

/// 3D k = 7, 8: the line kernel's buffers (68 and 96 KB per team in FP64) in the opt-in shared
/// memory give the steps they give in global-memory scratch, FP64 and FP32, the Dirichlet and full
/// solvers; FP32 k = 8 (49 KB a team, where its launch bound asks for 5 teams an SM) falls back to
/// global memory instead of failing to launch.
TYPED_TEST(DgVertexPatch, OptInSharedMemoryMatchesBlockScratch) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  for (int k : sanitized ? std::vector<int>{7} : std::vector<int>{7, 8})
    for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::full}) {
      EXPECT_LE((opt_in_against_block<double, TypeParam>(k, solver)), 1e-14) << "FP64 k=" << k << " " << to_string(solver);
      EXPECT_LE((opt_in_against_block<float, TypeParam>(k, solver)), 1e-6) << "FP32 k=" << k << " " << to_string(solver);
    }
  EXPECT_EQ(parse_dg_patch_shared_memory("opt-in"), DgPatchSharedMemory::opt_in);
  EXPECT_EQ(to_string(DgPatchSharedMemory::block), "block");
  EXPECT_THROW(parse_dg_patch_shared_memory("huge"), InputError);
}

/// Relative max-norm difference of two smoothing steps whose device kernels address their
/// shared-memory buffers by fast-scratch pointers against the same steps by Kokkos' generic ones
/// (DgPatchScratchPointer): the same arithmetic, so the same values. On the host both are the one
/// host kernel.
template <class Number, class ExecSpace>
double fast_against_generic(int dim, int k, DgPatchContraction contraction, DgLocalSolver solver) {
  const auto op = comparison_operator<Number, ExecSpace>(dim, k, dim == 3 ? std::array<int, 3>{3, 4, 3} : std::array<int, 3>{5, 4, 1});
  DgPatchKernelOptions kernel{DgPatchLayout::padded, 0, DgPatchInversion::fast_diagonalization};
  kernel.contraction = contraction;
  kernel.scratch_pointer = DgPatchScratchPointer::generic;
  const auto [generic, generic_options] = two_steps(op, solver, kernel);
  EXPECT_EQ(generic_options.scratch_pointer, DgPatchScratchPointer::generic);
  kernel.scratch_pointer = DgPatchScratchPointer::fast;
  const auto fast = two_steps(op, solver, kernel).first;
  return relative_max_difference_n(fast, generic, generic.extent(0));
}

/// The fast-scratch kernels (line kernel, one and several patches per team; block contractions:
/// on CUDA sm_90 the FP64 tensor cores with blocks of 8 and 16 and the FP16 ones) give the
/// generic-scratch kernels' steps, 2D and 3D, interior and boundary patches.
TYPED_TEST(DgVertexPatch, FastScratchMatchesGenericScratch) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  using C = DgPatchContraction;
  const auto dirichlet = DgLocalSolver::dirichlet, full = DgLocalSolver::full;
  for (int k : sanitized ? std::vector<int>{3} : std::vector<int>{1, 3, 7}) {
    for (const auto contraction : {C::lines, C::blocks}) {
      const std::string where = "k=" + std::to_string(k) + " " + to_string(contraction);
      EXPECT_LE((fast_against_generic<double, TypeParam>(3, k, contraction, dirichlet)), 1e-14) << "3D FP64 " << where;
      EXPECT_LE((fast_against_generic<double, TypeParam>(2, k, contraction, full)), 1e-14) << "2D FP64 " << where;
      EXPECT_LE((fast_against_generic<float, TypeParam>(3, k, contraction, full)), 1e-6) << "3D FP32 " << where;
    }
    if (dg_patch_has_f16(k))
      EXPECT_LE((fast_against_generic<float, TypeParam>(3, k, C::f16ec, dirichlet)), 1e-6) << "3D f16ec k=" << k;
  }
  EXPECT_EQ(parse_dg_patch_scratch_pointer("generic"), DgPatchScratchPointer::generic);
  EXPECT_EQ(parse_dg_patch_scratch_pointer("auto"), DgPatchScratchPointer::automatic);
  EXPECT_EQ(to_string(DgPatchScratchPointer::fast), "fast");
  EXPECT_THROW(parse_dg_patch_scratch_pointer("near"), InputError);
}

/// Relative max-norm error of one float smoothing step with `contraction` against a double step
/// from the same float-representable inputs: the sequential double host implementation where it
/// is affordable (k <= 3; its dense patch inverses grow as (2(k + 1))^(3 dim)), else the double
/// line kernel on the same execution space (which the tests above hold to the host implementation
/// and to the block contractions).
template <class ExecSpace>
double float_step_error(int dim, int k, std::array<int, 3> cells, DgLocalSolver solver, DgPatchContraction contraction) {
  const auto mesh = make_mesh(dim, cells, 0, {1.0, 0.7, 1.3});
  const DgLaplaceOptions options = step_options();
  const auto layout = std::make_shared<DgDofLayout<ExecSpace>>(mesh, k);
  const auto op = std::make_shared<const DgLaplaceOperator<float, ExecSpace>>(layout, options);
  DgPatchKernelOptions kernel{DgPatchLayout::padded, 0, DgPatchInversion::fast_diagonalization};
  kernel.contraction = contraction;
  const DgVertexPatchSmoother<float, ExecSpace> smoother(op, solver, kernel);
  auto x = op->make_vector(), b = op->make_vector();
  std::vector<double> hx, hb;
  set_random(x, b, hx, hb);
  smoother.smooth(x, b, SweepOrder::forward);
  if (k <= 3) {
    reference_step(std::make_shared<DgDofLayout<HostExec>>(mesh, k), options, solver, true, hx, hb);
  } else {
    const auto dop = std::make_shared<const DgLaplaceOperator<double, ExecSpace>>(layout, options);
    kernel.contraction = DgPatchContraction::lines;
    const DgVertexPatchSmoother<double, ExecSpace> dsmoother(dop, solver, kernel);
    auto dx = dop->make_vector(), db = dop->make_vector();
    const auto size = hx.size();  // the float step's inputs, exact in double
    Kokkos::deep_copy(dx.view(), Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hx.data(), size));
    Kokkos::deep_copy(db.view(), Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(hb.data(), size));
    dsmoother.smooth(dx, db, SweepOrder::forward);
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dx.view());
    for (std::size_t i = 0; i < hx.size(); ++i) hx[i] = h(i);
  }
  const auto fx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  return relative_max_difference_n(fx, hx, hx.size());
}

/// FP16 products in the float smoother (paper 001 §6; tensor cores on CUDA, the emulation
/// elsewhere): with error correction the step is as accurate as the FP32 line kernel's (within
/// 4×), without it measurably worse; 2D and 3D k = 3 (N = 8), 3D k = 7 (N = 16) and k = 5 (N = 12,
/// padded to 16 on CUDA), every local solver, interior and boundary patches. Other numbers,
/// degrees and the dense inverse are refused.
TYPED_TEST(DgVertexPatch, FP16ProductsWithErrorCorrectionMatchFloatStep) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  // Under the sanitizers one local solver (the three share the contraction).
  const auto solvers = sanitized ? std::vector<DgLocalSolver>{DgLocalSolver::clamped}
                                 : std::vector<DgLocalSolver>{DgLocalSolver::dirichlet, DgLocalSolver::full,
                                                              DgLocalSolver::clamped};
  struct Case {
    int dim, k;
    std::array<int, 3> cells;
  };
  std::vector<Case> cases = {{2, 3, {5, 6, 1}}, {3, 3, {4, 3, 4}}, {3, 7, {3, 3, 3}}};
  if (!sanitized) cases.push_back({3, 5, {3, 4, 3}});
  for (const auto solver : solvers)
    for (const auto& [dim, k, cells] : cases) {
      const double e32 = float_step_error<TypeParam>(dim, k, cells, solver, DgPatchContraction::lines);
      const double eec = float_step_error<TypeParam>(dim, k, cells, solver, DgPatchContraction::f16ec);
      const double e16 = float_step_error<TypeParam>(dim, k, cells, solver, DgPatchContraction::f16);
      std::printf("[ info ] %dD k = %d %s: float step error FP32 lines %.2e, FP16 EC %.2e, FP16 %.2e\n", dim, k,
                  to_string(solver).c_str(), e32, eec, e16);
      EXPECT_LE(e32, 1e-5) << dim << "D k = " << k << " " << to_string(solver);
      EXPECT_LE(eec, 4 * e32) << dim << "D k = " << k << " " << to_string(solver);
      EXPECT_GE(e16, 20 * eec) << dim << "D k = " << k << " " << to_string(solver);
    }
  EXPECT_EQ(parse_dg_patch_contraction("f16ec"), DgPatchContraction::f16ec);
  EXPECT_EQ(to_string(DgPatchContraction::f16), "f16");
  EXPECT_THROW(check_dg_patch_contraction(DgPatchContraction::f16ec, 3, 3, false, false), InputError);  // double
  EXPECT_THROW(check_dg_patch_contraction(DgPatchContraction::f16, 3, 2, true, false), InputError);     // N = 6
  EXPECT_THROW(check_dg_patch_contraction(DgPatchContraction::f16, 3, 8, true, false), InputError);     // N = 18
  EXPECT_THROW(check_dg_patch_contraction(DgPatchContraction::f16, 2, 3, true, true), InputError);      // dense inverse
  EXPECT_NO_THROW(check_dg_patch_contraction(DgPatchContraction::f16ec, 3, 3, true, false));
  EXPECT_NO_THROW(check_dg_patch_contraction(DgPatchContraction::f16ec, 3, 7, true, false));
  EXPECT_NO_THROW(check_dg_patch_contraction(DgPatchContraction::f16, 2, 5, true, false));
  EXPECT_NO_THROW(check_dg_patch_contraction(DgPatchContraction::blocks, 3, 2, false, true));
}

/// DgPatchContraction::automatic for the float kernel takes error-corrected FP16 blocks where the
/// tuning row says so (3D k = 7, DgPatchTuning::f16ec_fp32) and the backend has FP16 tensor cores
/// (CUDA); never the host's emulation, never for double; elsewhere it stays automatic (the
/// launch's choice between lines and FP64 blocks).
TYPED_TEST(DgVertexPatch, AutomaticFloatContractionTakesFP16TensorCoresWhereTuned) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  constexpr bool tensor_cores =
      block::BlockContraction<TypeParam, float, 3, 16, block::Products::f16_corrected>::tensor_cores;
  const auto contraction_of = [](auto number, int k) {  // default options: everything automatic
    using Number = decltype(number);
    const auto layout = std::make_shared<DgDofLayout<TypeParam>>(make_mesh(3, {2, 2, 2}, 0, {1.0, 1.0, 1.0}), k);
    const auto op = std::make_shared<const DgLaplaceOperator<Number, TypeParam>>(layout, step_options());
    return DgVertexPatchSmoother<Number, TypeParam>(op, DgLocalSolver::dirichlet).kernel_options().contraction;
  };
  const auto auto_contraction = DgPatchContraction::automatic;
  EXPECT_EQ(contraction_of(float{}, 7), tensor_cores ? DgPatchContraction::f16ec : auto_contraction);
  EXPECT_EQ(contraction_of(double{}, 7), auto_contraction);
  EXPECT_EQ(contraction_of(float{}, 5), auto_contraction);
  // A CUDA build has them for blocks of 16: one that lost them would pass the lines above silently.
  if constexpr (!runs_on_host<TypeParam>()) EXPECT_TRUE(tensor_cores);
}

/// The dense-inverse local solve (DgPatchKernelOptions::inversion) computes the step of the fast
/// diagonalization: every local solver, interior and boundary patches (positions 0..3), the
/// staged and direct kernels, the plain layout and several patches per team.
TYPED_TEST(DgVertexPatch, DenseInverseMatchesSequentialHostImplementation) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  constexpr auto inverse = DgPatchInversion::inverse;
  for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::full, DgLocalSolver::clamped}) {
    const int k0 = solver == DgLocalSolver::clamped ? 3 : 1;
    for (int k = k0; k <= 3; ++k) compare_step<TypeParam>(2, k, {5, 2, 1}, solver, k % 2 == 1, DgPatchLayout::padded, 0, inverse);
    compare_step<TypeParam>(2, 7, {3, 4, 1}, solver, true, DgPatchLayout::padded, 0, inverse);  // 2D staged
    if (solver != DgLocalSolver::clamped) compare_step<TypeParam>(3, 1, {4, 4, 4}, solver, true, DgPatchLayout::padded, 0, inverse);
    compare_step<TypeParam>(3, 3, {2, 3, 4}, solver, false, DgPatchLayout::padded, 0, inverse);
  }
  compare_step<TypeParam>(3, 2, {3, 3, 3}, DgLocalSolver::dirichlet, true, DgPatchLayout::plain, 0, inverse);
  compare_step<TypeParam>(3, 1, {5, 5, 4}, DgLocalSolver::dirichlet, false, DgPatchLayout::padded, 3, inverse);
  compare_step<TypeParam>(2, 2, {7, 5, 1}, DgLocalSolver::full, true, DgPatchLayout::padded, 3, inverse);
  // Above 1000 values per patch (3D k >= 5) the inverses are refused with a clear error.
  const auto layout = std::make_shared<DgDofLayout<TypeParam>>(make_mesh(3, {2, 2, 2}, 0, {1.0, 1.0, 1.0}), 5);
  const auto op = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(layout);
  const DgPatchKernelOptions dense{DgPatchLayout::padded, 0, DgPatchInversion::inverse};
  EXPECT_THROW((DgVertexPatchSmoother<double, TypeParam>(op, DgLocalSolver::dirichlet, dense)), InputError);
  // Automatic: the tuning row's choice, resolved in the smoother (the dense inverse on a device in
  // 2D k <= 2, fast diagonalization on the host and elsewhere), and the same step either way.
  const bool device = !runs_on_host<TypeParam>();
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= 3; ++k) {
      const auto l = std::make_shared<DgDofLayout<TypeParam>>(make_mesh(dim, {3, 2, 2}, 0, {1.0, 1.0, 1.0}), k);
      const DgVertexPatchSmoother<double, TypeParam> s(std::make_shared<const DgLaplaceOperator<double, TypeParam>>(l),
                                                       DgLocalSolver::dirichlet);
      const bool dense_expected = device && dim == 2 && k <= 2;
      EXPECT_EQ(s.kernel_options().inversion,
                dense_expected ? DgPatchInversion::inverse : DgPatchInversion::fast_diagonalization)
          << dim << "D k=" << k;
      EXPECT_EQ(uses_dg_dense_inverse(DgPatchInversion::automatic, dim, k, device), dense_expected);
    }
  compare_step<TypeParam>(2, 2, {5, 4, 1}, DgLocalSolver::dirichlet, true, DgPatchLayout::padded, 0,
                          DgPatchInversion::automatic);
  EXPECT_EQ(parse_dg_patch_inversion("auto"), DgPatchInversion::automatic);
  EXPECT_THROW(parse_dg_patch_inversion("dense"), InputError);
  EXPECT_NO_THROW(check_dg_dense_inverse(3, 4));
  EXPECT_NO_THROW(check_dg_dense_inverse(2, 10));
}

TYPED_TEST(DgVertexPatch, OneFullPatchOverTheMeshSolvesExactly) {
  if (world_size() > 1) GTEST_SKIP() << "one rank";
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= max_degree(dim); ++k) {
      const auto layout = std::make_shared<DgDofLayout<TypeParam>>(make_mesh(dim, {2, 2, 2}, 0, {1.0, 0.5, 0.8}), k);
      const auto op = std::make_shared<const DgLaplaceOperator<double, TypeParam>>(layout);
      const DgVertexPatchSmoother<double, TypeParam> smoother(op, DgLocalSolver::full);
      auto x = op->make_vector(), b = op->make_vector(), r = op->make_vector();
      auto hb = Kokkos::create_mirror_view(b.view());
      for (local_index i = 0; i < b.n_owned(); ++i) hb(i) = random_value(i, 7);
      Kokkos::deep_copy(b.view(), hb);
      smoother.smooth(x, b, SweepOrder::forward);
      op->vmult(r, x);
      r.axpby(1.0, b, -1.0);
      EXPECT_LE(r.l2_norm(), 1e-9 * b.l2_norm()) << "dim=" << dim << " k=" << k;
    }
}

}  // namespace
