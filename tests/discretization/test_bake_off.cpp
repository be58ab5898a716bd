// The CEED bake-off operators on deformed meshes (paper 003): geometry, element kernels against
// element matrices formed by plain quadrature, the full operator against the assembled CRS matrix,
// the affine case against the Cartesian operator, symmetry and definiteness, MMS convergence,
// precision, and one rank against all.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/fused_cg.hpp"
#include "core/krylov.hpp"
#include "discretization/assembled_bake_off.hpp"
#include "discretization/bake_off_operator.hpp"
#include "discretization/laplace_operator.hpp"
#include "discretization/poisson_problem.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class BakeOffTest : public ::testing::Test {};
TYPED_TEST_SUITE(BakeOffTest, ExecSpaces, ExecSpaceName);

constexpr BakeOff all_problems[] = {BakeOff::bp1_0, BakeOff::bp3_5, BakeOff::bp3_0};

std::shared_ptr<const CartesianMesh> mesh_3d(std::array<int, 3> cells, int refinements,
                                             std::array<double, 3> upper = {1, 1, 1}, MPI_Comm comm = MPI_COMM_WORLD) {
  return std::make_shared<CartesianMesh>(brick(3, cells, refinements, upper), comm);
}

template <class ExecSpace>
std::shared_ptr<const DeformedGeometry<ExecSpace>> geometry(std::shared_ptr<const CartesianMesh> mesh, int k,
                                                            Deformation kind, double amplitude) {
  DeformationOptions d;
  d.kind = kind;
  d.amplitude = amplitude;
  d.seed = 7;
  return std::make_shared<DeformedGeometry<ExecSpace>>(make_layout<ExecSpace>(std::move(mesh), k), d);
}

template <class Number, class ExecSpace>
BakeOffOperator<Number, ExecSpace> make_operator(std::shared_ptr<const DeformedGeometry<ExecSpace>> g, BakeOff p,
                                                 double lambda = 0.75, BakeOffGather gather = BakeOffGather::fused,
                                                 BakeOffElementIo io = BakeOffElementIo::automatic) {
  BakeOffOptions o;
  o.problem = p;
  o.lambda = lambda;
  o.gather = gather;
  o.element_io = io;
  return BakeOffOperator<Number, ExecSpace>(std::move(g), o);
}

