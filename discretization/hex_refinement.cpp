#include "discretization/hex_refinement.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "core/error.hpp"

namespace tensormg {

namespace {
/// A sorted tuple of coarse vertices naming an edge (2) or a face (4); unused entries −1.
using Key = std::array<global_index, 4>;
struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (const global_index v : k) {
      h ^= std::uint64_t(v) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h *= 0xBF58476D1CE4E5B9ull;
    }
    return std::size_t(h ^ (h >> 31));
  }
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
  std::vector<std::vector<std::pair<global_index, double>>> stencil(n_coarse_vertices);
  for (global_index v = 0; v < n_coarse_vertices; ++v) stencil[v] = {{v, 1.0}};
  // Edge midpoints and face centres, shared between cells: found by their sorted coarse vertices.
  std::unordered_map<Key, global_index, KeyHash> shared;
  shared.reserve(std::size_t(n_cells) * 6);
  const auto add_vertex = [&](const global_index* corners, int n) {
    const Key key = n <= 4 ? make_key(corners, n) : Key{-1, -1, -1, -1};
    if (n <= 4) {
      const auto found = shared.find(key);
      if (found != shared.end()) return found->second;
    }
    const global_index index = global_index(fine.points.size() / 3);
    std::vector<std::pair<global_index, double>> s;
    for (int i = 0; i < n; ++i) s.push_back({corners[i], 1.0 / n});
    std::sort(s.begin(), s.end());
    for (int d = 0; d < 3; ++d) {
      double x = 0;
      for (const auto& [v, w] : s) x += w * coarse.points[3 * v + d];
      fine.points.push_back(x);
    }
    stencil.push_back(std::move(s));
    if (n <= 4) shared.emplace(key, index);
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
      const auto found = shared.find(make_key(vertices.begin(), int(vertices.size())));
      TENSORMG_CHECK(found != shared.end(), "boundary quadrilateral " << f << " (vertices " << q[0] << " " << q[1]
                                                                      << " " << q[2] << " " << q[3]
                                                                      << ") is not a face of any cell");
      return found->second;
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
  r.stencil_offsets.assign(stencil.size() + 1, 0);
  for (std::size_t v = 0; v < stencil.size(); ++v) r.stencil_offsets[v + 1] = r.stencil_offsets[v] + global_index(stencil[v].size());
  r.stencil_vertices.reserve(r.stencil_offsets.back());
  r.stencil_weights.reserve(r.stencil_offsets.back());
  for (const auto& s : stencil)
    for (const auto& [v, w] : s) {
      r.stencil_vertices.push_back(v);
      r.stencil_weights.push_back(w);
    }
  return r;
}

}  // namespace tensormg
