// The local problems of the DG vertex-patch smoother: each local operator is the global SIPG matrix
// projected on the local space (full: all patch values; Dirichlet: without the inner patch
// boundary's; clamped: zero value and derivative at the inner ends), on interior and
// boundary-adjacent patches with anisotropic cells; the fast-diagonalization inverse is the inverse
// of that dense matrix; the local residual is exact for functions without jumps (Dirichlet) and
// for all functions (clamped).
#include <gtest/gtest.h>

#include <cmath>

#include "discretization/assembled_dg_laplace.hpp"
#include "discretization/polynomials_1d.hpp"
#include "discretization/sipg_matrices_1d.hpp"
#include "smoothers/dg_patch_matrices.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;

std::array<SeparableBlock1D, 3> blocks_of(int dim, const std::array<DgPatchMatrices1D, 3>& m) {
  std::array<SeparableBlock1D, 3> b{};
  for (int d = 0; d < dim; ++d) b[d] = m[d].block();
  return b;
}

TEST(DgPatchMatrices, FastDiagonalizationInvertsThePatchOperator) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= (dim == 2 ? 5 : 3); ++k)
      for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet, DgLocalSolver::clamped})
        for (int position = 0; position < 4; ++position) {
          if (solver == DgLocalSolver::clamped && k < 3) continue;
          std::array<DgPatchMatrices1D, 3> m;
          const double h[3] = {0.5, 0.2, 0.35};
          for (int d = 0; d < dim; ++d)
            m[d] = dg_patch_matrices_1d(k, h[d], 1.5, position & 1, (position >> 1) & 1, solver);
          const auto b = blocks_of(dim, m);
          const auto a = separable_matrix(dim, b, 1.0, 0.25);
          const auto inv = separable_inverse(dim, b, 1.0, 0.25);
          const int s = int(std::lround(std::sqrt(double(a.size()))));
          double worst = 0;
          for (int i = 0; i < s; ++i)
            for (int j = 0; j < s; ++j) {
              double v = 0;
              for (int l = 0; l < s; ++l) v += a[std::size_t(i) * s + l] * inv[std::size_t(l) * s + j];
              worst = std::max(worst, std::abs(v - (i == j ? 1.0 : 0.0)));
            }
          EXPECT_LE(worst, 1e-9) << "dim=" << dim << " k=" << k << " " << to_string(solver) << " position " << position;
        }
}