template <class View>
std::vector<double> view_to_host(const View& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

double global_sum(double local) {
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

TYPED_TEST(BakeOffTest, UndeformedBrickHasTheAffineFactors) {
  const std::array<double, 3> upper{1.0, 0.7, 1.9};
  const auto mesh = mesh_3d({2, 3, 2}, 0, upper);
  const auto g = geometry<TypeParam>(mesh, 3, Deformation::none, 0.3);
  for (const auto rule : {BakeOffQuadrature::gauss, BakeOffQuadrature::gauss_lobatto}) {
    const auto f = g->template factors<double>(rule, true);
    const auto t = bake_off_tables_1d(3, rule);
    const auto h = mesh->h();
    const auto data = view_to_host(f.data);
    const int q = t.q, points = f.points;
    ASSERT_EQ(f.components, 7);
    double worst = 0;
    for (std::size_t c = 0; c < data.size() / (7 * points); ++c)
      for (int p = 0; p < points; ++p) {
        const double w = t.weights[p % q] * t.weights[(p / q) % q] * t.weights[p / (q * q)];
        const double expected[7] = {w * h[1] * h[2] / h[0], 0, 0, w * h[0] * h[2] / h[1], 0, w * h[0] * h[1] / h[2],
                                    w * h[0] * h[1] * h[2]};
        for (int e = 0; e < 7; ++e) worst = std::max(worst, std::abs(data[(c * 7 + e) * points + p] - expected[e]));
      }
    EXPECT_LE(worst, 1e-14);
  }
}

TYPED_TEST(BakeOffTest, TrilinearCellsIntegrateTheVolumeExactly) {
  // det J of a trilinear cell has degree 2 per direction: exact with k + 1 Gauss–Lobatto points
  // for k >= 2 and with k + 2 Gauss points; the boundary vertices stay, so the volume is the brick's.
  for (int k : {2, 4})
    for (const auto rule : {BakeOffQuadrature::gauss, BakeOffQuadrature::gauss_lobatto}) {
      const auto g = geometry<TypeParam>(mesh_3d({2, 2, 3}, 1, {1.0, 2.0, 1.5}), k, Deformation::random, 0.3);
      const auto f = g->template factors<double>(rule, false);
      double volume = 0;
      for (double v : view_to_host(f.data)) volume += v;
      EXPECT_NEAR(global_sum(volume), 3.0, 1e-12) << "k=" << k;
    }
}

TYPED_TEST(BakeOffTest, InvertedCellsAreReportedWithTheirIndex) {
  // det J = 1 + ε π Σ_d cos(π t_d) Π_{e≠d} sin(π t_e) for the sine map: 1 − επ < 0 at (1, ½, ½).
  const auto g = geometry<TypeParam>(mesh_3d({2, 2, 2}, 1), 2, Deformation::sine, 0.5);
  try {
    (void)g->template factors<double>(BakeOffQuadrature::gauss, true);
    ADD_FAILURE() << "an inverted mesh was accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("cell"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("det J <= 0"), std::string::npos) << e.what();
  }
  EXPECT_THROW((geometry<TypeParam>(mesh_3d({1, 1, 1}, 1), 2, Deformation::sine, -0.1)), InputError);
  EXPECT_THROW((geometry<TypeParam>(mesh_3d({1, 1, 1}, 1), 2, Deformation::sine, std::nan(""))), InputError);
  EXPECT_THROW((BakeOffOperator<double, TypeParam>(geometry<TypeParam>(mesh_3d({1, 1, 1}, 1), 2, Deformation::sine, 0.1),
                                                   BakeOffOptions{BakeOff::bp3_5, -1.0})),
               InputError);
}

/// max |kernel − element matrices| / max |element matrices| over the E-vector of a random input.
template <class ExecSpace>
double elements_vs_matrices(std::shared_ptr<const DeformedGeometry<ExecSpace>> g, BakeOff p, BakeOffElementIo io) {
  const auto op = make_operator<double, ExecSpace>(g, p, 0.75, BakeOffGather::fused, io);
  const AssembledBakeOff<ExecSpace> reference(*g, p, op.options().lambda);
  auto src = op.make_element_vector(), dst = op.make_element_vector();
  auto h = Kokkos::create_mirror_view(src);
  for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = random_value(global_index(i), 3);
  Kokkos::deep_copy(src, h);
  op.apply_elements(dst, src);
  const auto got = view_to_host(dst);
  const auto expected = reference.apply_elements(view_to_host(src));
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    diff = std::max(diff, std::abs(got[i] - expected[i]));
    scale = std::max(scale, std::abs(expected[i]));
  }
  double local[2] = {diff, scale}, global[2];  // a rank may own no cell
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[0] / global[1];
}

TYPED_TEST(BakeOffTest, ElementKernelsMatchElementMatrices) {
  for (const auto kind : {Deformation::sine, Deformation::random})
    for (const auto p : all_problems)
      for (int k = 1; k <= (sanitized ? 3 : 8); ++k) {  // under the sanitizers (testing::sanitized) k <= 3
        const auto mesh = k <= 4 ? mesh_3d({2, 3, 2}, 0, {1.0, 0.7, 1.9}) : mesh_3d({1, 1, 1}, 0);
        const auto g = geometry<TypeParam>(mesh, k, kind, kind == Deformation::sine ? 0.05 : 0.25);
        for (const auto io : {BakeOffElementIo::lines, BakeOffElementIo::staged})
          EXPECT_LE(elements_vs_matrices<TypeParam>(g, p, io), 1e-12)
              << to_string(p) << " k=" << k << " " << to_string(kind) << " " << to_string(io);
      }
}

TYPED_TEST(BakeOffTest, FullOperatorMatchesAssembledMatrix) {
  for (const auto p : all_problems)
    for (int k = 1; k <= 3; ++k) {
      const auto g = geometry<TypeParam>(mesh_3d({2, 2, 2}, 1, {1.0, 0.7, 1.9}), k, Deformation::sine, 0.05);
      const AssembledBakeOff<TypeParam> reference(*g, p, 0.75);
      // Fused: the continuous vector read and added to along lines, or staged through scratch
      // node by node; interior nodes stored (or, the baseline, added atomically too).
      for (const auto gather : {BakeOffGather::fused, BakeOffGather::separate})
        for (const auto io : {BakeOffElementIo::lines, BakeOffElementIo::staged})
          for (const bool atomic_interior : {false, true}) {
            BakeOffOptions o;
            o.problem = p;
            o.lambda = 0.75;
            o.gather = gather;
            o.element_io = io;
            o.atomic_interior = atomic_interior;
            const BakeOffOperator<double, TypeParam> op(g, o);
            auto x = op.make_vector(), y = op.make_vector(), z = op.make_vector();
            fill_random(g->layout(), x, 11 + k);
            op.vmult(y, x);
            reference.vmult(z, x);
            EXPECT_LE(relative_max_difference(y, z), 1e-12) << to_string(p) << " k=" << k << " " << to_string(gather)
                                                            << " " << to_string(io) << " atomic interior " << atomic_interior;
          }
    }
}

TYPED_TEST(BakeOffTest, TeamShapesAndElementIoAgree) {
  // Teams of 1, 3 and 4 cells (45 cells: 4 leaves a short last team), lines and staged E-vectors
  // and fused gathers (the team's node maps in scratch: cells with Dirichlet nodes and without):
  // all the same result.
  for (const auto p : all_problems) {
    const auto g = geometry<TypeParam>(mesh_3d({3, 3, 5}, 0), 3, Deformation::random, 0.2);
    std::vector<double> reference, reference_full;
    // {max |got − ref|, max |ref|}, the first result taken as the reference.
    const auto max_difference = [](const std::vector<double>& got, std::vector<double>& ref) {
      if (ref.empty()) ref = got;
      double diff = 0, scale = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        diff = std::max(diff, std::abs(got[i] - ref[i]));
        scale = std::max(scale, std::abs(ref[i]));
      }
      return std::make_pair(diff, scale);
    };
    for (int cpt : {1, 3, 4})
      for (const auto io : {BakeOffElementIo::lines, BakeOffElementIo::staged}) {
        BakeOffOptions o;
        o.problem = p;
        o.cells_per_team = cpt;
        o.element_io = io;
        o.prefetch = cpt == 3 ? BakeOffPrefetch::on : BakeOffPrefetch::off;
        const BakeOffOperator<double, TypeParam> op(g, o);
        auto src = op.make_element_vector(), dst = op.make_element_vector();
        auto h = Kokkos::create_mirror_view(src);
        for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = random_value(global_index(i), 9);
        Kokkos::deep_copy(src, h);
        op.apply_elements(dst, src);
        auto [diff, scale] = max_difference(view_to_host(dst), reference);
        EXPECT_LE(diff, 1e-14 * scale) << to_string(p) << " cells per team " << cpt << " " << to_string(io);
        // The full operator, gather and scatter fused into the kernel.
        auto x = op.make_vector(), y = op.make_vector();
        fill_random(g->layout(), x, 13);
        op.vmult(y, x);
        std::tie(diff, scale) = max_difference(view_to_host(y.view()), reference_full);
        EXPECT_GT(scale, 0);
        EXPECT_LE(diff, 1e-14 * scale) << to_string(p) << " full operator, cells per team " << cpt << " " << to_string(io);
      }
  }
}

