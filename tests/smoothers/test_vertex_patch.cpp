// Vertex-patch smoother: fast diagonalization against a dense inverse, and one smoothing step of
// every kernel variant against a sequential host implementation of Algorithm 2.3 that works on
// the assembled CRS matrix (global residual rows and dense local solves). Also the point
// smoothers' basic contracts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include <cmath>
#include <initializer_list>
#include <tuple>
#include <type_traits>

#include "core/simd_pack.hpp"
#include "discretization/assembled_laplace.hpp"
#include "smoothers/patch_color.hpp"
#include "smoothers/patch_matrices.hpp"
#include "smoothers/point_smoothers.hpp"
#include "smoothers/vertex_patch_smoother.hpp"
#include "smoothers/vertex_patch_tuning.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class VertexPatchTest : public ::testing::Test {};
TYPED_TEST_SUITE(VertexPatchTest, ExecSpaces, ExecSpaceName);

/// Solves the dense system a x = rhs (n × n, row-major) by Gaussian elimination with partial pivoting.
std::vector<double> dense_solve(std::vector<double> a, std::vector<double> rhs) {
  const int n = static_cast<int>(rhs.size());
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[p * n + c])) p = r;
    for (int j = 0; j < n; ++j) std::swap(a[c * n + j], a[p * n + j]);
    std::swap(rhs[c], rhs[p]);
    for (int r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      for (int j = c; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
      rhs[r] -= f * rhs[c];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double s = rhs[r];
    for (int j = r + 1; j < n; ++j) s -= a[r * n + j] * rhs[j];
    rhs[r] = s / a[r * n + r];
  }
  return rhs;
}

TEST(PatchMatrices, FastDiagonalizationInverseEqualsDenseSolve) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= (dim == 2 ? 6 : 3); ++k) {
      std::array<PatchMatrices1D, 3> m{patch_matrices_1d(k, 0.3), patch_matrices_1d(k, 0.7), patch_matrices_1d(k, 1.1)};
      for (const auto [a, c] : {std::pair<double, double>{1.0, 0.0}, {2.0, 0.5}}) {
        const auto inv = dense_patch_inverse(dim, m, a, c);
        const auto mat = dense_patch_matrix(dim, m, a, c);
        const int n = static_cast<int>(std::lround(std::sqrt(double(mat.size()))));
        std::vector<double> rhs(n);
        for (int i = 0; i < n; ++i) rhs[i] = random_value(i, 100 + k);
        const auto x = dense_solve(mat, rhs);
        double err = 0, scale = 0;
        for (int i = 0; i < n; ++i) {
          double y = 0;
          for (int j = 0; j < n; ++j) y += inv[std::size_t(i) * n + j] * rhs[j];
          err = std::max(err, std::abs(y - x[i]));
          scale = std::max(scale, std::abs(x[i]));
        }
        EXPECT_LE(err / scale, 1e-12) << "dim=" << dim << " k=" << k << " a=" << a << " b=" << c;
      }
    }
}

TEST(PatchMatrices, EigenvectorsAreMassOrthonormal) {
  for (int k = 1; k <= 10; ++k) {
    const auto p = patch_matrices_1d(k, 0.25);
    for (int i = 0; i < p.ni; ++i)
      for (int j = 0; j < p.ni; ++j) {
        double sm = 0, sa = 0;
        for (int r = 0; r < p.ni; ++r)
          for (int c = 0; c < p.ni; ++c) {
            const double vr = p.eigenvectors[r * p.ni + i], vc = p.eigenvectors[c * p.ni + j];
            sm += vr * p.mass[(r + 1) * p.n + c + 1] * vc;
            sa += vr * p.stiffness[(r + 1) * p.n + c + 1] * vc;
          }
        EXPECT_NEAR(sm, i == j ? 1.0 : 0.0, 1e-11) << "k=" << k;
        EXPECT_NEAR(sa, i == j ? p.eigenvalues[i] : 0.0,
                    1e-9 * std::max(1.0, *std::max_element(p.eigenvalues.begin(), p.eigenvalues.end())))
            << "k=" << k;
      }
    // The k symmetric vectors first, then the k − 1 antisymmetric ones, each exactly so (the
    // kernels' mode-split form), each set by increasing eigenvalue.
    for (int j = 0; j < p.ni; ++j) {
      const double sign = j < k ? 1.0 : -1.0;
      for (int i = 0; i < p.ni; ++i)
        EXPECT_NEAR(p.eigenvectors[(p.ni - 1 - i) * p.ni + j], sign * p.eigenvectors[i * p.ni + j], 1e-14)
            << "k=" << k << " vector " << j;
      if (j > 0 && j != k) EXPECT_LT(p.eigenvalues[j - 1], p.eigenvalues[j]) << "k=" << k;
    }
  }
}

