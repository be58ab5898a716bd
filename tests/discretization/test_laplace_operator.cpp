// Matrix-free continuous Q_k operator against the assembled CRS matrix, plus symmetry,
// positivity, diagonal, scatter variants and precision.
#include <gtest/gtest.h>

#include "discretization/assembled_laplace.hpp"
#include "discretization/laplace_operator.hpp"
#include "discretization/laplace_tuning.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class LaplaceOperatorTest : public ::testing::Test {};
TYPED_TEST_SUITE(LaplaceOperatorTest, ExecSpaces, ExecSpaceName);

/// Anisotropic meshes small enough for the CRS matrix at every degree.
std::shared_ptr<const CartesianMesh> test_mesh(int dim, int k) {
  if (dim == 2) return make_mesh(2, {2, 3, 1}, 1, {1.0, 2.5, 1.0});
  if (k <= 4) return make_mesh(3, {2, 3, 2}, 0, {1.0, 0.7, 1.9});
  return make_mesh(3, {2, 1, 2}, 0, {1.0, 0.7, 1.9});
}

template <class Number, class ExecSpace>
double matrix_free_vs_assembled(int dim, int k, LaplaceOptions options, std::uint64_t seed) {
  const auto layout = make_layout<ExecSpace>(test_mesh(dim, k), k);
  const LaplaceOperator<Number, ExecSpace> op(layout, options);
  const AssembledLaplace<Number, ExecSpace> csr(layout, options.laplace_coefficient, options.mass_coefficient);
  auto x = op.make_vector(), y = op.make_vector(), z = op.make_vector();
  fill_random(*layout, x, seed);
  op.vmult(y, x);
  csr.vmult(z, x);
  return relative_max_difference(y, z);
}

/// op against reference (same layout) on a random vector: A x within tol, and with `unconstrained`
/// also the operator without boundary treatment (and a product that is not zero).
template <class Number, class ExecSpace>
void expect_same_products(const LaplaceOperator<Number, ExecSpace>& op, const LaplaceOperator<Number, ExecSpace>& reference,
                          std::uint64_t seed, double tol, const std::string& what, bool unconstrained) {
  auto x = op.make_vector(), y = op.make_vector(), z = op.make_vector();
  fill_random(op.layout(), x, seed);
  op.vmult(y, x);
  reference.vmult(z, x);
  EXPECT_LE(relative_max_difference(y, z), tol) << what;
  if (!unconstrained) return;
  op.vmult_unconstrained(y, x);
  reference.vmult_unconstrained(z, x);
  EXPECT_LE(relative_max_difference(y, z), tol) << what << " unconstrained";
  EXPECT_GT(y.l2_norm(), 0.0);
}

TYPED_TEST(LaplaceOperatorTest, MatchesAssembledMatrixForAllDegrees2D) {
  for (int k = 1; k <= 10; ++k)
    EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(2, k, {}, 10 + k)), 1e-12) << "k=" << k;
}

TYPED_TEST(LaplaceOperatorTest, MatchesAssembledMatrixForAllDegrees3D) {
  for (int k = 1; k <= 8; ++k)
    EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(3, k, {}, 20 + k)), 1e-12) << "k=" << k;
}

TYPED_TEST(LaplaceOperatorTest, InteriorStoresMatchAssembledMatrixForAllDegrees) {
  LaplaceOptions options;
  options.scatter = ScatterMode::store_interior;
  options.mass_coefficient = 0.5;
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= tensormg::max_degree(dim); ++k)
      for (int cells_per_team : {0, 2}) {
        options.cells_per_team = cells_per_team;
        EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 40 + k)), 1e-12)
            << "dim=" << dim << " k=" << k << " cells per team " << cells_per_team;
      }
  // The padded scratch strides of the 3D k >= 5 rows (laplace_tuning.hpp) differ per number type:
  // float too, with the default team and with three cells (the host row's layout is the device's).
  for (int k = 5; k <= tensormg::max_degree(3); ++k)
    for (int cells_per_team : {0, 3}) {
      options.cells_per_team = cells_per_team;
      EXPECT_LE((matrix_free_vs_assembled<float, TypeParam>(3, k, options, 50 + k)), 1e-5)
          << "float k=" << k << " cells per team " << cells_per_team;
    }
}

