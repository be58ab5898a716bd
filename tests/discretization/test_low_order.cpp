// Q1 matrix-free Laplace and elasticity on unstructured hexahedral meshes (paper 004): the kernel
// against the textbook element matrix, matrix-free against the assembled CRS on perturbed,
// renumbered meshes with layered materials (every geometry and scatter variant), the diagonal,
// patch tests, rigid-body modes, MMS convergence, the fused CG, and one rank against all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <vector>

#include "backends/device_traits.hpp"
#include "core/fused_cg.hpp"
#include "discretization/assembled_low_order.hpp"
#include "discretization/gmsh_io.hpp"
#include "discretization/hex_refinement.hpp"
#include "discretization/low_order_operator.hpp"
#include "discretization/low_order_problem.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class LowOrderTest : public ::testing::Test {};
TYPED_TEST_SUITE(LowOrderTest, ExecSpaces, ExecSpaceName);


HexMesh perturbed_brick(global_index nx, global_index ny, global_index nz, double perturbation, bool renumber) {
  BrickHexOptions o;
  o.cells = {nx, ny, nz};
  o.upper = {1.0, 0.8, 1.3};
  o.perturbation = perturbation;
  o.renumber = renumber;
  o.seed = 11;
  return brick_hex_mesh(o);
}

HexMaterialOptions layered() {
  HexMaterialOptions m;
  m.kind = HexMaterial::layered;
  m.contrast = 1e3;
  m.layers = 3;
  return m;
}

template <class ExecSpace>
std::shared_ptr<const HexLayout<ExecSpace>> make_hex_layout(const HexMesh& mesh, LowOrderProblem p, const HexDirichlet& d,
                                                        const HexMaterialOptions& m = {}, MPI_Comm comm = MPI_COMM_WORLD) {
  return std::make_shared<const HexLayout<ExecSpace>>(mesh, n_components(p), d, m, comm);
}

/// A value per (mesh vertex, component) that does not depend on the rank count.
double hashed_value(global_index vertex, int component) {
  std::uint64_t z = std::uint64_t(vertex) * 3 + component + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) / double(1ull << 53) - 0.5;
}

template <class ExecSpace>
void fill_hashed(const HexLayout<ExecSpace>& layout, DistributedVector<double, ExecSpace>& v) {
  const int C = layout.components();
  std::vector<double> h(std::size_t(layout.n_local_vertices()) * C);
  for (local_index i = 0; i < layout.n_local_vertices(); ++i)
    for (int m = 0; m < C; ++m) h[std::size_t(i) * C + m] = hashed_value(layout.mesh_vertex()[i], m);
  Kokkos::deep_copy(v.view(), Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()));
}

double max_abs(const std::vector<double>& v, MPI_Comm comm = MPI_COMM_WORLD) {
  double m = 0;
  for (const double x : v) m = std::max(m, std::abs(x));
  double g = 0;
  MPI_Allreduce(&m, &g, 1, MPI_DOUBLE, MPI_MAX, comm);
  return g;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b, MPI_Comm comm = MPI_COMM_WORLD) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  double g = 0;
  MPI_Allreduce(&m, &g, 1, MPI_DOUBLE, MPI_MAX, comm);
  return g;
}

/// The lanes evaluation's threads per cell to test: 1 everywhere, 2, 4 and 8 where threads of a
/// warp can exchange values.
template <class ExecSpace>
std::vector<int> lanes_per_cell() {
  if (DeviceTraits<ExecSpace>::has_warps) return {1, 2, 4, 8};
  return {1};
}

// One distorted hexahedron without Dirichlet vertices: A e_j is column j of the textbook element
// matrix, for both problems and both geometry variants.
TYPED_TEST(LowOrderTest, KernelEqualsTheTextbookElementMatrix) {
  HexMesh mesh;
  const double x[8][3] = {{0, 0, 0},       {1.1, 0.1, -0.1}, {0.1, 0.9, 0.05}, {1.2, 1.1, 0.2},
                          {-0.1, 0.1, 1},  {1, -0.05, 1.2},  {0.05, 1, 0.9},   {0.9, 1.2, 1.3}};
  for (int a = 0; a < 8; ++a)
    for (int d = 0; d < 3; ++d) mesh.points.push_back(x[a][d]);
  for (int a = 0; a < 8; ++a) mesh.cells.push_back(a);
  mesh.cell_tags = {1};
  for (const auto p : all_low_order_problems)
    for (const auto g : {LowOrderGeometry::on_the_fly, LowOrderGeometry::stored})
    for (const auto ev : {LowOrderEvaluation::pointwise, LowOrderEvaluation::factorized, LowOrderEvaluation::lanes})
    for (const int lanes : lanes_per_cell<TypeParam>()) {
      if (ev != LowOrderEvaluation::lanes && lanes != 1) continue;
      const auto layout = make_hex_layout<TypeParam>(mesh, p, HexDirichlet::none(), {}, MPI_COMM_SELF);
      LowOrderOptions o;
      o.problem = p;
      o.geometry = g;
      o.evaluation = ev;
      o.lanes_per_cell = lanes;
      const LowOrderOperator<TypeParam> A(layout, o);
      const auto K = low_order_element_matrix(p, x, layout->host_coefficient()[0], layout->host_lambda()[0],
                                              layout->host_mu()[0]);
      const int n = 8 * n_components(p);
      typename LowOrderOperator<TypeParam>::vector_type e, Ae;
      A.initialize_dof_vector(e);
      A.initialize_dof_vector(Ae);
      double scale = 0;
      for (const double k : K) scale = std::max(scale, std::abs(k));
      for (int j = 0; j < n; ++j) {
        e.fill(0.0);
        Kokkos::deep_copy(Kokkos::subview(e.view(), j), 1.0);
        A.vmult(Ae, e);
        const auto column = to_host(Ae);
        for (int i = 0; i < n; ++i)
          EXPECT_NEAR(column[i], K[i * n + j], 1e-13 * scale)
              << to_string(p) << " " << to_string(g) << " " << to_string(ev) << " lanes " << lanes << " (" << i
              << ", " << j << ")";
      }
    }
}