/// max |trilinear − stored| / max |stored| of the element kernel and of the full operator (fused,
/// lines and staged) on random input, Number's kernels against each other.
template <class Number, class ExecSpace>
std::pair<double, double> trilinear_vs_stored(std::shared_ptr<const DeformedGeometry<ExecSpace>> g, BakeOff p, int cpt,
                                              BakeOffElementIo io) {
  BakeOffOptions o;
  o.problem = p;
  o.lambda = 0.75;
  o.cells_per_team = cpt;
  o.element_io = io;
  const BakeOffOperator<Number, ExecSpace> stored(g, o);
  o.geometry = BakeOffGeometry::trilinear;
  const BakeOffOperator<Number, ExecSpace> trilinear(g, o);
  EXPECT_EQ(trilinear.factors().data.extent(0), 0u);  // nothing stored
  EXPECT_FALSE(trilinear.prefetches());
  auto src = stored.make_element_vector(), a = stored.make_element_vector(), b = stored.make_element_vector();
  auto h = Kokkos::create_mirror_view(src);
  for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = Number(random_value(global_index(i), 5));
  Kokkos::deep_copy(src, h);
  stored.apply_elements(a, src);
  trilinear.apply_elements(b, src);
  const auto ha = view_to_host(a), hb = view_to_host(b);
  double local[2] = {0, 0};
  for (std::size_t i = 0; i < ha.size(); ++i) {
    local[0] = std::max(local[0], std::abs(ha[i] - hb[i]));
    local[1] = std::max(local[1], std::abs(ha[i]));
  }
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  auto x = stored.make_vector(), y = stored.make_vector(), z = stored.make_vector();
  fill_random(g->layout(), x, 3);
  stored.vmult(y, x);
  trilinear.vmult(z, x);
  return {global[0] / global[1], relative_max_difference(z, y)};
}