TYPED_TEST(LaplaceOperatorTest, ColoringAndHelmholtzTermsMatchAssembledMatrix) {
  LaplaceOptions options;
  options.scatter = ScatterMode::coloring;
  options.mass_coefficient = 0.75;
  options.laplace_coefficient = 2.0;
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 2, 5})
      EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 7 * k)), 1e-12)
          << "dim=" << dim << " k=" << k;
  // Segments of several cells (and a short last segment) with every scatter mode.
  for (const auto scatter : {ScatterMode::atomic, ScatterMode::store_interior, ScatterMode::coloring})
    for (int cells_per_team : {2, 3}) {
      options.scatter = scatter;
      options.cells_per_team = cells_per_team;
      for (int dim = 2; dim <= 3; ++dim)
        EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(dim, 3, options, 99)), 1e-12)
            << "dim=" << dim << " cells per team " << cells_per_team << " " << to_string(scatter);
    }
}

/// The gathering Q1 operator (ScatterMode::gather, the automatic choice at k = 1): against the
/// assembled matrix with Helmholtz terms on anisotropic meshes, a mesh deep enough for a GPU
/// thread's z chunks (25 nodes along z: a full chunk of 16 and a partial one), in float, and
/// without the Dirichlet rows against the cell kernel.
TYPED_TEST(LaplaceOperatorTest, GatherMatchesAssembledMatrixAndCellKernel) {
  LaplaceOptions options;
  options.scatter = ScatterMode::gather;
  options.laplace_coefficient = 1.5;
  options.mass_coefficient = 0.75;
  for (int dim = 2; dim <= 3; ++dim)
    EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(dim, 1, options, 61 + dim)), 1e-12) << "dim=" << dim;
  EXPECT_LE((matrix_free_vs_assembled<float, TypeParam>(3, 1, options, 65)), 2e-6);
  {
    const LaplaceOperator<double, TypeParam> automatic(make_layout<TypeParam>(test_mesh(3, 1), 1));
    EXPECT_EQ(automatic.options().scatter, ScatterMode::gather);
  }
  const auto deep = make_layout<TypeParam>(make_mesh(3, {1, 1, 3}, 3, {0.8, 1.0, 2.0}), 1);
  const AssembledLaplace<double, TypeParam> csr(deep, options.laplace_coefficient, options.mass_coefficient);
  LaplaceOptions atomic = options;
  atomic.scatter = ScatterMode::atomic;
  const LaplaceOperator<double, TypeParam> cells(deep, atomic);
  // z nodes per thread: the row's, a thread per node, chunks of 7 (the last one partial), more
  // than the column.
  for (int z_nodes : {0, 1, 7, 100}) {
    options.gather_z_nodes = z_nodes;
    const LaplaceOperator<double, TypeParam> gather(deep, options);
    auto x = gather.make_vector(), y = gather.make_vector(), z = gather.make_vector();
    fill_random(*deep, x, 67);
    gather.vmult(y, x);
    csr.vmult(z, x);
    EXPECT_LE(relative_max_difference(y, z), 1e-12) << "z nodes " << z_nodes;
    gather.vmult_unconstrained(y, x);
    cells.vmult_unconstrained(z, x);
    EXPECT_LE(relative_max_difference(y, z), 1e-12) << "z nodes " << z_nodes;
    EXPECT_GT(y.l2_norm(), 0.0);
  }
}