// Matrix-free equals assembled on a perturbed, renumbered mesh with a layered material (contrast
// 1e3), Dirichlet vertices on two tags and a plane, every geometry and scatter variant; and the
// matrix-free diagonal equals the assembled one.
TYPED_TEST(LowOrderTest, MatrixFreeEqualsAssembled) {
  const HexMesh mesh = perturbed_brick(5, 4, 6, 0.4, true);
  HexDirichlet dirichlet = HexDirichlet::none();
  dirichlet.tags = {1, 6};
  dirichlet.planes = {{1, 0.0}};
  for (const auto p : all_low_order_problems) {
    const auto layout = make_hex_layout<TypeParam>(mesh, p, dirichlet, layered());
    const AssembledLowOrder<TypeParam> csr(layout, p);
    typename LowOrderOperator<TypeParam>::vector_type x, y_csr, y_mf, diag;
    x.reinit(layout->partitioner());
    y_csr.reinit(layout->partitioner());
    y_mf.reinit(layout->partitioner());
    diag.reinit(layout->partitioner());
    fill_hashed(*layout, x);
    csr.vmult(y_csr, x);
    const auto ref = to_host(y_csr);
    const double scale = max_abs(ref);
    ASSERT_GT(scale, 0);
    for (const int bad : {0, 257}) {
      LowOrderOptions o{p, LowOrderGeometry::on_the_fly, LowOrderScatter::block};
      o.block_cells = bad;
      EXPECT_THROW(LowOrderOperator<TypeParam>(layout, o), InputError) << bad;
    }
    // Lanes per cell other than 1, 2, 4, 8 (0 is automatic); more than one without warps; lanes
    // with the block scatter.
    for (const int bad : {-1, 3, 16}) {
      LowOrderOptions o{p, LowOrderGeometry::on_the_fly, LowOrderScatter::atomic, LowOrderEvaluation::lanes};
      o.lanes_per_cell = bad;
      EXPECT_THROW(LowOrderOperator<TypeParam>(layout, o), InputError) << bad;
    }
    if (!DeviceTraits<TypeParam>::has_warps) {
      LowOrderOptions o{p, LowOrderGeometry::on_the_fly, LowOrderScatter::atomic, LowOrderEvaluation::lanes};
      o.lanes_per_cell = 2;
      EXPECT_THROW(LowOrderOperator<TypeParam>(layout, o), InputError);
    }
    EXPECT_THROW(LowOrderOperator<TypeParam>(layout, LowOrderOptions{p, LowOrderGeometry::on_the_fly,
                                                                     LowOrderScatter::block, LowOrderEvaluation::lanes}),
                 InputError);
    {
      // The default (automatic) evaluation is the one low_order_evaluation names, lanes resolved.
      const LowOrderOperator<TypeParam> A(layout, LowOrderOptions{p});
      EXPECT_EQ(A.options().evaluation, low_order_evaluation(tuning_target<TypeParam>(), LowOrderScatter::atomic));
      if (A.options().evaluation == LowOrderEvaluation::lanes)
        EXPECT_EQ(A.options().lanes_per_cell, low_order_lanes_per_cell(tuning_target<TypeParam>(), p));
      A.vmult(y_mf, x);
      EXPECT_LE(max_difference(to_host(y_mf), ref), 1e-12 * scale) << to_string(p) << " auto";
    }
    // Block scatter: blocks of 7 cells (17 blocks of the 120, the last one short) and of 128 (one).
    // Lanes: 120 cells are 7.5 teams of 16 cells at 8 lanes (the last team half idle).
    for (const auto g : {LowOrderGeometry::on_the_fly, LowOrderGeometry::stored})
      for (const auto s : {LowOrderScatter::atomic, LowOrderScatter::coloured, LowOrderScatter::block})
      for (const auto e : {LowOrderEvaluation::pointwise, LowOrderEvaluation::factorized, LowOrderEvaluation::lanes})
      for (const int lanes : lanes_per_cell<TypeParam>())
      for (const int block_cells : {7, 128}) {
        if (s != LowOrderScatter::block && block_cells != 128) continue;
        if (e == LowOrderEvaluation::lanes ? s == LowOrderScatter::block : lanes != 1) continue;
        LowOrderOptions o{p, g, s, e};
        o.block_cells = block_cells;
        o.lanes_per_cell = lanes;
        const LowOrderOperator<TypeParam> A(layout, o);
        A.vmult(y_mf, x);
        EXPECT_LE(max_difference(to_host(y_mf), ref), 1e-12 * scale) << to_string(p) << " " << to_string(g) << " "
                                                                     << to_string(s) << " " << to_string(e)
                                                                     << " cells per block " << block_cells
                                                                     << " lanes " << lanes;
        // Diagonal: A e_i summed over a probing of the diagonal is not needed; compare with the
        // assembled matrix's diagonal entries (CRS rows hold the rank's partial sums).
        A.compute_diagonal(diag);
        typename LowOrderOperator<TypeParam>::vector_type d_csr;
        d_csr.reinit(layout->partitioner());
        {
          const auto m = csr.matrix();
          const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.graph.row_map);
          const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.graph.entries);
          const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.values);
          std::vector<double> h(d_csr.n_local(), 0.0);
          for (local_index r = 0; r < local_index(h.size()); ++r)
            for (auto e = rows(r); e < rows(r + 1); ++e)
              if (cols(e) == r) h[r] = vals(e);
          Kokkos::deep_copy(d_csr.view(),
                            Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()));
          d_csr.compress_add();
          auto dh = to_host(d_csr);
          const int C = layout->components();
          for (local_index v = 0; v < layout->n_owned_vertices(); ++v)
            if (layout->dirichlet_vertex()[v])
              for (int c = 0; c < C; ++c) dh[std::size_t(v) * C + c] = 1;
          EXPECT_LE(max_difference(to_host(diag), dh), 1e-12 * max_abs(dh)) << to_string(p) << " diagonal";
        }
      }
  }
}

