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
/// centres and cell centres in the order the cells first reach them (cell by cell, each cell's
/// 3×3×3 lattice in lexicographic order). Fine cell 8 c + child is the child (child & 1,
/// (child >> 1) & 1, (child >> 2) & 1) of coarse cell c and keeps its tag; each boundary
/// quadrilateral becomes four with its tag and orientation. A new vertex's coordinates are the sum
/// of its coarse vertices in ascending order times 1/2, 1/4 or 1/8 (exact scalings: the same bits
/// on every backend).
///
/// The work runs in parallel on ExecSpace (hex_refinement.cpp): an edge or face belongs to the
/// lowest-numbered cell that has it, found through the vertex → cell lists, so the numbering above
/// needs no sequential pass.

#include <Kokkos_Core.hpp>

#include <vector>

#include "core/types.hpp"
#include "core/host_vector_arrays.hpp"
#include "discretization/device_hex_mesh.hpp"
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

/// A refinement's stencils as arrays of an execution space (the same entries as HexRefinement's
/// vectors), for the transfer's set-up: on a GPU they stay where refine_hex_mesh made them.
template <class ExecSpace>
struct DeviceHexStencils {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const global_index*, memory_space> offsets, vertices;
  Kokkos::View<const double*, memory_space> weights;
  /// `*given` where it holds device arrays (memory_space not the host's), else the refinement's
  /// vectors themselves (device copies where memory_space is not the host's).
  static DeviceHexStencils of(const HexRefinement& r, const DeviceHexStencils* given) {
    if constexpr (!host_accessible<memory_space>) {
      if (given && given->offsets.extent(0) > 0) return *given;
    }
    DeviceHexStencils s;
    s.offsets = device_input<global_index, memory_space>(r.stencil_offsets, "tensormg::hex_stencils::offsets");
    s.vertices = device_input<global_index, memory_space>(r.stencil_vertices, "tensormg::hex_stencils::vertices");
    s.weights = device_input<double, memory_space>(r.stencil_weights, "tensormg::hex_stencils::weights");
    return s;
  }
};

/// The refined mesh and its stencils, computed on ExecSpace (the coarse mesh copied there unless
/// coarse_on_device holds it, the result copied back; fine_on_device, if given, keeps the fine
/// mesh's connectivity and points there; stencils_on_device, if given where ExecSpace's memory is
/// not the host's, receives the stencils there and the returned vectors stay empty). Throws InputError for a boundary quadrilateral that is no
/// face of a cell, or for a fine mesh of more than 2^62 vertices. The coarse mesh's connectivity
/// must have passed check_hex_mesh_connectivity.
template <class ExecSpace = DefaultExec>
HexRefinement refine_hex_mesh(const HexMesh& coarse, const DeviceHexMesh<ExecSpace>* coarse_on_device = nullptr,
                              DeviceHexMesh<ExecSpace>* fine_on_device = nullptr,
                              DeviceHexStencils<ExecSpace>* stencils_on_device = nullptr);

/// Device bytes refine_hex_mesh<ExecSpace> holds at its peak for a coarse mesh of n_cells cells and
/// n_vertices vertices (the coarse mesh, the vertex → cell lists, the cells' 3×3×3 lattices, the
/// fine mesh and the stencils), for the programs' memory check.
double refinement_device_bytes(global_index n_cells, global_index n_vertices);

}  // namespace tensormg
