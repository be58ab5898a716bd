#include "discretization/hex_refinement.hpp"

#include <string>

#include "core/error.hpp"
#include "core/host_vector_arrays.hpp"
#include "core/prefix_sum.hpp"

namespace tensormg {

namespace {
template <class T, class MemorySpace>
using DeviceArray = Kokkos::View<T*, MemorySpace>;

/// The coarse vertices of point l = i + 3 j + 9 k of a cell's 3×3×3 lattice (index 0 and 2 the
/// cell's sides, 1 the middle): 1 (a vertex), 2 (an edge's midpoint), 4 (a face's centre) or 8
/// (the centre), in lexicographic corner order. Returns their number.
KOKKOS_INLINE_FUNCTION int lattice_corners(const global_index* cv, int l, global_index (&corners)[8]) {
  const int i = l % 3, j = (l / 3) % 3, k = l / 9;
  int n = 0;
  for (int vz = 0; vz < 2; ++vz)
    for (int vy = 0; vy < 2; ++vy)
      for (int vx = 0; vx < 2; ++vx)
        if ((i == 1 || i == 2 * vx) && (j == 1 || j == 2 * vy) && (k == 1 || k == 2 * vz))
          corners[n++] = cv[vx + 2 * vy + 4 * vz];
  return n;
}

/// vertices[0 .. n) sorted ascending in place (insertion sort: n ≤ 8).
KOKKOS_INLINE_FUNCTION void sort_small(global_index* vertices, int n) {
  for (int i = 1; i < n; ++i) {
    const global_index x = vertices[i];
    int j = i;
    for (; j > 0 && vertices[j - 1] > x; --j) vertices[j] = vertices[j - 1];
    vertices[j] = x;
  }
}

/// The refinement's device arrays and the parallel steps that share them (a struct of views, not
/// a class with private members: CUDA lambdas may not live in private member functions).
template <class ExecSpace>
struct RefinementWork {
  using memory_space = typename ExecSpace::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<global_index>>;
  template <class T>
  using Array = DeviceArray<T, memory_space>;

  global_index n_cells = 0, n_vertices = 0;
  Array<const global_index> cells;  ///< [cell][8]
  Array<const double> points;       ///< [vertex][3]
  /// Vertex → cells, ascending: cells adjacent[start[v] .. start[v + 1]).
  Array<global_index> start, adjacent;
  /// [cell][27]: a coarse vertex (≥ 0), or ~slot (< 0) with slot = 27 c' + l' the lattice point of
  /// the lowest cell c' that has the same edge / face (for a cell's own new points: its own slot);
  /// after number_new_points, a cell's own new points hold their fine vertex.
  Array<global_index> lattice;

