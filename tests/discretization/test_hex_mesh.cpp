// Unstructured hexahedral meshes (discretization/hex_mesh.hpp): the brick (counts, tags, outward
// boundary faces, perturbation, renumbering), the Gmsh 4.1 reader and writer (round trip, a
// hand-written file with sparse tags and mixed elements, malformed files with their line numbers)
// and the validity check.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "discretization/gmsh_io.hpp"
#include "discretization/hex_mesh.hpp"

namespace {

using namespace tensormg;

BrickHexOptions hex_brick(global_index n0, global_index n1, global_index n2, double perturbation = 0,
                      bool renumber = false, std::uint64_t seed = 1) {
  BrickHexOptions o;
  o.cells = {n0, n1, n2};
  o.perturbation = perturbation;
  o.renumber = renumber;
  o.seed = seed;
  return o;
}

std::array<double, 3> point(const HexMesh& m, global_index v) {
  return {m.points[3 * v], m.points[3 * v + 1], m.points[3 * v + 2]};
}

void expect_equal(const HexMesh& a, const HexMesh& b) {
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.cell_tags, b.cell_tags);
  EXPECT_EQ(a.boundary_faces, b.boundary_faces);
  EXPECT_EQ(a.boundary_tags, b.boundary_tags);
}

/// The message of the InputError that f throws ("" and a test failure if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

HexMesh parse(const std::string& text, const std::string& name = "test.msh") {
  std::istringstream in(text);
  return parse_gmsh(in, name);
}

/// Checks an unperturbed brick: lexicographic corners of every cell, boundary faces that are
/// exactly the cell faces met once, on the right plane, with the right tag and an outward normal.
void check_brick(const HexMesh& m, const BrickHexOptions& o) {
  const auto& n = o.cells;
  ASSERT_EQ(m.n_vertices(), (n[0] + 1) * (n[1] + 1) * (n[2] + 1));
  ASSERT_EQ(m.n_cells(), n[0] * n[1] * n[2]);
  const global_index faces_of[3] = {n[1] * n[2], n[2] * n[0], n[0] * n[1]};
  ASSERT_EQ(m.n_boundary_faces(), 2 * (faces_of[0] + faces_of[1] + faces_of[2]));
  ASSERT_EQ(m.cell_tags, std::vector<int>(m.n_cells(), 1));
  double h[3];
  for (int d = 0; d < 3; ++d) h[d] = (o.upper[d] - o.lower[d]) / n[d];

  // Corners: vertex v of a cell sits at (v & 1, (v >> 1) & 1, (v >> 2) & 1) of the cell.
  std::map<std::array<global_index, 4>, int> cell_faces;  // sorted vertex quadruple → times met
  for (global_index c = 0; c < m.n_cells(); ++c) {
    const auto x0 = point(m, m.cells[8 * c]);
    for (int v = 0; v < 8; ++v) {
      const auto x = point(m, m.cells[8 * c + v]);
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(x[d], x0[d] + ((v >> d) & 1) * h[d], 1e-12) << "cell " << c << " v " << v;
    }
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        std::array<global_index, 4> f;
        int q = 0;
        for (int v = 0; v < 8; ++v)
          if (((v >> d) & 1) == side) f[q++] = m.cells[8 * c + v];
        std::sort(f.begin(), f.end());
        ++cell_faces[f];
      }
  }
  std::set<std::array<global_index, 4>> once;
  for (const auto& [f, count] : cell_faces)
    if (count == 1) once.insert(f);
  std::set<std::array<global_index, 4>> boundary;
  std::map<int, global_index> per_tag;
  for (global_index f = 0; f < m.n_boundary_faces(); ++f) {
    std::array<global_index, 4> sorted;
    for (int q = 0; q < 4; ++q) sorted[q] = m.boundary_faces[4 * f + q];
    std::sort(sorted.begin(), sorted.end());
    boundary.insert(sorted);
    const int tag = m.boundary_tags[f];
    ASSERT_GE(tag, 1);
    ASSERT_LE(tag, 6);
    ++per_tag[tag];
    const int d = (tag - 1) / 2;
    const double sign = (tag - 1) % 2 ? 1 : -1;
    std::array<double, 3> p[4];
    for (int q = 0; q < 4; ++q) {
      p[q] = point(m, m.boundary_faces[4 * f + q]);
      EXPECT_EQ(p[q][d], sign > 0 ? o.upper[d] : o.lower[d]) << "face " << f;
    }
    // (p2 - p0) × (p3 - p1): twice the area vector, along the normal of a counter-clockwise quad.
    double a[3], b[3];
    for (int e = 0; e < 3; ++e) {
      a[e] = p[2][e] - p[0][e];
      b[e] = p[3][e] - p[1][e];
    }
    const double normal[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    const double area = h[(d + 1) % 3] * h[(d + 2) % 3];
    EXPECT_NEAR(sign * normal[d], 2 * area, 1e-12 * area) << "face " << f << " tag " << tag;
    EXPECT_NEAR(normal[(d + 1) % 3], 0, 1e-12 * area);
    EXPECT_NEAR(normal[(d + 2) % 3], 0, 1e-12 * area);
  }
  EXPECT_EQ(boundary, once);
  EXPECT_EQ(global_index(boundary.size()), m.n_boundary_faces());
  for (int t = 1; t <= 6; ++t) EXPECT_EQ(per_tag[t], faces_of[(t - 1) / 2]) << "tag " << t;
}

