// DG transfer between nested levels: prolongation reproduces every coarse Q_k function exactly
// (it is the embedding), restriction is its transpose, on every degree and on 1, 2 and 4 ranks;
// levels that do not nest are refused.
#include <gtest/gtest.h>

#include "discretization/dg_poisson.hpp"
#include "multigrid/dg_transfer.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class DgTransferTest : public ::testing::Test {};
TYPED_TEST_SUITE(DgTransferTest, ExecSpaces, ExecSpaceName);

/// A function in Q_k (degree k in each direction) but not in Q_{k−1}.
struct TensorPolynomial {
  int k;
  KOKKOS_INLINE_FUNCTION static double power(double x, int k) {
    double p = 1;
    for (int i = 0; i < k; ++i) p *= x;
    return p;
  }
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    return (power(x, k) + 0.5) * (power(y, k) - 0.25 * y) * (power(z, k) + 1.0) + x * y;
  }
};

template <class ExecSpace>
struct Levels {
  std::shared_ptr<const DgDofLayout<ExecSpace>> coarse, fine;
};

/// The coarse mesh with `refinements`, the fine one refined once more on the same rank grid with
/// boxes balanced in pairs of cells (so that they nest).
template <class ExecSpace>
Levels<ExecSpace> nested_levels(int dim, int k, std::array<int, 3> cells, int refinements) {
  BrickDescription brick;
  brick.dim = dim;
  brick.coarse_cells = cells;
  brick.refinements = refinements;
  brick.upper = {1.0, 1.5, 0.8};
  const auto coarse_mesh = std::make_shared<CartesianMesh>(brick, MPI_COMM_WORLD);
  brick.refinements += 1;
  const auto fine_mesh = std::make_shared<CartesianMesh>(brick, MPI_COMM_WORLD, coarse_mesh->rank_grid(), 2);
  return {std::make_shared<DgDofLayout<ExecSpace>>(coarse_mesh, k), std::make_shared<DgDofLayout<ExecSpace>>(fine_mesh, k)};
}

TYPED_TEST(DgTransferTest, ProlongationIsExactForCoarseFunctions) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= max_degree(dim); ++k) {
      const auto levels = nested_levels<TypeParam>(dim, k, {3, 2, 2}, 0);
      const DgTransfer<double, TypeParam> transfer(levels.coarse, levels.fine);
      DistributedVector<double, TypeParam> uc(levels.coarse->partitioner()), uf(levels.fine->partitioner()),
          expected(levels.fine->partitioner());
      interpolate_on_device(*levels.coarse, uc, TensorPolynomial{k});
      interpolate_on_device(*levels.fine, expected, TensorPolynomial{k});
      transfer.prolongate(uf, uc);
      EXPECT_LE(relative_max_difference(uf, expected), 1e-12) << "dim=" << dim << " k=" << k;
    }
}

TYPED_TEST(DgTransferTest, MoreRanksThanCoarseCells) {
  // One coarse cell: on 2 or 4 ranks most of them own no cell on either level.
  const auto levels = nested_levels<TypeParam>(2, 2, {1, 1, 1}, 0);
  const DgTransfer<double, TypeParam> transfer(levels.coarse, levels.fine);
  DistributedVector<double, TypeParam> uc(levels.coarse->partitioner()), uf(levels.fine->partitioner()),
      expected(levels.fine->partitioner());
  interpolate_on_device(*levels.coarse, uc, TensorPolynomial{2});
  interpolate_on_device(*levels.fine, expected, TensorPolynomial{2});
  transfer.prolongate(uf, uc);
  EXPECT_LE(relative_max_difference(uf, expected), 1e-12);
}

TYPED_TEST(DgTransferTest, RestrictionIsTheTransposeOfProlongation) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 2, 4, dim == 2 ? 9 : 7}) {
      const auto levels = nested_levels<TypeParam>(dim, k, {2, 3, 2}, 1);
      const DgTransfer<double, TypeParam> transfer(levels.coarse, levels.fine);
      DistributedVector<double, TypeParam> x(levels.coarse->partitioner()), rx(levels.coarse->partitioner()),
          y(levels.fine->partitioner()), py(levels.fine->partitioner());
      // Random values by position (any rank count gives the same vectors up to ordering).
      const auto fill = [](auto& v, std::uint64_t seed) {
        auto h = Kokkos::create_mirror_view(v.view());
        for (local_index i = 0; i < v.n_owned(); ++i) h(i) = random_value(i + 1000 * world_rank(), seed);
        Kokkos::deep_copy(v.view(), h);
      };
      fill(x, 3 + k);
      fill(y, 5 + k);
      transfer.prolongate(py, x);
      transfer.restrict_to(rx, y);
      const double a = py.dot(y), b = x.dot(rx);
      EXPECT_GT(std::abs(a), 1e-3) << "dim=" << dim << " k=" << k;
      EXPECT_NEAR(a, b, 1e-12 * std::abs(a)) << "dim=" << dim << " k=" << k;
    }
}

TYPED_TEST(DgTransferTest, FloatProlongationMatchesDouble) {
  const auto levels = nested_levels<TypeParam>(3, 3, {2, 2, 2}, 0);
  const DgTransfer<float, TypeParam> transfer(levels.coarse, levels.fine);
  DistributedVector<float, TypeParam> uc(levels.coarse->partitioner()), uf(levels.fine->partitioner()),
      expected(levels.fine->partitioner());
  interpolate_on_device(*levels.coarse, uc, TensorPolynomial{3});
  interpolate_on_device(*levels.fine, expected, TensorPolynomial{3});
  transfer.prolongate(uf, uc);
  EXPECT_LE(relative_max_difference(uf, expected), 1e-5);
}

TYPED_TEST(DgTransferTest, RefusesLevelsThatDoNotNest) {
  const auto a = nested_levels<TypeParam>(2, 2, {2, 2, 1}, 1);
  const auto b = nested_levels<TypeParam>(2, 3, {2, 2, 1}, 1);
  EXPECT_THROW((DgTransfer<double, TypeParam>(a.coarse, a.coarse)), InputError);  // not refined
  EXPECT_THROW((DgTransfer<double, TypeParam>(a.coarse, b.fine)), InputError);    // other degree
}

}  // namespace
