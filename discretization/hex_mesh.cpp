#include "discretization/hex_mesh.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "discretization/trilinear.hpp"

namespace tensormg {

namespace {

// ---- brick ------------------------------------------------------------------------------------

/// splitmix64's finalizer: a bijective 64-bit mix with good avalanche.
std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Uniform in [0, 1) from (seed, vertex, direction).
double hash_unit(std::uint64_t seed, global_index vertex, int direction) {
  const std::uint64_t h = mix64(mix64(mix64(seed) ^ static_cast<std::uint64_t>(vertex)) + std::uint64_t(direction));
  return double(h >> 11) * (1.0 / 9007199254740992.0);  // 2^-53
}

/// Uniform in [0, n) without modulo bias; spelled out so that every standard library gives the same.
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n: values below it would bias the remainder
  std::uint64_t r;
  do r = rng();
  while (r < threshold);
  return r % n;
}

/// A random permutation of 0..n-1 (Fisher–Yates).
std::vector<global_index> random_permutation(std::mt19937_64& rng, global_index n) {
  std::vector<global_index> p(static_cast<std::size_t>(n));
  for (global_index i = 0; i < n; ++i) p[std::size_t(i)] = i;
  for (global_index i = n - 1; i > 0; --i)
    std::swap(p[std::size_t(i)], p[std::size_t(uniform_below(rng, std::uint64_t(i) + 1))]);
  return p;
}

// ---- Jacobians --------------------------------------------------------------------------------

std::string describe_cell(const HexMesh& mesh, global_index c) {
  std::ostringstream os;
  os.precision(17);
  os << "cell " << c << " (vertices";
  for (int v = 0; v < 8; ++v) os << ' ' << mesh.cells[std::size_t(8 * c + v)];
  os << "; coordinates";
  for (int v = 0; v < 8; ++v) {
    const global_index p = mesh.cells[std::size_t(8 * c + v)];
    if (p < 0 || p >= mesh.n_vertices()) continue;
    os << " (" << mesh.points[std::size_t(3 * p)] << ", " << mesh.points[std::size_t(3 * p + 1)] << ", "
       << mesh.points[std::size_t(3 * p + 2)] << ")";
  }
  os << ")";
  return os.str();
}

}  // namespace