/// The multigrid residual r = b − A x (LaplaceOperator::residual): the Q1 gathering kernel forms
/// it in its pass (z segments of the row's length, a node per thread, whole columns), the other
/// kernels by A x then b − A x; both against vmult and b − A x, Dirichlet rows b − x; r's old
/// entries do not matter. On several ranks the ghosts' shares reach their owners.
TYPED_TEST(LaplaceOperatorTest, ResidualIsRightHandSideMinusProduct) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {1, 2, 3})
      for (int z_nodes : {0, 1, 100}) {
        if (k > 1 && z_nodes > 0) continue;
        LaplaceOptions options;
        options.gather_z_nodes = z_nodes;
        options.mass_coefficient = 0.5;
        const auto layout = make_layout<TypeParam>(make_mesh(dim, {3, 2, 3}, 1, {1.0, 0.7, 1.9}), k);
        const LaplaceOperator<double, TypeParam> op(layout, options);
        auto x = op.make_vector(), b = op.make_vector(), r = op.make_vector(), ax = op.make_vector();
        fill_random(*layout, x, 71 + k);
        fill_random(*layout, b, 72 + k);
        r.fill(1e30);
        op.residual(r, x, b);
        op.vmult(ax, x);
        ax.axpby(1.0, b, -1.0);
        const std::string what = "dim=" + std::to_string(dim) + " k=" + std::to_string(k) + " z nodes " + std::to_string(z_nodes);
        EXPECT_LE(relative_max_difference(r, ax), 1e-14) << what;
        EXPECT_GT(r.l2_norm(), 0.0) << what;
        // Float, Q1: the same to float's precision.
        if (k == 1) {
          const LaplaceOperator<float, TypeParam> opf(layout, options);
          auto xf = opf.make_vector(), bf = opf.make_vector(), rf = opf.make_vector(), af = opf.make_vector();
          xf.copy_converted_from(x);
          bf.copy_converted_from(b);
          opf.residual(rf, xf, bf);
          opf.vmult(af, xf);
          af.axpby(1.0f, bf, -1.0f);
          EXPECT_LE(relative_max_difference(rf, af), 1e-6) << what;
        }
      }
}

/// The gathering operator at k >= 2 (laplace_gather.hpp): against the assembled matrix with
/// Helmholtz terms on the anisotropic meshes, with the tuning row's tile and with tiles of one
/// segment and z runs of one cell (every tile and run boundary inside the mesh); the automatic
/// choice follows the row.
TYPED_TEST(LaplaceOperatorTest, TiledGatherMatchesAssembledMatrix) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 2; k <= tensormg::max_degree(dim); ++k) {
      if (sanitized && k > 4 && k < tensormg::max_degree(dim)) continue;
      for (bool small : {false, true}) {
        LaplaceOptions options;
        options.scatter = ScatterMode::gather;
        options.laplace_coefficient = 1.5;
        options.mass_coefficient = 0.75;
        if (small) options.gather_tile_x = options.gather_tile_y = 1, options.gather_z_nodes = k;
        EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 70 + k)), 1e-12)
            << "dim=" << dim << " k=" << k << (small ? " one-segment tiles" : " the row's tile");
      }
      const LaplaceOperator<double, TypeParam> automatic(make_layout<TypeParam>(test_mesh(dim, k), k));
      const LaplaceTuning row = laplace_tuning(dim, k, tuning_target<TypeParam>());
      EXPECT_EQ(automatic.options().scatter,
                row.simd ? ScatterMode::simd : row.gather ? ScatterMode::gather : ScatterMode::store_interior);
    }
}