/// The dense inverse in the patch's values is Z (Zᵀ A_P Z)^{-1} Zᵀ: projected on the local space
/// (W = ⊗ Z_d) it inverts the assembled local operator, and it vanishes outside that space.
TEST(DgPatchMatrices, DenseInverseInvertsTheLocalOperatorInPatchValues) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= (dim == 2 ? 4 : 2); ++k)
      for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet, DgLocalSolver::clamped})
        for (int position = 0; position < 4; ++position) {
          if (solver == DgLocalSolver::clamped && k < 3) continue;
          std::array<DgPatchMatrices1D, 3> m;
          const double h[3] = {0.5, 0.2, 0.35};
          for (int d = 0; d < dim; ++d)  // a different position per direction
            m[d] = dg_patch_matrices_1d(k, h[d], 1.5, ((position + d) & 1) != 0, (((position + d) >> 1) & 1) != 0, solver);
          const auto D = dg_patch_dense_inverse(dim, {&m[0], &m[1], &m[2]}, 1.0, 0.25);
          const auto a = separable_matrix(dim, blocks_of(dim, m), 1.0, 0.25);
          const int N = 2 * (k + 1), P = dim == 2 ? N * N : N * N * N;
          const int sz[3] = {m[0].size, m[1].size, dim == 3 ? m[2].size : 1};
          const int s = sz[0] * sz[1] * sz[2];
          ASSERT_EQ(D.size(), std::size_t(P) * P);
          std::vector<double> W(std::size_t(P) * s, 1.0);
          for (int e = 0; e < P; ++e)
            for (int j = 0; j < s; ++j) {
              const int pc[3] = {e % N, (e / N) % N, e / (N * N)};
              const int ic[3] = {j % sz[0], (j / sz[0]) % sz[1], j / (sz[0] * sz[1])};
              for (int d = 0; d < dim; ++d) W[std::size_t(e) * s + j] *= m[d].basis[std::size_t(pc[d]) * m[d].size + ic[d]];
            }
          // B = Wᵀ D W (s × s); B A = I; D = W B Wᵀ.
          std::vector<double> DW(std::size_t(P) * s, 0.0), B(std::size_t(s) * s, 0.0);
          for (int i = 0; i < P; ++i)
            for (int l = 0; l < P; ++l) {
              const double d = D[std::size_t(i) * P + l];
              if (d != 0)
                for (int j = 0; j < s; ++j) DW[std::size_t(i) * s + j] += d * W[std::size_t(l) * s + j];
            }
          for (int i = 0; i < P; ++i)
            for (int r = 0; r < s; ++r)
              for (int j = 0; j < s; ++j) B[std::size_t(r) * s + j] += W[std::size_t(i) * s + r] * DW[std::size_t(i) * s + j];
          double worst = 0, outside = 0, scale = 0;
          for (int i = 0; i < s; ++i)
            for (int j = 0; j < s; ++j) {
              double v = 0;
              for (int l = 0; l < s; ++l) v += B[std::size_t(i) * s + l] * a[std::size_t(l) * s + j];
              worst = std::max(worst, std::abs(v - (i == j ? 1.0 : 0.0)));
            }
          std::vector<double> BWt(std::size_t(s) * P, 0.0);  // B Wᵀ
          for (int r = 0; r < s; ++r)
            for (int l = 0; l < s; ++l)
              for (int j = 0; j < P; ++j) BWt[std::size_t(r) * P + j] += B[std::size_t(r) * s + l] * W[std::size_t(j) * s + l];
          for (int i = 0; i < P; ++i)
            for (int j = 0; j < P; ++j) {
              double v = 0;
              for (int r = 0; r < s; ++r) v += W[std::size_t(i) * s + r] * BWt[std::size_t(r) * P + j];
              outside = std::max(outside, std::abs(v - D[std::size_t(i) * P + j]));
              scale = std::max(scale, std::abs(D[std::size_t(i) * P + j]));
            }
          EXPECT_LE(worst, 1e-9) << "dim=" << dim << " k=" << k << " " << to_string(solver) << " position " << position;
          EXPECT_LE(outside, 1e-12 * scale) << "dim=" << dim << " k=" << k << " " << to_string(solver);
        }
}

