#pragma once
/// @file
/// Q1 degrees of freedom on an unstructured hexahedral mesh (paper 004): scalar (one per vertex) or
/// vector (three per vertex, interleaved: DoF 3 v + c), the rank's cells, its vertices (owned ones
/// first, then the ghosts its cells touch), the Dirichlet set and per-cell materials; on request
/// (hex_cell_colouring) a colouring of the cells for scatter without atomics.
///
/// Distribution: every rank holds the whole HexMesh (host) and cuts it the same way, by recursive
/// coordinate bisection of the cell centroids into as many parts as ranks; a vertex belongs to the
/// lowest rank among its cells. Cells and vertices are then ordered for locality (HexOrdering).
/// Global vertex numbers are rank-contiguous (rank r owns
/// [first_vertex, first_vertex + n_owned_vertices)), so an output file is written in one block per
/// rank; `mesh_vertex` maps them back to the mesh's own numbering.

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/distributed_vector.hpp"
#include "core/partitioner.hpp"
#include "core/types.hpp"
#include "discretization/device_hex_mesh.hpp"
#include "discretization/hex_mesh.hpp"

namespace tensormg {

/// Which vertices carry Dirichlet conditions (all components of a vector field).
struct HexDirichlet {
  bool whole_boundary = true;  ///< every vertex of a face that belongs to one cell only
  std::vector<int> tags;       ///< vertices of the boundary faces with one of these tags
  struct Plane {
    int axis = 0;       ///< 0, 1, 2 for x, y, z
    double value = 0;   ///< coordinate of the plane; vertices within 1e-12·(mesh extent) of it
  };
  std::vector<Plane> planes;
  /// No Dirichlet vertex at all (pure Neumann operator).
  static HexDirichlet none() {
    HexDirichlet d;
    d.whole_boundary = false;
    return d;
  }
};

/// Parses "boundary", "none", or a comma-free list joined by '+' of "tag:N" and "x=V" / "y=V" /
/// "z=V" (e.g. "tag:3+z=0"). Throws InputError naming the accepted forms.
HexDirichlet parse_hex_dirichlet(const std::string& text);

/// Per-cell materials: uniform (coefficient 1; Young's modulus 1) or layered in z: `layers` equal
/// slabs of the mesh's z extent, by cell centroid, alternating coefficient 1 and `contrast`.
enum class HexMaterial { uniform, layered };
std::string to_string(HexMaterial m);
HexMaterial parse_hex_material(const std::string& text, const char* what = "material");

struct HexMaterialOptions {
  HexMaterial kind = HexMaterial::uniform;
  double contrast = 1e3;
  int layers = 4;
  double poisson_ratio = 0.3;  ///< elasticity: λ = E ν / ((1 + ν)(1 − 2ν)), μ = E / (2 (1 + ν))
  /// Per mesh cell: the coefficient (Young's modulus), overriding `kind` when not empty. The mesh
  /// hierarchy sets it so that refined cells keep their coarsest ancestor's material (material
  /// interfaces then follow the faces of every level).
  std::vector<double> cell_modulus;
};

/// The coefficient (Young's modulus) of every cell of `mesh`: cell_modulus if given, else by kind
/// (layered: the layer of the cell centroid's z in the mesh's z extent).
std::vector<double> hex_cell_modulus(const HexMesh& mesh, const HexMaterialOptions& material);

/// The order of the rank's cells and vertices in memory: along a Z-order (Morton) curve of the
/// cell centroids, vertices numbered by the first cell that touches them (the default: neighbours
/// in space are neighbours in memory, whatever the mesh's numbering), or as the mesh numbers them.
enum class HexOrdering { morton, mesh };
std::string to_string(HexOrdering o);
HexOrdering parse_hex_ordering(const std::string& text, const char* what = "ordering");

template <class ExecSpace = DefaultExec>
class HexLayout {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using partitioner_type = Partitioner<ExecSpace>;
  /// Local vertex indices of each local cell; a Dirichlet vertex is stored as ~index (negative),
  /// so kernels know it without reading a mask: its values count as zero and nothing is added to it.
  using cell_view = Kokkos::View<local_index* [8], memory_space>;
  /// Coordinates of the local vertices, x y z of one vertex next to each other.
  using point_view = Kokkos::View<double* [3], Kokkos::LayoutRight, memory_space>;