TEST(BrickHexMesh, SingleCell) {
  const auto o = hex_brick(1, 1, 1);
  const auto m = brick_hex_mesh(o);
  check_brick(m, o);
  EXPECT_EQ(m.cells, (std::vector<global_index>{0, 1, 2, 3, 4, 5, 6, 7}));
  for (int v = 0; v < 8; ++v)
    EXPECT_EQ(point(m, v), (std::array<double, 3>{double(v & 1), double((v >> 1) & 1), double((v >> 2) & 1)}));
  EXPECT_EQ(m.boundary_tags, (std::vector<int>{1, 2, 3, 4, 5, 6}));
  // x = lower, counter-clockwise seen from x < 0.
  EXPECT_EQ(std::vector<global_index>(m.boundary_faces.begin(), m.boundary_faces.begin() + 4),
            (std::vector<global_index>{0, 4, 6, 2}));
}

TEST(BrickHexMesh, CubeCountsTagsAndOutwardFaces) {
  for (global_index n : {1, 2, 3}) {
    const auto o = hex_brick(n, n, n);
    const auto m = brick_hex_mesh(o);
    check_brick(m, o);
    EXPECT_EQ(m.n_boundary_faces(), 6 * n * n);
  }
}

TEST(BrickHexMesh, NonCubeLexicographic) {
  auto o = hex_brick(3, 2, 1);
  o.lower = {-1, 0, 0.25};
  o.upper = {2, 1, 0.75};
  const auto m = brick_hex_mesh(o);
  check_brick(m, o);
  EXPECT_EQ(m.n_vertices(), 24);
  EXPECT_EQ(m.n_cells(), 6);
  EXPECT_EQ(m.n_boundary_faces(), 22);
  // x fastest: vertex i + 4 (j + 3 k) at (-1 + i, j / 2, 0.25 + k / 2).
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 4; ++i)
        EXPECT_EQ(point(m, i + 4 * (j + 3 * k)), (std::array<double, 3>{-1.0 + i, 0.5 * j, 0.25 + 0.5 * k}));
  EXPECT_EQ(std::vector<global_index>(m.cells.begin(), m.cells.begin() + 8),
            (std::vector<global_index>{0, 1, 4, 5, 12, 13, 16, 17}));
  // cell 4 = (i, j) = (1, 1)
  EXPECT_EQ(std::vector<global_index>(m.cells.begin() + 32, m.cells.begin() + 40),
            (std::vector<global_index>{5, 6, 9, 10, 17, 18, 21, 22}));
}