  /// The lowest cell that has the vertices set[0 .. n) as one of its edges (n = 2) or faces (n = 4),
  /// as the slot 27 c + l of that edge's / face's lattice point in it; −1 if no cell has them.
  KOKKOS_INLINE_FUNCTION global_index owner_slot(const global_index* set, int n) const {
    for (int i = 0; i < n; ++i)
      if (set[i] < 0 || set[i] >= n_vertices) return -1;
    for (global_index e = start(set[0]); e < start(set[0] + 1); ++e) {  // ascending: the first match
      const global_index c = adjacent(e);
      int local[4];
      bool all = true;
      for (int i = 0; i < n && all; ++i) {
        local[i] = -1;
        for (int v = 0; v < 8; ++v)
          if (cells(8 * c + v) == set[i]) local[i] = v;
        all = local[i] >= 0;
        for (int j = 0; j < i && all; ++j) all = local[j] != local[i];
      }
      if (!all) continue;
      // An edge varies along one reference direction, a face along two; the lattice index is 1 along
      // those and 0 or 2 (the side) along the others.
      int varying = 0, l = 0;
      for (int d = 0, stride = 1; d < 3; ++d, stride *= 3) {
        const int bit = (local[0] >> d) & 1;
        bool same = true;
        for (int i = 1; i < n; ++i) same = same && ((local[i] >> d) & 1) == bit;
        varying += same ? 0 : 1;
        l += (same ? 2 * bit : 1) * stride;
      }
      if (varying == (n == 2 ? 1 : 2)) return 27 * c + l;
    }
    return -1;
  }
};

}  // namespace

double refinement_device_bytes(global_index n_cells, global_index n_vertices) {
  const double c = double(n_cells), v = double(n_vertices);
  // Coarse cells and points; start and fill; adjacency; lattice; two counts and two offsets;
  // fine cells, tags, points (about 8 vertices per coarse cell more); stencils (about 26 entries
  // per coarse cell: 1, 2, 4, 8 for the vertex, 3 edges, 3 faces, the centre).
  return 8 * (8 * c + 3 * v) + 8 * 2 * v + 8 * 8 * c + 8 * 27 * c + 4 * 8 * c + 8 * 64 * c + 4 * 8 * c +
         8 * 3 * (v + 7 * c) + 8 * (v + 7 * c) + 16 * (v + 26 * c);
}

template <class ExecSpace>
HexRefinement refine_hex_mesh(const HexMesh& coarse, const DeviceHexMesh<ExecSpace>* coarse_on_device,
                              DeviceHexMesh<ExecSpace>* fine_on_device,
                              DeviceHexStencils<ExecSpace>* stencils_on_device) {
  using Work = RefinementWork<ExecSpace>;
  using Policy = typename Work::Policy;
  using memory_space = typename Work::memory_space;
  const global_index n_cells = coarse.n_cells(), n_coarse_vertices = coarse.n_vertices();
  TENSORMG_CHECK(double(n_cells) * 64 < 4.6e18 && double(n_coarse_vertices) + 19.0 * double(n_cells) < 4.6e18,
                 "refining " << n_cells << " cells would give more than 2^62 cells or vertices");
  Work w;
  w.n_cells = n_cells;
  w.n_vertices = n_coarse_vertices;
  {
    const auto on_device = DeviceHexMesh<ExecSpace>::of(coarse, coarse_on_device);
    w.cells = on_device.cells;
    w.points = on_device.points;
  }

  // Vertex → cell lists: counted, summed, filled in any order, then each list sorted.
  {
    typename Work::template Array<global_index> count("tensormg::hex_refinement::count", n_coarse_vertices);
    const auto cells = w.cells;
    Kokkos::parallel_for(
        "tensormg::hex_refinement::count", Policy(0, 8 * n_cells),
        KOKKOS_LAMBDA(global_index i) { Kokkos::atomic_increment(&count(cells(i))); });
    w.start = typename Work::template Array<global_index>("tensormg::hex_refinement::start", n_coarse_vertices + 1);
    const global_index entries = exclusive_prefix_sum<ExecSpace>("tensormg::hex_refinement::start", n_coarse_vertices, count, w.start);
    w.adjacent = typename Work::template Array<global_index>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_refinement::adjacent"), entries);
    Kokkos::deep_copy(count, 0);
    const auto start = w.start;
    const auto adjacent = w.adjacent;
    Kokkos::parallel_for(
        "tensormg::hex_refinement::fill", Policy(0, 8 * n_cells), KOKKOS_LAMBDA(global_index i) {
          const global_index v = cells(i);
          adjacent(start(v) + Kokkos::atomic_fetch_add(&count(v), global_index(1))) = i / 8;
        });
    Kokkos::parallel_for(
        "tensormg::hex_refinement::sort_lists", Policy(0, n_coarse_vertices), KOKKOS_LAMBDA(global_index v) {
          for (global_index e = start(v) + 1; e < start(v + 1); ++e) {
            const global_index x = adjacent(e);
            global_index j = e;
            for (; j > start(v) && adjacent(j - 1) > x; --j) adjacent(j) = adjacent(j - 1);
            adjacent(j) = x;
          }
        });
  }

  // Each lattice point's owner; per cell the new vertices it owns and their stencil entries.
  w.lattice = typename Work::template Array<global_index>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_refinement::lattice"), 27 * n_cells);
  typename Work::template Array<int> new_count(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_refinement::new_count"), n_cells),
      entry_count(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_refinement::entry_count"), n_cells);
  Kokkos::parallel_for(
      "tensormg::hex_refinement::owners", Policy(0, n_cells), KOKKOS_LAMBDA(global_index c) {
        global_index cv[8];
        for (int v = 0; v < 8; ++v) cv[v] = w.cells(8 * c + v);
        int n_new = 0, n_entries = 0;
        for (int l = 0; l < 27; ++l) {
          global_index corners[8];
          const int n = lattice_corners(cv, l, corners);
          if (n == 1) {
            w.lattice(27 * c + l) = corners[0];
            continue;
          }
          const global_index own = 27 * c + l, slot = n == 8 ? own : w.owner_slot(corners, n);
          w.lattice(27 * c + l) = ~slot;  // slot ≥ 0: c itself has the edge / face
          if (slot == own) ++n_new, n_entries += n;
        }
        new_count(c) = n_new;
        entry_count(c) = n_entries;
      });
  typename Work::template Array<global_index> new_offset(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_refinement::new_offset"), n_cells + 1),
      entry_offset(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_refinement::entry_offset"), n_cells + 1);
  const global_index n_new = exclusive_prefix_sum<ExecSpace>("tensormg::hex_refinement::new_offset", n_cells, new_count, new_offset);
  const global_index n_new_entries =
      exclusive_prefix_sum<ExecSpace>("tensormg::hex_refinement::entry_offset", n_cells, entry_count, entry_offset);
  const global_index n_fine_vertices = n_coarse_vertices + n_new, n_entries = n_coarse_vertices + n_new_entries;

  // The new vertices: coordinates and stencils, written by the cell that owns them.
  using Index = typename Work::template Array<global_index>;
  using Real = typename Work::template Array<double>;
  HexRefinement r;
  HexMesh& fine = r.fine;
  const Real fine_points = device_output<double, memory_space>(fine.points, 3 * n_fine_vertices, "tensormg::hex_refinement::fine_points"),
             weights = device_output<double, memory_space>(r.stencil_weights, n_entries, "tensormg::hex_refinement::stencil_weights");
  const Index offsets = device_output<global_index, memory_space>(r.stencil_offsets, n_fine_vertices + 1, "tensormg::hex_refinement::stencil_offsets"),
              stencil_vertices = device_output<global_index, memory_space>(r.stencil_vertices, n_entries, "tensormg::hex_refinement::stencil_vertices");
  Kokkos::parallel_for(
      "tensormg::hex_refinement::coarse_vertices", Policy(0, n_coarse_vertices + 1), KOKKOS_LAMBDA(global_index v) {
        offsets(v) = v;  // coarse vertex v: itself, weight 1
        if (v == n_coarse_vertices) return;
        stencil_vertices(v) = v;
        weights(v) = 1.0;
        for (int d = 0; d < 3; ++d) fine_points(3 * v + d) = w.points(3 * v + d);
      });
  Kokkos::parallel_for(
      "tensormg::hex_refinement::new_vertices", Policy(0, n_cells), KOKKOS_LAMBDA(global_index c) {
        global_index cv[8];
        for (int v = 0; v < 8; ++v) cv[v] = w.cells(8 * c + v);
        global_index index = n_coarse_vertices + new_offset(c), entry = n_coarse_vertices + entry_offset(c);
        for (int l = 0; l < 27; ++l) {
          if (w.lattice(27 * c + l) != ~(27 * c + l)) continue;
          global_index corners[8];
          const int n = lattice_corners(cv, l, corners);
          sort_small(corners, n);
          const double scale = n == 2 ? 0.5 : n == 4 ? 0.25 : 0.125;
          for (int d = 0; d < 3; ++d) {
            double sum = 0;
            for (int i = 0; i < n; ++i) sum += w.points(3 * corners[i] + d);
            fine_points(3 * index + d) = sum * scale;
          }
          for (int i = 0; i < n; ++i) {
            stencil_vertices(entry + i) = corners[i];
            weights(entry + i) = scale;
          }
          entry += n;
          offsets(index + 1) = entry;
          w.lattice(27 * c + l) = index++;
        }
      });

  // The children, each lattice point through its owner (whose entry now holds the fine vertex).
  const Index fine_cells = device_output<global_index, memory_space>(fine.cells, 64 * n_cells, "tensormg::hex_refinement::fine_cells");
  const auto fine_tags = device_output<int, memory_space>(fine.cell_tags, 8 * n_cells, "tensormg::hex_refinement::fine_tags");
  const bool tagged = !coarse.cell_tags.empty();
  const auto tags = tagged ? device_input<int, memory_space>(coarse.cell_tags, "tensormg::hex_refinement::tags") : DeviceArray<const int, memory_space>();
  Kokkos::parallel_for(
      "tensormg::hex_refinement::children", Policy(0, n_cells), KOKKOS_LAMBDA(global_index c) {
        global_index lattice[27];
        for (int l = 0; l < 27; ++l) {
          const global_index x = w.lattice(27 * c + l);
          lattice[l] = x >= 0 ? x : w.lattice(~x);
        }
        for (int child = 0; child < 8; ++child) {
          const int a = child & 1, b = (child >> 1) & 1, e = (child >> 2) & 1;
          for (int v = 0; v < 8; ++v)
            fine_cells(64 * c + 8 * child + v) =
                lattice[(a + (v & 1)) + 3 * (b + ((v >> 1) & 1)) + 9 * (e + ((v >> 2) & 1))];
          fine_tags(8 * c + child) = tagged ? tags(c) : 1;
        }
      });

  // Boundary quadrilaterals f0 f1 f2 f3 (counter-clockwise): four children in the same orientation.
  const global_index n_faces = coarse.n_boundary_faces();
  const Index fine_faces = device_output<global_index, memory_space>(fine.boundary_faces, 16 * n_faces, "tensormg::hex_refinement::fine_faces");
  global_index first_bad = n_faces;
  if (n_faces > 0) {
    const auto faces = device_input<global_index, memory_space>(coarse.boundary_faces, "tensormg::hex_refinement::faces");
    Kokkos::parallel_reduce(
        "tensormg::hex_refinement::boundary", Policy(0, n_faces),
        KOKKOS_LAMBDA(global_index f, global_index & bad) {
          global_index q[4], m[5];
          for (int i = 0; i < 4; ++i) q[i] = faces(4 * f + i);
          for (int i = 0; i < 5; ++i) {
            const global_index set[4] = {i < 4 ? q[i] : q[0], i < 4 ? q[(i + 1) % 4] : q[1], q[2], q[3]};
            const global_index slot = w.owner_slot(set, i == 4 ? 4 : 2);
            if (slot < 0) {
              if (f < bad) bad = f;
              return;
            }
            m[i] = w.lattice(slot);
          }
          // m: the midpoints of f0f1, f1f2, f2f3, f3f0, then the centre.
          const global_index children[4][4] = {
              {q[0], m[0], m[4], m[3]}, {m[0], q[1], m[1], m[4]}, {m[4], m[1], q[2], m[2]}, {m[3], m[4], m[2], q[3]}};
          for (int child = 0; child < 4; ++child)
            for (int i = 0; i < 4; ++i) fine_faces(16 * f + 4 * child + i) = children[child][i];
        },
        Kokkos::Min<global_index>(first_bad));
  }
  if (first_bad < n_faces) {
    const global_index* q = &coarse.boundary_faces[4 * first_bad];
    TENSORMG_CHECK(false, "boundary quadrilateral " << first_bad << " (vertices " << q[0] << " " << q[1] << " " << q[2]
                                                    << " " << q[3] << ") is not a face of any cell");
  }

  device_output_done(fine.points, fine_points);
  device_output_done(fine.cells, fine_cells);
  if (fine_on_device) {
    fine_on_device->cells = fine_cells;
    fine_on_device->points = fine_points;
  }
  device_output_done(fine.cell_tags, fine_tags);
  device_output_done(fine.boundary_faces, fine_faces);
  fine.boundary_tags.resize(4 * std::size_t(n_faces));
  for (global_index f = 0; f < n_faces; ++f)
    for (int child = 0; child < 4; ++child) fine.boundary_tags[4 * f + child] = coarse.boundary_tags[f];
  fine.complete_boundary = coarse.complete_boundary;  // every boundary face's four children
  if (stencils_on_device && !host_accessible<memory_space>) {
    stencils_on_device->offsets = offsets;
    stencils_on_device->vertices = stencil_vertices;
    stencils_on_device->weights = weights;
    return r;
  }
  device_output_done(r.stencil_offsets, offsets);
  device_output_done(r.stencil_vertices, stencil_vertices);
  device_output_done(r.stencil_weights, weights);
  return r;
}

template HexRefinement refine_hex_mesh<DefaultExec>(const HexMesh&, const DeviceHexMesh<DefaultExec>*,
                                                    DeviceHexMesh<DefaultExec>*, DeviceHexStencils<DefaultExec>*);
TENSORMG_IF_SECOND_SPACE(template HexRefinement refine_hex_mesh<SecondaryExec>(const HexMesh&,
                                                                             const DeviceHexMesh<SecondaryExec>*,
                                                                             DeviceHexMesh<SecondaryExec>*,
                                                                             DeviceHexStencils<SecondaryExec>*);)

}  // namespace tensormg