/// The patch around mesh vertex v (global vertex coordinates, 1..cells−1 per direction) on one
/// rank: its 2^d cells' values, lexicographic over (cell, node) per direction; the assembled
/// matrix's block G of those values, projected on the local space, Wᵀ G W with W = Z_x ⊗ Z_y ⊗ Z_z
/// (the local solver's bases), equals separable_matrix of the local blocks.
void compare_with_global_matrix(int dim, int k, std::array<int, 3> vertex, DgLocalSolver solver) {
  const auto mesh = tensormg::testing::make_mesh(dim, {4, 3, 3}, 0, {1.0, 0.6, 0.8});
  const auto layout = std::make_shared<DgDofLayout<HostExec>>(mesh, k);
  DgLaplaceOptions options;
  options.penalty_factor = 1.5;
  const AssembledDgLaplace<double, HostExec> global(layout, options);
  const CellBox& box = layout->box();
  const int n = k + 1, N = 2 * n;
  std::array<DgPatchMatrices1D, 3> m;
  for (int d = 0; d < dim; ++d)
    m[d] = dg_patch_matrices_1d(k, mesh->h()[d], 1.5, vertex[d] == 1, vertex[d] == box.cells[d] - 1, solver);
  const auto expected = separable_matrix(dim, blocks_of(dim, m), 1.0, 0.0);
  // Global index of patch value (p_x, p_y, p_z), each in 0..2n−1, and the patch block G.
  const int P = dim == 2 ? N * N : N * N * N;
  std::vector<local_index> index(P);
  for (int e = 0; e < P; ++e) {
    const int p[3] = {e % N, (e / N) % N, e / (N * N)};
    local_index cell[3] = {0, 0, 0};
    int node = 0, stride = 1;
    for (int d = 0; d < dim; ++d) {
      cell[d] = vertex[d] - 1 + p[d] / n;
      node += stride * (p[d] % n);
      stride *= n;
    }
    index[e] = box.cell_index(cell[0], cell[1], cell[2]) * box.cell_dofs + node;
  }
  const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().graph.row_map);
  const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().graph.entries);
  const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().values);
  std::vector<double> G(std::size_t(P) * P, 0.0);
  for (int a = 0; a < P; ++a)
    for (int b = 0; b < P; ++b)
      for (auto e = rows(index[a]); e < rows(index[a] + 1); ++e)
        if (cols(e) == index[b]) G[std::size_t(a) * P + b] += vals(e);
  // W (P × count), x fastest in both indices.
  const int sz[3] = {m[0].size, m[1].size, dim == 3 ? m[2].size : 1};
  const int count = sz[0] * sz[1] * sz[2];
  std::vector<double> W(std::size_t(P) * count, 1.0);
  for (int e = 0; e < P; ++e)
    for (int j = 0; j < count; ++j) {
      const int p[3] = {e % N, (e / N) % N, e / (N * N)};
      const int i[3] = {j % sz[0], (j / sz[0]) % sz[1], j / (sz[0] * sz[1])};
      for (int d = 0; d < dim; ++d) W[std::size_t(e) * count + j] *= m[d].basis[std::size_t(p[d]) * m[d].size + i[d]];
    }
  std::vector<double> GW(std::size_t(P) * count, 0.0);
  for (int a = 0; a < P; ++a)
    for (int c = 0; c < P; ++c)
      if (G[std::size_t(a) * P + c] != 0)
        for (int j = 0; j < count; ++j) GW[std::size_t(a) * count + j] += G[std::size_t(a) * P + c] * W[std::size_t(c) * count + j];
  double worst = 0, scale = 0;
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j) {
      double g = 0;
      for (int a = 0; a < P; ++a) g += W[std::size_t(a) * count + i] * GW[std::size_t(a) * count + j];
      worst = std::max(worst, std::abs(g - expected[std::size_t(i) * count + j]));
      scale = std::max(scale, std::abs(g));
    }
  EXPECT_LE(worst, 1e-11 * scale) << "dim=" << dim << " k=" << k << " " << to_string(solver) << " vertex "
                                  << vertex[0] << "," << vertex[1] << "," << vertex[2];
}

TEST(DgPatchMatrices, AreTheGlobalMatrixRestrictedToThePatch) {
  for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet, DgLocalSolver::clamped})
      for (int k : {1, 2, 3}) {
        if (solver == DgLocalSolver::clamped && k < 3) continue;
        compare_with_global_matrix(2, k, {2, 1, 0}, solver);  // next to the lower y boundary
        compare_with_global_matrix(2, k, {3, 2, 0}, solver);  // next to the upper x and y boundaries
        compare_with_global_matrix(3, k, {2, 1, 2}, solver);
        compare_with_global_matrix(3, k, {1, 2, 1}, solver);
      }
}

