#pragma once
/// @file
/// Device bodies of the CEED bake-off operators on deformed hexahedra (paper 003 §4), by sum
/// factorization with the 1D tables of bake_off_tables_1d and the geometric factors of
/// deformed_geometry.hpp, per element:
///   BP1.0  v = Iᵀ J I u                                       (I: nodes → k + 2 Gauss points)
///   BP3.5  v = Dᵀ G D u + λ J u                               (collocated at the k + 1 GLL nodes)
///   BP3.0  v = Iᵀ (D̃ᵀ G D̃ + λ J) I u                          (D̃: derivative on the Gauss points)
/// with I, D, D̃ applied one direction at a time (6, 6 and 12 contractions). A team works on
/// cells_per_team cells in scratch; every step hands one 1D line of one cell to a thread, which
/// loads the line into registers and forms its outputs with the shared contraction
/// (core/tensor_contraction.hpp), or with its even-odd form (core/even_odd_contraction.hpp: I
/// centro-symmetric, D centro-antisymmetric) where the tuning row says. Consecutive threads take
/// consecutive lines of one cell, so the per-point geometric factors are read in coalesced rows;
/// the first and last steps read and
/// write the element vectors along their lines (n values per thread, merged by the L1), or
/// through scratch by consecutive threads (BakeOffArgs::staged: measured slower for E-vectors,
/// faster for the fused gather/scatter at middle degrees, bake_off_tuning.hpp). Where
/// the tuning row says, each team first asks L2 for its cells' factors (BakeOffArgs::prefetch).
/// Input and output are element vectors (E-vectors, [cell][n³]) or, gathered, the continuous
/// vector through the cell's node map (cell_nodes.hpp), with atomic adds at the nodes a cell shares
/// and plain stores at its interior ones: the full BP operator with the gather/scatter fused into
/// the kernel (staged or along lines as for E-vectors).
/// Only the host glue (bake_off_operator.cpp) launches these.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "backends/device_traits.hpp"
#include "core/even_odd_contraction.hpp"
#include "core/tensor_contraction.hpp"
#include "discretization/bake_off_kernel_table.hpp"
#include "discretization/bake_off_lines.hpp"
#include "discretization/bake_off_tuning.hpp"
#include "discretization/cell_nodes.hpp"

namespace tensormg {

/// geometry: the kernel of the stored factors, of the trilinear geometry formed from the cell's
/// vertices, or of either (BakeOffArgs::trilinear decides at run time): the tuning row's
/// split_geometry picks (the trilinear Jacobians' registers cost BP1.0's one kernel 127 registers
/// against 62 at FP64 k = 4; perf/HISTORY.md, "the trilinear geometry a kernel of its own").
enum class GeometryKernel { stored, trilinear, either };
template <BakeOff problem, int n, class Number, class ExecSpace, GeometryKernel geometry = GeometryKernel::either>
struct BakeOffKernel {
  static constexpr int k = n - 1;
  static constexpr int q = problem == BakeOff::bp3_5 ? n : n + 1;
  static constexpr BakeOffTuning tuning = bake_off_tuning(k, tuning_target<ExecSpace>());
  static_assert(tuning.k == k, "no tuning row for this degree");
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<tuning.max_team_size, tuning.min_teams_per_sm>>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int n3 = n * n * n, q3 = q * q * q;
  /// Scratch buffers of a cell, each a (q, q, q) array in the scratch layout (bake_off::ScratchLines,
  /// which holds every array of the steps), at an odd distance (distinct banks for the same entry
  /// of neighbouring buffers).
  static constexpr int buffer = bake_off::scratch_values<q, q, q> | 1;
  /// BP1.0: the interpolations' two; BP3.5: u and the r and s derivatives (t is formed in the
  /// z-lines' registers); BP3.0: those and the interpolations' third.
  static constexpr int buffers = problem == BakeOff::bp1_0 ? 2 : problem == BakeOff::bp3_5 ? 3 : 4;
  static constexpr int cell_scratch = buffers * buffer;
  /// Threads per cell on a GPU: the lines of the largest step.
  static constexpr int lines = q * q;
  static constexpr int components = has_stiffness(problem) ? 7 : 1;
  /// The trilinear geometry (constant in the split kernels, so the other branch compiles away).
  KOKKOS_FORCEINLINE_FUNCTION bool trilinear() const {
    return geometry == GeometryKernel::trilinear || (geometry == GeometryKernel::either && args.trilinear);
  }