/// Algorithm 2.3 on the host, sequentially: for each color, for each of its patches,
/// r_j = R_j (b − A x) with A the assembled matrix, x_I += A_j^{-1} r_j with A_j its interior block.
template <class ExecSpace>
void reference_smoothing_step(const ContinuousDofLayout<ExecSpace>& layout, double a, double c, std::vector<double>& x,
                              const std::vector<double>& b, SweepOrder order) {
  auto host_layout = std::make_shared<ContinuousDofLayout<HostExec>>(layout.mesh_ptr(), layout.degree());
  const AssembledLaplace<double, HostExec> assembled(host_layout, a, c);
  const auto& A = assembled.matrix();
  const NodeBox& box = layout.box();
  const int dim = layout.dim(), k = layout.degree();
  const auto& cells = layout.mesh().n_cells();
  // Position of a node in the current patch's interior (-1: outside), so that A_j is read off
  // each interior row in one pass (a search per entry made 3D k = 6 take ~1e10 steps).
  std::vector<int> position(x.size(), -1);
  const int colors = 1 << dim;
  for (int ci = 0; ci < colors; ++ci) {
    const int color = patch_color(dim, ci, order == SweepOrder::reverse);
    for (global_index vz = 1; vz < (dim == 3 ? cells[2] : 2); ++vz)
      for (global_index vy = 1; vy < cells[1]; ++vy)
        for (global_index vx = 1; vx < cells[0]; ++vx) {
          const global_index v[3] = {vx, vy, vz};
          int col = 0;
          for (int d = 0; d < dim; ++d) col |= int((v[d] - 1) % 2) << d;
          if (col != color) continue;
          std::vector<local_index> interior;
          for (int iz = 1; iz < (dim == 3 ? 2 * k : 2); ++iz)
            for (int iy = 1; iy < 2 * k; ++iy)
              for (int ix = 1; ix < 2 * k; ++ix)
                interior.push_back(box.index((vx - 1) * k + ix, (vy - 1) * k + iy, dim == 3 ? (vz - 1) * k + iz : 0));
          const int n = static_cast<int>(interior.size());
          std::vector<double> r(n), aj(std::size_t(n) * n, 0.0);
          for (int i = 0; i < n; ++i) position[interior[i]] = i;
          for (int i = 0; i < n; ++i) {
            const local_index row = interior[i];
            double ax = 0;
            for (auto e = A.graph.row_map(row); e < A.graph.row_map(row + 1); ++e) {
              const local_index col = A.graph.entries(e);
              ax += A.values(e) * x[col];
              if (position[col] >= 0) aj[std::size_t(i) * n + position[col]] += A.values(e);
            }
            r[i] = b[row] - ax;
          }
          for (int i = 0; i < n; ++i) position[interior[i]] = -1;
          const auto dx = dense_solve(aj, r);
          for (int i = 0; i < n; ++i) x[interior[i]] += dx[i];
        }
  }
}

template <class ExecSpace>
void check_against_reference(int dim, int k, std::shared_ptr<const CartesianMesh> mesh, LaplaceOptions lo,
                             const std::vector<VertexPatchOptions>& variants) {
  const auto layout = make_layout<ExecSpace>(mesh, k);
  const auto op = std::make_shared<LaplaceOperator<double, ExecSpace>>(layout, lo);
  auto x0 = op->make_vector(), b = op->make_vector();
  fill_random(*layout, x0, 3 * k + dim);
  fill_random(*layout, b, 5 * k + dim);
  for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
    std::vector<double> ref = to_host(x0);
    reference_smoothing_step(*layout, lo.laplace_coefficient, lo.mass_coefficient, ref, to_host(b), order);
    double scale = 0;
    for (double v : ref) scale = std::max(scale, std::abs(v));
    for (const auto& variant : variants) {
      const VertexPatchSmoother<double, ExecSpace> smoother(op, variant);
      auto x = op->make_vector();
      x.copy_from(x0);
      smoother.smooth(x, b, order);
      const auto got = to_host(x);
      double err = 0;
      for (std::size_t i = 0; i < got.size(); ++i) err = std::max(err, std::abs(got[i] - ref[i]));
      EXPECT_LE(err / scale, 1e-12) << "dim=" << dim << " k=" << k << " " << smoother.description()
                                    << (order == SweepOrder::forward ? " forward" : " reverse");
    }
  }
}

std::vector<VertexPatchOptions> all_variants(bool with_inverse) {
  std::vector<VertexPatchOptions> v;
  for (auto kernel : {PatchKernel::global, PatchKernel::separate, PatchKernel::fused})
    for (auto solver : {LocalSolver::fast_diagonalization, LocalSolver::inverse})
      for (auto structure : {ThreadStructure::per_dof, ThreadStructure::per_column})
        for (int ppt : {1, 3}) {
          if (solver == LocalSolver::inverse && !with_inverse) continue;
          v.push_back({kernel, solver, structure, ppt});
        }
  v.push_back({});  // automatic patches per team
  return v;
}

TYPED_TEST(VertexPatchTest, OneStepMatchesSequentialAlgorithm2D) {
  // Anisotropic cells, odd and even cell counts (colors of different sizes, boundary patches).
  const auto mesh = make_mesh(2, {3, 2, 1}, 1, {1.0, 0.6, 1.0});
  // Under the sanitizers (testing::sanitized) k = 1, 2 and 7.
  for (int k = 1; k <= (sanitized ? 2 : 4); ++k) check_against_reference<TypeParam>(2, k, mesh, {}, all_variants(true));
  for (int k : sanitized ? std::vector<int>{7} : std::vector<int>{7, 10})
    check_against_reference<TypeParam>(2, k, make_mesh(2, {3, 2, 1}, 0), {}, all_variants(true));
}

