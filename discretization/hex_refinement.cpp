#include "discretization/hex_refinement.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/error.hpp"

namespace tensormg {

namespace {
/// A sorted tuple of coarse vertices naming an edge (2) or a face (4); unused entries −1.
using Key = std::array<global_index, 4>;
/// Open addressing with linear probing over a power-of-two table (about 3× faster than
/// std::unordered_map here: no node allocations). Keys have key[0] ≥ 0; an empty slot has −1.
class KeyTable {
 public:
  explicit KeyTable(std::size_t expected) {
    std::size_t capacity = 16;
    while (10 * capacity < 14 * expected) capacity *= 2;  // load below 0.7
    keys_.assign(capacity, Key{-1, -1, -1, -1});
    values_.assign(capacity, -1);
    mask_ = capacity - 1;
  }
  /// The value of key, or −1.
  global_index find(const Key& key) const { return values_[slot(key)]; }
  /// Inserts key → value (key must be new).
  void insert(const Key& key, global_index value) {
    if (10 * (++size_) > 7 * keys_.size()) grow();
    const std::size_t s = slot(key);
    keys_[s] = key;
    values_[s] = value;
  }

 private:
  std::size_t slot(const Key& key) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (const global_index v : key) {
      h ^= std::uint64_t(v) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h *= 0xBF58476D1CE4E5B9ull;
    }
    std::size_t s = std::size_t(h ^ (h >> 31)) & mask_;
    while (keys_[s][0] >= 0 && keys_[s] != key) s = (s + 1) & mask_;
    return s;
  }
  void grow() {
    std::vector<Key> keys(std::move(keys_));
    std::vector<global_index> values(std::move(values_));
    keys_.assign(2 * keys.size(), Key{-1, -1, -1, -1});
    values_.assign(2 * keys.size(), -1);
    mask_ = keys_.size() - 1;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i][0] >= 0) {
        const std::size_t s = slot(keys[i]);
        keys_[s] = keys[i];
        values_[s] = values[i];
      }
  }
  std::vector<Key> keys_;
  std::vector<global_index> values_;
  std::size_t mask_ = 0, size_ = 0;
};

/// The key of n ≤ 4 vertices: sorted (insertion sort), the rest −1.
Key make_key(const global_index* vertices, int n) {
  Key key{-1, -1, -1, -1};
  for (int i = 0; i < n; ++i) {
    int j = i;
    for (; j > 0 && key[j - 1] > vertices[i]; --j) key[j] = key[j - 1];
    key[j] = vertices[i];
  }
  return key;
}
}  // namespace

HexRefinement refine_hex_mesh(const HexMesh& coarse) {
  const global_index n_cells = coarse.n_cells(), n_coarse_vertices = coarse.n_vertices();
  TENSORMG_CHECK(double(n_cells) * 8 < 4.6e18 && double(n_coarse_vertices) + 19.0 * double(n_cells) < 4.6e18,
                 "refining " << n_cells << " cells would give more than 2^62 cells or vertices");
  HexRefinement r;
  HexMesh& fine = r.fine;
  fine.points = coarse.points;
  // Stencils in place: coarse vertex v is fine vertex v (weight 1); new vertices append theirs.
  r.stencil_offsets.reserve(std::size_t(n_coarse_vertices + 8 * n_cells) + 1);
  r.stencil_offsets.push_back(0);
  for (global_index v = 0; v < n_coarse_vertices; ++v) {
    r.stencil_vertices.push_back(v);
    r.stencil_weights.push_back(1.0);
    r.stencil_offsets.push_back(v + 1);
  }
  // Edge midpoints and face centres, shared between cells: found by their sorted coarse vertices.
  KeyTable shared(std::size_t(n_cells) * 7);  // about 3 edges and 3 faces per cell, plus the boundary's
  const auto add_vertex = [&](const global_index* corners, int n) {
    const Key key = n <= 4 ? make_key(corners, n) : Key{-1, -1, -1, -1};
    if (n <= 4) {
      const global_index found = shared.find(key);
      if (found >= 0) return found;
    }
    const global_index index = global_index(fine.points.size() / 3);
    global_index sorted[8];
    std::copy(corners, corners + n, sorted);
    std::sort(sorted, sorted + n);
    const double w = 1.0 / n;
    for (int d = 0; d < 3; ++d) {
      double x = 0;
      for (int i = 0; i < n; ++i) x += w * coarse.points[3 * sorted[i] + d];
      fine.points.push_back(x);
    }
    for (int i = 0; i < n; ++i) {
      r.stencil_vertices.push_back(sorted[i]);
      r.stencil_weights.push_back(w);
    }
    r.stencil_offsets.push_back(global_index(r.stencil_vertices.size()));
    if (n <= 4) shared.insert(key, index);
    return index;
  };
  fine.cells.resize(64 * std::size_t(n_cells));
  fine.cell_tags.resize(8 * std::size_t(n_cells));
  for (global_index c = 0; c < n_cells; ++c) {
    const global_index* cv = &coarse.cells[8 * c];
    // The 3×3×3 lattice of the cell: lattice index 0 and 2 are the cell's sides, 1 the middle.
    global_index lattice[27];
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
          global_index corners[8];
          int n = 0;
          for (int vz = 0; vz < 2; ++vz)
            for (int vy = 0; vy < 2; ++vy)
              for (int vx = 0; vx < 2; ++vx)
                if ((i == 1 || i == 2 * vx) && (j == 1 || j == 2 * vy) && (k == 1 || k == 2 * vz))
                  corners[n++] = cv[vx + 2 * vy + 4 * vz];
          lattice[i + 3 * j + 9 * k] = n == 1 ? corners[0] : add_vertex(corners, n);
        }
    for (int child = 0; child < 8; ++child) {
      const int a = child & 1, b = (child >> 1) & 1, e = (child >> 2) & 1;
      for (int v = 0; v < 8; ++v)
        fine.cells[64 * c + 8 * child + v] = lattice[(a + (v & 1)) + 3 * (b + ((v >> 1) & 1)) + 9 * (e + ((v >> 2) & 1))];
      fine.cell_tags[8 * c + child] = coarse.cell_tags.empty() ? 1 : coarse.cell_tags[c];
    }
  }
  // Boundary quadrilaterals f0 f1 f2 f3 (counter-clockwise): four children in the same orientation.
  const global_index n_faces = coarse.n_boundary_faces();
  fine.boundary_faces.reserve(16 * std::size_t(n_faces));
  fine.boundary_tags.reserve(4 * std::size_t(n_faces));
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

}  // namespace tensormg
