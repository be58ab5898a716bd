// The DG (SIPG) discretization: the 1D blocks (symmetric, positive definite at the default
// penalty), the matrix-free operator against the assembled CRS matrix (whose boundary faces are
// written as Nitsche terms, not the kernel's mirror data) for every degree, on 1, 2 and 4 ranks,
// symmetry and definiteness of the whole operator, the diagonal, float against double, and the
// manufactured solutions: L2 rate k + 1, broken H1 and DG energy-norm rate k, homogeneous and
// inhomogeneous (Nitsche) data,
// and the same iterations and errors on one rank and on all of them.
#include <gtest/gtest.h>

#include <cmath>

#include "core/krylov.hpp"
#include "core/preconditioners.hpp"
#include "discretization/assembled_dg_laplace.hpp"
#include "discretization/dg_poisson.hpp"
#include "discretization/polynomials_1d.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

/// Cholesky of a dense symmetric matrix (row-major, size s): true when it is positive definite.
bool positive_definite(std::vector<double> a, int s) {
  for (int j = 0; j < s; ++j) {
    double d = a[std::size_t(j) * s + j];
    for (int p = 0; p < j; ++p) d -= a[std::size_t(j) * s + p] * a[std::size_t(j) * s + p];
    if (!(d > 0)) return false;
    d = std::sqrt(d);
    a[std::size_t(j) * s + j] = d;
    for (int i = j + 1; i < s; ++i) {
      double v = a[std::size_t(i) * s + j];
      for (int p = 0; p < j; ++p) v -= a[std::size_t(i) * s + p] * a[std::size_t(j) * s + p];
      a[std::size_t(i) * s + j] = v / d;
    }
  }
  return true;
}

TEST(SipgMatrices1D, LineOperatorIsSymmetricPositiveDefinite) {
  for (int k = 1; k <= 10; ++k)
    for (int cells : {1, 2, 5}) {
      const auto m = sipg_matrices_1d(k, 0.3, 1.0);
      const auto a = sipg_line_matrix(m, cells);
      const int s = cells * (k + 1);
      double asym = 0, scale = 0;
      for (int i = 0; i < s; ++i)
        for (int j = 0; j < s; ++j) {
          asym = std::max(asym, std::abs(a[i * s + j] - a[j * s + i]));
          scale = std::max(scale, std::abs(a[i * s + j]));
        }
      EXPECT_LE(asym, 1e-13 * scale) << "k=" << k << " cells=" << cells;
      EXPECT_TRUE(positive_definite(a, s)) << "k=" << k << " cells=" << cells;
    }
}

TEST(SipgMatrices1D, ReproducesTheWeakLaplacianOfAPolynomial) {
  // For u = x² on [0, 3h] (smooth: no jumps), the interior rows of the line operator give
  // ∫ u' φ_i' = −∫ u'' φ_i (face terms of a continuous u vanish inside): Σ_j A_ij u_j = −2 Σ_j M_ij.
  for (int k = 2; k <= 6; ++k) {
    const double h = 0.4;
    const auto m = sipg_matrices_1d(k, h, 1.0);
    const auto a = sipg_line_matrix(m, 3);
    const int n = k + 1, s = 3 * n;
    const auto points = gauss_lobatto_quadrature(n).points;
    std::vector<double> u(s);
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < n; ++i) u[c * n + i] = std::pow(h * (c + points[i]), 2);
    for (int i = 0; i < n; ++i) {  // the middle cell, no node on the brick's boundary
      const int row = n + i;
      double au = 0, rhs = 0;
      for (int j = 0; j < s; ++j) au += a[row * s + j] * u[j];
      for (int j = 0; j < n; ++j) rhs -= 2 * m.m(i, j);
      EXPECT_NEAR(au, rhs, 1e-11) << "k=" << k << " i=" << i;
    }
  }
}

template <class ExecSpace>
class DgLaplace : public ::testing::Test {};
TYPED_TEST_SUITE(DgLaplace, ExecSpaces, ExecSpaceName);