TYPED_TEST(VertexPatchTest, OneStepMatchesSequentialAlgorithm3D) {
  const auto mesh = make_mesh(3, {3, 2, 2}, 0, {1.0, 0.6, 1.4});
  for (int k = 1; k <= 3; ++k) check_against_reference<TypeParam>(3, k, mesh, {}, all_variants(k <= 2));
  const auto small = make_mesh(3, {2, 2, 3}, 0);
  for (int k : {5, 6})
    check_against_reference<TypeParam>(3, k, small, {}, {VertexPatchOptions{}, {PatchKernel::separate, LocalSolver::fast_diagonalization, ThreadStructure::per_dof, 1}});
}

/// Teams narrower or wider than the columns of a step: the steps with more columns than threads
/// loop, the others leave threads idle; both must give the same step. 3D k = 6 also covers the
/// kernels with two columns per thread (odd column counts: a thread's second column is void).
TYPED_TEST(VertexPatchTest, ThreadsPerPatchMatchSequentialAlgorithm) {
  const auto variants = [](int dim, int k) {
    const int interior = dim == 2 ? 2 * k - 1 : (2 * k - 1) * (2 * k - 1);
    std::vector<VertexPatchOptions> v;
    // Under the sanitizers one team narrower and one wider than the columns.
    for (int tpp : sanitized ? std::vector<int>{7, interior + 13} : std::vector<int>{1, 7, interior, interior + 13})
      for (int ppt : {1, 3})
        for (auto kernel : {PatchKernel::fused, PatchKernel::separate}) {
          v.push_back({kernel, LocalSolver::fast_diagonalization, ThreadStructure::per_column, ppt, tpp});
          v.push_back({kernel, LocalSolver::fast_diagonalization, ThreadStructure::per_dof, ppt, tpp});
        }
    return v;
  };
  check_against_reference<TypeParam>(2, 3, make_mesh(2, {4, 3, 1}, 0, {1.0, 0.7, 1.0}), {}, variants(2, 3));
  for (int k : {2, 3}) check_against_reference<TypeParam>(3, k, make_mesh(3, {3, 2, 3}, 0, {1.0, 0.6, 1.4}), {}, variants(3, k));
  // Blocked 3D k = 6 (two columns per thread; the x step three on the device): every column count
  // is odd, so a block's second column is void in every step (the x step's last block has two
  // void columns on the device).
  const auto fused_columns = [](std::initializer_list<int> threads_per_patch) {
    std::vector<VertexPatchOptions> v;
    for (int tpp : threads_per_patch)
      for (int ppt : {1, 2}) v.push_back({PatchKernel::fused, LocalSolver::fast_diagonalization, ThreadStructure::per_column, ppt, tpp});
    return v;
  };
  check_against_reference<TypeParam>(3, 6, make_mesh(3, {2, 2, 3}, 0, {1.0, 0.6, 1.4}), {}, fused_columns({1, 7, 61, 121}));
  // 3D k = 7 also takes the y step in whole rounds plus y_leftover where a patch has a team of at
  // least one full warp: teams of 32, 48, 85 and 96 threads leave 3, 3, 25 and 3 lines (2, 2, 7
  // and 1 rounds of warp groups; 48 and 85 with a partial last warp); 113 threads need no second
  // round, 1 thread and two patches per team take the blocks. Device spaces only: host teams
  // have at most as many threads as the host (here 2), so these all run the blocks there.
  if constexpr (std::is_same_v<typename TypeParam::memory_space, Kokkos::HostSpace>) return;
  check_against_reference<TypeParam>(3, 7, make_mesh(3, {2, 2, 3}, 0, {1.0, 0.6, 1.4}), {}, fused_columns({1, 32, 48, 85, 96, 113}));
}

TYPED_TEST(VertexPatchTest, HelmholtzTermsMatchSequentialAlgorithm) {
  LaplaceOptions lo;
  lo.laplace_coefficient = 1.5;
  lo.mass_coefficient = 0.8;
  check_against_reference<TypeParam>(2, 3, make_mesh(2, {4, 3, 1}, 0), lo, all_variants(true));
  check_against_reference<TypeParam>(3, 2, make_mesh(3, {2, 3, 2}, 0), lo, all_variants(true));
  // No Laplace term (α_d = 0): the per-column kernels must not divide by α1.
  lo.laplace_coefficient = 0;
  lo.mass_coefficient = 1;
  check_against_reference<TypeParam>(3, 2, make_mesh(3, {2, 3, 2}, 0, {1.0, 0.6, 1.4}), lo, all_variants(true));
}

