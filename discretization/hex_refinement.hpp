#pragma once
/// @file
/// Uniform refinement of an unstructured hexahedral mesh: every cell split into 2×2×2 children by
/// its edge midpoints, face centres and centre, which the trilinear map places at the averages of
/// 2, 4 and 8 of the cell's vertices. The refined mesh is nested in the coarse one and its Q1 space
/// contains the coarse one: the interpolation stencils below (the weights of the coarse vertices in
/// each fine vertex) are the prolongation of the multigrid on the mesh hierarchy
/// (multigrid/hex_hierarchy.hpp), whatever the geometry.
///
/// Numbering: fine vertex v < coarse.n_vertices() is coarse vertex v; then edge midpoints, face
/// centres and cell centres in the order the cells first reach them. Fine cell 8 c + child is the
/// child (child & 1, (child >> 1) & 1, (child >> 2) & 1) of coarse cell c and keeps its tag; each
/// boundary quadrilateral becomes four with its tag and orientation.

#include <vector>

#include "discretization/hex_mesh.hpp"

namespace tensormg {

struct HexRefinement {
  HexMesh fine;
  /// Fine vertex v interpolates the coarse vertices stencil_vertices[stencil_offsets[v] ..
  /// stencil_offsets[v + 1]) with stencil_weights (1; 1/2 each; 1/4 each; 1/8 each), sorted by
  /// coarse vertex.
  std::vector<global_index> stencil_offsets, stencil_vertices;
  std::vector<double> stencil_weights;
  /// The coarse cell of fine cell f.
  static global_index parent(global_index f) { return f / 8; }
};

/// The refined mesh and its stencils. Throws InputError for a boundary quadrilateral that is no
/// face of a cell, or for a fine mesh of more than 2^62 vertices.
HexRefinement refine_hex_mesh(const HexMesh& coarse);

}  // namespace tensormg