  BakeOffArgs<Number, ExecSpace> args;
  detail::CellRange cells;
  Number I[q][n];  ///< interpolation to the Gauss points (BP1.0, BP3.0)
  Number D[q][q];  ///< derivative at the points (BP3.5: the nodes' D, BP3.0: D̃)
  /// The same in even-odd form where the tuning row says (both point sets are symmetric about the
  /// cell's centre: I is centro-symmetric, D centro-antisymmetric), with their transposes.
  static constexpr bool even_odd = tuning.even_odd[int(problem)];
  struct EvenOddTables {
    contraction::EvenOddMatrix<q, n, Number> I;
    contraction::EvenOddMatrix<n, q, Number> It;
    contraction::EvenOddMatrix<q, q, Number> D, Dt;
  };
  struct NoTables {};
  std::conditional_t<even_odd, EvenOddTables, NoTables> eo;

  /// y = I x (nodes to points), Iᵀ x, D x, Dᵀ x: the direct or the even-odd form.
  KOKKOS_FORCEINLINE_FUNCTION void interpolate(const Number (&x)[1][n], Number (&y)[q]) const {
    if constexpr (even_odd) contraction::apply_even_odd<contraction::Reversal::symmetric>(eo.I, x, y);
    else bake_off::apply_rows<q, n>(I, x, y);
  }
  KOKKOS_FORCEINLINE_FUNCTION void interpolate_transposed(const Number (&x)[1][q], Number (&y)[n]) const {
    if constexpr (even_odd) contraction::apply_even_odd<contraction::Reversal::symmetric>(eo.It, x, y);
    else bake_off::apply_columns<n, q>(I, x, y);
  }
  KOKKOS_FORCEINLINE_FUNCTION void derivative(const Number (&x)[1][q], Number (&y)[q]) const {
    if constexpr (even_odd) contraction::apply_even_odd<contraction::Reversal::antisymmetric>(eo.D, x, y);
    else bake_off::apply_rows<q, q>(D, x, y);
  }
  KOKKOS_FORCEINLINE_FUNCTION void derivative_transposed(const Number (&x)[1][q], Number (&y)[q]) const {
    if constexpr (even_odd) contraction::apply_even_odd<contraction::Reversal::antisymmetric>(eo.Dt, x, y);
    else bake_off::apply_columns<q, q>(D, x, y);
  }

