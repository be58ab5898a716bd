#include "discretization/hex_layout.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>

#include "backends/device_traits.hpp"  // the partitioner's staging (DeviceTraits::halo_staging)
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/host_vector_arrays.hpp"
#include "discretization/hex_vertex_numbering.hpp"
#include "discretization/trilinear.hpp"

namespace tensormg {

namespace {
constexpr EnumName<HexMaterial> material_names[] = {{HexMaterial::uniform, "uniform"},
                                                    {HexMaterial::layered, "layered"}};
constexpr EnumName<HexOrdering> ordering_names[] = {{HexOrdering::morton, "morton"}, {HexOrdering::mesh, "mesh"}};

/// The six faces of a cell in lexicographic vertex numbering.
constexpr int cell_faces[6][4] = {{0, 2, 4, 6}, {1, 3, 5, 7}, {0, 1, 4, 5}, {2, 3, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};

/// Recursive coordinate bisection of cells[begin, end) into parts first .. first + parts − 1: split
/// along the widest extent of the centroids, at the cell count proportional to the parts on each
/// side. Ties are broken by cell index, so every rank computes the same parts.
void bisect(std::vector<global_index>& cells, std::size_t begin, std::size_t end, int first, int parts,
            const std::vector<double>& centroid, std::vector<int>& part) {
  if (parts == 1) {
    for (std::size_t i = begin; i < end; ++i) part[cells[i]] = first;
    return;
  }
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) lo[d] = std::numeric_limits<double>::max(), hi[d] = std::numeric_limits<double>::lowest();
  for (std::size_t i = begin; i < end; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], centroid[3 * cells[i] + d]);
      hi[d] = std::max(hi[d], centroid[3 * cells[i] + d]);
    }
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (hi[d] - lo[d] > hi[axis] - lo[axis]) axis = d;
  const int left = parts / 2;
  const std::size_t split = begin + std::size_t((end - begin) * double(left) / parts);
  std::nth_element(cells.begin() + begin, cells.begin() + split, cells.begin() + end,
                   [&](global_index a, global_index b) {
                     const double ca = centroid[3 * a + axis], cb = centroid[3 * b + axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  bisect(cells, begin, split, first, left, centroid, part);
  bisect(cells, split, end, first + left, parts - left, centroid, part);
}
/// The first cell with a vertex index out of range or repeated, and the first of the others whose
/// Jacobian determinant is not positive at one of the check points (n_cells: none), found in
/// parallel on ExecSpace.
template <class ExecSpace>
struct FirstBadCells {
  DeviceHexMesh<ExecSpace> mesh;
  global_index n_vertices = 0;
  using value_type = global_index[];
  using size_type = global_index;
  size_type value_count = 2;
  KOKKOS_INLINE_FUNCTION void init(value_type first) const {
    first[0] = first[1] = Kokkos::reduction_identity<global_index>::min();
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type first, const volatile value_type other) const {
    for (int i = 0; i < 2; ++i)
      if (other[i] < first[i]) first[i] = other[i];
  }
  KOKKOS_INLINE_FUNCTION void operator()(global_index c, value_type first) const {
    global_index p[8];
    bool connected = true;
    for (int v = 0; v < 8; ++v) {
      p[v] = mesh.cells(8 * c + v);
      connected = connected && p[v] >= 0 && p[v] < n_vertices;
      for (int w = 0; w < v; ++w) connected = connected && p[w] != p[v];
    }
    if (!connected) {
      if (c < first[0]) first[0] = c;
      return;
    }
    double x[8][3];
    for (int v = 0; v < 8; ++v)
      for (int d = 0; d < 3; ++d) x[v][d] = mesh.points(3 * p[v] + d);
    if (!trilinear_cell_valid(x) && c < first[1]) first[1] = c;
  }
};

/// check_hex_mesh with the determinants checked in parallel on ExecSpace (the same messages); the
/// mesh's arrays there (`given`, or copied after the array sizes passed; a cell's vertex indices are
/// checked before its points are read) are returned for the layout's other kernels.
template <class ExecSpace>
DeviceHexMesh<ExecSpace> check_hex_mesh_in_parallel(const HexMesh& mesh, const DeviceHexMesh<ExecSpace>* given) {
  check_hex_mesh_connectivity(mesh, false);  // sizes and boundary faces
  const global_index n_cells = mesh.n_cells();
  const FirstBadCells<ExecSpace> f{DeviceHexMesh<ExecSpace>::of(mesh, given), mesh.n_vertices()};
  global_index first[2] = {n_cells, n_cells};
  Kokkos::parallel_reduce("tensormg::hex_layout::check_cells",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<global_index>>(0, n_cells), f, first);
  if (first[0] < n_cells) check_hex_mesh_connectivity(mesh);  // throws, naming the first bad cell
  if (first[1] < n_cells) check_hex_cell_jacobian(mesh, first[1]);  // throws, naming the cell
  return f.mesh;
}
}  // namespace

std::string to_string(HexMaterial m) { return enum_name(material_names, m); }
HexMaterial parse_hex_material(const std::string& text, const char* what) {
  return parse_enum(material_names, text, what);
}
std::string to_string(HexOrdering o) { return enum_name(ordering_names, o); }
HexOrdering parse_hex_ordering(const std::string& text, const char* what) {
  return parse_enum(ordering_names, text, what);
}

HexDirichlet parse_hex_dirichlet(const std::string& text) {
  const std::string usage = "Dirichlet set '" + text +
                            "' is not understood; use boundary, none, or parts joined by '+': tag:N, x=V, y=V, z=V";
  if (text == "boundary") return HexDirichlet{};
  if (text == "none") return HexDirichlet::none();
  HexDirichlet d = HexDirichlet::none();
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('+', start);
    const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    TENSORMG_CHECK(!part.empty(), usage);
    char* stop = nullptr;
    if (part.rfind("tag:", 0) == 0) {
      const std::string number = part.substr(4);
      const long tag = std::strtol(number.c_str(), &stop, 10);
      TENSORMG_CHECK(!number.empty() && stop == number.c_str() + number.size() && tag >= 0 && tag <= INT32_MAX, usage);
      d.tags.push_back(int(tag));
    } else if (part.size() > 2 && (part[0] == 'x' || part[0] == 'y' || part[0] == 'z') && part[1] == '=') {
      const std::string number = part.substr(2);
      const double value = std::strtod(number.c_str(), &stop);
      TENSORMG_CHECK(stop == number.c_str() + number.size() && std::isfinite(value) &&
                         number.find_first_of("xX") == std::string::npos,
                     usage);
      d.planes.push_back({part[0] - 'x', value});
    } else {
      TENSORMG_CHECK(false, usage);
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return d;
}

std::vector<double> hex_cell_modulus(const HexMesh& mesh, const HexMaterialOptions& material) {
  if (!material.cell_modulus.empty()) return material.cell_modulus;
  const global_index n_cells = mesh.n_cells();
  std::vector<double> modulus(n_cells, 1.0);
  if (material.kind != HexMaterial::layered) return modulus;
  double zlo = std::numeric_limits<double>::max(), zhi = std::numeric_limits<double>::lowest();
  for (const global_index v : mesh.cells) zlo = std::min(zlo, mesh.points[3 * v + 2]), zhi = std::max(zhi, mesh.points[3 * v + 2]);
  for (global_index c = 0; c < n_cells; ++c) {
    double z = 0;
    for (int v = 0; v < 8; ++v) z += 0.125 * mesh.points[3 * mesh.cells[8 * c + v] + 2];
    const int layer = std::min(material.layers - 1, int(std::floor((z - zlo) / (zhi - zlo) * material.layers)));
    modulus[c] = layer % 2 == 0 ? 1.0 : material.contrast;
  }
  return modulus;
}

namespace {
/// The cells' vertex averages, [cell][3].
std::vector<double> cell_centroids(const HexMesh& mesh) {
  const global_index n_cells = mesh.n_cells();
  std::vector<double> centroid(3 * std::size_t(n_cells), 0.0);
  for (global_index c = 0; c < n_cells; ++c)
    for (int v = 0; v < 8; ++v)
      for (int d = 0; d < 3; ++d) centroid[3 * c + d] += 0.125 * mesh.points[3 * mesh.cells[8 * c + v] + d];
  return centroid;
}

std::vector<int> partition_by_centroids(const std::vector<double>& centroid, int parts) {
  const std::size_t n_cells = centroid.size() / 3;
  std::vector<int> part(n_cells, 0);
  if (parts <= 1) return part;
  std::vector<global_index> order(n_cells);
  std::iota(order.begin(), order.end(), global_index(0));
  bisect(order, 0, order.size(), 0, parts, centroid, part);
  return part;
}

/// The bits of x < 2^21 spread to every third position (bit b to bit 3 b): one coordinate of a
/// Morton key.
std::uint64_t spread_bits(std::uint64_t x) {
  x &= 0x1fffff;
  x = (x | x << 32) & 0x1f00000000ffffULL;
  x = (x | x << 16) & 0x1f0000ff0000ffULL;
  x = (x | x << 8) & 0x100f00f00f00f00fULL;
  x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
  x = (x | x << 2) & 0x1249249249249249ULL;
  return x;
}
}  // namespace

std::vector<int> hex_partition(const HexMesh& mesh, int parts) {
  return partition_by_centroids(cell_centroids(mesh), parts);
}

namespace {
/// The order of all mesh cells (HexLayout::cell_sequence) from their parts and centroids.
std::vector<global_index> cell_sequence_of(const std::vector<int>& part, const std::vector<double>& centroid,
                                           HexOrdering ordering) {
  const global_index n_cells = global_index(part.size());
  std::vector<global_index> sequence(n_cells);
  std::iota(sequence.begin(), sequence.end(), global_index(0));
  if (ordering == HexOrdering::morton) {
    double lo[3], hi[3];
    for (int d = 0; d < 3; ++d) lo[d] = std::numeric_limits<double>::max(), hi[d] = std::numeric_limits<double>::lowest();
    for (global_index c = 0; c < n_cells; ++c)
      for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], centroid[3 * c + d]), hi[d] = std::max(hi[d], centroid[3 * c + d]);
    // Sorted by value (part, key, cell), not as indices compared through part[] and key[] (random
    // reads: 7.7 s against 1.6 s for 9e6 random keys in a micro-benchmark on the VM).
    struct Entry {
      int part;
      std::uint64_t key;
      global_index cell;
      bool operator<(const Entry& o) const {
        return part != o.part ? part < o.part : key != o.key ? key < o.key : cell < o.cell;
      }
    };
    std::vector<Entry> entries(n_cells);
    for (global_index c = 0; c < n_cells; ++c) {
      std::uint64_t key = 0;
      for (int d = 0; d < 3; ++d) {
        const double t = hi[d] > lo[d] ? (centroid[3 * c + d] - lo[d]) / (hi[d] - lo[d]) : 0.0;
        key |= spread_bits(std::min<std::uint64_t>((1u << 21) - 1, std::uint64_t(t * (1u << 21)))) << d;
      }
      entries[c] = {part[c], key, c};
    }
    std::sort(entries.begin(), entries.end());
    for (global_index i = 0; i < n_cells; ++i) sequence[i] = entries[i].cell;
  } else {
    std::stable_sort(sequence.begin(), sequence.end(), [&](global_index a, global_index b) { return part[a] < part[b]; });
  }
  return sequence;
}
}  // namespace

std::vector<global_index> hex_cell_sequence(const HexMesh& mesh, const std::vector<int>& part, HexOrdering ordering) {
  TENSORMG_CHECK(global_index(part.size()) == mesh.n_cells(),
                 "the cell partition has " << part.size() << " entries for " << mesh.n_cells() << " cells");
  return cell_sequence_of(part, ordering == HexOrdering::morton ? cell_centroids(mesh) : std::vector<double>{}, ordering);
}

std::vector<global_index> refined_cell_sequence(const std::vector<global_index>& coarse_sequence) {
  std::vector<global_index> fine(8 * coarse_sequence.size());
  for (std::size_t i = 0; i < coarse_sequence.size(); ++i)
    for (int child = 0; child < 8; ++child) fine[8 * i + child] = 8 * coarse_sequence[i] + child;
  return fine;
}

namespace {
/// The rank's cells and points gathered from the mesh on ExecSpace (a free function: no device
/// lambda in a constructor): cells [cell][8] local vertices with a Dirichlet vertex l stored as ~l,
/// points [vertex][3]; the numbering's local_of and mesh_vertex as they are on ExecSpace.
template <class ExecSpace, class CellView, class PointView>
void gather_cells_and_points(const DeviceHexMesh<ExecSpace>& mesh, const std::vector<global_index>& mesh_cell,
                             const hex_numbering::VertexNumbering<ExecSpace>& numbering,
                             const std::vector<char>& dirichlet, CellView& cells, PointView& points) {
  using memory_space = typename ExecSpace::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<global_index>>;
  const global_index n_cells = global_index(mesh_cell.size()), n_local = numbering.n_local;
  const auto all_cells = mesh.cells;
  const auto all_points = mesh.points;
  const auto cell_of = device_input<global_index, memory_space>(mesh_cell, "tensormg::hex_layout::mesh_cell");
  const auto vertex_of = numbering.mesh_vertex;
  const auto local = numbering.local_of;
  const auto constrained = device_input<char, memory_space>(dirichlet, "tensormg::hex_layout::dirichlet");
  cells = CellView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::cells"), n_cells);
  const auto encoded = cells;
  Kokkos::parallel_for(
      "tensormg::hex_layout::cells", Policy(0, n_cells), KOKKOS_LAMBDA(global_index lc) {
        for (int v = 0; v < 8; ++v) {
          const local_index l = local(all_cells(8 * cell_of(lc) + v));
          encoded(lc, v) = constrained(l) ? ~l : l;
        }
      });
  points = PointView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::points"), n_local);
  const auto xyz = points;
  Kokkos::parallel_for(
      "tensormg::hex_layout::points", Policy(0, n_local), KOKKOS_LAMBDA(global_index i) {
        for (int d = 0; d < 3; ++d) xyz(i, d) = all_points(3 * vertex_of(i) + d);
      });
}
}  // namespace

template <class ExecSpace>
HexLayout<ExecSpace>::HexLayout(const HexMesh& mesh, int components, const HexDirichlet& dirichlet,
                                const HexMaterialOptions& material, MPI_Comm comm, HexOrdering ordering,
                                const std::vector<int>& cell_rank, const std::vector<global_index>& cell_sequence,
                                const DeviceHexMesh<ExecSpace>* on_device)
    : components_(components) {
  // The steps' wall-clock times (setup_seconds): each step's end fences the device work it started.
  auto step_start = std::chrono::steady_clock::now();
  const auto step = [&](const char* name) {
    Kokkos::fence();
    const auto now = std::chrono::steady_clock::now();
    setup_seconds_.emplace_back(name, std::chrono::duration<double>(now - step_start).count());
    step_start = now;
  };
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::unique_ptr<DeviceHexMesh<ExecSpace>> device_mesh;  // for the check and the gather below
  collectively(comm, [&] {
    TENSORMG_CHECK(components == 1 || components == 3, "Q1 layouts have 1 or 3 components per vertex, not " << components);
    device_mesh = std::make_unique<DeviceHexMesh<ExecSpace>>(check_hex_mesh_in_parallel<ExecSpace>(mesh, on_device));
    TENSORMG_CHECK(mesh.n_cells() >= size, "the mesh has " << mesh.n_cells() << " cells, fewer than the " << size
                                                           << " ranks; use at most " << mesh.n_cells() << " ranks");
    TENSORMG_CHECK(material.layers >= 1, "--layers must be at least 1");
    TENSORMG_CHECK(cell_rank.empty() || global_index(cell_rank.size()) == mesh.n_cells(),
                   "the cell partition has " << cell_rank.size() << " entries for " << mesh.n_cells() << " cells");
    for (const int r : cell_rank) TENSORMG_CHECK(r >= 0 && r < size, "the cell partition names rank " << r);
    TENSORMG_CHECK(material.contrast > 0 && std::isfinite(material.contrast), "--contrast must be positive");
    TENSORMG_CHECK(material.cell_modulus.empty() || global_index(material.cell_modulus.size()) == mesh.n_cells(),
                   "the per-cell materials have " << material.cell_modulus.size() << " entries for " << mesh.n_cells()
                                                  << " cells");
    for (const double e : material.cell_modulus)
      TENSORMG_CHECK(e > 0 && std::isfinite(e), "a per-cell coefficient is not positive: " << e);
    TENSORMG_CHECK(material.poisson_ratio > -1 && material.poisson_ratio < 0.5,
                   "Poisson's ratio must be in (-1, 0.5), not " << material.poisson_ratio);
  });
  step("validity check");
  const global_index n_cells = mesh.n_cells(), n_vertices = mesh.n_vertices();
  n_global_cells_ = n_cells;

  // The centroids where the partition or the order needs them.
  const bool need_centroids = cell_rank.empty() || (cell_sequence.empty() && ordering == HexOrdering::morton);
  const std::vector<double> centroid = need_centroids ? cell_centroids(mesh) : std::vector<double>{};
  const std::vector<int> part = cell_rank.empty() ? partition_by_centroids(centroid, size) : cell_rank;

  // Cells in the order each rank works through them (cell_sequence_of), unless given: by part,
  // then (morton) along a Z-order curve of the centroids, with vertex numbers in the order of the
  // first cell of their owner that touches them, so that vertices and cells near in space are near
  // in memory whatever the file's numbering; or (mesh) both as the mesh has them.
  const std::vector<global_index> computed =
      cell_sequence.empty() ? cell_sequence_of(part, ordering == HexOrdering::morton ? centroid : std::vector<double>{}, ordering)
                            : std::vector<global_index>{};
  const std::vector<global_index>& sequence = cell_sequence.empty() ? computed : cell_sequence;
  if (!cell_sequence.empty()) {
    // A permutation of the cells, grouped by part in ascending order.
    std::vector<char> seen(n_cells, 0);
    bool valid = global_index(cell_sequence.size()) == n_cells;
    for (global_index i = 0; valid && i < n_cells; ++i) {
      const global_index c = cell_sequence[i];
      valid = c >= 0 && c < n_cells && !seen[c] && (i == 0 || part[cell_sequence[i - 1]] <= part[c]);
      if (valid) seen[c] = 1;
    }
    TENSORMG_CHECK_COLLECTIVE(comm, valid, "internal: the given cell order is no permutation of the mesh's cells grouped by rank");
  }
  step("partition and order");
  // The rank's cells: its block of the sequence.
  const auto rank_begin =
      std::partition_point(sequence.begin(), sequence.end(), [&](global_index c) { return part[c] < rank; });
  const auto rank_end = std::partition_point(rank_begin, sequence.end(), [&](global_index c) { return part[c] <= rank; });
  mesh_cell_.assign(rank_begin, rank_end);
  const global_index n_local_cells = global_index(mesh_cell_.size());
  hex_numbering::VertexNumbering<ExecSpace> numbering = hex_numbering::number_vertices<ExecSpace>(
      *device_mesh, part, sequence, global_index(rank_begin - sequence.begin()), n_local_cells, ordering, size, rank);
  const std::vector<int>& owner = numbering.owner;
  n_global_vertices_ = numbering.n_global;
  first_vertex_ = numbering.first;
  const global_index n_owned = numbering.n_owned, n_local = numbering.n_local;
  TENSORMG_CHECK_COLLECTIVE(comm, n_local * components < std::numeric_limits<local_index>::max() &&
                                      n_local_cells * 8 < std::numeric_limits<local_index>::max(),
                            "rank " << rank << " would hold " << n_local * components << " DoFs and " << n_local_cells
                                    << " cells, more than 32-bit local indices allow; use more ranks");
  n_owned_vertices_ = local_index(n_owned);
  mesh_vertex_ = std::move(numbering.host_mesh_vertex);
  global_vertex_ = std::move(numbering.host_global_vertex);
  const std::vector<local_index>& local_of = numbering.host_local_of;

  step("numbering");
  // Dirichlet vertices (mesh numbering, for the local vertices only).
  dirichlet_vertex_.assign(n_local, 0);
  if (dirichlet.whole_boundary && mesh.complete_boundary) {
    // The mesh lists its whole boundary (the brick, its refinements): their vertices.
    for (const global_index v : mesh.boundary_faces)
      if (local_of[v] >= 0) dirichlet_vertex_[local_of[v]] = 1;
  } else if (dirichlet.whole_boundary) {
    // A face of a local cell is on the boundary when no other cell holds its four vertices
    // (vertex → cells adjacency of the whole mesh).
    std::vector<global_index> start(n_vertices + 1, 0), adjacent(8 * std::size_t(n_cells));
    for (const global_index v : mesh.cells) ++start[v + 1];
    for (global_index v = 0; v < n_vertices; ++v) start[v + 1] += start[v];
    {
      std::vector<global_index> fill(start.begin(), start.end() - 1);
      for (global_index c = 0; c < n_cells; ++c)
        for (int v = 0; v < 8; ++v) adjacent[fill[mesh.cells[8 * c + v]]++] = c;
    }
    for (const global_index c : mesh_cell_)
      for (const auto& face : cell_faces) {
        global_index f[4];
        for (int i = 0; i < 4; ++i) f[i] = mesh.cells[8 * c + face[i]];
        // Another cell holding the face holds its diagonal f[0], f[3]: walk the two vertices' cell
        // lists (ascending) together and check the other two vertices of each common cell. (It
        // read every cell of f[0] instead, 8 random cells per face: about a third of the layout's
        // samples in `perf record`.)
        bool shared = false;
        global_index a = start[f[0]], b = start[f[3]];
        const global_index a_end = start[f[0] + 1], b_end = start[f[3] + 1];
        while (a < a_end && b < b_end && !shared) {
          const global_index ca = adjacent[a], cb = adjacent[b];
          if (ca != cb) {
            if (ca < cb)
              ++a;
            else
              ++b;
            continue;
          }
          if (ca != c) {
            const global_index* w = &mesh.cells[8 * ca];
            const auto holds = [w](global_index vertex) {
              for (int v = 0; v < 8; ++v)
                if (w[v] == vertex) return true;
              return false;
            };
            shared = holds(f[1]) && holds(f[2]);
          }
          ++a, ++b;
        }
        if (!shared)
          for (int i = 0; i < 4; ++i) dirichlet_vertex_[local_of[f[i]]] = 1;
      }
  }
  if (!dirichlet.tags.empty())
    for (global_index f = 0; f < mesh.n_boundary_faces(); ++f)
      if (std::find(dirichlet.tags.begin(), dirichlet.tags.end(), mesh.boundary_tags[f]) != dirichlet.tags.end())
        for (int i = 0; i < 4; ++i) {
          const local_index l = local_of[mesh.boundary_faces[4 * f + i]];
          if (l >= 0) dirichlet_vertex_[l] = 1;
        }
  if (!dirichlet.planes.empty()) {
    double extent = 0;
    for (int d = 0; d < 3; ++d) {
      double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
      for (global_index v = 0; v < n_vertices; ++v) {
        lo = std::min(lo, mesh.points[3 * v + d]);
        hi = std::max(hi, mesh.points[3 * v + d]);
      }
      extent = std::max(extent, hi - lo);
    }
    for (global_index i = 0; i < n_local; ++i)
      for (const auto& plane : dirichlet.planes)
        if (std::abs(mesh.points[3 * mesh_vertex_[i] + plane.axis] - plane.value) <= 1e-12 * extent)
          dirichlet_vertex_[i] = 1;
  }

  step("boundary vertices");
  // Cells and points on the device and their host copies; materials on the host.
  gather_cells_and_points<ExecSpace>(*device_mesh, mesh_cell_, numbering, dirichlet_vertex_, cells_, points_);
  // The given per-cell moduli as they are (a hierarchy's levels give them), else by kind.
  const std::vector<double> by_kind = material.cell_modulus.empty() ? hex_cell_modulus(mesh, material) : std::vector<double>{};
  const std::vector<double>& modulus = material.cell_modulus.empty() ? by_kind : material.cell_modulus;
  const double nu = material.poisson_ratio;
  host_coefficient_.resize(n_local_cells);
  host_lambda_.resize(n_local_cells);
  host_mu_.resize(n_local_cells);
  for (global_index lc = 0; lc < n_local_cells; ++lc) {
    const double e = modulus[mesh_cell_[lc]];
    host_coefficient_[lc] = e;
    host_lambda_[lc] = e * nu / ((1 + nu) * (1 - 2 * nu));
    host_mu_[lc] = e / (2 * (1 + nu));
  }

  step("cells and materials");
  // Device copies.
  using HU = Kokkos::MemoryUnmanaged;
  const auto to_device = [&](const char* name, const auto& host, auto& view) {
    using value = typename std::decay_t<decltype(host)>::value_type;
    view = std::decay_t<decltype(view)>(std::string(name), host.size());
    Kokkos::deep_copy(view, Kokkos::View<const value*, Kokkos::HostSpace, HU>(host.data(), host.size()));
  };
  to_device("tensormg::hex_layout::coefficient", host_coefficient_, coefficient_);
  to_device("tensormg::hex_layout::lambda", host_lambda_, lambda_);
  to_device("tensormg::hex_layout::mu", host_mu_, mu_);
  std::vector<local_index> constrained;
  for (local_index i = 0; i < n_owned_vertices_; ++i)
    if (dirichlet_vertex_[i])
      for (int c = 0; c < components; ++c) constrained.push_back(i * components + c);
  to_device("tensormg::hex_layout::constrained", constrained, constrained_);

  // DoF partitioner: ghost DoFs 3 v + c by global vertex number.
  std::vector<global_index> ghost_ids;
  std::vector<int> ghost_owner;
  for (global_index i = n_owned; i < n_local; ++i)
    for (int c = 0; c < components; ++c) {
      ghost_ids.push_back(global_vertex_[i] * components + c);
      ghost_owner.push_back(owner[mesh_vertex_[i]]);
    }
  const global_index first_dof = first_vertex_ * components;
  partitioner_ = std::make_shared<const partitioner_type>(
      comm, local_index(n_owned * components), ghost_ids, ghost_owner,
      [first_dof](global_index id) { return local_index(id - first_dof); }, HaloTransport::automatic,
      typename DeviceTraits<ExecSpace>::halo_staging{});
  step("device copies and partitioner");
}

template <class ExecSpace>
const std::vector<local_index>& HexLayout<ExecSpace>::host_cells() const {
  if (!host_cells_made_) {
    const auto encoded = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cells_);
    host_cells_.resize(8 * std::size_t(encoded.extent(0)));
    for (std::size_t c = 0; c < encoded.extent(0); ++c)
      for (int v = 0; v < 8; ++v) {
        const local_index l = encoded(c, v);
        host_cells_[8 * c + v] = l < 0 ? ~l : l;
      }
    host_cells_made_ = true;
  }
  return host_cells_;
}