TYPED_TEST(BakeOffTest, TrilinearGeometryEqualsTheStoredFactors) {
  // On trilinear cells (the brick, the randomly perturbed brick) the factors formed from the 8
  // vertices at every application are the stored ones up to rounding: every problem and degree,
  // teams of 1 and 3 cells (k <= 4: 20 cells, a short last team) or 1 and the default (k >= 5:
  // more than 1 where the backend's scratch holds them), lines and staged I/O; float too.
  for (const auto kind : {Deformation::none, Deformation::random})
    for (const auto p : all_problems)
      for (int k = 1; k <= (sanitized ? 3 : 8); ++k) {  // under the sanitizers (testing::sanitized) k <= 3
        const auto mesh = k <= 4 ? mesh_3d({2, 2, 5}, 0, {1.0, 0.7, 1.9}) : mesh_3d({2, 2, 3}, 0);
        const auto g = geometry<TypeParam>(mesh, k, kind, 0.3);
        for (const int cpt : {1, k <= 4 ? 3 : 0})
          for (const auto io : {BakeOffElementIo::lines, BakeOffElementIo::staged}) {
            const auto [elements, full] = trilinear_vs_stored<double, TypeParam>(g, p, cpt, io);
            EXPECT_LE(elements, 1e-12) << to_string(p) << " k=" << k << " " << to_string(kind) << " cpt " << cpt;
            EXPECT_LE(full, 1e-12) << to_string(p) << " k=" << k << " " << to_string(kind) << " cpt " << cpt;
          }
        if (k == 3) {
          const auto [elements, full] = trilinear_vs_stored<float, TypeParam>(g, p, 0, BakeOffElementIo::automatic);
          EXPECT_LE(elements, 1e-5) << to_string(p) << " float " << to_string(kind);
          EXPECT_LE(full, 1e-5) << to_string(p) << " float " << to_string(kind);
        }
      }
}

TYPED_TEST(BakeOffTest, TrilinearGeometryRefusesCurvedAndInvertedCells) {
  BakeOffOptions o;
  o.geometry = BakeOffGeometry::trilinear;
  // The sine map is not trilinear.
  try {
    (void)BakeOffOperator<double, TypeParam>(geometry<TypeParam>(mesh_3d({2, 1, 1}, 1), 2, Deformation::sine, 0.05), o);
    ADD_FAILURE() << "the trilinear geometry accepted the sine deformation";
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("needs trilinear cells"), std::string::npos) << e.what();
  }
  // Vertices moved by up to 0.95 h: some cell turns inside out; the same cell as the stored factors name.
  const auto g = geometry<TypeParam>(mesh_3d({3, 3, 3}, 0), 2, Deformation::random, 0.95);
  std::string stored_message, trilinear_message;
  for (const auto geometry_kind : {BakeOffGeometry::stored, BakeOffGeometry::trilinear})
    for (const auto p : {BakeOff::bp3_5, BakeOff::bp1_0}) {
      o.problem = p;
      o.geometry = geometry_kind;
      try {
        (void)BakeOffOperator<double, TypeParam>(g, o);
        ADD_FAILURE() << "an inverted mesh was accepted (" << to_string(geometry_kind) << ")";
      } catch (const InputError& e) {
        EXPECT_TRUE(e.collective());
        EXPECT_NE(std::string(e.what()).find("det J <= 0"), std::string::npos) << e.what();
        if (p == BakeOff::bp3_5) (geometry_kind == BakeOffGeometry::stored ? stored_message : trilinear_message) = e.what();
      }
    }
  EXPECT_EQ(stored_message, trilinear_message);
}