HexMesh brick_hex_mesh(const BrickHexOptions& o) {
  const char* axis = "xyz";
  for (int d = 0; d < 3; ++d) {
    TENSORMG_CHECK(o.cells[d] >= 1, "brick cells must be positive (given " << o.cells[d] << " in " << axis[d] << ")");
    TENSORMG_CHECK(std::isfinite(o.lower[d]) && std::isfinite(o.upper[d]) && o.lower[d] < o.upper[d],
                   "brick lower bound " << o.lower[d] << " must be less than its upper bound " << o.upper[d]
                                        << " in " << axis[d]);
  }
  TENSORMG_CHECK(o.perturbation >= 0 && o.perturbation < 1,
                 "brick perturbation must be in [0, 1) (given " << o.perturbation << ")");
  const global_index limit = global_index(1) << 62;
  global_index n_vertices = 1;
  for (int d = 0; d < 3; ++d) {
    const bool fits = o.cells[d] < limit && n_vertices <= limit / (o.cells[d] + 1);
    TENSORMG_CHECK(fits, "brick of " << o.cells[0] << " x " << o.cells[1] << " x " << o.cells[2]
                                     << " cells has more than 2^62 vertices");
    n_vertices *= o.cells[d] + 1;
  }
  const global_index n[3] = {o.cells[0], o.cells[1], o.cells[2]};
  const global_index nv[3] = {n[0] + 1, n[1] + 1, n[2] + 1};
  const auto vertex = [&](global_index i, global_index j, global_index k) { return i + nv[0] * (j + nv[1] * k); };

  HexMesh mesh;
  double h[3];
  std::vector<double> coordinate[3];  // the unperturbed vertex planes, ending exactly on the box
  for (int d = 0; d < 3; ++d) {
    h[d] = (o.upper[d] - o.lower[d]) / double(n[d]);
    coordinate[d].resize(std::size_t(nv[d]));
    for (global_index i = 0; i <= n[d]; ++i)
      coordinate[d][std::size_t(i)] =
          i == n[d] ? o.upper[d] : o.lower[d] + (o.upper[d] - o.lower[d]) * double(i) / double(n[d]);
  }
  mesh.points.resize(std::size_t(3 * n_vertices));
  for (global_index k = 0; k <= n[2]; ++k)
    for (global_index j = 0; j <= n[1]; ++j)
      for (global_index i = 0; i <= n[0]; ++i) {
        const global_index v = vertex(i, j, k), ijk[3] = {i, j, k};
        const bool interior = i > 0 && i < n[0] && j > 0 && j < n[1] && k > 0 && k < n[2];
        for (int d = 0; d < 3; ++d) {
          double x = coordinate[d][std::size_t(ijk[d])];
          if (interior && o.perturbation > 0) x += o.perturbation * h[d] * (hash_unit(o.seed, v, d) - 0.5);
          mesh.points[std::size_t(3 * v + d)] = x;
        }
      }

  mesh.cells.reserve(std::size_t(8 * n[0] * n[1] * n[2]));
  for (global_index k = 0; k < n[2]; ++k)
    for (global_index j = 0; j < n[1]; ++j)
      for (global_index i = 0; i < n[0]; ++i)
        for (int v = 0; v < 8; ++v) mesh.cells.push_back(vertex(i + (v & 1), j + ((v >> 1) & 1), k + ((v >> 2) & 1)));
  mesh.cell_tags.assign(std::size_t(n[0] * n[1] * n[2]), 1);

  // Boundary faces: normal direction d, tangential u = d + 1, w = d + 2 (cyclic, so e_u × e_w = e_d). The order
  // a, a + u, a + u + w, a + w is counter-clockwise seen from +e_d (upper face); the lower face reverses it.
  for (int d = 0; d < 3; ++d) {
    const int u = (d + 1) % 3, w = (d + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      const int tag = 2 * d + side + 1;
      for (global_index b = 0; b < n[w]; ++b)
        for (global_index a = 0; a < n[u]; ++a) {
          global_index corner[4][3];
          const global_index du[4] = {0, 1, 1, 0}, dw[4] = {0, 0, 1, 1};
          for (int q = 0; q < 4; ++q) {
            const int r = side == 1 ? q : (4 - q) % 4;  // lower face: a, a + w, a + u + w, a + u
            corner[q][d] = side == 1 ? n[d] : 0;
            corner[q][u] = a + du[r];
            corner[q][w] = b + dw[r];
          }
          for (int q = 0; q < 4; ++q) mesh.boundary_faces.push_back(vertex(corner[q][0], corner[q][1], corner[q][2]));
          mesh.boundary_tags.push_back(tag);
        }
    }
  }

  if (o.renumber) {
    std::mt19937_64 rng(o.seed);
    const auto old_vertex = random_permutation(rng, n_vertices);  // new vertex i was old_vertex[i]
    const global_index n_cells = mesh.n_cells();
    const auto old_cell = random_permutation(rng, n_cells);
    std::vector<global_index> new_vertex(static_cast<std::size_t>(n_vertices));
    std::vector<double> points(mesh.points.size());
    for (global_index i = 0; i < n_vertices; ++i) {
      const global_index p = old_vertex[std::size_t(i)];
      new_vertex[std::size_t(p)] = i;
      for (int d = 0; d < 3; ++d) points[std::size_t(3 * i + d)] = mesh.points[std::size_t(3 * p + d)];
    }
    std::vector<global_index> cells(mesh.cells.size());
    for (global_index c = 0; c < n_cells; ++c) {
      const global_index old = old_cell[std::size_t(c)];
      for (int v = 0; v < 8; ++v)
        cells[std::size_t(8 * c + v)] = new_vertex[std::size_t(mesh.cells[std::size_t(8 * old + v)])];
    }
    for (auto& v : mesh.boundary_faces) v = new_vertex[std::size_t(v)];
    mesh.points = std::move(points);
    mesh.cells = std::move(cells);  // every cell carries tag 1: the tags need no permutation
  }
  mesh.complete_boundary = true;  // the six sides, every face of them
  check_hex_mesh(mesh);
  return mesh;
}