/// ‖b − A x‖ / ‖b‖ after one smoothing step from x = 0 with b's Dirichlet values (random b).
template <class ExecSpace>
double relative_residual_after_step(const ContinuousDofLayout<ExecSpace>& layout, const LaplaceOperator<double, ExecSpace>& op,
                                    const VertexPatchSmoother<double, ExecSpace>& smoother, int seed) {
  auto x = op.make_vector(), b = op.make_vector(), r = op.make_vector();
  fill_random(layout, b, seed);
  copy_entries(owned_boundary_nodes<ExecSpace>(layout.box()), x, b);
  smoother.smooth(x, b, SweepOrder::forward);
  op.vmult(r, x);
  r.axpby(1.0, b, -1.0);
  return r.l2_norm() / b.l2_norm();
}

/// One step of the default variant equals one of the global-residual variant (whose residual is
/// the operator's vmult), in both sweep orders, from x0 and b random (seeds `seed`, `seed` + 1).
template <class ExecSpace>
void expect_default_step_equals_global(std::shared_ptr<const CartesianMesh> mesh, int k, int seed,
                                       const std::string& label,
                                       ThreadStructure structure = ThreadStructure::automatic) {
  const auto layout = make_layout<ExecSpace>(mesh, k);
  const auto op = std::make_shared<LaplaceOperator<double, ExecSpace>>(layout);
  auto x0 = op->make_vector(), b = op->make_vector(), x = op->make_vector(), y = op->make_vector();
  fill_random(*layout, x0, seed);
  fill_random(*layout, b, seed + 1);
  VertexPatchOptions tuned_options;
  tuned_options.structure = structure;
  const VertexPatchSmoother<double, ExecSpace> tuned(op, tuned_options);
  const VertexPatchSmoother<double, ExecSpace> global(
      op, {PatchKernel::global, LocalSolver::fast_diagonalization, ThreadStructure::per_column, 1});
  for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
    x.copy_from(x0);
    y.copy_from(x0);
    tuned.smooth(x, b, order);
    global.smooth(y, b, order);
    EXPECT_LE(relative_max_difference(x, y), 1e-12) << label << tuned.description() << " vs " << global.description();
  }
}

/// Every (dim, k) the smoother supports, with the variant each picks by default on this backend
/// (the tuned one: fused, per-column, team shapes of the tuning rules): on one patch the step is
/// the exact solve; on several patches (odd and even counts, anisotropic cells) it equals the
/// global-residual variant, whose residual is the operator's vmult (that variant is checked
/// against the sequential Algorithm 2.3 above).
/// The (dim, k) come from the tuning table's rows (smoothers/vertex_patch_tuning.hpp), so a row
/// added there is tested here on every backend; the per-DoF kernel, a separate instantiation, is
/// compared with the global variant for every row as well.
TYPED_TEST(VertexPatchTest, EveryDegreeDefaultStepIsExactOnOnePatchAndMatchesGlobalOnMany) {
  for (const PatchTuning& row : detail::patch_device_rows) {
    const int dim = row.dim, k = row.k;
    ASSERT_LE(k, ContinuousDofLayout<TypeParam>::max_degree(dim));
    {
      {
        const auto layout = make_layout<TypeParam>(make_mesh(dim, {2, 2, 2}, 0, {1.0, 1.3, 0.8}), k);
        const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
        const VertexPatchSmoother<double, TypeParam> smoother(op);
        EXPECT_LE(relative_residual_after_step(*layout, *op, smoother, 77), 1e-12)
            << "dim=" << dim << " k=" << k << " " << smoother.description();
      }
      expect_default_step_equals_global<TypeParam>(make_mesh(dim, {3, 4, 3}, 0, {1.0, 0.6, 1.4}), k, 5 + k,
                                                   "dim=" + std::to_string(dim) + " k=" + std::to_string(k) + " ");
      expect_default_step_equals_global<TypeParam>(make_mesh(dim, {3, 2, 3}, 0, {1.0, 0.6, 1.4}), k, 9 + k,
                                                   "dim=" + std::to_string(dim) + " k=" + std::to_string(k) + " per-DoF ",
                                                   ThreadStructure::per_dof);
    }
  }
}

/// 3D Q7: on the GPU the default is the fused kernel in 46.8 KB of shared memory, beyond Kokkos'
/// 40 KB scratch_size_max(0) (DeviceTraits::fast_scratch_bytes). It is an exact solve on one patch and equals
/// the global-residual variant (whose residual is the operator's vmult) on several.
TYPED_TEST(VertexPatchTest, Q7FusedFromSharedMemoryIsExact) {
  const int k = 7;
  {
    const auto layout = make_layout<TypeParam>(make_mesh(3, {2, 2, 2}, 0, {1.0, 1.3, 0.8}), k);
    const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
    const VertexPatchSmoother<double, TypeParam> smoother(op);
    EXPECT_EQ(smoother.options().kernel, PatchKernel::fused) << smoother.description();
    EXPECT_LE(relative_residual_after_step(*layout, *op, smoother, 78), 1e-12) << smoother.description();
  }
  expect_default_step_equals_global<TypeParam>(make_mesh(3, {3, 3, 2}, 0, {1.0, 0.6, 1.4}), k, 5, "");
}