  /// The trilinear geometry's 8 vertices of each of the team's cells (in double), before the cells'
  /// buffers in scratch.
  static constexpr int vertex_values = bake_off_vertex_values;
  KOKKOS_INLINE_FUNCTION static std::size_t vertex_bytes(int cells_per_team, bool with_vertices) {
    return with_vertices ? sizeof(double) * vertex_values * cells_per_team : 0;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t buffer_bytes(int cells_per_team) {
    return sizeof(Number) * std::size_t(cell_scratch) * cells_per_team;
  }
  /// The team's cells' node maps in scratch for stage_in / stage_out where the row says
  /// (BakeOffTuning::node_maps), padded to whole doubles; read_line / write_line form theirs.
  using CellInfo = CellNodes<3, k>;
  static constexpr bool node_maps = tuning.node_maps[int(problem)];
  KOKKOS_INLINE_FUNCTION static std::size_t cell_info_bytes(int cells_per_team) {
    if constexpr (!node_maps) return 0;
    return (sizeof(CellInfo) * cells_per_team + sizeof(double) - 1) / sizeof(double) * sizeof(double);
  }
  /// The node map of the team's cell c (node_maps: from scratch, else formed here).
  KOKKOS_FORCEINLINE_FUNCTION CellInfo node_map(const CellInfo* infos, local_index first, int c) const {
    if constexpr (node_maps) return infos[c];
    else return CellInfo(args.box, cells, first + c);
  }
  /// For the limit checks (the kernel table): the cells' buffers and node maps; the trilinear
  /// geometry adds vertex_bytes (BakeOffOperator checks both).
  static std::size_t scratch_bytes(int cells_per_team) {
    return cell_info_bytes(cells_per_team) + buffer_bytes(cells_per_team);
  }
  /// Called on the device too (the kernel's scratch request): a host-only function there would
  /// make nvcc drop the body.
  KOKKOS_INLINE_FUNCTION std::size_t team_shmem_size(int) const {
    return vertex_bytes(args.cells_per_team, trilinear()) + cell_info_bytes(args.cells_per_team) +
           buffer_bytes(args.cells_per_team);
  }

  KOKKOS_FORCEINLINE_FUNCTION Number factor(local_index cell, int component, int p) const {
    return args.factors((std::size_t(cell) * components + component) * q3 + p);
  }

  /// The rule's points and weights on [0, 1] (the trilinear geometry's).
  double points[q];
  double weights[q];

  /// The trilinear geometry: the 8 vertices of the team's cells (24 values each, corner-major)
  /// from the rank's vertex grid into scratch, consecutive threads on consecutive values.
  KOKKOS_INLINE_FUNCTION void load_vertices(const Member& team, local_index first, local_index n_cells,
                                            double* vertices) const {
    const int cpt = args.cells_per_team;
    const int count = (n_cells - first < cpt ? int(n_cells - first) : cpt) * vertex_values;
    const std::size_t row = std::size_t(args.box.cells[0]) + 1, plane = row * (std::size_t(args.box.cells[1]) + 1);
    for (int w = team.team_rank(); w < count; w += team.team_size()) {
      const int c = w / vertex_values, corner = (w % vertex_values) / 3, component = w % 3;
      local_index cc[3];
      cells.coordinates(first + c, cc);
      const std::size_t v = std::size_t(cc[0] + (corner & 1)) + row * std::size_t(cc[1] + ((corner >> 1) & 1)) +
                            plane * std::size_t(cc[2] + (corner >> 2));
      vertices[w] = args.vertices(3 * v + component);
    }
  }

  /// w det J at the q points of z-line `line` (x index line % q, y index line / q): read, or
  /// formed from the cell's vertices X (trilinear geometry).
  KOKKOS_INLINE_FUNCTION void line_weighted_dets(local_index cell, int line, const double* X, Number (&wdet)[q]) const {
    if (trilinear()) {
      const int a = line % q, b = line / q;
      const TrilinearLine J(X, points[a], points[b]);
      for (int m = 0; m < q; ++m) wdet[m] = static_cast<Number>(J.weighted_det(points[m], weights[a] * weights[b] * weights[m]));
    } else {
      for (int m = 0; m < q; ++m) wdet[m] = factor(cell, 0, line + q * q * m);
    }
  }

  /// Line `line` along dir of the cell's n³ nodes from the input vector, or from the cell's
  /// staging buffer in scratch (stage_in) when `stage` is not null.
  template <int dir>
  KOKKOS_INLINE_FUNCTION void read_line(local_index cell, int line, Number (&x)[1][n], const Number* stage) const {
    using L = bake_off::Lines<dir, n, n, n>;
    if (stage) {
      using S = bake_off::ScratchLines<dir, n, n, n>;
      contraction::load_column<n>(stage + S::base(line), S::stride, x[0]);
      return;
    }
    if (!args.gathered) {
      contraction::load_column<n>(args.src.data() + std::size_t(cell) * n3 + L::base(line), L::stride, x[0]);
      return;
    }
    const CellInfo nodes(args.box, cells, cell);
    for (int m = 0; m < n; ++m) {
      int c[3];
      L::coordinates(line, m, c);
      const local_index idx = nodes.index(args.box, c[0], c[1], c[2], args.constrained);
      x[0][m] = idx >= 0 ? args.src(idx) : Number(0);
    }
  }

  /// Writes (E-vector) or adds atomically (gathered) line `line` along dir of the cell's nodes, or
  /// stores it in the cell's staging buffer (stage_out) when `stage` is not null.
  template <int dir>
  KOKKOS_INLINE_FUNCTION void write_line(local_index cell, int line, const Number (&y)[n], Number* stage,
                                         double& dot) const {
    using L = bake_off::Lines<dir, n, n, n>;
    if (stage) {
      bake_off::store<false, dir, n, n, n>(stage, line, y);
      return;
    }
    if (!args.gathered) {
      Number* out = args.dst.data() + std::size_t(cell) * n3 + L::base(line);
      for (int m = 0; m < n; ++m) out[m * L::stride] = y[m];
      return;
    }
    const CellInfo nodes(args.box, cells, cell);
    for (int m = 0; m < n; ++m) {
      int c[3];
      L::coordinates(line, m, c);
      add_node(nodes, c, y[m], dot);
    }
  }

  /// Adds value to node c of the cell in the continuous vector: a plain store for the cell's
  /// interior nodes (no other cell touches them, and the vector was zeroed), an atomic add for the
  /// nodes it shares with its neighbours; nothing for a Dirichlet node. With args.dot, also
  /// dot += value · src at the node (the src value read again: a cache hit, the team read it).
  KOKKOS_FORCEINLINE_FUNCTION void add_node(const CellInfo& nodes, const int (&c)[3], Number value,
                                            double& dot) const {
    const local_index idx = nodes.index(args.box, c[0], c[1], c[2], args.constrained);
    if (idx < 0) return;
    if (args.dot) dot += double(value) * double(args.src(idx));
    if (!args.atomic_interior && c[0] > 0 && c[0] < k && c[1] > 0 && c[1] < k && c[2] > 0 && c[2] < k)
      args.dst(idx) = value;
    else
      Kokkos::atomic_add(&args.dst(idx), value);
  }

  /// Where the cell's node (lexicographic number) sits in a staging buffer (n, n, n) in scratch.
  KOKKOS_FORCEINLINE_FUNCTION static int staged_index(int node) {
    if constexpr (bake_off::scratch_row<n> == n) return node;
    else return bake_off::scratch_index<n, n>(node % n, (node / n) % n, node / (n * n));
  }

  /// The team's cells' input values into buffer `which` of each cell's scratch, consecutive
  /// threads on consecutive values: contiguous in the E-vector (coalesced), or gathered from the
  /// continuous vector node by node, x fastest (a warp reads a few short runs of a row each).
  KOKKOS_INLINE_FUNCTION void stage_in(const Member& team, local_index first, local_index n_cells,
                                       const CellInfo* infos, Number* scratch, int which) const {
    const int cpt = args.cells_per_team;
    const int count = (n_cells - first < cpt ? n_cells - first : cpt) * n3;
    const Number* src = args.src.data() + std::size_t(first) * n3;
    for (int w = team.team_rank(); w < count; w += team.team_size()) {
      const int c = w / n3, node = w - c * n3;
      Number value;
      if (args.gathered) {
        const CellInfo nodes = node_map(infos, first, c);
        const local_index idx = nodes.index(args.box, node % n, (node / n) % n, node / (n * n), args.constrained);
        value = idx >= 0 ? args.src(idx) : Number(0);
      } else {
        value = src[w];
      }
      scratch[c * cell_scratch + which * buffer + staged_index(node)] = value;
    }
  }
  /// The inverse of stage_in for the output values: written to the E-vector, or added to the
  /// continuous vector (add_node) by consecutive threads on consecutive nodes, so that a warp's
  /// atomics fall on a few runs of neighbouring addresses instead of one line each.
  KOKKOS_INLINE_FUNCTION void stage_out(const Member& team, local_index first, local_index n_cells,
                                        const CellInfo* infos, const Number* scratch, int which, double& dot) const {
    const int cpt = args.cells_per_team;
    const int count = (n_cells - first < cpt ? n_cells - first : cpt) * n3;
    Number* dst = args.dst.data() + std::size_t(first) * n3;
    for (int w = team.team_rank(); w < count; w += team.team_size()) {
      const int c = w / n3, node = w - c * n3;
      const Number value = scratch[c * cell_scratch + which * buffer + staged_index(node)];
      if (args.gathered) {
        const int ijl[3] = {node % n, (node / n) % n, node / (n * n)};
        add_node(node_map(infos, first, c), ijl, value, dot);
      } else {
        dst[w] = value;
      }
    }
  }

  /// The pointwise stage of BP3.x on a z-line of the points (the line's q points p = line + q² m):
  /// u's line loaded and differentiated along z here (t = D u in registers, never stored), then
  /// (r, s, t) ← G (r, s, t) with r, s stored back, t returned, and the mass term λ w det J u; G
  /// and w det J read, or formed from the cell's vertices X (trilinear geometry).
  KOKKOS_INLINE_FUNCTION void geometry_line(local_index cell, int line, const double* X, const Number* u, Number* r,
                                            Number* s, Number (&tz)[1][q], Number (&mass)[q]) const {
    Number ul[1][q], ut[q];
    bake_off::load<2, q, q, q>(u, line, ul);
    derivative(ul, ut);
    using Z = bake_off::ScratchLines<2, q, q, q>;
    const int zbase = Z::base(line);
    const auto apply = [&](int m, const Number (&g)[7]) {
      const int p = zbase + Z::stride * m;  // in scratch (the factors' point is line + q² m)
      const Number ur = r[p], us = s[p];
      r[p] = g[0] * ur + g[1] * us + g[2] * ut[m];
      s[p] = g[1] * ur + g[3] * us + g[4] * ut[m];
      tz[0][m] = g[2] * ur + g[4] * us + g[5] * ut[m];
      mass[m] = args.lambda * g[6] * ul[0][m];
    };
    if (trilinear()) {
      const int a = line % q, b = line / q;
      const TrilinearLine line_jacobian(X, points[a], points[b]);
      for (int m = 0; m < q; ++m) {
        double J[3][3], G[6];
        line_jacobian.jacobian(points[m], J);
        const double wdet = stiffness_factors(J, weights[a] * weights[b] * weights[m], G);
        const Number g[7] = {Number(G[0]), Number(G[1]), Number(G[2]), Number(G[3]), Number(G[4]), Number(G[5]), Number(wdet)};
        apply(m, g);
      }
    } else {
      for (int m = 0; m < q; ++m) {
        const int p = line + q * q * m;
        Number g[7];
        for (int e = 0; e < 7; ++e) g[e] = factor(cell, e, p);
        apply(m, g);
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int cpt = args.cells_per_team;
    const local_index first = team.league_rank() * cpt;
    const local_index n_cells = cells.size();
    char* base = static_cast<char*>(team.team_scratch(0).get_shmem(team_shmem_size(0)));
    // The trilinear geometry's vertices first (doubles), then the cells' node maps, then their
    // buffers.
    double* vertices = reinterpret_cast<double*>(base);
    CellInfo* infos = reinterpret_cast<CellInfo*>(base + vertex_bytes(cpt, trilinear()));
    Number* scratch = reinterpret_cast<Number*>(base + vertex_bytes(cpt, trilinear()) + cell_info_bytes(cpt));
    const int rank = team.team_rank(), size = team.team_size();
    double dot = 0;  // this thread's share of src·dst (args.dot)
    // Input and output staged through scratch (stage_in / stage_out) instead of read and written
    // along lines: E-vectors, or the continuous vector gathered and added to node by node.
    const bool staged = args.staged;
    if (args.prefetch && !trilinear()) {  // the team's factors, contiguous: one request per 128-byte line
      const int cells_here = n_cells - first < cpt ? n_cells - first : cpt;
      const char* base = reinterpret_cast<const char*>(args.factors.data() + std::size_t(first) * components * q3);
      const std::size_t bytes = std::size_t(cells_here) * components * q3 * sizeof(Number);
      for (std::size_t offset = std::size_t(rank) * 128; offset < bytes; offset += std::size_t(size) * 128)
        DeviceTraits<ExecSpace>::prefetch(base + offset);
    }
    // The vertices are read after at least one barrier (the geometry comes in the third step).
    if (trilinear()) load_vertices(team, first, n_cells, vertices);
    // The staged fused gather/scatter: each cell's node map once, before the barrier.
    if constexpr (node_maps) {
      if (args.gathered && staged) {
        for (int c = rank; c < cpt && first + c < n_cells; c += size) infos[c] = CellInfo(args.box, cells, first + c);
        team.team_barrier();
      }
    }
    // Runs the body for every line of `count` per cell of the team (cell, line, the cell's buffers
    // b0, b1 = b0 + buffer, ..., its vertices X); the caller places the barriers.
#define TENSORMG_BAKE_OFF_LINES(count, ...)                                              \
  for (int w = rank; w < cpt * (count); w += size) {                                     \
    const int c = w / (count), line = w - c * (count);                                   \
    if (first + c >= n_cells) continue;                                                  \
    const local_index cell = first + c;                                                  \
    Number* b0 = scratch + c * cell_scratch;                                             \
    Number* b1 = b0 + buffer;                                                            \
    const double* X = vertices + c * vertex_values;                                      \
    (void)b1;                                                                            \
    (void)cell;                                                                          \
    (void)X;                                                                             \
    __VA_ARGS__                                                                          \
  }
    using namespace bake_off;
    if constexpr (problem == BakeOff::bp1_0) {
      if (staged) {
        stage_in(team, first, n_cells, infos, scratch, 1);
        team.team_barrier();
      }
      // x: nodes (n,n,n) → b0 (q,n,n)
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][n], y[q];
        read_line<0>(cell, line, x, staged ? b1 : nullptr);
        interpolate(x, y);
        store<false, 0, q, n, n>(b0, line, y);
      })
      team.team_barrier();
      // y: b0 (q,n,n) → b1 (q,q,n)
      TENSORMG_BAKE_OFF_LINES(q * n, {
        Number x[1][n], y[q];
        load<1, q, n, n>(b0, line, x);
        interpolate(x, y);
        store<false, 1, q, q, n>(b1, line, y);
      })
      team.team_barrier();
      // z: b1 (q,q,n) → Gauss points, times w det J, back to (q,q,n) in place
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number x[1][n], y[1][q], z[n], wdet[q];
        load<2, q, q, n>(b1, line, x);
        interpolate(x, y[0]);
        line_weighted_dets(cell, line, X, wdet);
        for (int m = 0; m < q; ++m) y[0][m] *= wdet[m];
        interpolate_transposed(y, z);
        store<false, 2, q, q, n>(b1, line, z);
      })
      team.team_barrier();
      // y back: b1 (q,q,n) → b0 (q,n,n)
      TENSORMG_BAKE_OFF_LINES(q * n, {
        Number x[1][q], y[n];
        load<1, q, q, n>(b1, line, x);
        interpolate_transposed(x, y);
        store<false, 1, q, n, n>(b0, line, y);
      })
      team.team_barrier();
      // x back: b0 (q,n,n) → nodes
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][q], y[n];
        load<0, q, n, n>(b0, line, x);
        interpolate_transposed(x, y);
        write_line<0>(cell, line, y, staged ? b1 : nullptr, dot);
      })
      if (staged) {
        team.team_barrier();
        stage_out(team, first, n_cells, infos, scratch, 1, dot);
      }
    } else if constexpr (problem == BakeOff::bp3_5) {
      // u → b0 (n,n,n) and ∂_r u → b1: along lines, each thread differentiates the x-line it
      // just read; staged, the x-lines are loaded back from b0 after the barrier.
      if (staged) {
        stage_in(team, first, n_cells, infos, scratch, 0);
        team.team_barrier();
        TENSORMG_BAKE_OFF_LINES(n * n, {
          Number x[1][n], y[n];
          load<0, n, n, n>(b0, line, x);
          derivative(x, y);
          store<false, 0, n, n, n>(b1, line, y);
        })
      } else {
        TENSORMG_BAKE_OFF_LINES(n * n, {
          Number x[1][n], y[n];
          read_line<0>(cell, line, x, nullptr);
          store<false, 0, n, n, n>(b0, line, x[0]);
          derivative(x, y);
          store<false, 0, n, n, n>(b1, line, y);
        })
        team.team_barrier();
      }
      // ∂_s u → b2 (∂_t u is formed by the z-lines below)
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][n], y[n];
        load<1, n, n, n>(b0, line, x);
        derivative(x, y);
        store<false, 1, n, n, n>(b1 + buffer, line, y);
      })
      team.team_barrier();
      // z-lines: ∂_t u, G and the mass term at the points, Dᵀ along z → b0
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number t[1][n], mass[n], y[n];
        geometry_line(cell, line, X, b0, b1, b1 + buffer, t, mass);
        derivative_transposed(t, y);
        for (int m = 0; m < n; ++m) y[m] += mass[m];
        store<false, 2, n, n, n>(b0, line, y);
      })
      team.team_barrier();
      // y-lines: b0 += Dᵀ b2
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][n], y[n];
        load<1, n, n, n>(b1 + buffer, line, x);
        derivative_transposed(x, y);
        store<true, 1, n, n, n>(b0, line, y);
      })
      team.team_barrier();
      // x-lines: v = b0 + Dᵀ b1 → nodes
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][n], u[1][n], y[n];
        load<0, n, n, n>(b1, line, x);
        load<0, n, n, n>(b0, line, u);
        derivative_transposed(x, y);
        for (int m = 0; m < n; ++m) y[m] += u[0][m];
        write_line<0>(cell, line, y, staged ? b1 + buffer : nullptr, dot);
      })
      if (staged) {
        team.team_barrier();
        stage_out(team, first, n_cells, infos, scratch, 2, dot);
      }
    } else {
      if (staged) {
        stage_in(team, first, n_cells, infos, scratch, 2);
        team.team_barrier();
      }
      // Interpolation to the Gauss points: nodes → b1 (q,n,n) → b2 (q,q,n) → b0 (q,q,q)
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][n], y[q];
        read_line<0>(cell, line, x, staged ? b1 + buffer : nullptr);
        interpolate(x, y);
        store<false, 0, q, n, n>(b1, line, y);
      })
      team.team_barrier();
      TENSORMG_BAKE_OFF_LINES(q * n, {
        Number x[1][n], y[q];
        load<1, q, n, n>(b1, line, x);
        interpolate(x, y);
        store<false, 1, q, q, n>(b1 + buffer, line, y);
      })
      team.team_barrier();
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number x[1][n], y[q];
        load<2, q, q, n>(b1 + buffer, line, x);
        interpolate(x, y);
        store<false, 2, q, q, q>(b0, line, y);
      })
      team.team_barrier();
      // ∂_r, ∂_s at the Gauss points → b1, b2 (∂_t is formed by the z-lines below)
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number x[1][q], y[q];
        load<0, q, q, q>(b0, line, x);
        derivative(x, y);
        store<false, 0, q, q, q>(b1, line, y);
      })
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number x[1][q], y[q];
        load<1, q, q, q>(b0, line, x);
        derivative(x, y);
        store<false, 1, q, q, q>(b1 + buffer, line, y);
      })
      team.team_barrier();
      // z-lines: ∂_t, G and the mass term, D̃ᵀ along z → b0
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number t[1][q], mass[q], y[q];
        geometry_line(cell, line, X, b0, b1, b1 + buffer, t, mass);
        derivative_transposed(t, y);
        for (int m = 0; m < q; ++m) y[m] += mass[m];
        store<false, 2, q, q, q>(b0, line, y);
      })
      team.team_barrier();
      // y-lines: b0 += D̃ᵀ b2
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number x[1][q], y[q];
        load<1, q, q, q>(b1 + buffer, line, x);
        derivative_transposed(x, y);
        store<true, 1, q, q, q>(b0, line, y);
      })
      team.team_barrier();
      // x-lines: b0 + D̃ᵀ b1, then Iᵀ along x → b3 (n,q,q)
      TENSORMG_BAKE_OFF_LINES(q * q, {
        Number x[1][q], u[1][q], y[n];
        load<0, q, q, q>(b1, line, x);
        load<0, q, q, q>(b0, line, u);
        Number g[q];
        derivative_transposed(x, g);
        for (int m = 0; m < q; ++m) u[0][m] += g[m];
        interpolate_transposed(u, y);
        store<false, 0, n, q, q>(b1 + 2 * buffer, line, y);
      })
      team.team_barrier();
      // y-lines: b3 (n,q,q) → b2 (n,n,q)
      TENSORMG_BAKE_OFF_LINES(n * q, {
        Number x[1][q], y[n];
        load<1, n, q, q>(b1 + 2 * buffer, line, x);
        interpolate_transposed(x, y);
        store<false, 1, n, n, q>(b1 + buffer, line, y);
      })
      team.team_barrier();
      // z-lines: b2 (n,n,q) → nodes
      TENSORMG_BAKE_OFF_LINES(n * n, {
        Number x[1][q], y[n];
        load<2, n, n, q>(b1 + buffer, line, x);
        interpolate_transposed(x, y);
        write_line<2>(cell, line, y, staged ? b1 : nullptr, dot);
      })
      if (staged) {
        team.team_barrier();
        stage_out(team, first, n_cells, infos, scratch, 1, dot);
      }
    }
