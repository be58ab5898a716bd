// HDF5 output: round trip of the gathered node grid (continuous), of the discontinuous values
// with their points and sub-cells (DG) and of the Q1 solution on unstructured hexahedra (points,
// VTK-ordered cells, scalar or vector field, per-cell material), run record, refusal to
// overwrite, and no file left behind when writing fails.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "core/hdf5_file.hpp"
#include "discretization/dg_poisson.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/hex_mesh.hpp"
#include "discretization/solution_output.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

std::vector<double> read_dataset(hid_t file, const char* name) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  const hid_t space = H5Dget_space(set);
  std::vector<double> v(H5Sget_simple_extent_npoints(space));
  H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(set);
  return v;
}

std::string scratch_path(const std::string& name) {
  // Every rank must agree on the name: the test binary's working directory plus the rank count.
  return "tensormg_test_" + name + "_np" + std::to_string(world_size()) + ".h5";
}

TEST(SolutionOutput, RoundTripOnTheGlobalNodeGrid) {
  for (int dim : {2, 3}) {
    const auto layout = make_layout<DefaultExec>(make_mesh(dim, {2, 3, 2}, 1, {1.0, 2.0, 0.5}), 2);
    DistributedVector<double, DefaultExec> v(layout->partitioner());
    const auto f = [](const std::array<double, 3>& x) { return 1.0 + x[0] + 2 * x[1] + 3 * x[2]; };
    interpolate(*layout, v, f);
    Json record;
    record["kind"] = "test";
    const std::string path = scratch_path("roundtrip" + std::to_string(dim));
    write_solution(path, *layout, v, record, true);
    if (world_rank() == 0) {
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      ASSERT_GE(file, 0);
      const auto u = read_dataset(file, "solution");
      const auto x = read_dataset(file, "mesh/x"), y = read_dataset(file, "mesh/y");
      const auto z = dim == 3 ? read_dataset(file, "mesh/z") : std::vector<double>{0.0};
      ASSERT_EQ(u.size(), x.size() * y.size() * z.size());
      EXPECT_EQ(x.size(), std::size_t(2 * 2 * 2 + 1));
      EXPECT_DOUBLE_EQ(y.back(), 2.0);
      double err = 0;
      for (std::size_t k = 0; k < z.size(); ++k)
        for (std::size_t j = 0; j < y.size(); ++j)
          for (std::size_t i = 0; i < x.size(); ++i)
            err = std::max(err, std::abs(u[i + x.size() * (j + y.size() * k)] - f({x[i], y[j], z[k]})));
      EXPECT_LE(err, 1e-13);
      H5Fclose(file);
      std::ifstream xdmf(path + ".xdmf");
      std::string text((std::istreambuf_iterator<char>(xdmf)), std::istreambuf_iterator<char>());
      EXPECT_NE(text.find(dim == 2 ? "2DRectMesh" : "3DRectMesh"), std::string::npos);
      EXPECT_NE(text.find(path + ":/solution"), std::string::npos);
    }
  }
}

std::vector<std::int64_t> read_int_dataset(hid_t file, const char* name) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  const hid_t space = H5Dget_space(set);
  std::vector<std::int64_t> v(H5Sget_simple_extent_npoints(space));
  H5Dread(set, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(set);
  return v;
}

/// A function with a jump across x = 0.5 (a cell face of the meshes below): the DG values keep it.
struct Jumping {
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    return 1.0 + x + 2 * y + 3 * z + (x > 0.5 ? 10.0 : 0.0);
  }
};