/// The Boundary residual (paper 000 §4.1.3): x read on the patch boundary layer only and the
/// solve's result stored. Every fused/separate variant against the sequential Algorithm 2.3
/// (2D and 3D, anisotropic cells, Helmholtz terms), then every (dim, k) of the tuning table, four
/// kernel variants with the full and the boundary residual, against the global-residual step. An
/// interior value read where it must be zero, a boundary one left out, or an add left in the
/// store shows as an O(1) difference (the fast path's interior read did, 2026-11-28).
TYPED_TEST(VertexPatchTest, BoundaryResidualMatchesSequentialAlgorithm) {
  std::vector<VertexPatchOptions> variants;
  for (auto kernel : {PatchKernel::separate, PatchKernel::fused})
    for (auto solver : {LocalSolver::fast_diagonalization, LocalSolver::inverse})
      for (auto structure : {ThreadStructure::per_dof, ThreadStructure::per_column})
        for (int ppt : {1, 3}) {
          VertexPatchOptions o{kernel, solver, structure, ppt};
          o.residual = PatchResidual::boundary;
          variants.push_back(o);
        }
  VertexPatchOptions automatic;
  automatic.residual = PatchResidual::boundary;
  variants.push_back(automatic);
  // At least 4 cells per direction: patches whose closures miss the Dirichlet boundary take the
  // kernels' fast path (whole rows read from x), the others the node-by-node one.
  check_against_reference<TypeParam>(2, 3, make_mesh(2, {5, 4, 1}, 0, {1.0, 0.6, 1.0}), {}, variants);
  check_against_reference<TypeParam>(3, 2, make_mesh(3, {4, 5, 4}, 0, {1.0, 0.6, 1.4}), {}, variants);
  LaplaceOptions lo;
  lo.laplace_coefficient = 1.5;
  lo.mass_coefficient = 0.8;
  check_against_reference<TypeParam>(3, 1, make_mesh(3, {2, 3, 2}, 0), lo, variants);

  // Every (dim, k) of the tuning table on a mesh of at least 4 cells per direction (patches on the
  // fast path and off it): the default kernel, the fused one with a thread per closure column and
  // one patch per team, the separate and the per-DoF kernels, each with the full and the boundary
  // residual, against the global-residual variant (the operator's vmult, then the solve).
  for (const PatchTuning& row : detail::patch_device_rows) {
    const int dim = row.dim, k = row.k;
    if (sanitized && k > 2 && k != 7) continue;  // under the sanitizers k = 1, 2 and 7
    const auto layout = make_layout<TypeParam>(make_mesh(dim, {4, 5, 4}, 0, {1.0, 0.6, 1.4}), k);
    const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
    auto x0 = op->make_vector(), b = op->make_vector(), x = op->make_vector(), y = op->make_vector();
    fill_random(*layout, x0, 21 + k);
    fill_random(*layout, b, 22 + k);
    const VertexPatchSmoother<double, TypeParam> global(
        op, {PatchKernel::global, LocalSolver::fast_diagonalization, ThreadStructure::per_column, 1});
    const int closure_columns = dim == 2 ? 2 * k + 1 : (2 * k + 1) * (2 * k + 1);
    std::vector<VertexPatchOptions> variants{
        {},
        {PatchKernel::fused, LocalSolver::fast_diagonalization, ThreadStructure::per_column, 1, closure_columns},
        {PatchKernel::separate, LocalSolver::fast_diagonalization, ThreadStructure::per_column},
        {PatchKernel::fused, LocalSolver::fast_diagonalization, ThreadStructure::per_dof}};
    for (VertexPatchOptions options : variants)
      for (const auto residual : {PatchResidual::full, PatchResidual::boundary}) {
        options.residual = residual;
        const VertexPatchSmoother<double, TypeParam> smoother(op, options);
        if (residual == PatchResidual::boundary)
          EXPECT_NE(smoother.options().kernel, PatchKernel::global) << "the boundary residual keeps the automatic kernel local";
        for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
          x.copy_from(x0);
          y.copy_from(x0);
          global.smooth(x, b, order);
          smoother.smooth(y, b, order);
          EXPECT_LE(relative_max_difference(x, y), 1e-11)
              << "dim=" << dim << " k=" << k << " " << smoother.description() << (order == SweepOrder::forward ? " forward" : " reverse");
        }
      }
  }
}