template <class ExecSpace>
const std::vector<double>& HexLayout<ExecSpace>::host_points() const {
  if (!host_points_made_) {
    host_points_.resize(3 * points_.extent(0));
    Kokkos::deep_copy(Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          host_points_.data(), points_.extent(0)),
                      points_);
    host_points_made_ = true;
  }
  return host_points_;
}

template <class ExecSpace>
double HexLayout<ExecSpace>::device_bytes() const {
  return double(cells_.span()) * sizeof(local_index) + double(points_.span()) * sizeof(double) +
         3.0 * coefficient_.span() * sizeof(double) + double(constrained_.span()) * sizeof(local_index);
}

HexMemoryEstimate estimate_hex_memory(global_index n_cells, global_index n_vertices, int components, int ranks) {
  HexMemoryEstimate e;
  const double cells = double(n_cells) / ranks, vertices = double(n_vertices) / ranks * 1.1;  // ghosts
  e.layout_device_bytes = cells * (8 * sizeof(local_index) + sizeof(local_index) + 3 * sizeof(double)) +
                          vertices * 3 * sizeof(double);
  // Whole mesh on every rank (points, cells, tags) plus the set-up's vertex → cell adjacency,
  // centroids, parts and numbering.
  e.mesh_host_bytes = double(n_vertices) * (3 * 8 + 8 + 8 + 4 + 4) + double(n_cells) * (8 * 8 + 4 + 8 * 8 + 24 + 4 + 8);
  // About 27 neighbour vertices per vertex on hexahedral meshes.
  const double rows = vertices * components, nnz = rows * 27.0 * components;
  e.csr_bytes = nnz * (sizeof(double) + sizeof(local_index)) + (rows + 1) * sizeof(std::int64_t);
  e.geometry_bytes = cells * 80 * sizeof(double);
  // Per cell at most 8 incidence entries (uint16) and, per distinct vertex of a block (fewer than
  // 8 per cell), a vertex number and an offset.
  e.block_scatter_bytes = cells * (8 * sizeof(std::uint16_t) + 8 * 2 * sizeof(local_index));
  e.vector_bytes = vertices * components * sizeof(double);
  return e;
}