TYPED_TEST(BakeOffTest, AffineCaseEqualsTheCartesianOperator) {
  // On affine cells k + 2 Gauss points integrate mass and stiffness exactly: BP1.0 is the mass
  // matrix and BP3.0 the Laplace operator plus λ mass of the Cartesian code, at every degree.
  for (int k = 1; k <= max_degree(3); ++k) {
    const auto g = geometry<TypeParam>(mesh_3d({1, 2, 1}, 1, {1.0, 0.7, 1.9}), k, Deformation::none, 0);
    const auto layout = make_layout<TypeParam>(mesh_3d({1, 2, 1}, 1, {1.0, 0.7, 1.9}), k);
    for (const auto p : {BakeOff::bp1_0, BakeOff::bp3_0}) {
      const double lambda = 0.5;
      const auto op = make_operator<double, TypeParam>(g, p, lambda);
      LaplaceOptions lo;
      lo.laplace_coefficient = p == BakeOff::bp1_0 ? 0.0 : 1.0;
      lo.mass_coefficient = p == BakeOff::bp1_0 ? 1.0 : lambda;
      const LaplaceOperator<double, TypeParam> cartesian(layout, lo);
      auto x = op.make_vector(), y = op.make_vector(), z = op.make_vector();
      fill_random(g->layout(), x, 5 + k);
      op.vmult(y, x);
      cartesian.vmult(z, x);
      EXPECT_LE(relative_max_difference(y, z), 1e-12) << to_string(p) << " k=" << k;
    }
  }
}

/// vmult_dot against vmult and a dot product: the same dst and src·dst, on random input that is
/// not zero on the Dirichlet nodes (their src_i² share is part of the sum).
template <class Number, class ExecSpace>
void expect_vmult_dot_matches(std::shared_ptr<const DeformedGeometry<ExecSpace>> g, BakeOffOptions o, double tolerance,
                              const std::string& what) {
  const BakeOffOperator<Number, ExecSpace> op(g, o);
  auto x = op.make_vector(), y = op.make_vector(), z = op.make_vector();
  fill_random(g->layout(), x, 17);
  op.vmult(y, x);
  const double reference = double(x.dot(y));
  const double got = op.vmult_dot(z, x);
  EXPECT_LE(relative_max_difference(z, y), (std::is_same_v<Number, float> ? 1e-6 : 1e-14)) << what;
  EXPECT_NEAR(got, reference, tolerance * std::abs(reference)) << what;
  // The Dirichlet nodes' share is counted: with src zero there (A is block diagonal: the
  // interior block and the identity), the sum is smaller by Σ src_i² over them.
  set_entries(g->layout().constrained_nodes(), x, Number(0));
  const double interior = op.vmult_dot(z, x);
  EXPECT_NEAR(interior, double(x.dot(z)), tolerance * std::abs(reference)) << what << ", Dirichlet nodes zero";
  EXPECT_LT(interior, got) << what;
}

TYPED_TEST(BakeOffTest, KernelDotEqualsVmultAndDot) {
  // Every problem, k = 1..3 (and 5: several cells per team on a GPU), fused lines and staged,
  // stored and trilinear geometry, double and float, with the kernel's dot; the separate gather
  // and kernel_dot off (the default) take the dot-product path.
  for (const auto p : all_problems)
    for (int k : {1, 2, 3, 5}) {
      const auto g = geometry<TypeParam>(mesh_3d({2, 3, 2}, k <= 2 ? 1 : 0), k, Deformation::random, 0.1);
      for (const auto geo : {BakeOffGeometry::stored, BakeOffGeometry::trilinear})
        for (const auto io : {BakeOffElementIo::lines, BakeOffElementIo::staged}) {
          BakeOffOptions o;
          o.problem = p;
          o.lambda = 0.75;
          o.element_io = io;
          o.geometry = geo;
          o.kernel_dot = true;
          const std::string what = to_string(p) + " k=" + std::to_string(k) + " " + to_string(geo) + " " + to_string(io);
          expect_vmult_dot_matches<double>(g, o, 1e-12, what);
          expect_vmult_dot_matches<float>(g, o, 1e-5, what + " float");
        }
      BakeOffOptions o;
      o.problem = p;
      o.gather = BakeOffGather::separate;
      o.kernel_dot = true;
      expect_vmult_dot_matches<double>(g, o, 1e-12, to_string(p) + " separate");
      o.gather = BakeOffGather::fused;
      o.kernel_dot = false;
      expect_vmult_dot_matches<double>(g, o, 1e-12, to_string(p) + " kernel_dot off");
    }
}