/// Every (dim, k) of the tuning table in float with its default (the rows' float team shapes, the
/// boundary residual) against the double global-residual step: the same step up to float rounding
/// (the patch solves' condition grows with k; an indexing error shows as O(1)).
TYPED_TEST(VertexPatchTest, EveryDegreeFloatStepIsCloseToDouble) {
  for (const PatchTuning& row : detail::patch_device_rows) {
    const int dim = row.dim, k = row.k;
    if (sanitized && k > 2 && k != 7) continue;
    const auto layout = make_layout<TypeParam>(make_mesh(dim, {4, 5, 4}, 0, {1.0, 0.6, 1.4}), k);
    const auto opd = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
    const auto opf = std::make_shared<LaplaceOperator<float, TypeParam>>(layout);
    auto xd = opd->make_vector(), bd = opd->make_vector(), x0 = opd->make_vector(), xfd = opd->make_vector();
    auto xf = opf->make_vector(), bf = opf->make_vector();
    fill_random(*layout, x0, 41 + k);
    fill_random(*layout, bd, 42 + k);
    xd.copy_from(x0);
    xf.copy_converted_from(x0);
    bf.copy_converted_from(bd);
    const VertexPatchSmoother<float, TypeParam> smoother(opf);
    smoother.smooth(xf, bf, SweepOrder::forward);
    VertexPatchSmoother<double, TypeParam>(
        opd, {PatchKernel::global, LocalSolver::fast_diagonalization, ThreadStructure::per_column, 1})
        .smooth(xd, bd, SweepOrder::forward);
    xfd.copy_converted_from(xf);
    EXPECT_LE(relative_max_difference(xfd, xd), 2e-4) << "dim=" << dim << " k=" << k << " " << smoother.description();
    EXPECT_GT(relative_max_difference(xd, x0), 1e-2) << "the step must change x";
  }
}

TYPED_TEST(VertexPatchTest, BoundaryResidualInFloat) {
  const auto layout = make_layout<TypeParam>(make_mesh(3, {4, 4, 4}, 0), 3);
  const auto op = std::make_shared<LaplaceOperator<float, TypeParam>>(layout);
  auto x0 = op->make_vector(), b = op->make_vector(), x = op->make_vector(), y = op->make_vector();
  fill_random(*layout, x0, 31);
  fill_random(*layout, b, 32);
  VertexPatchOptions full_options, boundary_options;
  full_options.residual = PatchResidual::full;
  boundary_options.residual = PatchResidual::boundary;
  x.copy_from(x0);
  y.copy_from(x0);
  VertexPatchSmoother<float, TypeParam>(op, full_options).smooth(x, b, SweepOrder::forward);
  VertexPatchSmoother<float, TypeParam>(op, boundary_options).smooth(y, b, SweepOrder::forward);
  EXPECT_LE(relative_max_difference(x, y), 1e-4);
  EXPECT_GT(relative_max_difference(x, x0), 1e-2) << "the step must change x";
}

TYPED_TEST(VertexPatchTest, FloatStepIsCloseToDouble) {
  const auto layout = make_layout<TypeParam>(make_mesh(3, {2, 3, 2}, 0), 3);
  const auto opd = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
  const auto opf = std::make_shared<LaplaceOperator<float, TypeParam>>(layout);
  DistributedVector<double, TypeParam> xd = opd->make_vector(), bd = opd->make_vector();
  DistributedVector<float, TypeParam> xf = opf->make_vector(), bf = opf->make_vector();
  fill_random(*layout, bd, 1);
  bf.copy_converted_from(bd);
  VertexPatchSmoother<double, TypeParam>(opd).smooth(xd, bd, SweepOrder::forward);
  VertexPatchSmoother<float, TypeParam>(opf).smooth(xf, bf, SweepOrder::forward);
  DistributedVector<double, TypeParam> xfd = opd->make_vector();
  xfd.copy_converted_from(xf);
  EXPECT_LE(relative_max_difference(xfd, xd), 1e-5);
}

/// k = 1 with a thread per patch (vertex_patch_q1.hpp; the automatic structure there): against the
/// sequential Algorithm 2.3 with either residual, Helmholtz terms, anisotropic cells, odd and even
/// cell counts (boundary patches next to Dirichlet nodes, colours of different sizes), and in
/// float against the double step.
TYPED_TEST(VertexPatchTest, PerPatchQ1MatchesSequentialAlgorithm) {
  std::vector<VertexPatchOptions> variants(5);
  variants[0].structure = variants[1].structure = ThreadStructure::per_patch;
  variants[2].structure = variants[3].structure = ThreadStructure::per_line;
  variants[0].residual = variants[2].residual = PatchResidual::full;
  variants[1].residual = variants[3].residual = PatchResidual::boundary;  // variants[4]: automatic
  LaplaceOptions helmholtz;
  helmholtz.laplace_coefficient = 1.5;
  helmholtz.mass_coefficient = 0.8;
  for (const auto& lo : {LaplaceOptions{}, helmholtz}) {
    check_against_reference<TypeParam>(2, 1, make_mesh(2, {5, 4, 1}, 1, {1.0, 0.6, 1.0}), lo, variants);
    check_against_reference<TypeParam>(3, 1, make_mesh(3, {3, 4, 5}, 0, {1.0, 0.6, 1.4}), lo, variants);
  }
  const auto layout = make_layout<TypeParam>(make_mesh(3, {3, 4, 5}, 1, {1.0, 0.6, 1.4}), 1);
  const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
  const VertexPatchSmoother<double, TypeParam> automatic(op);
  EXPECT_EQ(automatic.options().structure,
            patch_tuning(3, 1, tuning_target<TypeParam>()).per_line ? ThreadStructure::per_line : ThreadStructure::per_patch)
      << automatic.description();
  VertexPatchOptions columns;
  columns.structure = ThreadStructure::per_column;
  const VertexPatchSmoother<double, TypeParam> per_column(op, columns);
  const auto opf = std::make_shared<LaplaceOperator<float, TypeParam>>(layout);
  const VertexPatchSmoother<float, TypeParam> single(opf);
  auto x0 = op->make_vector(), b = op->make_vector(), x = op->make_vector(), y = op->make_vector();
  auto xf = opf->make_vector(), bf = opf->make_vector();
  fill_random(*layout, x0, 71);
  fill_random(*layout, b, 72);
  for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
    x.copy_from(x0);
    y.copy_from(x0);
    automatic.smooth(x, b, order);
    per_column.smooth(y, b, order);
    EXPECT_LE(relative_max_difference(x, y), 1e-12);
    EXPECT_GT(relative_max_difference(x, x0), 1e-2) << "the step must change x";
    xf.copy_converted_from(x0);
    bf.copy_converted_from(b);
    single.smooth(xf, bf, order);
    y.copy_converted_from(xf);
    EXPECT_LE(relative_max_difference(y, x), 1e-5);
  }
}