template <class ExecSpace>
HexColouring<ExecSpace> hex_cell_colouring(const HexLayout<ExecSpace>& layout) {
  const auto& cells = layout.host_cells();
  const global_index n_cells = layout.n_cells();
  // The lowest colour none of the cell's vertices has seen yet (greedy, ≤ 64 colours).
  std::vector<std::uint64_t> seen(layout.n_local_vertices(), 0);
  std::vector<int> colour(n_cells, 0);
  int n_colours = 0;
  for (global_index lc = 0; lc < n_cells; ++lc) {
    std::uint64_t used = 0;
    for (int v = 0; v < 8; ++v) used |= seen[cells[8 * lc + v]];
    TENSORMG_CHECK(~used != 0, "cell " << layout.mesh_cell()[lc] << " needs more than 64 colours: the mesh has a "
                                       << "vertex shared by too many cells");
    int k = 0;
    while (used >> k & 1) ++k;
    colour[lc] = k;
    n_colours = std::max(n_colours, k + 1);
    for (int v = 0; v < 8; ++v) seen[cells[8 * lc + v]] |= std::uint64_t(1) << k;
  }
  HexColouring<ExecSpace> c;
  c.offsets.assign(n_colours + 1, 0);
  for (const int k : colour) ++c.offsets[k + 1];
  for (int k = 0; k < n_colours; ++k) c.offsets[k + 1] += c.offsets[k];
  std::vector<local_index> order(n_cells);
  {
    std::vector<local_index> next(c.offsets.begin(), c.offsets.end() - 1);
    for (global_index lc = 0; lc < n_cells; ++lc) order[next[colour[lc]]++] = local_index(lc);
  }
  c.order = decltype(c.order)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_colouring::order"), n_cells);
  Kokkos::deep_copy(c.order, Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(order.data(),
                                                                                                        order.size()));
  return c;
}

double hex_layout_setup_device_bytes(global_index n_cells, global_index n_vertices) {
  // Mesh: 8 vertex indices per cell, 3 coordinates per vertex. Numbering: per cell the part, the
  // sequence and the key offsets; per vertex the key, owner, number, local index, mark, rank of its
  // number, and (local vertices, at most all) the mesh vertex and global number.
  return double(n_cells) * (8 * sizeof(global_index) + sizeof(int) + 2 * sizeof(global_index)) +
         double(n_vertices) * (3 * sizeof(double) + 3 * sizeof(global_index) + sizeof(int) + sizeof(local_index) +
                               sizeof(int) + 2 * sizeof(global_index));
}

template class HexLayout<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class HexLayout<SecondaryExec>;)
template HexColouring<DefaultExec> hex_cell_colouring(const HexLayout<DefaultExec>&);
TENSORMG_IF_SECOND_SPACE(template HexColouring<SecondaryExec> hex_cell_colouring(const HexLayout<SecondaryExec>&);)

}  // namespace tensormg