/// The local unknowns' rows of residual_laplace applied to the patch cells' values equal the rows
/// of the global line operator applied to the whole line, for a polynomial of degree <= k (no
/// jumps); for a function with jumps at the patch's inner ends they differ (the inconsistency).
TEST(DgPatchMatrices, PatchResidualIsExactWithoutJumpsAndClampedAlways) {
  for (int k = 1; k <= 8; ++k)
    for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::clamped})
      for (int position = 0; position < 4; ++position) {
        if (solver == DgLocalSolver::clamped && k < 3) continue;
        const bool lower = position & 1, upper = position & 2;
        const int n = k + 1, cells = 2 + !lower + !upper, c0 = lower ? 0 : 1, size = cells * n;
        const double h = 0.3, gamma = 1.5;
        const SipgMatrices1D s = sipg_matrices_1d(k, h, gamma);
        const auto global = sipg_line_matrix(s, cells, true, true);
        const auto p = dg_patch_matrices_1d(k, h, gamma, lower, upper, solver);
        const auto nodes = LagrangeBasis1D::gauss_lobatto(k).nodes();
        for (const bool jumps : {false, true}) {
          std::vector<double> u(size);
          for (int c = 0; c < cells; ++c)
            for (int i = 0; i < n; ++i) {
              const double x = (c + nodes[i]) * h;
              u[c * n + i] = std::pow(x, k) - 0.7 * x + 0.2 + (jumps && (c < c0 || c >= c0 + 2) ? 0.5 : 0.0);
            }
          // Zᵀ (global rows of the patch values) against Zᵀ (residual_laplace u_P).
          std::vector<double> g(2 * n, 0.0), l(2 * n, 0.0);
          for (int i = 0; i < 2 * n; ++i) {
            for (int j = 0; j < size; ++j) g[i] += global[std::size_t(c0 * n + i) * size + j] * u[j];
            for (int j = 0; j < 2 * n; ++j) l[i] += p.residual_laplace[std::size_t(i) * 2 * n + j] * u[c0 * n + j];
          }
          double worst = 0, scale = 0;
          for (int j = 0; j < p.size; ++j) {
            double gz = 0, lz = 0;
            for (int i = 0; i < 2 * n; ++i) {
              gz += p.basis[std::size_t(i) * p.size + j] * g[i];
              lz += p.basis[std::size_t(i) * p.size + j] * l[i];
            }
            worst = std::max(worst, std::abs(gz - lz));
            scale = std::max(scale, std::abs(gz));
          }
          // Without jumps both are exact; with them only clamped is (and a patch without inner ends).
          if (!jumps || position == 3 || solver == DgLocalSolver::clamped) {
            EXPECT_LE(worst, 1e-10 * std::max(scale, 1.0)) << "k=" << k << " position " << position << " " << to_string(solver);
          } else {
            EXPECT_GT(worst, 1e-3 * std::max(scale, 1.0)) << "k=" << k << " position " << position;
          }
        }
      }
}

/// The clamped space per direction: 2k − 2 functions (plus two per patch end on the boundary),
/// orthonormal, with zero value and derivative at the inner ends.
TEST(DgPatchMatrices, ClampedSpaceVanishesWithItsDerivativeAtInnerEnds) {
  for (int k = 3; k <= 8; ++k)
    for (int position = 0; position < 4; ++position) {
      const bool lower = position & 1, upper = position & 2;
      const double h = 0.4;
      const auto p = dg_patch_matrices_1d(k, h, 1.0, lower, upper, DgLocalSolver::clamped);
      const SipgMatrices1D s = sipg_matrices_1d(k, h, 1.0);
      const int n = k + 1, all = 2 * n;
      EXPECT_EQ(p.size, 2 * k - 2 + 2 * int(lower) + 2 * int(upper)) << "k=" << k;
      for (int j = 0; j < p.size; ++j) {
        double v0 = 0, d0 = 0, v1 = 0, d1 = 0;
        for (int i = 0; i < n; ++i) {
          d0 += s.d_left[i] * p.basis[std::size_t(i) * p.size + j] * h;
          d1 += s.d_right[i] * p.basis[std::size_t(n + i) * p.size + j] * h;
        }
        v0 = p.basis[j];
        v1 = p.basis[std::size_t(all - 1) * p.size + j];
        if (!lower) EXPECT_LE(std::abs(v0) + std::abs(d0), 1e-12) << "k=" << k << " position " << position;
        if (!upper) EXPECT_LE(std::abs(v1) + std::abs(d1), 1e-12) << "k=" << k << " position " << position;
        for (int i = 0; i < p.size; ++i) {
          double dot = 0;
          for (int r = 0; r < all; ++r) dot += p.basis[std::size_t(r) * p.size + i] * p.basis[std::size_t(r) * p.size + j];
          EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, 1e-12);
        }
      }
    }
}

TEST(DgPatchMatrices, LocalSolverNames) {
  EXPECT_EQ(parse_dg_local_solver("full"), DgLocalSolver::full);
  EXPECT_EQ(parse_dg_local_solver("dirichlet"), DgLocalSolver::dirichlet);
  EXPECT_EQ(parse_dg_local_solver("clamped"), DgLocalSolver::clamped);
  EXPECT_THROW(dg_patch_matrices_1d(2, 0.5, 1.0, false, false, DgLocalSolver::clamped), InputError);
  EXPECT_THROW(parse_dg_local_solver("clamp"), InputError);
}

}  // namespace