#undef TENSORMG_BAKE_OFF_LINES
    if (args.dot) {  // uniform across the team: every thread takes part in the reduction
      team.team_reduce(Kokkos::Sum<double>(dot));
      if (rank == 0) Kokkos::atomic_add(args.dot, dot);
    }
  }
};

/// Cells per team when the user does not choose: one on the host; on a GPU the tuning row's
/// number for the problem, or as many as fill its team_threads (one thread per line) within the
/// launch bound.
template <BakeOff problem, int n, class ExecSpace>
int default_bake_off_cells_per_team() {
  if constexpr (runs_on_host<ExecSpace>()) return 1;
  using Kernel = BakeOffKernel<problem, n, double, ExecSpace>;
  if (Kernel::tuning.cells_per_team[int(problem)] > 0) return Kernel::tuning.cells_per_team[int(problem)];
  const int threads = Kernel::tuning.team_threads < Kernel::tuning.max_team_size ? Kernel::tuning.team_threads
                                                                                  : Kernel::tuning.max_team_size;
  return threads / Kernel::lines > 0 ? threads / Kernel::lines : 1;
}

template <BakeOff problem, int n, class Number, class ExecSpace, GeometryKernel geometry>
void launch_bake_off_geometry(const BakeOffArgs<Number, ExecSpace>& args) {
  using Kernel = BakeOffKernel<problem, n, Number, ExecSpace, geometry>;
  Kernel kernel{args, detail::cell_range(args.box, -1), {}, {}, {}, {}, {}};
  const local_index cells = kernel.cells.size();
  if (cells == 0) return;
  constexpr int q = Kernel::q;
  for (int a = 0; a < q; ++a) {
    if (args.trilinear) {
      kernel.points[a] = args.points[a];
      kernel.weights[a] = args.weights[a];
    }
    if constexpr (problem != BakeOff::bp3_5)
      for (int i = 0; i < n; ++i) kernel.I[a][i] = static_cast<Number>(args.interpolation[a * n + i]);
    for (int b = 0; b < q; ++b) kernel.D[a][b] = static_cast<Number>(args.collocation_derivative[a * q + b]);
  }
  if constexpr (Kernel::even_odd) {
    // Exact for the symmetric point sets of bake_off_tables_1d (rounding-level deviations).
    using contraction::Reversal;
    const double* const interpolation = args.interpolation;
    const double* const derivative = args.collocation_derivative;
    double worst = 0;
    if constexpr (problem != BakeOff::bp3_5) {
      worst = std::max(worst, contraction::make_even_odd(interpolation, kernel.eo.I, Reversal::symmetric));
      worst = std::max(worst, contraction::make_even_odd(interpolation, kernel.eo.It, Reversal::symmetric, true));
    }
    worst = std::max(worst, contraction::make_even_odd(derivative, kernel.eo.D, Reversal::antisymmetric));
    worst = std::max(worst, contraction::make_even_odd(derivative, kernel.eo.Dt, Reversal::antisymmetric, true));
    if (worst > 1e-12)
      throw std::logic_error("the bake-off kernel of degree " + std::to_string(n - 1) +
                             " needs symmetric 1D tables for its even-odd form (relative deviation " + std::to_string(worst) + ")");
  }
  const int league = (cells + args.cells_per_team - 1) / args.cells_per_team;
  const int team_size = runs_on_host<ExecSpace>() ? 1 : args.cells_per_team * Kernel::lines;
  Kokkos::parallel_for("tensormg::operator::bake_off::apply", typename Kernel::Policy(league, team_size), kernel);
}

