#pragma once
/// @file
/// Unstructured hexahedral meshes (paper 004): vertex coordinates and 8-vertex connectivity, per-cell
/// region tags and tagged boundary quadrilaterals, held on the host as the whole global mesh (every
/// rank holds it; `HexLayout` picks the rank's cells). Sources: a brick with optional random vertex
/// perturbation and random renumbering of cells and vertices (so no code may assume lexicographic
/// order), and Gmsh `.msh` files (format 4.1, ASCII, first-order hexahedra; `gmsh_io.hpp`).
///
/// Vertex order inside a cell is lexicographic: vertex v sits at the reference corner
/// (v & 1, (v >> 1) & 1, (v >> 2) & 1) of [0, 1]^3. Gmsh, VTK and XDMF go counter-clockwise around
/// the bottom face, then the top one: their i-th vertex is our `hex_vtk_order[i]`.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace tensormg {

/// Our vertex index of the i-th vertex of a hexahedron in Gmsh / VTK / XDMF order (a permutation
/// that is its own inverse).
inline constexpr int hex_vtk_order[8] = {0, 1, 3, 2, 4, 5, 7, 6};

struct HexMesh {
  std::vector<double> points;            ///< [vertex][3]
  std::vector<global_index> cells;       ///< [cell][8] vertex indices, lexicographic order
  std::vector<int> cell_tags;            ///< [cell] region tag (Gmsh: the volume's physical tag, else its entity tag)
  std::vector<global_index> boundary_faces;  ///< [face][4] vertex indices, counter-clockwise seen from outside
  std::vector<int> boundary_tags;        ///< [face] tag (Gmsh: the surface's physical tag, else its entity tag)
  /// boundary_faces lists every face no second cell holds (the brick and its refinements; a Gmsh
  /// file may list only its tagged surfaces): a layout's whole-boundary Dirichlet set then reads
  /// them instead of finding those faces through the vertices' cells.
  bool complete_boundary = false;
  global_index n_vertices() const { return global_index(points.size() / 3); }
  global_index n_cells() const { return global_index(cells.size() / 8); }
  global_index n_boundary_faces() const { return global_index(boundary_faces.size() / 4); }
};

/// A brick [lower, upper] of cells[0] × cells[1] × cells[2] hexahedra.
struct BrickHexOptions {
  std::array<global_index, 3> cells{4, 4, 4};
  std::array<double, 3> lower{0, 0, 0}, upper{1, 1, 1};
  /// Interior vertices move by up to perturbation × (cell size) / 2 in each direction (uniform,
  /// from a hash of seed and the vertex's lexicographic index: the same mesh on every rank and
  /// every run). Below 1/3 every cell keeps det J > 0; larger values may invert cells, which
  /// check_hex_mesh refuses.
  double perturbation = 0;
  /// Randomly permute cells and vertices (seeded) instead of the lexicographic numbering.
  bool renumber = false;
  std::uint64_t seed = 1;
};

/// The brick. Cells carry tag 1; the boundary quadrilaterals carry tags 1..6 for the faces
/// x = lower, x = upper, y = lower, y = upper, z = lower, z = upper. Throws InputError for
/// non-positive cell counts, an empty box, a perturbation outside [0, 1) or more than 2^62 vertices.
HexMesh brick_hex_mesh(const BrickHexOptions& options);

/// Checks that vertex indices are in range, that no cell repeats a vertex and that the Jacobian
/// determinant of the trilinear map is positive at the 8 Gauss points and the 8 vertices of every
/// cell. Throws InputError naming the first bad cell (index, vertices and coordinates).
void check_hex_mesh(const HexMesh& mesh);
/// The parts of check_hex_mesh: array sizes, vertex indices in range and no repeated vertex in a
/// cell; and the Jacobian determinant of one cell (HexLayout checks the determinants of all cells
/// in parallel and calls this for the first bad one, for the message).
/// cell_vertices false: the cells' vertex indices are left to the caller (HexLayout checks them in
/// parallel and calls this with true for the message when one is bad).
void check_hex_mesh_connectivity(const HexMesh& mesh, bool cell_vertices = true);
void check_hex_cell_jacobian(const HexMesh& mesh, global_index cell);

}  // namespace tensormg