/// DG: every value with its node's coordinates, in global cell-wise order on 1, 2 and 4 ranks;
/// sub-cells (k^d per cell) whose corners are the cell's own points at the sub-cell's corners.
TEST(SolutionOutput, DgRoundTripWithPointsAndSubCells) {
  for (int dim : {2, 3}) {
    const int k = 2, n = k + 1;
    const auto mesh = make_mesh(dim, {2, 2, 2}, 1, {1.0, 2.0, 0.5});
    const auto layout = std::make_shared<DgDofLayout<DefaultExec>>(mesh, k);
    DistributedVector<double, DefaultExec> v(layout->partitioner());
    // Values of the cell left of a face must keep f's left limit: interpolate cell by cell.
    interpolate_on_device(*layout, v, Jumping{});
    const std::string path = scratch_path("dg_roundtrip" + std::to_string(dim));
    write_solution(path, *layout, v, Json::object(), true);
    if (world_rank() == 0) {
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      ASSERT_GE(file, 0);
      const auto u = read_dataset(file, "solution");
      const auto p = read_dataset(file, "mesh/points");
      const auto c = read_int_dataset(file, "mesh/connectivity");
      H5Fclose(file);
      const std::size_t cells = std::size_t(1) << (2 * dim), cd = std::size_t(std::pow(n, dim));
      ASSERT_EQ(u.size(), cells * cd);
      ASSERT_EQ(p.size(), u.size() * dim);
      ASSERT_EQ(c.size(), cells * std::size_t(std::pow(k, dim)) * (std::size_t(1) << dim));
      // Each value is f at its point, except on x = 0.5 where the two cells hold the two limits.
      double err = 0;
      int on_jump = 0;
      for (std::size_t i = 0; i < u.size(); ++i) {
        const double x = p[i * dim], y = p[i * dim + 1], z = dim == 3 ? p[i * dim + 2] : 0.0;
        const double expected = 1.0 + x + 2 * y + 3 * z;
        if (std::abs(x - 0.5) < 1e-12) {
          ++on_jump;
          err = std::max(err, std::min(std::abs(u[i] - expected), std::abs(u[i] - expected - 10.0)));
        } else {
          err = std::max(err, std::abs(u[i] - (expected + (x > 0.5 ? 10.0 : 0.0))));
        }
      }
      EXPECT_LE(err, 1e-12) << "dim=" << dim;
      EXPECT_GT(on_jump, 0);
      // Sub-cells: corners inside one cell, spanning an axis-aligned box of positive size.
      const std::size_t corners = std::size_t(1) << dim;
      for (std::size_t e = 0; e < c.size() / corners; ++e) {
        const std::int64_t* q = &c[e * corners];
        for (std::size_t j = 0; j < corners; ++j) {
          ASSERT_GE(q[j], 0);
          ASSERT_LT(std::size_t(q[j]), u.size());
          EXPECT_EQ(std::size_t(q[j]) / cd, std::size_t(q[0]) / cd) << "sub-cell " << e << " leaves its cell";
        }
        EXPECT_GT(p[q[1] * dim] - p[q[0] * dim], 0.0);          // corner 1: +x
        EXPECT_GT(p[q[3] * dim + 1] - p[q[0] * dim + 1], 0.0);  // corner 3: +y
        if (dim == 3) EXPECT_GT(p[q[4] * dim + 2] - p[q[0] * dim + 2], 0.0);  // corner 4: +z
      }
      std::ifstream xdmf(path + ".xdmf");
      std::string text((std::istreambuf_iterator<char>(xdmf)), std::istreambuf_iterator<char>());
      EXPECT_NE(text.find(dim == 2 ? "Quadrilateral" : "Hexahedron"), std::string::npos);
      EXPECT_NE(text.find(path + ":/mesh/connectivity"), std::string::npos);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

/// Q1 on a renumbered, perturbed brick with layered material, scalar (Laplace) and vector
/// (elasticity) on 1, 2 and 4 ranks: every written point carries the value its vertex was given,
/// every written cell is a cell of the mesh with its corners in VTK order, and its material is
/// that cell's coefficient.
TEST(SolutionOutput, HexRoundTripWithVtkCellsAndMaterial) {
  BrickHexOptions b;
  b.cells = {3, 2, 4};
  b.perturbation = 0.2;
  b.renumber = true;
  const HexMesh mesh = brick_hex_mesh(b);
  HexMaterialOptions material;
  material.kind = HexMaterial::layered;
  material.contrast = 10;
  material.layers = 4;
  const std::vector<double> modulus = hex_cell_modulus(mesh, material);
  const auto f = [](const double* x, int c) { return 1.0 + x[0] + 2 * x[1] + 3 * x[2] + 10 * c; };
  for (int nc : {1, 3}) {
    const HexLayout<DefaultExec> layout(mesh, nc, HexDirichlet::none(), material, MPI_COMM_WORLD);
    DistributedVector<double, DefaultExec> v(layout.partitioner());
    auto host = Kokkos::create_mirror_view(v.view());
    const auto& points = layout.host_points();
    for (local_index i = 0; i < layout.n_local_vertices(); ++i)
      for (int c = 0; c < nc; ++c) host(std::size_t(i) * nc + c) = f(&points[std::size_t(i) * 3], c);
    Kokkos::deep_copy(v.view(), host);
    Json record;
    record["kind"] = "hex";
    const std::string path = scratch_path("hex_roundtrip" + std::to_string(nc));
    write_solution(path, layout, v, record, true);
    if (world_rank() == 0) {
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      ASSERT_GE(file, 0);
      const auto x = read_dataset(file, "mesh/points");
      const auto u = read_dataset(file, nc == 1 ? "solution" : "displacement");
      const auto cells = read_int_dataset(file, "mesh/connectivity");
      const auto written_material = read_dataset(file, "material");
      H5Fclose(file);
      const std::size_t n = std::size_t(mesh.n_vertices()), m = std::size_t(mesh.n_cells());
      ASSERT_EQ(x.size(), 3 * n);
      ASSERT_EQ(u.size(), nc * n);
      ASSERT_EQ(cells.size(), 8 * m);
      ASSERT_EQ(written_material.size(), m);
      for (std::size_t r = 0; r < n; ++r)
        for (int c = 0; c < nc; ++c) ASSERT_EQ(u[r * nc + c], f(&x[3 * r], c)) << "point " << r;
      // The mesh's cells by their vertices' coordinates in VTK order.
      std::map<std::vector<double>, std::size_t> mesh_cell;
      for (std::size_t c = 0; c < m; ++c) {
        std::vector<double> key;
        for (int i = 0; i < 8; ++i)
          for (int d = 0; d < 3; ++d)
            key.push_back(mesh.points[3 * std::size_t(mesh.cells[8 * c + hex_vtk_order[i]]) + d]);
        mesh_cell[key] = c;
      }
      std::vector<int> seen(m, 0);
      for (std::size_t e = 0; e < m; ++e) {
        std::vector<double> key;
        for (int i = 0; i < 8; ++i) {
          const std::int64_t p = cells[8 * e + i];
          ASSERT_TRUE(p >= 0 && std::size_t(p) < n) << "cell " << e << " corner " << i << ": point " << p;
          for (int d = 0; d < 3; ++d) key.push_back(x[3 * std::size_t(p) + d]);
        }
        const auto it = mesh_cell.find(key);
        ASSERT_NE(it, mesh_cell.end()) << "written cell " << e << " is no mesh cell in VTK order";
        ++seen[it->second];
        EXPECT_EQ(written_material[e], modulus[it->second]) << "written cell " << e;
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(m));
      std::ifstream xdmf(path + ".xdmf");
      std::string text((std::istreambuf_iterator<char>(xdmf)), std::istreambuf_iterator<char>());
      EXPECT_NE(text.find("TopologyType=\"Hexahedron\" NumberOfElements=\"" + std::to_string(m) + "\""), std::string::npos);
      EXPECT_NE(text.find(nc == 1 ? "Name=\"solution\" AttributeType=\"Scalar\" Center=\"Node\""
                                  : "Name=\"displacement\" AttributeType=\"Vector\" Center=\"Node\""),
                std::string::npos);
      EXPECT_NE(text.find("Dimensions=\"" + std::to_string(n) + (nc == 1 ? "\"" : " 3\"")), std::string::npos);
      EXPECT_NE(text.find("Name=\"material\" AttributeType=\"Scalar\" Center=\"Cell\">\n    <DataItem Dimensions=\"" +
                          std::to_string(m) + "\""),
                std::string::npos);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

TEST(SolutionOutput, RefusesToOverwriteAndLeavesNothingOnFailure) {
  const auto layout = make_layout<DefaultExec>(make_mesh(2, {2, 2, 1}, 1), 1);
  DistributedVector<double, DefaultExec> v(layout->partitioner());
  const std::string path = scratch_path("overwrite");
  write_solution(path, *layout, v, Json::object(), true);
  try {
    write_solution(path, *layout, v, Json::object(), false);
    FAIL() << "overwrote";
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("--overwrite"), std::string::npos);
  }
  const std::string bad = "no_such_directory_tensormg/out.h5";
  EXPECT_THROW(write_solution(bad, *layout, v, Json::object(), true), InputError);
  EXPECT_FALSE(path_exists(bad + ".tmp"));
  EXPECT_FALSE(path_exists(bad + ".xdmf"));
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
