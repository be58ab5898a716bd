// The local problems of the DG vertex-patch smoother: the full patch operator is the global SIPG
// matrix restricted to the patch's values, the Dirichlet one that restriction without the values
// on the patch boundary (interior and boundary-adjacent patches, anisotropic cells), and the
// fast-diagonalization inverse is the inverse of that dense matrix; the Dirichlet solver's local
// residual is exact for functions without jumps (and not for others).
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
      for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet})
        for (int position = 0; position < 4; ++position) {
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

/// The patch around mesh vertex v (global vertex coordinates, 1..cells−1 per direction) on one
/// rank: its 2^d cells' values, lexicographic over (cell, node) per direction, restricted to the
/// local solver's unknowns; compares the assembled matrix's block with separable_matrix.
void compare_with_global_matrix(int dim, int k, std::array<int, 3> vertex, DgLocalSolver solver) {
  const auto mesh = tensormg::testing::make_mesh(dim, {4, 3, 3}, 0, {1.0, 0.6, 0.8});
  const auto layout = std::make_shared<DgDofLayout<HostExec>>(mesh, k);
  DgLaplaceOptions options;
  options.penalty_factor = 1.5;
  const AssembledDgLaplace<double, HostExec> global(layout, options);
  const CellBox& box = layout->box();
  const int n = k + 1;
  std::array<DgPatchMatrices1D, 3> m;
  for (int d = 0; d < dim; ++d)
    m[d] = dg_patch_matrices_1d(k, mesh->h()[d], 1.5, vertex[d] == 1, vertex[d] == box.cells[d] - 1, solver);
  const auto expected = separable_matrix(dim, blocks_of(dim, m), 1.0, 0.0);
  // Global index of patch unknown (i_x, i_y, i_z), each in 0..size−1.
  const int sz[3] = {m[0].size, m[1].size, dim == 3 ? m[2].size : 1};
  const int count = sz[0] * sz[1] * sz[2];
  std::vector<local_index> index(count);
  for (int e = 0; e < count; ++e) {
    const int i[3] = {e % sz[0], (e / sz[0]) % sz[1], e / (sz[0] * sz[1])};
    local_index cell[3] = {0, 0, 0};
    int node = 0, stride = 1;
    for (int d = 0; d < dim; ++d) {
      const int p = i[d] + m[d].first;  // 0 .. 2n−1 over the two cells
      cell[d] = vertex[d] - 1 + p / n;
      node += stride * (p % n);
      stride *= n;
    }
    index[e] = box.cell_index(cell[0], cell[1], cell[2]) * box.cell_dofs + node;
  }
  const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().graph.row_map);
  const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().graph.entries);
  const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), global.matrix().values);
  double worst = 0, scale = 0;
  for (int a = 0; a < count; ++a)
    for (int b = 0; b < count; ++b) {
      double g = 0;
      for (auto e = rows(index[a]); e < rows(index[a] + 1); ++e)
        if (cols(e) == index[b]) g += vals(e);
      worst = std::max(worst, std::abs(g - expected[std::size_t(a) * count + b]));
      scale = std::max(scale, std::abs(g));
    }
  EXPECT_LE(worst, 1e-12 * scale) << "dim=" << dim << " k=" << k << " " << to_string(solver) << " vertex "
                                  << vertex[0] << "," << vertex[1] << "," << vertex[2];
}

TEST(DgPatchMatrices, AreTheGlobalMatrixRestrictedToThePatch) {
  for (const auto solver : {DgLocalSolver::full, DgLocalSolver::dirichlet})
      for (int k : {1, 2, 3}) {
        compare_with_global_matrix(2, k, {2, 1, 0}, solver);  // next to the lower y boundary
        compare_with_global_matrix(2, k, {3, 2, 0}, solver);  // next to the upper x and y boundaries
        compare_with_global_matrix(3, k, {2, 1, 2}, solver);
        compare_with_global_matrix(3, k, {1, 2, 1}, solver);
      }
}

/// The local unknowns' rows of residual_laplace applied to the patch cells' values equal the rows
/// of the global line operator applied to the whole line, for a polynomial of degree <= k (no
/// jumps); for a function with jumps at the patch's inner ends they differ (the inconsistency).
TEST(DgPatchMatrices, DirichletResidualIsExactWithoutJumps) {
  for (int k = 1; k <= 8; ++k)
    for (int position = 0; position < 4; ++position) {
      const bool lower = position & 1, upper = position & 2;
      const int n = k + 1, cells = 2 + !lower + !upper, c0 = lower ? 0 : 1, size = cells * n;
      const double h = 0.3, gamma = 1.5;
      const SipgMatrices1D s = sipg_matrices_1d(k, h, gamma);
      const auto global = sipg_line_matrix(s, cells, true, true);
      const auto p = dg_patch_matrices_1d(k, h, gamma, lower, upper, DgLocalSolver::dirichlet);
      const auto nodes = LagrangeBasis1D::gauss_lobatto(k).nodes();
      for (const bool jumps : {false, true}) {
        std::vector<double> u(size);
        for (int c = 0; c < cells; ++c)
          for (int i = 0; i < n; ++i) {
            const double x = (c + nodes[i]) * h;
            u[c * n + i] = std::pow(x, k) - 0.7 * x + 0.2 + (jumps && (c < c0 || c >= c0 + 2) ? 0.5 : 0.0);
          }
        double worst = 0, scale = 0;
        for (int i = p.first; i < p.first + p.size; ++i) {
          const int row = c0 * n + i;
          double g = 0, l = 0;
          for (int j = 0; j < size; ++j) g += global[std::size_t(row) * size + j] * u[j];
          for (int j = 0; j < 2 * n; ++j) l += p.residual_laplace[std::size_t(i) * 2 * n + j] * u[c0 * n + j];
          worst = std::max(worst, std::abs(g - l));
          scale = std::max(scale, std::abs(g));
        }
        if (!jumps || position == 3) {  // a patch without inner ends has no inconsistency
          EXPECT_LE(worst, 1e-10 * std::max(scale, 1.0)) << "k=" << k << " position " << position;
        } else {
          EXPECT_GT(worst, 1e-3 * std::max(scale, 1.0)) << "k=" << k << " position " << position;
        }
      }
    }
}

TEST(DgPatchMatrices, LocalSolverNames) {
  EXPECT_EQ(parse_dg_local_solver("full"), DgLocalSolver::full);
  EXPECT_EQ(parse_dg_local_solver("dirichlet"), DgLocalSolver::dirichlet);
  EXPECT_THROW(parse_dg_local_solver("clamp"), InputError);
}

}  // namespace