  /// Collective over comm. components: 1 (scalar Q1) or 3 (vector Q1). Throws a collective
  /// InputError for a mesh check_hex_mesh refuses, components other than 1 or 3, fewer cells than
  /// ranks, or local counts that do not fit 32-bit indices.
  /// cell_rank: the rank of each mesh cell (e.g. inherited from a coarser mesh, so that the
  /// transfer between levels stays rank-local); empty: hex_partition(mesh, ranks).
  /// cell_sequence: the order of all mesh cells, grouped by rank (e.g. refined_cell_sequence of the
  /// coarser level's); empty: hex_cell_sequence(mesh, cell ranks, ordering).
  /// on_device: the mesh's connectivity and points already on ExecSpace (refine_hex_mesh's
  /// fine_on_device), read instead of copying the mesh there; nullptr: copied.
  HexLayout(const HexMesh& mesh, int components, const HexDirichlet& dirichlet, const HexMaterialOptions& material,
            MPI_Comm comm, HexOrdering ordering = HexOrdering::morton, const std::vector<int>& cell_rank = {},
            const std::vector<global_index>& cell_sequence = {}, const DeviceHexMesh<ExecSpace>* on_device = nullptr);

  MPI_Comm comm() const { return partitioner_->comm(); }
  int components() const { return components_; }
  local_index n_cells() const { return local_index(cells_.extent(0)); }
  global_index n_global_cells() const { return n_global_cells_; }
  local_index n_owned_vertices() const { return n_owned_vertices_; }
  local_index n_local_vertices() const { return local_index(points_.extent(0)); }
  global_index n_global_vertices() const { return n_global_vertices_; }
  global_index first_vertex() const { return first_vertex_; }
  global_index n_global_dofs() const { return n_global_vertices_ * components_; }

  const cell_view& cells() const { return cells_; }
  const point_view& points() const { return points_; }
  /// Per local cell: Laplace coefficient κ (= E of elasticity), λ and μ.
  const Kokkos::View<double*, memory_space>& coefficient() const { return coefficient_; }
  const Kokkos::View<double*, memory_space>& lame_lambda() const { return lambda_; }
  const Kokkos::View<double*, memory_space>& lame_mu() const { return mu_; }
  /// DoF partitioner: components DoFs per local vertex, interleaved.
  const std::shared_ptr<const partitioner_type>& partitioner() const { return partitioner_; }
  /// Owned Dirichlet DoFs (local indices), for identity rows.
  const Kokkos::View<local_index*, memory_space>& constrained_dofs() const { return constrained_; }

  /// Host data: the mesh's own index of each local vertex and of each local cell, the global
  /// (rank-contiguous) index of each local vertex, the host copy of cells() without the Dirichlet
  /// encoding, whether each local vertex is a Dirichlet vertex, the local points. host_cells() and
  /// host_points() are copied from cells() and points() on their first call (the coarser levels of
  /// a hierarchy and the operators never need them; not thread-safe on that call).
  const std::vector<global_index>& mesh_vertex() const { return mesh_vertex_; }
  const std::vector<global_index>& mesh_cell() const { return mesh_cell_; }
  const std::vector<global_index>& global_vertex() const { return global_vertex_; }
  const std::vector<local_index>& host_cells() const;
  /// Wall-clock seconds of the constructor's steps on this rank, in order ("validity check",
  /// "partition and order", "numbering", "boundary vertices", "cells and materials", "device copies
  /// and partitioner"): what the programs print as their set-up breakdown.
  const std::vector<std::pair<std::string, double>>& setup_seconds() const { return setup_seconds_; }
  const std::vector<char>& dirichlet_vertex() const { return dirichlet_vertex_; }
  const std::vector<double>& host_points() const;
  const std::vector<double>& host_coefficient() const { return host_coefficient_; }
  const std::vector<double>& host_lambda() const { return host_lambda_; }
  const std::vector<double>& host_mu() const { return host_mu_; }

  /// Device bytes this layout holds per rank (cells, points, materials, index lists).
  double device_bytes() const;