TEST(BrickHexMesh, PerturbationMovesInteriorVerticesWithinTheBound) {
  auto o = hex_brick(4, 3, 5, 0.3, false, 17);
  o.upper = {2, 1, 0.5};
  auto flat = o;
  flat.perturbation = 0;
  const auto m = brick_hex_mesh(o), m0 = brick_hex_mesh(flat);
  ASSERT_EQ(m.cells, m0.cells);
  ASSERT_EQ(m.boundary_faces, m0.boundary_faces);
  double largest = 0;
  int moved = 0;
  for (global_index k = 0; k <= 5; ++k)
    for (global_index j = 0; j <= 3; ++j)
      for (global_index i = 0; i <= 4; ++i) {
        const global_index v = i + 5 * (j + 4 * k);
        const bool interior = i > 0 && i < 4 && j > 0 && j < 3 && k > 0 && k < 5;
        for (int d = 0; d < 3; ++d) {
          const double shift = m.points[3 * v + d] - m0.points[3 * v + d];
          const double bound = 0.5 * o.perturbation * (o.upper[d] - o.lower[d]) / o.cells[d];
          if (!interior) {
            EXPECT_EQ(shift, 0.0) << "boundary vertex " << v;
          } else {
            EXPECT_LE(std::abs(shift), bound) << "vertex " << v;
            largest = std::max(largest, std::abs(shift) / bound);
            moved += shift != 0;
          }
        }
      }
  EXPECT_EQ(moved, 3 * 3 * 2 * 4);
  EXPECT_GT(largest, 0.8);  // the whole range is used
  // Deterministic; another seed gives another mesh.
  expect_equal(brick_hex_mesh(o), m);
  auto other = o;
  other.seed = 18;
  EXPECT_NE(brick_hex_mesh(other).points, m.points);
}

/// The cells as sorted lists of their vertex coordinates in cell order (tag first), and the boundary
/// faces likewise: what a renumbering must keep.
std::multiset<std::vector<double>> cell_set(const HexMesh& m) {
  std::multiset<std::vector<double>> s;
  for (global_index c = 0; c < m.n_cells(); ++c) {
    std::vector<double> x{double(m.cell_tags[c])};
    for (int v = 0; v < 8; ++v)
      for (double y : point(m, m.cells[8 * c + v])) x.push_back(y);
    s.insert(x);
  }
  return s;
}
std::multiset<std::vector<double>> face_set(const HexMesh& m) {
  std::multiset<std::vector<double>> s;
  for (global_index f = 0; f < m.n_boundary_faces(); ++f) {
    std::vector<double> x{double(m.boundary_tags[f])};
    for (int v = 0; v < 4; ++v)
      for (double y : point(m, m.boundary_faces[4 * f + v])) x.push_back(y);
    s.insert(x);
  }
  return s;
}

TEST(BrickHexMesh, RenumberIsAPermutation) {
  for (const auto& cells : std::vector<std::array<global_index, 3>>{{1, 1, 1}, {3, 2, 4}}) {
    const auto o = hex_brick(cells[0], cells[1], cells[2], 0.25, true, 5);
    auto plain = o;
    plain.renumber = false;
    const auto m = brick_hex_mesh(o), m0 = brick_hex_mesh(plain);
    ASSERT_EQ(m.n_vertices(), m0.n_vertices());
    ASSERT_EQ(m.n_cells(), m0.n_cells());
    ASSERT_EQ(m.n_boundary_faces(), m0.n_boundary_faces());
    std::vector<std::array<double, 3>> p, p0;
    for (global_index v = 0; v < m.n_vertices(); ++v) {
      p.push_back(point(m, v));
      p0.push_back(point(m0, v));
    }
    std::sort(p.begin(), p.end());
    std::sort(p0.begin(), p0.end());
    EXPECT_EQ(p, p0);
    EXPECT_EQ(cell_set(m), cell_set(m0));
    EXPECT_EQ(face_set(m), face_set(m0));
    if (m.n_cells() > 1) {
      EXPECT_NE(m.points, m0.points);
      EXPECT_NE(m.cells, m0.cells);
      // The cell order changed too, not only the vertex numbers.
      std::vector<std::array<double, 3>> first, first0;
      for (global_index c = 0; c < m.n_cells(); ++c) {
        first.push_back(point(m, m.cells[8 * c]));
        first0.push_back(point(m0, m0.cells[8 * c]));
      }
      EXPECT_NE(first, first0);
    }
    expect_equal(brick_hex_mesh(o), m);
  }
}