/// The same against the cell kernel on meshes of several tiles of the row's size per direction,
/// the last ones partial, with and without the Dirichlet rows, in double and float, with tiles
/// wider than the box, and with z runs that leave a last run of one cell.
TYPED_TEST(LaplaceOperatorTest, TiledGatherMatchesCellKernelOnSeveralTiles) {
  struct Case {
    int dim, k;
    std::array<int, 3> cells;
  };
  const Case cases[] = {{3, 2, {19, 6, 35}}, {3, 3, {12, 5, 22}}, {3, 4, {9, 3, 17}},
                        {3, 7, {5, 2, 9}},   {2, 2, {70, 37, 1}}, {2, 6, {23, 12, 1}}};
  for (const Case& c : cases) {
    const auto layout = make_layout<TypeParam>(make_mesh(c.dim, c.cells, 0, {1.3, 0.6, 2.1}), c.k);
    LaplaceOptions cell_options;
    cell_options.scatter = ScatterMode::store_interior;
    cell_options.mass_coefficient = 0.25;
    LaplaceOptions options = cell_options;
    options.scatter = ScatterMode::gather;
    const LaplaceOperator<double, TypeParam> cells(layout, cell_options);
    const LaplaceOperator<float, TypeParam> cells_float(make_layout<TypeParam>(layout->mesh_ptr(), c.k), cell_options);
    for (int variant = 0; variant < 3; ++variant) {
      options.gather_tile_x = variant == 1 ? 1000 / c.k : 0;  // wider than the box
      options.gather_tile_y = variant == 1 ? 1 : 0;
      options.gather_z_nodes = variant == 2 ? (c.cells[c.dim - 1] / 2) * c.k : 0;  // runs of half the cells
      if (!runs_on_host<TypeParam>() && variant == 1) continue;  // a GPU team has a thread per column
      const std::string what = std::to_string(c.dim) + "D k=" + std::to_string(c.k) + " variant " + std::to_string(variant);
      expect_same_products(LaplaceOperator<double, TypeParam>(layout, options), cells, 90 + c.k, 1e-12, what, true);
      expect_same_products(LaplaceOperator<float, TypeParam>(cells_float.layout_ptr(), options), cells_float, 90 + c.k,
                           2e-6, what + " float", false);
    }
  }
}

/// Cells in SIMD lanes (ScatterMode::simd, host spaces): against the assembled matrix at every
/// degree (rows of 2 or 3 cells: one partial batch), and against the cell kernel on rows of 19
/// and 8 cells (full batches and a partial one at any lane count; rows of both parities in y and
/// z), constrained and not, floats too; refused on a GPU with a collective error.
TYPED_TEST(LaplaceOperatorTest, SimdLanesMatchAssembledMatrixAndCellKernel) {
  LaplaceOptions options;
  options.scatter = ScatterMode::simd;
  options.mass_coefficient = 0.5;
  if constexpr (!runs_on_host<TypeParam>()) {
    try {
      LaplaceOperator<double, TypeParam> op(make_layout<TypeParam>(test_mesh(3, 2), 2), options);
      FAIL() << "scatter mode simd accepted on " << TypeParam::name();
    } catch (const InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find("host only"), std::string::npos) << e.what();
    }
  } else {
    for (int dim = 2; dim <= 3; ++dim)
      for (int k = 1; k <= tensormg::max_degree(dim); ++k)
        EXPECT_LE((matrix_free_vs_assembled<double, TypeParam>(dim, k, options, 60 + k)), 1e-12)
            << "dim=" << dim << " k=" << k;
    for (int k : {2, 5}) EXPECT_LE((matrix_free_vs_assembled<float, TypeParam>(3, k, options, 70 + k)), 2e-6) << "float k=" << k;
    struct Case {
      int dim, k;
      std::array<int, 3> cells;
    };
    const Case cases[] = {{3, 1, {19, 3, 4}}, {3, 3, {19, 3, 2}}, {3, 4, {8, 2, 3}}, {3, 7, {19, 2, 1}},
                          {2, 2, {19, 5, 1}}, {2, 9, {8, 3, 1}}};
    for (const Case& c : cases) {
      const auto layout = make_layout<TypeParam>(make_mesh(c.dim, c.cells, 0, {1.3, 0.6, 2.1}), c.k);
      LaplaceOptions cell_options = options;
      cell_options.scatter = ScatterMode::store_interior;
      const std::string what = std::to_string(c.dim) + "D k=" + std::to_string(c.k);
      expect_same_products(LaplaceOperator<double, TypeParam>(layout, options),
                           LaplaceOperator<double, TypeParam>(layout, cell_options), 80 + c.k, 1e-13, what, true);
      const LaplaceOperator<float, TypeParam> cells_float(make_layout<TypeParam>(layout->mesh_ptr(), c.k), cell_options);
      expect_same_products(LaplaceOperator<float, TypeParam>(cells_float.layout_ptr(), options), cells_float, 80 + c.k,
                           2e-6, what + " float", false);
    }
  }
}