template <class ExecSpace>
std::shared_ptr<const DgDofLayout<ExecSpace>> dg_layout(std::shared_ptr<const CartesianMesh> mesh, int k) {
  return std::make_shared<DgDofLayout<ExecSpace>>(std::move(mesh), k);
}

/// Anisotropic meshes with several cells per direction on every rank count.
std::shared_ptr<const CartesianMesh> dg_test_mesh(int dim, int k) {
  if (dim == 2) return make_mesh(2, {3, 4, 1}, 0, {1.0, 2.5, 1.0});
  if (k <= 4) return make_mesh(3, {3, 2, 4}, 0, {1.0, 0.7, 1.9});
  return make_mesh(3, {2, 2, 3}, 0, {1.0, 0.7, 1.9});
}

/// Fills owned values from a hash of the global index: the same vector on any rank count.
template <class Number, class ExecSpace>
void fill_random_dg(const DgDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v, std::uint64_t seed) {
  auto host = Kokkos::create_mirror_view(v.view());
  const CellBox& b = layout.box();
  for (local_index c = 0; c < b.n_owned_cells; ++c) {
    local_index cc[3];
    b.coordinates(c, cc);
    for (int i = 0; i < b.cell_dofs; ++i)
      host(c * b.cell_dofs + i) = static_cast<Number>(random_value(layout.global_index_of(cc[0], cc[1], cc[2], i), seed));
  }
  Kokkos::deep_copy(v.view(), host);
}

template <class Number, class ExecSpace>
double dg_matrix_free_vs_assembled(int dim, int k, DgLaplaceOptions options, std::uint64_t seed) {
  const auto layout = dg_layout<ExecSpace>(dg_test_mesh(dim, k), k);
  const DgLaplaceOperator<Number, ExecSpace> op(layout, options);
  const AssembledDgLaplace<Number, ExecSpace> csr(layout, options);
  auto x = op.make_vector(), y = op.make_vector(), z = op.make_vector();
  fill_random_dg(*layout, x, seed);
  op.vmult(y, x);
  csr.vmult(z, x);
  return relative_max_difference(y, z);
}

TYPED_TEST(DgLaplace, MatchesAssembledMatrixForAllDegrees2D) {
  for (int k = 1; k <= max_degree(2); ++k)
    EXPECT_LE((dg_matrix_free_vs_assembled<double, TypeParam>(2, k, {}, 10 + k)), 1e-12) << "k=" << k;
}

TYPED_TEST(DgLaplace, MatchesAssembledMatrixForAllDegrees3D) {
  // Under the sanitizers (testing::sanitized) every other degree.
  for (int k = 1; k <= max_degree(3); k += sanitized ? 2 : 1)
    EXPECT_LE((dg_matrix_free_vs_assembled<double, TypeParam>(3, k, {}, 20 + k)), 1e-12) << "k=" << k;
}

TYPED_TEST(DgLaplace, PenaltyMassTermAndTeamSizesMatchAssembledMatrix) {
  DgLaplaceOptions options;
  options.laplace_coefficient = 2.0;
  options.mass_coefficient = 0.75;
  options.penalty_factor = 3.5;
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 3, 6})
      for (int cells_per_team : {0, 1, 3}) {
        options.cells_per_team = cells_per_team;
        EXPECT_LE((dg_matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 7 * k + cells_per_team)), 1e-12)
            << "dim=" << dim << " k=" << k << " cells per team " << cells_per_team;
      }
}