/// The kernel of args' geometry (stored factors or trilinear) where the row splits them, else the
/// one kernel of both.
template <BakeOff problem, int n, class Number, class ExecSpace>
void launch_bake_off(const BakeOffArgs<Number, ExecSpace>& args) {
  using G = GeometryKernel;
  if constexpr (BakeOffKernel<problem, n, Number, ExecSpace>::tuning.split_geometry[int(problem)]) {
    if (args.trilinear)
      launch_bake_off_geometry<problem, n, Number, ExecSpace, G::trilinear>(args);
    else
      launch_bake_off_geometry<problem, n, Number, ExecSpace, G::stored>(args);
  } else {
    launch_bake_off_geometry<problem, n, Number, ExecSpace, G::either>(args);
  }
}

template <BakeOff problem, int k, class Number, class ExecSpace>
BakeOffKernelTable<Number, ExecSpace> bake_off_kernels_of() {
  using Kernel = BakeOffKernel<problem, k + 1, Number, ExecSpace>;
  return {&launch_bake_off<problem, k + 1, Number, ExecSpace>,
          nullptr,
          default_bake_off_cells_per_team<problem, k + 1, ExecSpace>(),
          runs_on_host<ExecSpace>() ? 0 : Kernel::lines,
          Kernel::tuning.max_team_size,
          &Kernel::scratch_bytes};
}

}  // namespace tensormg

/// For TENSORMG_FOR_EACH_NUMBER_AND_SPACE, with TENSORMG_DEGREE defined by the generated unit
/// (TENSORMG_DIM is 3 for every group).
#define TENSORMG_INSTANTIATE_BAKE_OFF_KERNELS(Number, Exec)                                                        \
  template BakeOffKernelTable<Number, Exec> bake_off_kernels_of<BakeOff::bp1_0, TENSORMG_DEGREE, Number, Exec>(); \
  template BakeOffKernelTable<Number, Exec> bake_off_kernels_of<BakeOff::bp3_5, TENSORMG_DEGREE, Number, Exec>(); \
  template BakeOffKernelTable<Number, Exec> bake_off_kernels_of<BakeOff::bp3_0, TENSORMG_DEGREE, Number, Exec>();
