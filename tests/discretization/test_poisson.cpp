// Manufactured solutions: L2 rate ≥ k+1−0.2 and H1 rate ≥ k−0.2, homogeneous and inhomogeneous
// Dirichlet data; the f ≡ 1 problem solves on any rank count to the same answer.
#include <gtest/gtest.h>

#include <cmath>

#include "core/krylov.hpp"
#include "core/preconditioners.hpp"
#include "discretization/node_functions.hpp"
#include "discretization/poisson_problem.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class Poisson : public ::testing::Test {};
TYPED_TEST_SUITE(Poisson, ExecSpaces, ExecSpaceName);

template <class ExecSpace>
DiscretizationErrors solve_and_measure(int dim, int k, int refinements, const std::string& problem_name) {
  const auto layout = make_layout<ExecSpace>(make_mesh(dim, {1, 1, 1}, refinements), k);
  const LaplaceOperator<double, ExecSpace> A(layout);
  const auto problem = make_poisson_problem(problem_name, dim);
  auto b = A.make_vector(), x = A.make_vector(), diag = A.make_vector();
  assemble_rhs(A, problem, b);
  A.compute_diagonal(diag);
  SolverControl c;
  c.rtol = 1e-13;
  c.max_iterations = 5000;
  const auto r = solve_cg(A, x, b, JacobiPreconditioner<DistributedVector<double, ExecSpace>>(diag), c);
  EXPECT_TRUE(r.converged()) << to_string(r.reason);
  return compute_errors(*layout, x, problem);
}

template <class ExecSpace>
void check_rates(int dim, int k, int first_refinement, const std::string& problem) {
  const auto coarse = solve_and_measure<ExecSpace>(dim, k, first_refinement, problem);
  const auto fine = solve_and_measure<ExecSpace>(dim, k, first_refinement + 1, problem);
  const double l2_rate = std::log2(coarse.l2 / fine.l2), h1_rate = std::log2(coarse.h1 / fine.h1);
  EXPECT_GE(l2_rate, k + 1 - 0.2) << problem << " dim=" << dim << " k=" << k << " L2 " << coarse.l2 << " -> " << fine.l2;
  EXPECT_GE(h1_rate, k - 0.2) << problem << " dim=" << dim << " k=" << k << " H1 " << coarse.h1 << " -> " << fine.h1;
}

TYPED_TEST(Poisson, OptimalRates2D) {
  for (int k = 1; k <= 6; ++k) check_rates<TypeParam>(2, k, k <= 2 ? 3 : 2, "sine");
}

TYPED_TEST(Poisson, OptimalRates3D) {
  for (int k = 1; k <= 4; ++k) check_rates<TypeParam>(3, k, k <= 2 ? 2 : 1, "sine");
}

TYPED_TEST(Poisson, InhomogeneousDirichletRates) {
  for (int k : {1, 2, 3}) check_rates<TypeParam>(2, k, 2, "exponential");
  check_rates<TypeParam>(3, 2, 1, "exponential");
}

}  // namespace