/// The patch-wise evaluation (paper 001 §2.1, DgEvaluation::patch) is the same operator: against
/// the assembled matrix for every degree, with coefficients, penalty and anisotropic cells, in
/// float; the test meshes have 2, 3 and 4 cells per direction (every boundary position of a patch).
/// On several ranks it is refused on every rank.
TYPED_TEST(DgLaplace, PatchWiseEvaluationMatchesAssembledMatrix) {
  DgLaplaceOptions options;
  options.evaluation = DgEvaluation::patch;
  if (world_size() > 1) {
    EXPECT_THROW((dg_matrix_free_vs_assembled<double, TypeParam>(2, 2, options, 1)), InputError);
    return;
  }
  for (int dim = 2; dim <= 3; ++dim)  // under the sanitizers every other degree
    for (int k = 1; k <= max_degree(dim); k += sanitized ? 2 : 1)
      EXPECT_LE((dg_matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 40 + k)), 1e-12) << dim << "D k=" << k;
  options.laplace_coefficient = 2.0;
  options.mass_coefficient = 0.75;
  options.penalty_factor = 3.5;
  for (int dim = 2; dim <= 3; ++dim)  // under the sanitizers not k = 6 (the loop above has 5 and 7)
    for (int k : sanitized ? std::vector<int>{1, 3} : std::vector<int>{1, 3, 6}) {
      EXPECT_LE((dg_matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 60 + k)), 1e-12) << dim << "D k=" << k;
      EXPECT_LE((dg_matrix_free_vs_assembled<float, TypeParam>(dim, k, options, 70 + k)), 2e-5) << dim << "D k=" << k;
    }
  // Block contractions (tensor cores on CUDA in FP64 at k = 3, m8n8k4, and k = 4, m16n8k16 on
  // blocks padded to 16; else portable) and lines.
  for (const auto contraction : {DgPatchContraction::blocks, DgPatchContraction::lines}) {
    options.patch_contraction = contraction;
    for (int dim = 2; dim <= 3; ++dim)
      for (int k : {1, 3, 4}) {
        EXPECT_LE((dg_matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 80 + k)), 1e-12)
            << dim << "D k=" << k << " " << to_string(contraction);
        EXPECT_LE((dg_matrix_free_vs_assembled<float, TypeParam>(dim, k, options, 90 + k)), 2e-5)
            << dim << "D k=" << k << " " << to_string(contraction);
      }
  }
  EXPECT_EQ(parse_dg_evaluation("patch"), DgEvaluation::patch);
  EXPECT_THROW(parse_dg_evaluation("face"), InputError);
}

TYPED_TEST(DgLaplace, FloatMatchesDouble) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {2, 5}) EXPECT_LE((dg_matrix_free_vs_assembled<float, TypeParam>(dim, k, {}, 3 + k)), 2e-5) << dim << " " << k;
}

TYPED_TEST(DgLaplace, SymmetricPositiveDefiniteAndDiagonal) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= 4; ++k) {
      const auto layout = dg_layout<TypeParam>(dg_test_mesh(dim, k), k);
      const DgLaplaceOperator<double, TypeParam> op(layout);
      const AssembledDgLaplace<double, TypeParam> csr(layout);
      auto x = op.make_vector(), y = op.make_vector(), ax = op.make_vector(), ay = op.make_vector();
      fill_random_dg(*layout, x, 100 + k);
      fill_random_dg(*layout, y, 200 + k);
      op.vmult(ax, x);
      op.vmult(ay, y);
      const double xay = x.dot(ay), yax = y.dot(ax);
      EXPECT_NEAR(xay, yax, 1e-12 * std::abs(xay) + 1e-14) << "dim=" << dim << " k=" << k;
      EXPECT_GT(x.dot(ax), 0.0);
      // The diagonal against the assembled matrix's.
      auto diag = op.make_vector();
      op.compute_diagonal(diag);
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), diag.view());
      const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.matrix().graph.row_map);
      const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.matrix().graph.entries);
      const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.matrix().values);
      double worst = 0, scale = 0;
      for (local_index r = 0; r < diag.n_owned(); ++r)
        for (auto e = rows(r); e < rows(r + 1); ++e)
          if (cols(e) == r) {
            worst = std::max(worst, std::abs(vals(e) - h(r)));
            scale = std::max(scale, std::abs(vals(e)));
          }
      EXPECT_LE(worst, 1e-13 * scale) << "dim=" << dim << " k=" << k;
      // Positive definite as a whole (one rank holds the whole matrix).
      if (world_size() == 1 && (dim == 2 || k <= 2)) {
        const int s = diag.n_owned();
        std::vector<double> dense(std::size_t(s) * s, 0.0);
        for (int r = 0; r < s; ++r)
          for (auto e = rows(r); e < rows(r + 1); ++e) dense[std::size_t(r) * s + cols(e)] += vals(e);
        EXPECT_TRUE(positive_definite(dense, s)) << "dim=" << dim << " k=" << k;
      }
    }
}