TEST(BrickHexMesh, RefusesBadOptions) {
  auto o = hex_brick(2, 0, 2);
  EXPECT_NE(error_of([&] { brick_hex_mesh(o); }).find("brick cells must be positive"), std::string::npos);
  o = hex_brick(2, 2, -1);
  EXPECT_NE(error_of([&] { brick_hex_mesh(o); }).find("brick cells must be positive"), std::string::npos);
  for (double p : {1.0, -0.1, std::nan("")}) {
    o = hex_brick(2, 2, 2, p);
    EXPECT_NE(error_of([&] { brick_hex_mesh(o); }).find("perturbation must be in [0, 1)"), std::string::npos) << p;
  }
  o = hex_brick(2, 2, 2);
  o.upper[1] = 0;
  EXPECT_NE(error_of([&] { brick_hex_mesh(o); }).find("must be less than its upper bound"), std::string::npos);
  o = hex_brick(global_index(1) << 40, global_index(1) << 40, 1);
  EXPECT_NE(error_of([&] { brick_hex_mesh(o); }).find("more than 2^62 vertices"), std::string::npos);
}

TEST(HexMeshCheck, RefusesBadMeshes) {
  const auto good = brick_hex_mesh(hex_brick(2, 1, 1));
  EXPECT_NO_THROW(check_hex_mesh(good));
  auto m = good;
  m.cell_tags.pop_back();
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("1 cell tags for 2 cells"), std::string::npos);
  m = good;
  m.points.pop_back();
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("not a multiple of 3"), std::string::npos);
  m = good;
  m.cells.pop_back();
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("not a multiple of 8"), std::string::npos);
  m = good;
  m.cells[9] = 12;
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("cell 1 (vertices 1 12"), std::string::npos);
  m = good;
  m.boundary_faces[5] = -1;
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("boundary face 1 has vertex index -1"), std::string::npos);
  m = good;
  m.cells[9] = m.cells[8];
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("repeats vertex 1"), std::string::npos);
  // Swapping the two vertices of an x edge mirrors the cell: negative determinant everywhere.
  m = good;
  std::swap(m.cells[8], m.cells[9]);
  const auto e = error_of([&] { check_hex_mesh(m); });
  EXPECT_NE(e.find("cell 1 (vertices 2 1 4 5 7 8 10 11; coordinates (1, 0, 0) (0.5, 0, 0)"), std::string::npos) << e;
  EXPECT_NE(e.find("Jacobian determinant"), std::string::npos) << e;
  // A vertex pushed through the opposite face: positive at some points, not at all.
  m = good;
  m.points[3 * m.cells[7] + 2] = -0.5;
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("cell 0"), std::string::npos);
  // A flat cell.
  m = good;
  for (int v = 4; v < 8; ++v) m.points[3 * m.cells[v] + 2] = 0;
  EXPECT_NE(error_of([&] { check_hex_mesh(m); }).find("Jacobian determinant"), std::string::npos);
}

// ---- Gmsh -------------------------------------------------------------------------------------