namespace {

/// Solves f ≡ 1 once on this rank alone and once distributed over all ranks (with the given rank
/// grid), and compares iteration counts and the solution by global node index.
template <class ExecSpace>
void compare_with_single_rank(int dim, int k, std::array<int, 3> cells, int refinements, std::array<int, 3> rank_grid,
                              const std::string& solver) {
  BrickDescription brick;
  brick.dim = dim;
  brick.coarse_cells = cells;
  brick.refinements = refinements;
  brick.upper = {1.0, 1.3, 0.9};
  const auto problem = make_poisson_problem("one", dim);
  SolverControl c;
  c.rtol = 1e-10;
  c.restart = 25;
  auto solve = [&](MPI_Comm comm, std::array<int, 3> grid, std::vector<double>& by_global, int& iterations) {
    const auto mesh = std::make_shared<CartesianMesh>(brick, comm, grid);
    const auto layout = std::make_shared<ContinuousDofLayout<ExecSpace>>(mesh, k);
    const LaplaceOperator<double, ExecSpace> A(layout);
    auto b = A.make_vector(), x = A.make_vector(), diag = A.make_vector();
    assemble_rhs(A, problem, b);
    A.compute_diagonal(diag);
    const JacobiPreconditioner<DistributedVector<double, ExecSpace>> jacobi(diag);
    const auto r = solver == "cg" ? solve_cg(A, x, b, jacobi, c) : solve_gmres(A, x, b, jacobi, c);
    EXPECT_TRUE(r.converged());
    iterations = r.iterations;
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
    by_global.assign(layout->n_global_dofs(), std::nan(""));
    for_each_owned_node(*layout, [&](local_index l, global_index g, const std::array<double, 3>&) { by_global[g] = host(l); });
  };
  std::vector<double> serial, distributed;
  int serial_it = 0, distributed_it = 0;
  solve(MPI_COMM_SELF, {0, 0, 0}, serial, serial_it);
  solve(MPI_COMM_WORLD, rank_grid, distributed, distributed_it);
  EXPECT_EQ(serial_it, distributed_it) << solver << " dim=" << dim << " k=" << k;
  double local[2] = {0, 0}, global[2] = {0, 0};
  for (std::size_t g = 0; g < serial.size(); ++g) {
    local[1] = std::max(local[1], std::abs(serial[g]));
    if (!std::isnan(distributed[g])) local[0] = std::max(local[0], std::abs(distributed[g] - serial[g]));
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_LE(global[0], 1e-12 * global[1]) << solver << " dim=" << dim << " k=" << k;
}

TYPED_TEST(Poisson, SameIterationsAndSolutionOnAnyRankCount) {
  const int size = world_size();
  compare_with_single_rank<TypeParam>(2, 3, {3, 2, 1}, 2, {0, 0, 0}, "cg");
  compare_with_single_rank<TypeParam>(3, 2, {2, 2, 3}, 1, {0, 0, 0}, "cg");
  compare_with_single_rank<TypeParam>(2, 2, {2, 3, 1}, 1, {0, 0, 0}, "gmres");
  // A line of ranks across two cells: with 3 or 4 ranks some own no cells.
  compare_with_single_rank<TypeParam>(2, 4, {2, 2, 1}, 0, {size, 1, 1}, "cg");
  compare_with_single_rank<TypeParam>(3, 2, {2, 2, 2}, 0, {1, 1, size}, "cg");
}

/// u of a problem as a kernel functor (CUDA needs namespace-scope types in kernel arguments).
struct Solution {
  PoissonProblem p;
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const { return p.solution(x, y, z); }
};

/// The kernel interpolation (what setup uses) gives the host loop's values on every rank, on a
/// brick that is not the unit cube so coordinates, offsets and Gauss–Lobatto points all count.
TYPED_TEST(Poisson, InterpolationOnDeviceMatchesTheHostLoop) {
  for (const int dim : {2, 3})
    for (const std::string name : {"sine", "exponential"}) {
      BrickDescription brick;
      brick.dim = dim;
      brick.coarse_cells = {3, 2, 2};
      brick.refinements = 1;
      brick.lower = {-0.3, 0.2, 0.1};
      brick.upper = {1.1, 1.3, 0.9};
      const auto mesh = std::make_shared<CartesianMesh>(brick, MPI_COMM_WORLD);
      const auto layout = std::make_shared<ContinuousDofLayout<TypeParam>>(mesh, dim == 2 ? 5 : 3);
      const auto problem = make_poisson_problem(name, dim);
      DistributedVector<double, TypeParam> device(layout->partitioner()), host(layout->partitioner());
      interpolate_on_device(*layout, device, Solution{problem});
      interpolate(*layout, host, [&](const std::array<double, 3>& x) { return problem.solution(x); });
      const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device.view());
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), host.view());
      double local = 0, worst = 0;
      for (local_index i = 0; i < layout->box().n_owned; ++i) local = std::max(local, std::abs(d(i) - h(i)) / (1 + std::abs(h(i))));
      MPI_Allreduce(&local, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      EXPECT_LE(worst, 1e-15) << name << " dim=" << dim;  // a few ulp: CUDA's sin and exp are not glibc's
    }
}

/// The errors of u_h = 0 are the norms of u: ‖sin‖_{L2}² = 2^−d and |sin|_{H1}² = d π² 2^−d on the
/// unit cube, on any rank count (weights, points, coordinates and the exact gradient all count).
TYPED_TEST(Poisson, ErrorsOfZeroAreTheNormsOfTheSolution) {
  for (const int dim : {2, 3}) {
    const auto layout = make_layout<TypeParam>(make_mesh(dim, {2, 1, 3}, 2), 3);
    const auto zero = DistributedVector<double, TypeParam>(layout->partitioner());
    const auto e = compute_errors(*layout, zero, make_poisson_problem("sine", dim));
    const double pi = 3.14159265358979323846, l2 = std::sqrt(std::ldexp(1.0, -dim));
    EXPECT_NEAR(e.l2, l2, 1e-9 * l2) << "dim=" << dim;
    EXPECT_NEAR(e.h1, std::sqrt(dim) * pi * l2, 1e-9 * l2) << "dim=" << dim;
  }
}

TEST(PoissonInput, InvalidMeshesFailOnEveryRankWithAClearMessage) {
  const int size = world_size();
  BrickDescription brick;
  brick.dim = 2;
  brick.coarse_cells = {0, 2, 1};
  auto expect_error = [](const BrickDescription& b, std::array<int, 3> grid, const std::string& fragment) {
    try {
      CartesianMesh mesh(b, MPI_COMM_WORLD, grid);
      FAIL() << "accepted";
    } catch (const InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_error(brick, {0, 0, 0}, "must be at least 1");
  brick.coarse_cells = {2, 2, 1};
  expect_error(brick, {size + 1, 1, 1}, "but the communicator has");
  brick.dim = 4;
  expect_error(brick, {0, 0, 0}, "use 2 or 3");
}

}  // namespace