/// The k = 1 smoother's two colours a pass (per line, VertexPatchQ1PairKernel) against the sweep's
/// colours one launch each (per patch), both orders (so either parity leads a pair), lines long enough to be cut into
/// segments (their joints), odd and even vertex counts along the lines, one vertex per line, and the
/// sequential Algorithm 2.3 on segmented lines.
TYPED_TEST(VertexPatchTest, PerLineQ1PairsEqualTheirColoursOneByOne) {
  VertexPatchOptions o;
  o.structure = ThreadStructure::per_line;
  for (const auto& [dim, cells, refinements] :
       std::vector<std::tuple<int, std::array<int, 3>, int>>{{2, {5, 9, 1}, 3},  // 40 x 72: 71 vertices a line, 4 segments (host; more on a GPU)
                                                             {2, {3, 41, 1}, 0},  // 40 vertices a line, 2 segments (host)
                                                             {2, {7, 2, 1}, 0},  // one vertex a line
                                                             {3, {3, 2, 5}, 3},  // 39 vertices a line, 2 segments (host)
                                                             {3, {2, 3, 3}, 0}}) {
    const auto layout = make_layout<TypeParam>(make_mesh(dim, cells, refinements, {1.0, 0.6, 1.4}), 1);
    const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
    for (const auto residual : {PatchResidual::full, PatchResidual::boundary}) {
      o.residual = residual;
      const VertexPatchSmoother<double, TypeParam> smoother(op, o);
      auto x0 = op->make_vector(), b = op->make_vector(), x = op->make_vector(), y = op->make_vector();
      fill_random(*layout, x0, 81 + dim);
      fill_random(*layout, b, 83 + dim);
      for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
        x.copy_from(x0);
        y.copy_from(x0);
        smoother.smooth(x, b, order);
        for (int i = 0; i < smoother.n_colors(); ++i) smoother.smooth_color(y, b, patch_color(dim, i, order == SweepOrder::reverse));
        EXPECT_LE(relative_max_difference(x, y), 1e-14) << "dim=" << dim << " refinements=" << refinements;
        EXPECT_GT(relative_max_difference(x, x0), 1e-2) << "the step must change x";
      }
    }
    check_against_reference<TypeParam>(dim, 1, make_mesh(dim, cells, refinements, {1.0, 0.6, 1.4}), {}, {o});
  }
}

TEST(PatchColor, PairsDifferInTheLastDirectionOnlyAndEveryColourComesOnce) {
  for (int dim : {2, 3})
    for (const bool reverse : {false, true}) {
      std::vector<int> seen(1 << dim, 0);
      for (int i = 0; i < (1 << dim); ++i) {
        const int c = patch_color(dim, i, reverse);
        ASSERT_GE(c, 0);
        ASSERT_LT(c, 1 << dim);
        ++seen[c];
        EXPECT_EQ(c, patch_color(dim, (1 << dim) - 1 - i, !reverse)) << "reverse is the forward sweep backwards";
        if (i % 2 == 1) EXPECT_EQ(c ^ patch_color(dim, i - 1, reverse), 1 << (dim - 1)) << "dim=" << dim << " step " << i;
      }
      for (int n : seen) EXPECT_EQ(n, 1);
    }
  EXPECT_EQ(patch_color(3, 1, false), 4);  // (0,0,1) right after (0,0,0)
  EXPECT_EQ(patch_color(2, 1, false), 2);
}