TEST(Gmsh, RoundTripThroughText) {
  auto m = brick_hex_mesh(hex_brick(3, 3, 3, 0.3, true, 3));
  for (global_index c = 0; c < m.n_cells(); ++c) m.cell_tags[c] = c % 4 == 0 ? 10 : 1 + int(c % 3);
  m.boundary_tags[0] = 99;
  const std::string text = gmsh_text(m);
  EXPECT_EQ(text.rfind("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n", 0), 0u);
  expect_equal(parse(text), m);
  for (const auto& cells : std::vector<std::array<global_index, 3>>{{1, 1, 1}, {3, 2, 1}}) {
    const auto b = brick_hex_mesh(hex_brick(cells[0], cells[1], cells[2]));
    expect_equal(parse(gmsh_text(b)), b);
  }
  // Windows line ends read the same.
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_equal(parse(crlf), m);
}

TEST(Gmsh, RoundTripThroughFile) {
  std::string folder = ::testing::TempDir() + "tensormg_hex_mesh_XXXXXX";
  ASSERT_NE(::mkdtemp(folder.data()), nullptr);
  const std::string path = folder + "/brick.msh";
  const auto m = brick_hex_mesh(hex_brick(2, 3, 2, 0.2, true, 9));
  write_gmsh(path, m, false);
  expect_equal(read_gmsh(path), m);
  const auto e = error_of([&] { write_gmsh(path, m, false); });
  EXPECT_NE(e.find("exists; pass --overwrite to replace it"), std::string::npos) << e;
  const auto other = brick_hex_mesh(hex_brick(1, 1, 2));
  write_gmsh(path, other, true);
  expect_equal(read_gmsh(path), other);
  const auto missing = error_of([&] { read_gmsh(folder + "/missing.msh"); });
  EXPECT_NE(missing.find("cannot open '" + folder + "/missing.msh'"), std::string::npos) << missing;
  // Errors name the path.
  {
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n", f);
    std::fclose(f);
  }
  const auto old = error_of([&] { read_gmsh(path); });
  EXPECT_EQ(old.rfind(path + ":2: ", 0), 0u) << old;
  std::remove(path.c_str());
  ::rmdir(folder.c_str());
}

/// One hexahedron, the unit cube, with sparse node tags in two blocks, physical names and entities,
/// two boundary quadrilaterals (one surface with a physical tag, one without), a point, a line and a
/// triangle that are ignored, and sections to skip.
const char* hand_written = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Comments
anything, even $Nodes 1 2 3
$EndComments
$PhysicalNames
3
2 42 "bottom face"
2 43 "unused"
3 7 "solid"
$EndPhysicalNames
$Entities
1 1 2 1
1 0.5 0.5 2 0
1 0 0 0 1 1 2 0 2 1 -1
3 0 0 0 1 1 0 1 42 0
4 0 0 1 1 1 1 0 0
1 0 0 0 1 1 1 2 7 8 2 3 4
$EndEntities
$Nodes
2 9 5 1000
0 1 0 1
1000
0.5 0.5 2
3 1 0 8
900
5
70
31
8
12
600
44
1 1 1
0 0 0
1 0 0
0 1 1
0 1 0
0 0 1
1 1 0
1 0 1
$EndNodes
$Elements
6 7 101 107
0 1 15 1
101 1000
1 1 1 1
102 1000 5
2 3 3 1
103 5 8 600 70
2 4 2 2
104 12 44 900
105 12 900 31
2 4 3 1
106 12 44 900 31
3 1 5 1
107 5 70 600 8 12 44 900 31
$EndElements
$NodeData
1
"temperature"
1
0.0
3
0
1
1
5 1.0
$EndNodeData
)";