TYPED_TEST(BakeOffTest, FusedCgFollowsTextbookCg) {
  // solve_cg_fused (p·Ap by a dot product or from the kernel, x updated in the direction's pass)
  // gives the iterates of textbook CG: the same residual after each of 25 iterations and the same
  // solution (a fixed count: the convergence test of a long solve would compare rounding, not the
  // algorithm). A mutation (x not given the last α p at the stop) fails it.
  for (const bool kernel_dot : {false, true}) {
    for (const auto p : all_problems) {
      const auto g = geometry<TypeParam>(mesh_3d({2, 2, 3}, 1), 3, Deformation::random, 0.1);
      BakeOffOptions o;
      o.problem = p;
      o.lambda = 0.75;
      o.kernel_dot = kernel_dot;
      const std::string what = to_string(p) + (kernel_dot ? " kernel dot" : " dot pass");
      const BakeOffOperator<double, TypeParam> op(g, o);
      auto b = op.make_vector(), u = op.make_vector(), v = op.make_vector();
      fill_random(g->layout(), b, 23);
      fill_random(g->layout(), u, 29);
      // Zero on the Dirichlet nodes: with values there BP1.0's CG mixes the identity rows with the
      // mass matrix's eigenvalues of order h³ and a 1e-15 change of b moves its iterates by 4%
      // within 5 iterations (textbook CG against itself), which a comparison could not see past.
      set_entries(g->layout().constrained_nodes(), u, 0.0);
      set_entries(g->layout().constrained_nodes(), b, 0.0);
      v.copy_from(u);
      SolverControl control;
      control.rtol = 0;
      control.atol = 0;
      control.max_iterations = 25;
      const auto textbook = solve_cg(op, u, b, IdentityPreconditioner{}, control);
      const auto fused = solve_cg_fused(op, v, b, control);
      ASSERT_EQ(fused.history.size(), textbook.history.size()) << what;
      for (std::size_t i = 0; i < fused.history.size(); ++i)
        EXPECT_NEAR(fused.history[i], textbook.history[i], 1e-9 * textbook.history[0]) << what << " iteration " << i;
      EXPECT_LT(fused.history.back(), 0.5 * fused.history.front()) << what;
      EXPECT_LE(relative_max_difference(v, u), 1e-9) << what;
      EXPECT_NEAR(fused.true_residual, textbook.true_residual, 1e-9 * textbook.history[0]) << what;
    }
  }
}

TYPED_TEST(BakeOffTest, OperatorsAreSymmetricPositiveDefinite) {
  for (const auto kind : {Deformation::sine, Deformation::random})
    for (const auto p : all_problems) {
      const auto g = geometry<TypeParam>(mesh_3d({2, 2, 1}, 1), 3, kind, kind == Deformation::sine ? 0.05 : 0.25);
      const auto op = make_operator<double, TypeParam>(g, p, 0.0);  // BP3.x: the pure stiffness
      auto x = op.make_vector(), y = op.make_vector(), ax = op.make_vector(), ay = op.make_vector();
      fill_random(g->layout(), x, 1);
      fill_random(g->layout(), y, 2);
      op.vmult(ax, x);
      op.vmult(ay, y);
      const double xay = x.dot(ay), yax = y.dot(ax);
      EXPECT_LE(std::abs(xay - yax), 1e-12 * std::abs(xay)) << to_string(p);
      EXPECT_GT(x.dot(ax), 0.0) << to_string(p);
      EXPECT_GT(y.dot(ay), 0.0) << to_string(p);
    }
}

TYPED_TEST(BakeOffTest, FloatOperatorsMatchDouble) {
  for (const auto p : all_problems) {
    const auto g = geometry<TypeParam>(mesh_3d({2, 2, 2}, 1), 4, Deformation::sine, 0.05);
    const auto d = make_operator<double, TypeParam>(g, p);
    const auto f = make_operator<float, TypeParam>(g, p);
    auto x = d.make_vector(), y = d.make_vector();
    auto xf = f.make_vector(), yf = f.make_vector();
    auto yd = d.make_vector();
    fill_random(g->layout(), x, 4);
    xf.copy_converted_from(x);
    d.vmult(y, x);
    f.vmult(yf, xf);
    yd.copy_converted_from(yf);
    EXPECT_LE(relative_max_difference(yd, y), 2e-5) << to_string(p);
  }
}