/// Host, k >= 2: patches in SIMD lanes (vertex_patch_lanes.hpp) against the global-residual step
/// (itself checked against the sequential Algorithm 2.3 above) for every (dim, k) of the tuning
/// table, with the full and the boundary residual, both sweep orders, anisotropic cells and
/// meshes wide enough along x that a row of a colour's patches fills several packs and ends in a
/// partial one (lanes past the row's end), with patches on the fast path and next to the Dirichlet
/// boundary; a Helmholtz term; float against the double step. On a GPU the structure is refused.
TYPED_TEST(VertexPatchTest, LanesMatchGlobalResidualStep) {
  using Smoother = VertexPatchSmoother<double, TypeParam>;
  VertexPatchOptions lanes;
  lanes.structure = ThreadStructure::lanes;
  if constexpr (!runs_on_host<TypeParam>()) {
    const auto q2 = std::make_shared<LaplaceOperator<double, TypeParam>>(make_layout<TypeParam>(make_mesh(3, {2, 2, 2}, 0), 2));
    try {
      Smoother smoother(q2, lanes);
      ADD_FAILURE() << "accepted on a GPU: " << smoother.description();
    } catch (const InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find("runs on the host"), std::string::npos) << e.what();
    }
    return;
  } else {
    constexpr int W = simd::native_width<double>;
    for (const PatchTuning& row : detail::patch_device_rows) {
      const int dim = row.dim, k = row.k;
      if (k == 1 || (sanitized && k > 3 && k != 7)) continue;
      // 2 W + 3 patches of a colour along x at most: two whole packs and a partial one.
      const int cells_x = 4 * W + 7;
      for (const LaplaceOptions lo : {LaplaceOptions{}, LaplaceOptions{1.5, 0.8}}) {
        if (lo.mass_coefficient != 0 && k != 3) continue;
        const auto layout = make_layout<TypeParam>(make_mesh(dim, {cells_x, 5, dim == 3 ? 4 : 1}, 0, {1.0, 0.3, 0.5}), k);
        const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout, lo);
        auto x0 = op->make_vector(), b = op->make_vector(), x = op->make_vector(), y = op->make_vector();
        fill_random(*layout, x0, 61 + k);
        fill_random(*layout, b, 62 + k);
        const Smoother global(op, {PatchKernel::global, LocalSolver::fast_diagonalization, ThreadStructure::per_column, 1});
        for (const auto residual : {PatchResidual::full, PatchResidual::boundary}) {
          VertexPatchOptions options = lanes;
          options.residual = residual;
          const Smoother smoother(op, options);
          EXPECT_EQ(smoother.options().structure, ThreadStructure::lanes);
          for (const auto order : {SweepOrder::forward, SweepOrder::reverse}) {
            x.copy_from(x0);
            y.copy_from(x0);
            global.smooth(x, b, order);
            smoother.smooth(y, b, order);
            EXPECT_LE(relative_max_difference(x, y), 1e-11) << "dim=" << dim << " k=" << k << " mass=" << lo.mass_coefficient
                                                            << " " << smoother.description()
                                                            << (order == SweepOrder::forward ? " forward" : " reverse");
            EXPECT_GT(relative_max_difference(y, x0), 1e-2) << "the step must change x";
          }
        }
        if (lo.mass_coefficient != 0 || (sanitized && k > 2)) continue;
        // float lanes against the double step
        const auto opf = std::make_shared<LaplaceOperator<float, TypeParam>>(layout);
        auto xf = opf->make_vector(), bf = opf->make_vector();
        xf.copy_converted_from(x0);
        bf.copy_converted_from(b);
        VertexPatchSmoother<float, TypeParam>(opf, lanes).smooth(xf, bf, SweepOrder::forward);
        x.copy_from(x0);
        global.smooth(x, b, SweepOrder::forward);
        y.copy_converted_from(xf);
        EXPECT_LE(relative_max_difference(y, x), 2e-4) << "float dim=" << dim << " k=" << k;
      }
    }
  }
}

/// Point smoothers reduce the error of A x = b with b = 0 (error = x) in the A-norm.
TYPED_TEST(VertexPatchTest, PointSmoothersReduceTheEnergyError) {
  const auto layout = make_layout<TypeParam>(make_mesh(2, {4, 4, 1}, 1), 2);
  const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
  const auto energy = [&](const DistributedVector<double, TypeParam>& v) {
    auto t = op->make_vector();
    op->vmult(t, v);
    return std::sqrt(t.dot(v));
  };
  auto b = op->make_vector();
  const auto dirichlet = owned_boundary_nodes<TypeParam>(layout->box());
  std::vector<std::unique_ptr<Smoother<double, TypeParam>>> smoothers;
  smoothers.push_back(std::make_unique<JacobiSmoother<double, TypeParam>>(op));
  smoothers.push_back(std::make_unique<ChebyshevSmoother<double, TypeParam>>(op));
  smoothers.push_back(std::make_unique<GaussSeidelSmoother<double, TypeParam>>(op));
  smoothers.push_back(std::make_unique<VertexPatchSmoother<double, TypeParam>>(op));
  for (const auto& s : smoothers) {
    auto x = op->make_vector();
    fill_random(*layout, x, 9);
    copy_entries(dirichlet, x, b);  // zero Dirichlet values: x is the error
    const double e0 = energy(x);
    for (int i = 0; i < 3; ++i) s->smooth(x, b, i % 2 ? SweepOrder::reverse : SweepOrder::forward);
    EXPECT_LT(energy(x), 0.9 * e0) << s->description();
    EXPECT_GT(energy(x), 0.0) << s->description();
  }
}

}  // namespace