TEST(Gmsh, HandWrittenFile) {
  const auto m = parse(hand_written);
  ASSERT_EQ(m.n_vertices(), 9);
  EXPECT_EQ(m.points, (std::vector<double>{0.5, 0.5, 2, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0,
                                           1, 0, 1}));
  // Gmsh order 5 70 600 8 12 44 900 31 = vertices 2 3 7 5 6 8 1 4, converted to lexicographic order.
  EXPECT_EQ(m.cells, (std::vector<global_index>{2, 3, 5, 7, 6, 8, 4, 1}));
  for (int v = 0; v < 8; ++v)
    EXPECT_EQ(point(m, m.cells[v]), (std::array<double, 3>{double(v & 1), double((v >> 1) & 1), double((v >> 2) & 1)}));
  EXPECT_EQ(m.cell_tags, (std::vector<int>{7}));  // physical tag 7 of volume 1
  EXPECT_EQ(m.boundary_faces, (std::vector<global_index>{2, 5, 7, 3, 6, 8, 1, 4}));
  EXPECT_EQ(m.boundary_tags, (std::vector<int>{42, 4}));  // surface 4 has no physical tag
  // Without $Entities the entity tags are the tags.
  std::string text = hand_written;
  const auto begin = text.find("$Entities"), end = text.find("$EndEntities\n") + 13;
  text.erase(begin, end - begin);
  const auto plain = parse(text);
  EXPECT_EQ(plain.cell_tags, (std::vector<int>{1}));
  EXPECT_EQ(plain.boundary_tags, (std::vector<int>{3, 4}));
  EXPECT_EQ(plain.cells, m.cells);
  EXPECT_EQ(plain.points, m.points);
}

/// A valid file with one hexahedron; malformed variants replace single lines of it.
const std::vector<std::string> minimal = {
    "$MeshFormat",    // 1
    "4.1 0 8",        // 2
    "$EndMeshFormat", // 3
    "$Nodes",         // 4
    "1 8 1 8",        // 5
    "3 1 0 8",        // 6
    "1", "2", "3", "4", "5", "6", "7", "8",                                                // 7-14
    "0 0 0", "1 0 0", "1 1 0", "0 1 0", "0 0 1", "1 0 1", "1 1 1", "0 1 1",                // 15-22
    "$EndNodes",      // 23
    "$Elements",      // 24
    "1 1 1 1",        // 25
    "3 1 5 1",        // 26
    "1 1 2 3 4 5 6 7 8",  // 27
    "$EndElements",   // 28
};

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

TEST(Gmsh, MinimalFileParses) {
  const auto m = parse(join(minimal));
  EXPECT_EQ(m.cells, (std::vector<global_index>{0, 1, 3, 2, 4, 5, 7, 6}));
  EXPECT_EQ(m.cell_tags, (std::vector<int>{1}));
  EXPECT_TRUE(m.boundary_faces.empty());
}

