#pragma once
/// @file
/// HexLayout's vertex numbering on the execution space (hex_layout.cpp's one user): owners, global
/// numbers and the rank's local vertices from the cell sequence, by atomic minima and prefix sums.

#include <Kokkos_Core.hpp>

#include <limits>
#include <type_traits>
#include <vector>

#include "core/host_vector_arrays.hpp"
#include "core/prefix_sum.hpp"
#include "discretization/device_hex_mesh.hpp"
#include "discretization/hex_layout.hpp"

namespace tensormg::hex_numbering {

/// The layout's vertex numbering (HexLayout's constructor) and the rank's local vertices, computed
/// on ExecSpace. Vertex v is first reached by the cell sequence at key(v) = 8 i + a (corner a of
/// cell sequence(i); atomic minima). The sequence is grouped by part in ascending order and a
/// vertex belongs to the lowest part among its cells, so the cell at key(v) is its owner's:
/// owner(v) = part(sequence(key(v) / 8)). Morton ordering numbers each part's vertices in the order
/// its cells first reach them, i.e. by key: number(v) = the count of keys below key(v) (a prefix sum
/// over the cells of how many of their corners are keys); mesh ordering by mesh index within each
/// part (on the host). Vertices of no cell have no owner and no number. The rank's local vertices
/// are its cells' vertices: the owned ones (numbers [first, first + n_owned)) by number, then the
/// ghosts by number, ranked by a prefix sum over the marked numbers.
template <class ExecSpace>
struct VertexNumbering {
  using memory_space = typename ExecSpace::memory_space;
  std::vector<int> owner;  ///< [mesh vertex], host; INT_MAX: in no cell
  global_index n_global = 0, first = 0, n_owned = 0, n_local = 0;
  Kokkos::View<local_index*, memory_space> local_of;      ///< [mesh vertex] local index; −1: not local
  Kokkos::View<global_index*, memory_space> mesh_vertex;  ///< [local vertex] mesh vertex
  std::vector<global_index> host_mesh_vertex, host_global_vertex;  ///< [local vertex]
  std::vector<local_index> host_local_of;                          ///< [mesh vertex]
};

/// How many corners of cell sequence(i) are the first to reach their vertex (a count of
/// exclusive_prefix_sum).
template <class MemorySpace>
struct KeyCorners {
  Kokkos::View<const global_index*, MemorySpace> cells, sequence, key;
  KOKKOS_INLINE_FUNCTION int operator()(global_index i) const {
    int n = 0;
    for (int a = 0; a < 8; ++a) n += key(cells(8 * sequence(i) + a)) == 8 * i + a;
    return n;
  }
};

namespace detail {
/// key(v) = the first position j = 8 · (sequence index) + corner that reaches vertex v.
template <class Key, class Cells, class Sequence>
struct FirstReach {
  Key key;
  Cells cells;
  Sequence sequence;
  KOKKOS_INLINE_FUNCTION void operator()(global_index j) const {
    // A plain read first: a thread's later positions of a vertex it already reached skip the
    // atomic (a stale read only costs an atomic that changes nothing).
    global_index& k = key(cells(8 * sequence(j / 8) + j % 8));
    if (j < k) Kokkos::atomic_fetch_min(&k, j);
  }
};

/// The owner of a vertex: the part of the cell that reaches it first.
template <class Owner, class Key, class Part, class Sequence>
struct VertexOwner {
  Owner owner;
  Key key;
  Part part;
  Sequence sequence;
  global_index none;
  int no_owner;
  KOKKOS_INLINE_FUNCTION void operator()(global_index v) const {
    owner(v) = key(v) == none ? no_owner : part(sequence(key(v) / 8));
  }
};

/// Morton numbering: the vertex's first reach counted among the first reaches before it.
template <class Number, class Key, class Sequence, class Cells>
struct MortonNumber {
  Number number;
  Key key;
  Sequence sequence;
  Cells cells;
  Kokkos::View<global_index*, typename Number::memory_space> cell_offsets;
  global_index none;
  KOKKOS_INLINE_FUNCTION void operator()(global_index v) const {
    const global_index k = key(v);
    if (k == none) {
      number(v) = -1;
      return;
    }
    const global_index i = k / 8, c = sequence(i);
    global_index n = cell_offsets(i);
    for (int a = 0; a < int(k % 8); ++a) n += key(cells(8 * c + a)) == 8 * i + a;
    number(v) = n;
  }
};

/// marked(number) = 1 for every vertex of the rank's cells.
template <class Marked, class Number, class Cells, class Sequence>
struct MarkLocal {
  Marked marked;
  Number number;
  Cells cells;
  Sequence sequence;
  KOKKOS_INLINE_FUNCTION void operator()(global_index j) const { marked(number(cells(8 * sequence(j / 8) + j % 8))) = 1; }
};

/// The local index, mesh vertex and global number of every vertex of the rank's cells.
template <class Cells, class Sequence, class Number, class LocalOf, class MeshVertex, class Global>
struct LocalVertices {
  Cells cells;
  Sequence sequence;
  Number number;
  Kokkos::View<global_index*, typename Number::memory_space> rank_of_number;
  LocalOf local_of;
  MeshVertex mesh_vertex;
  Global global;
  global_index first, n_owned;
  KOKKOS_INLINE_FUNCTION void operator()(global_index j) const {
    // Every corner of a vertex writes the same values.
    const global_index v = cells(8 * sequence(j / 8) + j % 8), x = number(v);
    const global_index l = x >= first && x < first + n_owned ? x - first
                           : x < first                       ? n_owned + rank_of_number(x)
                                                             : rank_of_number(x);  // owned numbers below x
    local_of(v) = local_index(l);
    mesh_vertex(l) = v;
    global(l) = x;
  }
};
}  // namespace detail

template <class ExecSpace>
VertexNumbering<ExecSpace> number_vertices(const DeviceHexMesh<ExecSpace>& mesh, const std::vector<int>& part_host,
                                           const std::vector<global_index>& sequence_host, global_index rank_first,
                                           global_index rank_cells, HexOrdering ordering, int size, int rank) {
  using memory_space = typename ExecSpace::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<global_index>>;
  constexpr global_index none = std::numeric_limits<global_index>::max();
  constexpr int no_owner = std::numeric_limits<int>::max();
  VertexNumbering<ExecSpace> r;
  const global_index n_cells = global_index(sequence_host.size()), n_vertices = global_index(mesh.points.extent(0) / 3);
  const auto cells = mesh.cells;
  const auto part = device_input<int, memory_space>(part_host, "tensormg::hex_layout::part");
  const auto sequence = device_input<global_index, memory_space>(sequence_host, "tensormg::hex_layout::sequence");
  Kokkos::View<global_index*, memory_space> key(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::key"),
                                                n_vertices);
  Kokkos::deep_copy(key, none);
  Kokkos::parallel_for("tensormg::hex_layout::first_reach", Policy(0, 8 * n_cells),
                       detail::FirstReach<std::decay_t<decltype(key)>, std::decay_t<decltype(cells)>, std::decay_t<decltype(sequence)>>{key, cells, sequence});
  const auto owner = device_output<int, memory_space>(r.owner, n_vertices, "tensormg::hex_layout::owner");
  Kokkos::parallel_for("tensormg::hex_layout::owner", Policy(0, n_vertices),
                       detail::VertexOwner<std::decay_t<decltype(owner)>, std::decay_t<decltype(key)>, std::decay_t<decltype(part)>, std::decay_t<decltype(sequence)>>{
                           owner, key, part, sequence, none, no_owner});
  device_output_done(r.owner, owner);
  std::vector<global_index> per_rank(size, 0);
  for (const int o : r.owner)
    if (o < size) ++per_rank[o];
  for (int p = 0; p < size; ++p) {
    if (p < rank) r.first += per_rank[p];
    r.n_global += per_rank[p];
  }
  r.n_owned = per_rank[rank];

  Kokkos::View<global_index*, memory_space> number(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::number"), n_vertices);
  if (ordering == HexOrdering::morton) {
    Kokkos::View<global_index*, memory_space> cell_offsets(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::cell_offsets"), n_cells + 1);
    exclusive_prefix_sum<ExecSpace>("tensormg::hex_layout::key_offsets", n_cells,
                                    KeyCorners<memory_space>{cells, sequence, key}, cell_offsets);
    Kokkos::parallel_for("tensormg::hex_layout::number", Policy(0, n_vertices),
                         detail::MortonNumber<std::decay_t<decltype(number)>, std::decay_t<decltype(key)>, std::decay_t<decltype(sequence)>, std::decay_t<decltype(cells)>>{
                             number, key, sequence, cells, cell_offsets, none});
  } else {
    // By mesh index within each part.
    std::vector<global_index> host(n_vertices, -1), next(size, 0);
    for (int p = 1; p < size; ++p) next[p] = next[p - 1] + per_rank[p - 1];
    for (global_index v = 0; v < n_vertices; ++v)
      if (r.owner[v] < size) host[v] = next[r.owner[v]]++;
    Kokkos::deep_copy(number, Kokkos::View<const global_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(),
                                                                                                          host.size()));
  }

  // The rank's vertices: every number its cells reach, marked; owned first, then the ghosts.
  Kokkos::View<int*, memory_space> marked("tensormg::hex_layout::marked", r.n_global);
  const Policy corners(8 * rank_first, 8 * (rank_first + rank_cells));
  Kokkos::parallel_for("tensormg::hex_layout::mark_local", corners,
                       detail::MarkLocal<std::decay_t<decltype(marked)>, std::decay_t<decltype(number)>, std::decay_t<decltype(cells)>, std::decay_t<decltype(sequence)>>{
                           marked, number, cells, sequence});
  Kokkos::View<global_index*, memory_space> rank_of_number(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::rank_of_number"), r.n_global + 1);
  r.n_local = exclusive_prefix_sum<ExecSpace>("tensormg::hex_layout::local_offsets", r.n_global, marked, rank_of_number);
  r.local_of = decltype(r.local_of)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::local_of"),
                                    n_vertices);
  Kokkos::deep_copy(r.local_of, local_index(-1));
  r.mesh_vertex = decltype(r.mesh_vertex)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::hex_layout::mesh_vertex"), r.n_local);
  const auto global = device_output<global_index, memory_space>(r.host_global_vertex, r.n_local,
                                                                "tensormg::hex_layout::global_vertex");
  const auto local_of = r.local_of;
  const auto mesh_vertex = r.mesh_vertex;
  const global_index first = r.first, n_owned = r.n_owned;
  Kokkos::parallel_for("tensormg::hex_layout::local_vertices", corners,
                       detail::LocalVertices<std::decay_t<decltype(cells)>, std::decay_t<decltype(sequence)>, std::decay_t<decltype(number)>, std::decay_t<decltype(local_of)>,
                                             std::decay_t<decltype(mesh_vertex)>, std::decay_t<decltype(global)>>{
                           cells, sequence, number, rank_of_number, local_of, mesh_vertex, global, first, n_owned});
  device_output_done(r.host_global_vertex, global);
  r.host_mesh_vertex.resize(r.n_local);
  Kokkos::deep_copy(Kokkos::View<global_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(r.host_mesh_vertex.data(),
                                                                                            r.n_local),
                    r.mesh_vertex);
  r.host_local_of.resize(n_vertices);
  Kokkos::deep_copy(Kokkos::View<local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(r.host_local_of.data(),
                                                                                           n_vertices),
                    r.local_of);
  return r;
}


}  // namespace tensormg::hex_numbering