TYPED_TEST(LaplaceOperatorTest, GatherOptionsCheckedOnEveryRank) {
  LaplaceOptions options;
  options.scatter = ScatterMode::gather;
  options.gather_z_nodes = -1;
  EXPECT_THROW((LaplaceOperator<double, TypeParam>(make_layout<TypeParam>(test_mesh(3, 1), 1), options)), InputError);
  options.gather_z_nodes = 0;
  options.gather_tile_x = -2;
  try {
    LaplaceOperator<double, TypeParam> op(make_layout<TypeParam>(test_mesh(3, 2), 2), options);
    FAIL() << "a tile of -2 segments accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("gather tile"), std::string::npos) << e.what();
  }
  // A tile whose scratch exceeds any backend's team scratch (host: 1 GiB here is not granted
  // either), or, on a GPU, whose columns exceed the launch bound.
  options.gather_tile_x = 100000;
  options.gather_tile_y = 100000;
  EXPECT_THROW((LaplaceOperator<double, TypeParam>(make_layout<TypeParam>(test_mesh(3, 2), 2), options)), InputError);
}

TYPED_TEST(LaplaceOperatorTest, FloatMatchesToSinglePrecision) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k : {2, 4}) EXPECT_LE((matrix_free_vs_assembled<float, TypeParam>(dim, k, {}, 5)), 2e-6);
}

template <class ExecSpace>
void check_symmetric_positive_and_diagonal(int dim, int k) {
  const auto layout = make_layout<ExecSpace>(test_mesh(dim, k), k);
  const LaplaceOperator<double, ExecSpace> op(layout);
  auto x = op.make_vector(), y = op.make_vector(), ax = op.make_vector(), ay = op.make_vector();
  fill_random(*layout, x, 1);
  fill_random(*layout, y, 2);
  op.vmult(ax, x);
  op.vmult(ay, y);
  const double xay = x.dot(ay), yax = y.dot(ax);
  EXPECT_NEAR(xay, yax, 1e-12 * std::abs(xay)) << "dim=" << dim << " k=" << k;
  EXPECT_GT(x.dot(ax), 0.0);
  // Diagonal: e_i^T A e_i for a few unit vectors, against compute_diagonal.
  auto diag = op.make_vector();
  op.compute_diagonal(diag);
  const AssembledLaplace<double, ExecSpace> csr(layout);
  auto e = op.make_vector(), ae = op.make_vector();
  auto diag_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), diag.view());
  for (global_index g : {global_index(0), layout->n_global_dofs() / 2, layout->n_global_dofs() / 3 + 1}) {
    fill_by_global_index(*layout, e, [g](global_index i) { return i == g ? 1.0 : 0.0; });
    op.vmult(ae, e);
    const double aii = e.dot(ae);
    double mine = 0;
    for_each_owned_node(*layout, [&](local_index l, global_index gi, const std::array<double, 3>&) {
      if (gi == g) mine = diag_host(l);
    });
    double d = 0;
    MPI_Allreduce(&mine, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_NEAR(d, aii, 1e-12 * std::abs(aii)) << "dim=" << dim << " k=" << k << " node " << g;
  }
}

TYPED_TEST(LaplaceOperatorTest, IsSymmetricPositiveWithExactDiagonal) {
  for (int k : {1, 3, 6}) check_symmetric_positive_and_diagonal<TypeParam>(2, k);
  for (int k : {1, 2, 4}) check_symmetric_positive_and_diagonal<TypeParam>(3, k);
}

TEST(LaplaceOperator, RejectsUnsupportedDegreesOnEveryRank) {
  const auto mesh = make_mesh(3, {2, 2, 2}, 0);
  for (int k : {0, 9}) {
    try {
      ContinuousDofLayout<DefaultExec> layout(mesh, k);
      FAIL() << "degree " << k << " accepted";
    } catch (const InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find("use 1..8"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
