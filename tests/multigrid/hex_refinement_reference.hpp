#pragma once
// The sequential uniform refinement the parallel refine_hex_mesh (discretization/hex_refinement.cpp)
// is tested against: cell by cell, each cell's 3x3x3 lattice in order, an edge or face numbered
// when a cell first reaches it (found by its sorted coarse vertices in per-vertex lists). This was
// the library's implementation until 2026-12-03; the numbering, stencils and coordinates it gives
// are the specification (discretization/hex_refinement.hpp).
#include <algorithm>
#include <array>
#include <initializer_list>

#include "core/error.hpp"
#include "discretization/hex_refinement.hpp"

namespace tensormg::testing {

namespace reference_detail {
/// A sorted tuple of coarse vertices naming an edge (2) or a face (4); unused entries −1.
using Key = std::array<global_index, 4>;
/// The coarse cells' edges and faces, found by their keys: a list per vertex of the entities whose
/// smallest vertex it is, stored together (CSR, each list sized by the occurrences the cells give
/// it), so a lookup scans a few entries at its vertex's place; cells near in the mesh's numbering
/// touch lists near in memory. (An open-addressing hash table over all keys before it spread the
/// lookups over the whole table: the refinement took 1.4-1.8x as long on the VM; perf/HISTORY.md, the low-order set-up.)
class EntityLists {
 public:
  /// count(v): the number of keys with smallest vertex v that will be looked up at most (every
  /// occurrence), over v < n_vertices.
  template <class Count>
  EntityLists(global_index n_vertices, Count&& count) : start_(std::size_t(n_vertices) + 1, 0) {
    count([&](global_index v) { ++start_[std::size_t(v) + 1]; });
    for (std::size_t v = 0; v < std::size_t(n_vertices); ++v) start_[v + 1] += start_[v];
    end_.assign(start_.begin(), start_.end() - 1);
    entries_.resize(std::size_t(start_.back()));
  }
  /// The value of key, or −1.
  global_index find(const Key& key) const {
    const std::size_t v = std::size_t(key[0]);
    if (key[0] < 0 || v + 1 >= start_.size()) return -1;
    for (global_index e = start_[v]; e < end_[v]; ++e)
      if (matches(entries_[std::size_t(e)], key)) return entries_[std::size_t(e)].value;
    return -1;
  }
  /// The value of key; if it is new, value_of_new() is called, stored with it and returned.
  template <class NewValue>
  global_index find_or_insert(const Key& key, NewValue&& value_of_new) {
    const std::size_t v = std::size_t(key[0]);
    for (global_index e = start_[v]; e < end_[v]; ++e)
      if (matches(entries_[std::size_t(e)], key)) return entries_[std::size_t(e)].value;
    Entry& added = entries_[std::size_t(end_[v]++)];
    added = {{key[1], key[2], key[3]}, value_of_new()};
    return added.value;
  }