TEST(Gmsh, MalformedFilesNameTheLine) {
  struct Case {
    const char* what;
    std::map<int, std::string> replace;  ///< 1-based line → new text
    int keep = 0;                        ///< keep only the first lines (0: all)
    std::string append;
    int line;  ///< expected line (0: none, "test.msh: ..." from check_hex_mesh)
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"empty", {}, -1, "", 1, "empty file"},
      {"no $MeshFormat", {{1, "$Nodes"}}, 0, "", 1, "expected $MeshFormat"},
      {"binary", {{2, "4.1 1 8"}}, 0, "", 2, "binary .msh files are not supported"},
      {"version 2.2", {{2, "2.2 0 8"}}, 0, "", 2, "version 2.2 is not supported; only 4.1"},
      {"no format line", {{2, ""}}, 0, "", 3, "expected the format version (4.1), found '$EndMeshFormat'"},
      {"end of file in $Nodes", {}, 22, "", 22, "unexpected end of file (expected $EndNodes)"},
      {"missing $EndNodes", {{23, ""}}, 0, "", 24, "expected $EndNodes after the 1 node blocks declared at line 4, "
                                                   "found '$Elements'"},
      {"node count", {{5, "1 9 1 9"}}, 0, "", 23, "the header at line 5 declares 9 nodes, the blocks hold 8"},
      {"element count", {{25, "1 2 1 2"}}, 0, "", 28, "declares 2 elements, the blocks hold 1"},
      {"element block count", {{25, "2 1 1 1"}}, 0, "", 28,
       "expected the entity dimension of element block 2 of 2 (an integer), found '$EndElements' (the section ends"},
      {"unknown node tag", {{27, "1 1 2 3 4 5 6 7 99"}}, 0, "", 27,
       "element 1 uses node tag 99, which $Nodes does not define"},
      {"tetrahedron", {{26, "3 1 4 1"}, {27, "1 1 2 3 4"}}, 0, "", 26,
       "element type 4 is not supported; only first-order hexahedra (type 5)"},
      {"hex27", {{26, "3 1 12 1"}}, 0, "", 26, "element type 12 is not supported; only first-order hexahedra (type 5)"},
      {"second-order quadrangle", {{26, "2 1 10 1"}}, 0, "", 26, "element type 10 is not supported"},
      {"unknown element type", {{26, "3 1 77 1"}}, 0, "", 26, "unknown element type 77"},
      {"hexahedron on a surface", {{26, "2 1 5 1"}}, 0, "", 26, "has dimension 3, but element block 1 of 1 is on an "
                                                                "entity of dimension 2"},
      {"letters in a coordinate", {{16, "1 abc 0"}}, 0, "", 16,
       "expected a coordinate of node 2 (a number), found 'abc'"},
      {"trailing letters", {{17, "1 1 0.5x"}}, 0, "", 17, "found '0.5x'"},
      {"NaN coordinate", {{18, "0 nan 0"}}, 0, "", 18, "coordinate 1 of node 4 is not finite"},
      {"infinite coordinate", {{18, "0 1 -inf"}}, 0, "", 18, "coordinate 2 of node 4 is not finite"},
      {"letters in a count", {{5, "1 eight 1 8"}}, 0, "", 5,
       "expected the number of nodes (an integer), found 'eight'"},
      {"negative count", {{6, "3 1 0 -8"}}, 0, "", 6, "must not be negative"},
      {"duplicate node tag", {{8, "1"}}, 0, "", 8, "node tag 1 is defined twice"},
      {"parametric nodes", {{6, "3 1 1 8"}}, 0, "", 6, "parametric node coordinates"},
      {"no hexahedra", {{26, "2 1 3 1"}, {27, "1 1 2 3 4"}}, 0, "", 28, "the mesh has no hexahedra (element type 5)"},
      {"no $Elements", {}, 23, "", 23, "no $Elements section"},
      {"no $Nodes", {}, 3, "", 3, "no $Nodes section"},
      {"unterminated section", {}, 0, "$Foo\n1 2\n", 30, "$Foo at line 29 has no $EndFoo"},
      {"text between sections", {}, 0, "garbage\n", 29, "expected a section ($Name), found 'garbage'"},
      {"second $Nodes", {}, 0, "$Nodes\n0 0 0 0\n$EndNodes\n", 29, "a second $Nodes section"},
      {"inverted hexahedron", {{27, "1 5 6 7 8 1 2 3 4"}}, 0, "", 0, "Jacobian determinant"},
      {"repeated vertex", {{27, "1 1 2 3 4 5 6 7 7"}}, 0, "", 0, "repeats vertex 6"},
  };
  for (const auto& c : cases) {
    auto lines = minimal;
    for (const auto& [line, text] : c.replace) lines[line - 1] = text;
    if (c.keep > 0) lines.resize(c.keep);
    if (c.keep < 0) lines.clear();
    const std::string text = join(lines) + c.append;
    const std::string e = error_of([&] { parse(text); });
    const std::string prefix = c.line > 0 ? "test.msh:" + std::to_string(c.line) + ": " : "test.msh: ";
    EXPECT_EQ(e.rfind(prefix, 0), 0u) << c.what << ": " << e;
    EXPECT_NE(e.find(c.fragment), std::string::npos) << c.what << ": " << e;
  }
}

}  // namespace