// Rigid-body modes lie in the kernel of the pure Neumann elasticity operator (every row), and the
// constants in that of the Laplacian; a linear field gives zero in every interior row (patch test).
// The dense matrix of the coarse solve (dense_low_order_matrix, element matrices summed over the
// ranks, Dirichlet rows and columns of the identity) is the operator: its product with a field
// equals the matrix-free product, row by row, on a perturbed renumbered mesh with a partial
// Dirichlet set, on any rank count; it refuses more DoFs than max_dofs.
TYPED_TEST(LowOrderTest, DenseMatrixIsTheOperator) {
  const HexMesh mesh = perturbed_brick(4, 3, 5, 0.4, true);
  HexDirichlet dirichlet = HexDirichlet::none();
  dirichlet.tags = {1, 6};
  for (const auto p : all_low_order_problems) {
    const auto layout = make_hex_layout<TypeParam>(mesh, p, dirichlet, layered());
    const int C = n_components(p);
    const global_index n = layout->n_global_dofs();
    const auto dense = dense_low_order_matrix(*layout, p, n);
    EXPECT_THROW(dense_low_order_matrix(*layout, p, n - 1), InputError);
    const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dense);
    ASSERT_EQ(global_index(a.extent(0)), n);
    // The field in the global numbering, the same on every rank.
    std::vector<double> x_global(n, 0.0);
    for (local_index i = 0; i < layout->n_owned_vertices(); ++i)
      for (int m = 0; m < C; ++m)
        x_global[std::size_t(layout->global_vertex()[i]) * C + m] = hashed_value(layout->mesh_vertex()[i], m);
    MPI_Allreduce(MPI_IN_PLACE, x_global.data(), int(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    typename LowOrderOperator<TypeParam>::vector_type x, y;
    x.reinit(layout->partitioner());
    y.reinit(layout->partitioner());
    fill_hashed(*layout, x);
    const LowOrderOperator<TypeParam> A(layout, LowOrderOptions{p});
    A.vmult(y, x);
    const auto mf = to_host(y);
    std::vector<double> product(mf.size());
    const global_index first = layout->first_vertex() * C;
    for (std::size_t i = 0; i < product.size(); ++i) {
      double sum = 0;
      for (global_index j = 0; j < n; ++j) sum += a(first + global_index(i), j) * x_global[j];
      product[i] = sum;
    }
    EXPECT_LE(max_difference(product, mf), 1e-12 * max_abs(mf)) << to_string(p);
    // Symmetric, and identity rows at the Dirichlet DoFs.
    double asymmetry = 0, scale = 0;
    for (global_index i = 0; i < n; ++i)
      for (global_index j = 0; j < n; ++j)
        asymmetry = std::max(asymmetry, std::abs(a(i, j) - a(j, i))), scale = std::max(scale, std::abs(a(i, j)));
    EXPECT_LE(asymmetry, 1e-13 * scale) << to_string(p);
    for (local_index i = 0; i < layout->n_owned_vertices(); ++i)
      if (layout->dirichlet_vertex()[i])
        for (int m = 0; m < C; ++m) {
          const global_index g = first + global_index(i) * C + m;
          for (global_index j = 0; j < n; ++j) EXPECT_EQ(a(g, j), j == g ? 1.0 : 0.0) << g << " " << j;
        }
  }
}

// The layout's vertex numbering, computed in parallel (first reach by atomic minima, prefix sums),
// equals the sequential rule it replaced (the library's code until 2026-12-03): a vertex belongs to
// the lowest part among its cells; morton: numbered as the cell sequence first reaches it within
// its owner's cells, mesh: by mesh index within its owner; the rank's vertices are its owned ones
// by number, then its ghosts by number. Both orderings, computed and given partitions and orders,
// on any rank count.
TYPED_TEST(LowOrderTest, LayoutNumberingEqualsTheSequentialOne) {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const HexMesh mesh = perturbed_brick(5, 4, 6, 0.3, true);
  const global_index n_vertices = mesh.n_vertices();
  for (const HexOrdering ordering : {HexOrdering::morton, HexOrdering::mesh})
    for (const bool given : {false, true}) {
      std::vector<int> part = hex_partition(mesh, size);
      // Given: a partition by mesh index blocks and the cells of each part in descending index.
      if (given)
        for (global_index c = 0; c < mesh.n_cells(); ++c) part[c] = int(c * size / mesh.n_cells());
      std::vector<global_index> sequence = hex_cell_sequence(mesh, part, ordering);
      if (given)
        std::stable_sort(sequence.begin(), sequence.end(), [&](global_index a, global_index b) {
          return part[a] != part[b] ? part[a] < part[b] : a > b;
        });
      const HexLayout<TypeParam> layout(mesh, 1, HexDirichlet{}, HexMaterialOptions{}, MPI_COMM_WORLD, ordering,
                                        given ? part : std::vector<int>{}, given ? sequence : std::vector<global_index>{});
      // The sequential rule.
      std::vector<int> owner(n_vertices, std::numeric_limits<int>::max());
      for (global_index c = 0; c < mesh.n_cells(); ++c)
        for (int a = 0; a < 8; ++a) owner[mesh.cells[8 * c + a]] = std::min(owner[mesh.cells[8 * c + a]], part[c]);
      std::vector<global_index> next(size + 1, 0), number(n_vertices, -1);
      for (global_index v = 0; v < n_vertices; ++v) ++next[owner[v] + 1];
      for (int p = 0; p < size; ++p) next[p + 1] += next[p];
      const global_index first = next[rank], n_owned = next[rank + 1] - next[rank];
      if (ordering == HexOrdering::morton) {
        for (const global_index c : sequence)
          for (int a = 0; a < 8; ++a) {
            const global_index v = mesh.cells[8 * c + a];
            if (owner[v] == part[c] && number[v] < 0) number[v] = next[owner[v]]++;
          }
      } else {
        for (global_index v = 0; v < n_vertices; ++v) number[v] = next[owner[v]]++;
      }
      std::vector<global_index> local(n_owned), ghosts;
      for (global_index v = 0; v < n_vertices; ++v)
        if (owner[v] == rank) local[number[v] - first] = v;
      std::vector<global_index> cells;
      for (const global_index c : sequence)
        if (part[c] == rank) {
          cells.push_back(c);
          for (int a = 0; a < 8; ++a)
            if (owner[mesh.cells[8 * c + a]] != rank) ghosts.push_back(mesh.cells[8 * c + a]);
        }
      std::sort(ghosts.begin(), ghosts.end(), [&](global_index a, global_index b) { return number[a] < number[b]; });
      ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
      local.insert(local.end(), ghosts.begin(), ghosts.end());
      std::vector<global_index> global(local.size());
      for (std::size_t i = 0; i < local.size(); ++i) global[i] = number[local[i]];
      const std::string what = to_string(ordering) + (given ? ", given" : ", computed");
      EXPECT_EQ(layout.n_global_vertices(), n_vertices) << what;
      EXPECT_EQ(layout.first_vertex(), first) << what;
      EXPECT_EQ(global_index(layout.n_owned_vertices()), n_owned) << what;
      EXPECT_EQ(layout.mesh_cell(), cells) << what;
      EXPECT_EQ(layout.mesh_vertex(), local) << what;
      EXPECT_EQ(layout.global_vertex(), global) << what;
    }
}

// The layout checks the cells on the execution space (vertex indices in range and distinct, then
// the Jacobian determinants) and refuses the first bad cell with check_hex_mesh's message: a bad
// index before an inverted cell that comes earlier in the mesh.
TYPED_TEST(LowOrderTest, LayoutRefusesBadCellsWithTheMeshCheckMessage) {
  const auto refusal = [](const HexMesh& mesh) {
    try {
      HexLayout<TypeParam>(mesh, 1, HexDirichlet{}, HexMaterialOptions{}, MPI_COMM_WORLD);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const HexMesh good = perturbed_brick(3, 2, 2, 0.2, true);
  EXPECT_EQ(refusal(good), "accepted");
  HexMesh repeated = good;
  repeated.cells[8 * 5 + 3] = repeated.cells[8 * 5 + 1];
  EXPECT_NE(refusal(repeated).find("cell 5 "), std::string::npos) << refusal(repeated);
  EXPECT_NE(refusal(repeated).find("repeats vertex"), std::string::npos) << refusal(repeated);
  HexMesh outside = good;
  outside.cells[8 * 7 + 6] = good.n_vertices() + 3;
  EXPECT_NE(refusal(outside).find("outside [0, " + std::to_string(good.n_vertices()) + ")"), std::string::npos)
      << refusal(outside);
  HexMesh inverted = good;
  for (int v = 0; v < 4; ++v) std::swap(inverted.cells[8 * 2 + v], inverted.cells[8 * 2 + v + 4]);
  EXPECT_NE(refusal(inverted).find("cell 2 "), std::string::npos) << refusal(inverted);
  EXPECT_NE(refusal(inverted).find("Jacobian determinant"), std::string::npos) << refusal(inverted);
  inverted.cells[8 * 9 + 0] = -1;  // a later cell's bad index is named first
  EXPECT_NE(refusal(inverted).find("cell 9 "), std::string::npos) << refusal(inverted);
}

// The coloured scatter's colouring (built by the operator, not the layout): a permutation of the
// rank's cells in which no two cells of one colour share a vertex, no colour empty, and on a brick
// (26 neighbours per cell) at most the greedy rule's bound of 27 colours.
TYPED_TEST(LowOrderTest, ColouringSeparatesCellsThatShareAVertex) {
  for (const bool renumber : {false, true}) {
    const HexMesh mesh = perturbed_brick(5, 4, 6, renumber ? 0.3 : 0.0, renumber);
    const auto layout = make_hex_layout<TypeParam>(mesh, LowOrderProblem::laplace, HexDirichlet{});
    const HexColouring<TypeParam> c = hex_cell_colouring(*layout);
    const auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.order);
    ASSERT_EQ(local_index(order.extent(0)), layout->n_cells());
    ASSERT_GE(c.offsets.size(), 2u);
    EXPECT_EQ(c.offsets.front(), 0);
    EXPECT_EQ(c.offsets.back(), layout->n_cells());
    std::vector<int> seen(layout->n_cells(), 0);
    for (local_index i = 0; i < layout->n_cells(); ++i) ++seen[order(i)];
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    const auto& cells = layout->host_cells();
    for (std::size_t k = 0; k + 1 < c.offsets.size(); ++k) {
      EXPECT_LT(c.offsets[k], c.offsets[k + 1]) << "colour " << k << " is empty";
      std::vector<char> used(layout->n_local_vertices(), 0);
      for (local_index i = c.offsets[k]; i < c.offsets[k + 1]; ++i)
        for (int a = 0; a < 8; ++a) {
          const local_index v = cells[8 * std::size_t(order(i)) + a];
          EXPECT_FALSE(used[v]) << "colour " << k << ": vertex " << v << " in two cells";
          used[v] = 1;
        }
    }
    EXPECT_LE(c.offsets.size() - 1, 27u);
    // The operators hold it only for the coloured scatter.
    const LowOrderOperator<TypeParam> atomic(layout, LowOrderOptions{}),
        coloured(layout, LowOrderOptions{LowOrderProblem::laplace, LowOrderGeometry::on_the_fly, LowOrderScatter::coloured});
    EXPECT_EQ(coloured.device_bytes() - atomic.device_bytes(), c.device_bytes());
  }
}

TYPED_TEST(LowOrderTest, RigidBodyModesAndLinearFieldsPassThePatchTest) {
  const HexMesh mesh = perturbed_brick(4, 5, 3, 0.5, true);
  for (const auto p : all_low_order_problems) {
    // Rigid-body modes with the layered material; the linear field (whose flux jumps where the
    // material does) with a uniform one.
    const auto neumann = make_hex_layout<TypeParam>(mesh, p, HexDirichlet::none(), layered());
    const auto uniform = make_hex_layout<TypeParam>(mesh, p, HexDirichlet::none());
    const auto with_boundary = make_hex_layout<TypeParam>(mesh, p, HexDirichlet{});
    const LowOrderOperator<TypeParam> A(neumann, {p, LowOrderGeometry::on_the_fly, LowOrderScatter::atomic});
    const LowOrderOperator<TypeParam> A_uniform(uniform, {p, LowOrderGeometry::on_the_fly, LowOrderScatter::atomic});
    typename LowOrderOperator<TypeParam>::vector_type u, Au;
    A.initialize_dof_vector(u);
    A.initialize_dof_vector(Au);
    const int C = n_components(p);
    std::vector<PointFunction> kernel;
    if (C == 1) {
      kernel.push_back([](const double*, double* v) { v[0] = 2.5; });
    } else {
      for (int t = 0; t < 3; ++t) kernel.push_back([t](const double*, double* v) { v[0] = v[1] = v[2] = 0, v[t] = 1; });
      kernel.push_back([](const double* x, double* v) { v[0] = -x[1], v[1] = x[0], v[2] = 0; });
      kernel.push_back([](const double* x, double* v) { v[0] = 0, v[1] = -x[2], v[2] = x[1]; });
      kernel.push_back([](const double* x, double* v) { v[0] = x[2], v[1] = 0, v[2] = -x[0]; });
    }
    for (const auto& mode : kernel) {
      interpolate(*neumann, mode, u);
      A.vmult(Au, u);
      EXPECT_LE(max_abs(to_host(Au)), 1e-11 * std::max(1.0, max_abs(to_host(u)))) << to_string(p);
    }
    // A linear field with strain: zero in the rows of interior vertices.
    const PointFunction linear = [C](const double* x, double* v) {
      for (int m = 0; m < C; ++m) v[m] = 0.3 + (m + 1) * x[0] - 0.7 * x[1] + (0.2 + m) * x[2];
    };
    interpolate(*uniform, linear, u);
    A_uniform.vmult(Au, u);
    const auto r = to_host(Au);
    double interior = 0, boundary = 0;
    for (local_index v = 0; v < neumann->n_owned_vertices(); ++v)
      for (int m = 0; m < C; ++m) {
        const double value = std::abs(r[std::size_t(v) * C + m]);
        double& slot = with_boundary->dirichlet_vertex()[v] ? boundary : interior;
        slot = std::max(slot, value);
      }
    EXPECT_LE(max_abs({interior}), 1e-11 * max_abs({boundary})) << to_string(p);
    EXPECT_GT(max_abs({boundary}), 1e-3) << to_string(p);
  }
}

// With the linear field as Dirichlet data, fused CG reproduces it in the interior on a distorted
// mesh (the patch test by solving).
TYPED_TEST(LowOrderTest, FusedCgReproducesALinearFieldFromItsBoundaryValues) {
  const HexMesh mesh = perturbed_brick(5, 4, 4, 0.4, true);
  for (const auto p : all_low_order_problems) {
    const int C = n_components(p);
    const auto neumann = make_hex_layout<TypeParam>(mesh, p, HexDirichlet::none());
    const auto layout = make_hex_layout<TypeParam>(mesh, p, HexDirichlet{});
    const LowOrderOperator<TypeParam> full(neumann, {p, LowOrderGeometry::on_the_fly, LowOrderScatter::atomic});
    const LowOrderOperator<TypeParam> A(layout, {p, LowOrderGeometry::stored, LowOrderScatter::coloured});
    const PointFunction linear = [C](const double* x, double* v) {
      for (int m = 0; m < C; ++m) v[m] = 1 - 0.5 * x[0] + (0.4 + m) * x[1] + 0.9 * x[2];
    };
    typename LowOrderOperator<TypeParam>::vector_type exact, g, b, u;
    for (auto* v : {&exact, &g, &b, &u}) A.initialize_dof_vector(*v);
    interpolate(*layout, linear, exact);
    // g: the boundary values, zero inside; b = −A_full g inside, g on the boundary.
    auto gh = Kokkos::create_mirror(exact.view());  // a copy, also where host and device memory are one
    Kokkos::deep_copy(gh, exact.view());
    for (local_index v = 0; v < layout->n_local_vertices(); ++v)
      if (!layout->dirichlet_vertex()[v])
        for (int m = 0; m < C; ++m) gh(std::size_t(v) * C + m) = 0;
    Kokkos::deep_copy(g.view(), gh);
    full.vmult(b, g);
    b.scale(-1.0);
    {
      auto bh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
      for (local_index v = 0; v < layout->n_owned_vertices(); ++v)
        if (layout->dirichlet_vertex()[v])
          for (int m = 0; m < C; ++m) bh(std::size_t(v) * C + m) = gh(std::size_t(v) * C + m);
      Kokkos::deep_copy(b.view(), bh);
    }
    SolverControl control;
    control.rtol = 1e-13;
    control.max_iterations = 2000;
    const SolverResult result = solve_cg_fused(A, u, b, control);
    EXPECT_TRUE(result.converged()) << to_string(p) << " " << to_string(result.reason);
    EXPECT_LE(max_difference(to_host(u), to_host(exact)), 1e-9) << to_string(p);
  }
}

// Fused CG takes the same iterates as textbook CG with the identity preconditioner.
TYPED_TEST(LowOrderTest, FusedCgMatchesTextbookCg) {
  const HexMesh mesh = perturbed_brick(6, 5, 4, 0.3, true);
  const auto layout = make_hex_layout<TypeParam>(mesh, LowOrderProblem::elasticity, HexDirichlet{});
  const LowOrderOperator<TypeParam> A(layout, {LowOrderProblem::elasticity, LowOrderGeometry::on_the_fly,
                                               LowOrderScatter::atomic});
  typename LowOrderOperator<TypeParam>::vector_type b, u1, u2;
  for (auto* v : {&b, &u1, &u2}) A.initialize_dof_vector(*v);
  LowOrderManufactured mms{LowOrderProblem::elasticity, layout->host_lambda()[0], layout->host_mu()[0]};
  assemble_load_vector(*layout, [&](const double* x, double* f) { mms.rhs(x, f); }, b);
  SolverControl control;
  control.rtol = 1e-10;
  control.max_iterations = 40;
  const SolverResult fused = solve_cg_fused(A, u1, b, control);
  const SolverResult plain = solve_cg(A, u2, b, IdentityPreconditioner{}, control);
  ASSERT_EQ(fused.history.size(), plain.history.size());
  for (std::size_t i = 0; i < fused.history.size(); ++i)
    EXPECT_NEAR(fused.history[i], plain.history[i], 1e-9 * plain.history[0]) << i;
  EXPECT_LE(max_difference(to_host(u1), to_host(u2)), 1e-9 * max_abs(to_host(u2)));
}

// MMS on perturbed meshes of 4, 8, 16 cells per direction: L2 errors fall at rate 2.
TYPED_TEST(LowOrderTest, ManufacturedSolutionsConvergeAtRateTwo) {
  for (const auto p : all_low_order_problems) {
    std::vector<double> errors;
    for (const global_index n : {4, 8, 16}) {
      BrickHexOptions o;
      o.cells = {n, n, n};
      o.perturbation = 0.25;
      o.renumber = true;
      o.seed = 5;
      const HexMesh mesh = brick_hex_mesh(o);
      const auto layout = make_hex_layout<TypeParam>(mesh, p, HexDirichlet{});
      const LowOrderOperator<TypeParam> A(layout, {p, LowOrderGeometry::on_the_fly, LowOrderScatter::atomic});
      const LowOrderManufactured mms{p, layout->host_lambda()[0], layout->host_mu()[0]};
      typename LowOrderOperator<TypeParam>::vector_type b, u;
      A.initialize_dof_vector(b);
      A.initialize_dof_vector(u);
      assemble_load_vector(*layout, [&](const double* x, double* f) { mms.rhs(x, f); }, b);
      SolverControl control;
      control.rtol = 1e-11;
      control.max_iterations = 5000;
      ASSERT_TRUE(solve_cg_fused(A, u, b, control).converged());
      errors.push_back(l2_error(*layout, u, [&](const double* x, double* v) { mms.solution(x, v); }));
    }
    const double rate1 = std::log2(errors[0] / errors[1]), rate2 = std::log2(errors[1] / errors[2]);
    EXPECT_GT(rate1, 1.7) << to_string(p) << " errors " << errors[0] << " " << errors[1];
    EXPECT_GT(rate2, 1.85) << to_string(p) << " errors " << errors[1] << " " << errors[2];
    EXPECT_LT(rate2, 2.3) << to_string(p);
  }
}

// All ranks against one: the same product in mesh numbering, and the same CG residual history.
// The device assembly of a constant load equals the host quadrature of the same function.
TYPED_TEST(LowOrderTest, ConstantLoadOnTheDeviceEqualsTheHostAssembly) {
  const HexMesh mesh = perturbed_brick(5, 4, 6, 0.3, true);
  for (const auto p : all_low_order_problems) {
    const auto layout = make_hex_layout<TypeParam>(mesh, p, HexDirichlet{});
    const int C = n_components(p);
    const double f[3] = {1.5, -0.25, 2.0};
    DistributedVector<double, TypeParam> host(layout->partitioner()), device(layout->partitioner());
    assemble_load_vector(*layout, [&](const double*, double* v) { for (int m = 0; m < C; ++m) v[m] = f[m]; }, host);
    assemble_constant_load(*layout, f, device);
    const auto a = to_host(host), b = to_host(device);
    EXPECT_GT(max_abs(a), 0.0);
    EXPECT_LE(max_difference(a, b), 1e-14 * max_abs(a)) << to_string(p);
  }
}

TYPED_TEST(LowOrderTest, ListedBoundaryEqualsTheTopologicalOne) {
  // The brick and its refinement list their whole boundary (HexMesh::complete_boundary): the
  // whole-boundary Dirichlet set read from the listed faces is the set of the faces no second cell
  // holds (found through the vertices' cells, what a mesh without the flag gets), on every rank.
  const HexMesh brick = perturbed_brick(3, 2, 4, 0.3, true);
  const HexMesh refined = refine_hex_mesh(brick).fine;
  ASSERT_TRUE(brick.complete_boundary);
  ASSERT_TRUE(refined.complete_boundary);
  HexDirichlet boundary;
  boundary.whole_boundary = true;
  for (const HexMesh* listed : {&brick, &refined}) {
    HexMesh unlisted = *listed;
    unlisted.complete_boundary = false;
    const auto a = make_hex_layout<TypeParam>(*listed, LowOrderProblem::elasticity, boundary);
    const auto b = make_hex_layout<TypeParam>(unlisted, LowOrderProblem::elasticity, boundary);
    EXPECT_EQ(a->dirichlet_vertex(), b->dirichlet_vertex());
    EXPECT_EQ(a->constrained_dofs().extent(0), b->constrained_dofs().extent(0));
    // Every cell of a brick 2 cells wide touches its boundary: each rank has Dirichlet vertices.
    EXPECT_GT(std::count(a->dirichlet_vertex().begin(), a->dirichlet_vertex().end(), 1), 0);
  }
  std::istringstream file(gmsh_text(brick));
  EXPECT_FALSE(parse_gmsh(file, "brick.msh").complete_boundary);  // a file may list only some surfaces
}

TYPED_TEST(LowOrderTest, OneRankAndAllRanksAgree) {
  const HexMesh mesh = perturbed_brick(6, 5, 7, 0.3, true);
  for (const auto p : all_low_order_problems) {
    const auto all = make_hex_layout<TypeParam>(mesh, p, HexDirichlet{}, layered(), MPI_COMM_WORLD);
    // The single rank keeps the mesh's numbering, the distributed layout reorders (Morton).
    const auto one = std::make_shared<const HexLayout<TypeParam>>(mesh, n_components(p), HexDirichlet{}, layered(),
                                                                  MPI_COMM_SELF, HexOrdering::mesh);
    const LowOrderOptions o{p, LowOrderGeometry::on_the_fly, LowOrderScatter::coloured};
    const LowOrderOperator<TypeParam> A_all(all, o), A_one(one, o);
    typename LowOrderOperator<TypeParam>::vector_type x_all, y_all, x_one, y_one;
    A_all.initialize_dof_vector(x_all);
    A_all.initialize_dof_vector(y_all);
    A_one.initialize_dof_vector(x_one);
    A_one.initialize_dof_vector(y_one);
    fill_hashed(*all, x_all);
    fill_hashed(*one, x_one);
    A_all.vmult(y_all, x_all);
    A_one.vmult(y_one, x_one);
    const auto ya = to_host(y_all), yo = to_host(y_one);
    const int C = n_components(p);
    std::vector<local_index> local_in_one(mesh.n_vertices(), -1);
    for (local_index i = 0; i < one->n_owned_vertices(); ++i) local_in_one[one->mesh_vertex()[i]] = i;
    std::vector<double> expected(ya.size());
    for (local_index i = 0; i < all->n_owned_vertices(); ++i)
      for (int m = 0; m < C; ++m) expected[std::size_t(i) * C + m] = yo[std::size_t(local_in_one[all->mesh_vertex()[i]]) * C + m];
    EXPECT_LE(max_difference(ya, expected), 1e-12 * max_abs(yo, MPI_COMM_SELF)) << to_string(p);
    // Global numbering is rank-contiguous and covers every vertex once.
    global_index owned = all->n_owned_vertices(), total = 0;
    MPI_Allreduce(&owned, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(total, mesh.n_vertices());
    for (local_index i = 0; i < all->n_owned_vertices(); ++i) EXPECT_EQ(all->global_vertex()[i], all->first_vertex() + i);

    typename LowOrderOperator<TypeParam>::vector_type b_all, u_all, b_one, u_one;
    for (auto* v : {&b_all, &u_all}) A_all.initialize_dof_vector(*v);
    for (auto* v : {&b_one, &u_one}) A_one.initialize_dof_vector(*v);
    const PointFunction f = [C](const double* x, double* v) {
      for (int m = 0; m < C; ++m) v[m] = 1 + x[0] * (m + 1) - x[2];
    };
    assemble_load_vector(*all, f, b_all);
    assemble_load_vector(*one, f, b_one);
    SolverControl control;
    control.rtol = 1e-8;
    control.max_iterations = 25;
    const auto r_all = solve_cg_fused(A_all, u_all, b_all, control);
    const auto r_one = solve_cg_fused(A_one, u_one, b_one, control);
    ASSERT_EQ(r_all.history.size(), r_one.history.size());
    for (std::size_t i = 0; i < r_all.history.size(); ++i)
      EXPECT_NEAR(r_all.history[i], r_one.history[i], 1e-9 * r_one.history[0]) << to_string(p) << " iteration " << i;
  }
}

TEST(LowOrderOptions, NamesAndDirichletSetsParse) {
  EXPECT_EQ(parse_low_order_problem("elasticity"), LowOrderProblem::elasticity);
  EXPECT_EQ(parse_low_order_geometry("on-the-fly"), LowOrderGeometry::on_the_fly);
  EXPECT_EQ(parse_low_order_scatter("colored"), LowOrderScatter::coloured);
  EXPECT_EQ(parse_low_order_scatter("block"), LowOrderScatter::block);
  EXPECT_EQ(parse_low_order_evaluation("pointwise"), LowOrderEvaluation::pointwise);
  EXPECT_EQ(parse_low_order_evaluation("lanes"), LowOrderEvaluation::lanes);
  EXPECT_EQ(parse_low_order_evaluation("auto"), LowOrderEvaluation::automatic);
  EXPECT_EQ(low_order_lanes_per_cell(TuningTarget::host, LowOrderProblem::elasticity), 1);
  EXPECT_EQ(low_order_evaluation(TuningTarget::host, LowOrderScatter::atomic), LowOrderEvaluation::lanes);
  EXPECT_EQ(low_order_evaluation(TuningTarget::host, LowOrderScatter::block), LowOrderEvaluation::factorized);
  EXPECT_EQ(low_order_evaluation(TuningTarget::device, LowOrderScatter::atomic), LowOrderEvaluation::factorized);
  EXPECT_THROW(low_order_flops_per_cell(LowOrderProblem::laplace, LowOrderGeometry::on_the_fly,
                                        LowOrderEvaluation::automatic),
               InputError);
  EXPECT_THROW(parse_low_order_problem("stokes"), InputError);
  const HexDirichlet d = parse_hex_dirichlet("tag:3+z=0.5+x=-1");
  EXPECT_FALSE(d.whole_boundary);
  ASSERT_EQ(d.tags.size(), 1u);
  EXPECT_EQ(d.tags[0], 3);
  ASSERT_EQ(d.planes.size(), 2u);
  EXPECT_EQ(d.planes[0].axis, 2);
  EXPECT_EQ(d.planes[1].value, -1.0);
  EXPECT_TRUE(parse_hex_dirichlet("boundary").whole_boundary);
  EXPECT_FALSE(parse_hex_dirichlet("none").whole_boundary);
  for (const char* bad : {"", "tag:", "tag:x", "w=1", "x=nan", "x=1+", "tag:3++y=0", "x=0x1"})
    EXPECT_THROW(parse_hex_dirichlet(bad), InputError) << bad;
  // The flop counts the benchmarks report: elasticity does more per cell, storing J⁻¹ saves work.
  EXPECT_GT(low_order_flops_per_cell(LowOrderProblem::elasticity, LowOrderGeometry::on_the_fly),
            low_order_flops_per_cell(LowOrderProblem::laplace, LowOrderGeometry::on_the_fly));
  EXPECT_LT(low_order_flops_per_cell(LowOrderProblem::laplace, LowOrderGeometry::stored),
            low_order_flops_per_cell(LowOrderProblem::laplace, LowOrderGeometry::on_the_fly));
  for (const auto p : all_low_order_problems)
    EXPECT_LT(low_order_flops_per_cell(p, LowOrderGeometry::on_the_fly, LowOrderEvaluation::factorized),
              0.5 * low_order_flops_per_cell(p, LowOrderGeometry::on_the_fly, LowOrderEvaluation::pointwise));
}

}  // namespace