 private:
  std::vector<std::pair<std::string, double>> setup_seconds_;
  int components_ = 1;
  global_index n_global_cells_ = 0, n_global_vertices_ = 0, first_vertex_ = 0;
  local_index n_owned_vertices_ = 0;
  cell_view cells_;
  point_view points_;
  Kokkos::View<double*, memory_space> coefficient_, lambda_, mu_;
  std::shared_ptr<const partitioner_type> partitioner_;
  Kokkos::View<local_index*, memory_space> constrained_;
  std::vector<global_index> mesh_vertex_, mesh_cell_, global_vertex_;
  mutable std::vector<local_index> host_cells_;  ///< made by host_cells()
  mutable std::vector<double> host_points_;      ///< made by host_points()
  mutable bool host_cells_made_ = false, host_points_made_ = false;
  std::vector<char> dirichlet_vertex_;
  std::vector<double> host_coefficient_, host_lambda_, host_mu_;
};

/// The rank's cells by colour, no two cells of one colour sharing a vertex: colour c is
/// order(offsets[c] .. offsets[c + 1]). Greedy on the host in the layout's cell order (each cell
/// takes the lowest colour none of its vertices has seen; at most 64 colours, InputError beyond).
/// Built by the operators whose scatter needs it (LowOrderScatter::coloured), not by the layout.
template <class ExecSpace>
struct HexColouring {
  Kokkos::View<local_index*, typename ExecSpace::memory_space> order;
  std::vector<local_index> offsets;
  double device_bytes() const { return double(order.span()) * sizeof(local_index); }
};
template <class ExecSpace>
HexColouring<ExecSpace> hex_cell_colouring(const HexLayout<ExecSpace>& layout);

/// v(DoF) = f(index) on the owned entries, index = mesh vertex × components + component: the
/// mesh's numbering, so the values do not depend on the rank count.
template <class Number, class ExecSpace, class F>
void fill_by_global_index(const HexLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v, const F& f) {
  auto host = Kokkos::create_mirror_view(v.view());
  const int nc = layout.components();
  for (local_index i = 0; i < layout.n_owned_vertices(); ++i)
    for (int c = 0; c < nc; ++c)
      host(std::size_t(i) * nc + c) = static_cast<Number>(f(layout.mesh_vertex()[i] * nc + c));
  Kokkos::deep_copy(v.view(), host);
}

/// The order in which the layouts work through all mesh cells, grouped by rank (part): by part,
/// then (morton) along a Z-order curve of the centroids, 21 bits per direction in the bounding
/// box of the centroids, ties by cell index; or (mesh) by part in the mesh's numbering.
std::vector<global_index> hex_cell_sequence(const HexMesh& mesh, const std::vector<int>& part, HexOrdering ordering);
/// The order of a uniform refinement's cells (fine cell 8 c + child, hex_refinement.hpp) from the
/// coarse order: each coarse cell's children in place of it, in child order, which is the Z order
/// within the cell (child bits x, y, z from the lowest). A refined level of HexHierarchy takes it
/// instead of sorting its cells again: as local as the Z-order curve, and on an aligned brick of
/// 2^m cells per direction the same order.
std::vector<global_index> refined_cell_sequence(const std::vector<global_index>& coarse_sequence);

/// The rank of each cell: recursive coordinate bisection of the cell centroids into `parts` parts
/// of (nearly) equal cell counts; the same on every rank.
std::vector<int> hex_partition(const HexMesh& mesh, int parts);

/// Host bytes and device bytes a run on `mesh` with `components` will need per rank, estimated
/// before building anything (layout, operator variant, vectors): used by the programs' memory check.
struct HexMemoryEstimate {
  double layout_device_bytes = 0;
  double mesh_host_bytes = 0;
  double csr_bytes = 0;       ///< the assembled matrix (values, column indices, row offsets)
  double geometry_bytes = 0;  ///< the stored-geometry variant's factors
  double block_scatter_bytes = 0;  ///< the block scatter's vertex lists (and their host copies)
  double vector_bytes = 0;    ///< one distributed vector
};
HexMemoryEstimate estimate_hex_memory(global_index n_cells, global_index n_vertices, int components, int ranks);
/// Device bytes a HexLayout's construction holds at its peak beyond what the layout keeps (the
/// whole mesh's connectivity and points, the numbering's per-cell and per-vertex arrays), on
/// every rank (each holds the whole mesh).
double hex_layout_setup_device_bytes(global_index n_cells, global_index n_vertices);

}  // namespace tensormg