/// −Δu + λu = f with u = Π sin(π x_i) on the deformed unit cube (the sine map keeps its boundary)
/// solved with BP3.x and CG; returns the L2 error and the CG iterations.
template <class ExecSpace>
std::pair<double, int> manufactured_solve(std::shared_ptr<const CartesianMesh> mesh, int k, BakeOff p) {
  const double lambda = 1.0;
  const auto g = geometry<ExecSpace>(mesh, k, Deformation::sine, 0.05);
  const auto op = make_operator<double, ExecSpace>(g, p, lambda);
  PoissonProblem problem;
  problem.kind = ProblemKind::sine;
  problem.dim = 3;
  const auto rule = quadrature_of(p);
  const auto t = op.tables();
  const int n = t.n, q = t.q, n3 = n * n * n, q3 = q * q * q;
  const auto points = view_to_host(g->quadrature_points(rule));
  const auto mass = view_to_host(g->template factors<double>(rule, false).data);  // w det J
  const std::size_t cells = mass.size() / q3;
  // Load vector b_e[i] = Σ_p w det J f(x_p) φ_i(ξ_p), and the exact values at the points.
  auto b_e = op.make_element_vector();
  auto hb = Kokkos::create_mirror_view(b_e);
  std::vector<double> exact(cells * q3);
  for (std::size_t c = 0; c < cells; ++c) {
    for (int pt = 0; pt < q3; ++pt) {
      const double* x = &points[c * 3 * q3 + pt];
      exact[c * q3 + pt] = problem.solution(x[0], x[q3], x[2 * q3]);
    }
    for (int i = 0; i < n3; ++i) {
      double s = 0;
      for (int pt = 0; pt < q3; ++pt) {
        const double* x = &points[c * 3 * q3 + pt];
        const double f = problem.rhs(x[0], x[q3], x[2 * q3]) + lambda * exact[c * q3 + pt];
        const double phi = t.interpolation[(pt % q) * n + i % n] * t.interpolation[((pt / q) % q) * n + (i / n) % n] *
                           t.interpolation[(pt / (q * q)) * n + i / (n * n)];
        s += mass[c * q3 + pt] * f * phi;
      }
      hb(c * n3 + i) = s;
    }
  }
  Kokkos::deep_copy(b_e, hb);
  auto b = op.make_vector(), u = op.make_vector();
  op.scatter(b, b_e);
  SolverControl control;
  control.rtol = 1e-12;
  control.max_iterations = 2000;
  const auto result = solve_cg(op, u, b, IdentityPreconditioner{}, control);
  EXPECT_TRUE(result.converged());
  // ‖u_h − u‖² by the same quadrature.
  auto u_e = op.make_element_vector();
  op.gather(u_e, u);
  const auto uh = view_to_host(u_e);
  double error = 0;
  for (std::size_t c = 0; c < cells; ++c)
    for (int pt = 0; pt < q3; ++pt) {
      double v = 0;
      for (int i = 0; i < n3; ++i)
        v += uh[c * n3 + i] * t.interpolation[(pt % q) * n + i % n] * t.interpolation[((pt / q) % q) * n + (i / n) % n] *
             t.interpolation[(pt / (q * q)) * n + i / (n * n)];
      error += mass[c * q3 + pt] * (v - exact[c * q3 + pt]) * (v - exact[c * q3 + pt]);
    }
  double global = 0;
  MPI_Allreduce(&error, &global, 1, MPI_DOUBLE, MPI_SUM, mesh->comm());
  return {std::sqrt(global), result.iterations};
}

TYPED_TEST(BakeOffTest, ManufacturedSolutionConvergesAtRateKPlusOne) {
  for (const auto p : {BakeOff::bp3_0, BakeOff::bp3_5})
    for (int k = 1; k <= (sanitized ? 2 : 3); ++k) {  // under the sanitizers (testing::sanitized) k <= 2
      const int coarse = k == 1 ? 2 : 1;
      const double e0 = manufactured_solve<TypeParam>(mesh_3d({2, 2, 2}, coarse), k, p).first;
      const double e1 = manufactured_solve<TypeParam>(mesh_3d({2, 2, 2}, coarse + 1), k, p).first;
      const double rate = std::log2(e0 / e1);
      if (world_rank() == 0) std::printf("%s k=%d: L2 errors %.3e %.3e, rate %.2f\n", to_string(p).c_str(), k, e0, e1, rate);
      EXPECT_GE(rate, k + 1 - 0.3) << to_string(p) << " k=" << k << " errors " << e0 << " " << e1;
    }
}