void check_hex_mesh_connectivity(const HexMesh& mesh, bool cell_vertices) {
  TENSORMG_CHECK(mesh.points.size() % 3 == 0,
                 "hex mesh: " << mesh.points.size() << " point coordinates are not a multiple of 3");
  TENSORMG_CHECK(mesh.cells.size() % 8 == 0,
                 "hex mesh: " << mesh.cells.size() << " cell vertex indices are not a multiple of 8");
  TENSORMG_CHECK(mesh.boundary_faces.size() % 4 == 0,
                 "hex mesh: " << mesh.boundary_faces.size() << " boundary face vertex indices are not a multiple of 4");
  TENSORMG_CHECK(mesh.cell_tags.size() == std::size_t(mesh.n_cells()),
                 "hex mesh: " << mesh.cell_tags.size() << " cell tags for " << mesh.n_cells() << " cells");
  TENSORMG_CHECK(mesh.boundary_tags.size() == std::size_t(mesh.n_boundary_faces()),
                 "hex mesh: " << mesh.boundary_tags.size() << " boundary tags for " << mesh.n_boundary_faces()
                              << " boundary faces");
  const global_index nv = mesh.n_vertices();
  for (global_index f = 0; f < mesh.n_boundary_faces(); ++f)
    for (int v = 0; v < 4; ++v) {
      const global_index p = mesh.boundary_faces[std::size_t(4 * f + v)];
      TENSORMG_CHECK(p >= 0 && p < nv, "hex mesh: boundary face " << f << " has vertex index " << p
                                                                    << " outside [0, " << nv << ")");
    }
  if (!cell_vertices) return;
  for (global_index c = 0; c < mesh.n_cells(); ++c)
    for (int v = 0; v < 8; ++v) {
      const global_index p = mesh.cells[std::size_t(8 * c + v)];
      TENSORMG_CHECK(p >= 0 && p < nv, "hex mesh: " << describe_cell(mesh, c) << " has vertex index " << p
                                                   << " outside [0, " << nv << ")");
      for (int w = 0; w < v; ++w)
        TENSORMG_CHECK(mesh.cells[std::size_t(8 * c + w)] != p,
                       "hex mesh: " << describe_cell(mesh, c) << " repeats vertex " << p);
    }
}

void check_hex_cell_jacobian(const HexMesh& mesh, global_index c) {
  double x[8][3];
  for (int v = 0; v < 8; ++v)
    for (int d = 0; d < 3; ++d) x[v][d] = mesh.points[std::size_t(3 * mesh.cells[std::size_t(8 * c + v)] + d)];
  if (trilinear_cell_valid(x)) return;
  for (int q = 0; q < hex_check_points; ++q) {
    double xi[3];
    hex_check_point(q, xi);
    const double det = trilinear_check_det(x, q);
    TENSORMG_CHECK(det > 0, "hex mesh: " << describe_cell(mesh, c) << " has Jacobian determinant " << det
                                         << " <= 0 at reference point (" << xi[0] << ", " << xi[1] << ", " << xi[2]
                                         << "): inverted or degenerate (vertex order must be lexicographic)");
  }
}

void check_hex_mesh(const HexMesh& mesh) {
  check_hex_mesh_connectivity(mesh);
  for (global_index c = 0; c < mesh.n_cells(); ++c) check_hex_cell_jacobian(mesh, c);
}

}  // namespace tensormg