 private:
  struct Entry {
    global_index rest[3];  ///< the key's other entries
    global_index value;
  };
  static bool matches(const Entry& e, const Key& key) {
    return e.rest[0] == key[1] && e.rest[1] == key[2] && e.rest[2] == key[3];
  }
  std::vector<global_index> start_, end_;
  std::vector<Entry> entries_;
};

/// The coarse vertices of point l = i + 3 j + 9 k of a cell's 3×3×3 lattice (index 0 and 2 the
/// cell's sides, 1 the middle): 1 (a vertex), 2 (an edge's midpoint), 4 (a face's centre) or 8
/// (the centre), in lexicographic corner order. Returns their number.
inline int lattice_corners(const global_index* cv, int l, global_index (&corners)[8]) {
  const int i = l % 3, j = (l / 3) % 3, k = l / 9;
  int n = 0;
  for (int vz = 0; vz < 2; ++vz)
    for (int vy = 0; vy < 2; ++vy)
      for (int vx = 0; vx < 2; ++vx)
        if ((i == 1 || i == 2 * vx) && (j == 1 || j == 2 * vy) && (k == 1 || k == 2 * vz))
          corners[n++] = cv[vx + 2 * vy + 4 * vz];
  return n;
}

/// out[0 .. n) = vertices[0 .. n) sorted ascending (insertion sort: n ≤ 8).
inline void sort_small(const global_index* vertices, int n, global_index* out) {
  for (int i = 0; i < n; ++i) {
    int j = i;
    for (; j > 0 && out[j - 1] > vertices[i]; --j) out[j] = out[j - 1];
    out[j] = vertices[i];
  }
}

/// The key of n ≤ 4 vertices: sorted, the rest −1.
inline Key make_key(const global_index* vertices, int n) {
  Key key{-1, -1, -1, -1};
  sort_small(vertices, n, key.data());
  return key;
}
}  // namespace reference_detail

inline HexRefinement refine_hex_mesh_reference(const HexMesh& coarse) {
  using namespace reference_detail;
  const global_index n_cells = coarse.n_cells(), n_coarse_vertices = coarse.n_vertices();
  TENSORMG_CHECK(double(n_cells) * 8 < 4.6e18 && double(n_coarse_vertices) + 19.0 * double(n_cells) < 4.6e18,
                 "refining " << n_cells << " cells would give more than 2^62 cells or vertices");
  HexRefinement r;
  HexMesh& fine = r.fine;
  // About 3 edges, 3 faces and a centre per cell, with 2, 4 and 8 stencil entries.
  const std::size_t new_vertices = 7 * std::size_t(n_cells) + 64, new_entries = 3 * 2 + 3 * 4 + 8;
  fine.points.reserve(3 * (std::size_t(n_coarse_vertices) + new_vertices));
  fine.points = coarse.points;
  // Stencils in place: coarse vertex v is fine vertex v (weight 1); new vertices append theirs.
  r.stencil_offsets.reserve(std::size_t(n_coarse_vertices) + new_vertices + 1);
  r.stencil_vertices.reserve(std::size_t(n_coarse_vertices) + new_entries * std::size_t(n_cells));
  r.stencil_weights.reserve(r.stencil_vertices.capacity());
  r.stencil_offsets.push_back(0);
  for (global_index v = 0; v < n_coarse_vertices; ++v) {
    r.stencil_vertices.push_back(v);
    r.stencil_weights.push_back(1.0);
    r.stencil_offsets.push_back(v + 1);
  }
  // Edge midpoints and face centres, shared between cells: found by their sorted coarse vertices,
  // listed at their smallest vertex (every occurrence counted first).
  EntityLists shared(n_coarse_vertices, [&](auto&& add) {
    for (global_index c = 0; c < n_cells; ++c)
      for (int l = 0; l < 27; ++l) {
        global_index corners[8];
        const int n = lattice_corners(&coarse.cells[8 * c], l, corners);
        if (n == 2 || n == 4) add(*std::min_element(corners, corners + n));
      }
  });
  const auto new_vertex = [&](const global_index* corners, int n) {
    const global_index index = global_index(fine.points.size() / 3);
    global_index sorted[8];
    sort_small(corners, n, sorted);
    const double w = 1.0 / n;  // exact: n = 2, 4, 8
    for (int d = 0; d < 3; ++d) {
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += coarse.points[3 * sorted[i] + d];
      fine.points.push_back(sum * w);
    }
    for (int i = 0; i < n; ++i) {
      r.stencil_vertices.push_back(sorted[i]);
      r.stencil_weights.push_back(w);
    }
    r.stencil_offsets.push_back(global_index(r.stencil_vertices.size()));
    return index;
  };
  const auto add_vertex = [&](const global_index* corners, int n) {
    if (n > 4) return new_vertex(corners, n);  // the cell's centre: no other cell has it
    return shared.find_or_insert(make_key(corners, n), [&] { return new_vertex(corners, n); });
  };
  // Filled cell by cell below (reserved, not zeroed first).
  fine.cells.reserve(64 * std::size_t(n_cells));
  fine.cell_tags.reserve(8 * std::size_t(n_cells));
  for (global_index c = 0; c < n_cells; ++c) {
    const global_index* cv = &coarse.cells[8 * c];
    // The 3×3×3 lattice of the cell: lattice index 0 and 2 are the cell's sides, 1 the middle.
    global_index lattice[27];
    for (int l = 0; l < 27; ++l) {
      global_index corners[8];
      const int n = lattice_corners(cv, l, corners);
      lattice[l] = n == 1 ? corners[0] : add_vertex(corners, n);
    }
    for (int child = 0; child < 8; ++child) {
      const int a = child & 1, b = (child >> 1) & 1, e = (child >> 2) & 1;
      for (int v = 0; v < 8; ++v)
        fine.cells.push_back(lattice[(a + (v & 1)) + 3 * (b + ((v >> 1) & 1)) + 9 * (e + ((v >> 2) & 1))]);
      fine.cell_tags.push_back(coarse.cell_tags.empty() ? 1 : coarse.cell_tags[c]);
    }
  }
  // Boundary quadrilaterals f0 f1 f2 f3 (counter-clockwise): four children in the same orientation.
  const global_index n_faces = coarse.n_boundary_faces();
  fine.boundary_faces.reserve(16 * std::size_t(n_faces));
  fine.boundary_tags.reserve(4 * std::size_t(n_faces));
  fine.complete_boundary = coarse.complete_boundary;  // every boundary face's four children
  for (global_index f = 0; f < n_faces; ++f) {
    const global_index* q = &coarse.boundary_faces[4 * f];
    const auto lookup = [&](std::initializer_list<global_index> vertices) {
      const global_index found = shared.find(make_key(vertices.begin(), int(vertices.size())));
      TENSORMG_CHECK(found >= 0, "boundary quadrilateral " << f << " (vertices " << q[0] << " " << q[1]
                                                                      << " " << q[2] << " " << q[3]
                                                                      << ") is not a face of any cell");
      return found;
    };
    const global_index m01 = lookup({q[0], q[1]}), m12 = lookup({q[1], q[2]}), m23 = lookup({q[2], q[3]}),
                       m30 = lookup({q[3], q[0]}), centre = lookup({q[0], q[1], q[2], q[3]});
    const global_index children[4][4] = {
        {q[0], m01, centre, m30}, {m01, q[1], m12, centre}, {centre, m12, q[2], m23}, {m30, centre, m23, q[3]}};
    for (const auto& child : children) {
      fine.boundary_faces.insert(fine.boundary_faces.end(), child, child + 4);
      fine.boundary_tags.push_back(coarse.boundary_tags[f]);
    }
  }
  return r;
}

}  // namespace tensormg::testing