struct DgSolveResult {
  DiscretizationErrors errors;
  int iterations = 0;
  double energy = 0;  ///< error in the DG energy norm
};

template <class ExecSpace>
DgSolveResult dg_solve(MPI_Comm comm, int dim, int k, int refinements, const std::string& name) {
  BrickDescription brick;
  brick.dim = dim;
  brick.refinements = refinements;
  const auto layout = dg_layout<ExecSpace>(std::make_shared<CartesianMesh>(brick, comm), k);
  const DgLaplaceOperator<double, ExecSpace> A(layout);
  const auto problem = make_poisson_problem(name, dim);
  auto b = A.make_vector(), x = A.make_vector(), diag = A.make_vector();
  assemble_rhs(A, problem, b);
  A.compute_diagonal(diag);
  SolverControl c;
  c.rtol = 1e-13;
  c.max_iterations = 20000;
  const auto r = solve_cg(A, x, b, JacobiPreconditioner<DistributedVector<double, ExecSpace>>(diag), c);
  EXPECT_TRUE(r.converged()) << to_string(r.reason);
  return {compute_errors(*layout, x, problem), r.iterations, compute_energy_error(A, x, problem)};
}

template <class ExecSpace>
void check_dg_rates(int dim, int k, int first_refinement, const std::string& problem) {
  const auto c = dg_solve<ExecSpace>(MPI_COMM_WORLD, dim, k, first_refinement, problem);
  const auto f = dg_solve<ExecSpace>(MPI_COMM_WORLD, dim, k, first_refinement + 1, problem);
  const auto &coarse = c.errors, &fine = f.errors;
  const double l2_rate = std::log2(coarse.l2 / fine.l2), h1_rate = std::log2(coarse.h1 / fine.h1);
  const double energy_rate = std::log2(c.energy / f.energy);
  EXPECT_GE(energy_rate, k - 0.2) << problem << " dim=" << dim << " k=" << k << " energy " << c.energy << " -> " << f.energy;
  EXPECT_GT(c.energy, coarse.h1) << "the energy norm adds the jumps to the broken H1 seminorm";
  EXPECT_GE(l2_rate, k + 1 - 0.2) << problem << " dim=" << dim << " k=" << k << " L2 " << coarse.l2 << " -> " << fine.l2;
  EXPECT_GE(h1_rate, k - 0.2) << problem << " dim=" << dim << " k=" << k << " H1 " << coarse.h1 << " -> " << fine.h1;
}

TYPED_TEST(DgLaplace, OptimalRates2D) {
  for (int k = 1; k <= 4; ++k) check_dg_rates<TypeParam>(2, k, k <= 2 ? 3 : 2, "sine");
}

TYPED_TEST(DgLaplace, OptimalRates3D) {
  for (int k = 1; k <= 3; ++k) check_dg_rates<TypeParam>(3, k, k == 1 ? 2 : 1, "sine");
}

TYPED_TEST(DgLaplace, NitscheBoundaryDataRates) {
  for (int k : {1, 2, 3}) check_dg_rates<TypeParam>(2, k, k == 1 ? 3 : 2, "exponential");
  check_dg_rates<TypeParam>(3, 2, 1, "exponential");
}

TYPED_TEST(DgLaplace, SameIterationsAndErrorsOnOneRankAndOnAll) {
  for (int dim = 2; dim <= 3; ++dim) {
    const int k = dim == 2 ? 3 : 2, r = dim == 2 ? 3 : 2;
    const auto all = dg_solve<TypeParam>(MPI_COMM_WORLD, dim, k, r, "sine");
    const auto one = dg_solve<TypeParam>(MPI_COMM_SELF, dim, k, r, "sine");
    EXPECT_NEAR(all.iterations, one.iterations, 1) << "dim=" << dim;
    EXPECT_NEAR(all.errors.l2, one.errors.l2, 1e-10 * one.errors.l2) << "dim=" << dim;
    EXPECT_NEAR(all.energy, one.energy, 1e-9 * one.energy) << "dim=" << dim;
  }
}

}  // namespace