TYPED_TEST(BakeOffTest, OneRankAndAllRanksSolveAlike) {
  // Every rank also solves the whole problem alone (MPI_COMM_SELF): same iterations, same error.
  for (const auto p : {BakeOff::bp1_0, BakeOff::bp3_5}) {
    const int k = 2;
    const auto all = manufactured_solve<TypeParam>(mesh_3d({2, 2, 2}, 1), k, p);
    const auto alone = manufactured_solve<TypeParam>(mesh_3d({2, 2, 2}, 1, {1, 1, 1}, MPI_COMM_SELF), k, p);
    EXPECT_LE(std::abs(all.second - alone.second), 1) << to_string(p);
    EXPECT_NEAR(all.first, alone.first, 1e-10 * alone.first) << to_string(p);
  }
}

TEST(BakeOffNames, ParseAndPrint) {
  for (const auto p : all_problems) EXPECT_EQ(parse_bake_off(to_string(p)), p);
  EXPECT_EQ(parse_bake_off("bp5"), BakeOff::bp3_5);
  EXPECT_EQ(parse_bake_off("bp3"), BakeOff::bp3_0);
  EXPECT_THROW(parse_bake_off("bp2"), InputError);
  EXPECT_EQ(parse_deformation("random"), Deformation::random);
  EXPECT_THROW(parse_deformation("twist"), InputError);
  EXPECT_EQ(parse_bake_off_gather("separate"), BakeOffGather::separate);
  EXPECT_EQ(parse_bake_off_element_io("staged"), BakeOffElementIo::staged);
  EXPECT_THROW(parse_bake_off_element_io("rows"), InputError);
  EXPECT_EQ(parse_bake_off_prefetch("on"), BakeOffPrefetch::on);
  EXPECT_EQ(parse_bake_off_geometry("trilinear"), BakeOffGeometry::trilinear);
  EXPECT_EQ(to_string(BakeOffGeometry::stored), "stored");
  EXPECT_THROW(parse_bake_off_geometry("cached"), InputError);
  // The trilinear geometry moves u, v and one vertex per cell, and adds the factors' flops
  // (k = 3, BP3.5: 16 lines of TrilinearLine, 64 points of its columns and stiffness_factors).
  EXPECT_DOUBLE_EQ(bake_off_values_per_cell(BakeOff::bp3_5, 3, BakeOffGeometry::trilinear), 2 * 64 + 3);
  EXPECT_DOUBLE_EQ(bake_off_flops_per_cell(BakeOff::bp3_5, 3, false, BakeOffGeometry::trilinear),
                   12 * 256 + 18 * 64 + 16 * trilinear_line_flops + 64 * (trilinear_point_flops + stiffness_factor_flops));
  // The flop and traffic model of paper 003 Table 2 at k = 3 (n = 4, q = 5).
  EXPECT_DOUBLE_EQ(bake_off_values_per_cell(BakeOff::bp1_0, 3), 2 * 64 + 125);
  EXPECT_DOUBLE_EQ(bake_off_values_per_cell(BakeOff::bp3_5, 3), 9 * 64);
  EXPECT_DOUBLE_EQ(bake_off_values_per_cell(BakeOff::bp3_0, 3), 2 * 64 + 7 * 125);
  EXPECT_DOUBLE_EQ(bake_off_flops_per_cell(BakeOff::bp3_5, 3), 12 * 256 + 18 * 64);
  // Even-odd (k = 3: D 4 × 4 antisymmetric, 2 + 2·(4 + 1) + 0 multiply-adds or additions per line,
  // 24 flops instead of 32; k = 2: I 4 × 3 and Iᵀ 3 × 4, 18 flops each instead of 24).
  EXPECT_DOUBLE_EQ(bake_off_flops_per_cell(BakeOff::bp3_5, 3, true), 6 * 16 * 24 + 18 * 64);
  EXPECT_DOUBLE_EQ(bake_off_flops_per_cell(BakeOff::bp1_0, 2, true), (9 + 12 + 16) * (18 + 18) + 64);
  EXPECT_DOUBLE_EQ(bake_off_flops_per_cell(BakeOff::bp1_0, 2), (9 + 12 + 16) * (24 + 24) + 64);
  EXPECT_DOUBLE_EQ(bake_off_scratch_values_per_cell(BakeOff::bp1_0, 3), 4 * 5 * 4 * 9);
  EXPECT_DOUBLE_EQ(bake_off_scratch_values_per_cell(BakeOff::bp3_0, 3), 16 * 125 + 4 * 5 * 4 * 9);
  EXPECT_DOUBLE_EQ(bake_off_scratch_values_per_cell(BakeOff::bp3_5, 3), 15 * 64);
}

}  // namespace
