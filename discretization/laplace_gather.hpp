#pragma once
/// @file
/// The continuous Q_k operator (k >= 2) by gathering (ScatterMode::gather): the rank's operator on
/// a Cartesian box is a Kronecker sum of assembled, banded 1D matrices,
///   3D: a (K_z⊗M_y⊗M_x + M_z⊗K_y⊗M_x + M_z⊗M_y⊗K_x) + b M_z⊗M_y⊗M_x,
/// and a team evaluates it on a tile of nodes by sum factorization over those 1D matrices, storing
/// every output once: no atomic adds, no cell-wise index arithmetic, no zeroing of dst. The Q1
/// stencil (laplace_q1_gather.hpp) is the same idea at k = 1 without scratch.
///
/// Segments. Along a direction the box has cells·k + 1 nodes; segment s holds nodes s·k .. s·k + k − 1
/// (the last segment, s = cells, only the box's last node). A segment's rows of an assembled 1D
/// matrix read nodes (s − 1)·k .. (s + 1)·k: its first node (a vertex) the last row of cell s − 1
/// and the first row of cell s, the others rows of cell s. A thread computes a whole segment of a
/// line from 2k + 1 values in registers, (k + 1)² multiply-adds per matrix; the cell matrices are
/// held by value in the functor and, with the loops unrolled, read at compile-time offsets.
/// At k >= 5 this is slower than the cell kernel on the H200 (h200-2026-12-02-gather/call1), and a
/// work item per output instead of per segment was slower still (call2): the tuning rows gather
/// at 3D k <= 4 and 2D k <= 7 there.
///
/// A team owns a tile of tile_x × tile_y segments in x and y (a GPU thread per (x, y) output
/// column) and a run of z cells; it marches along z one cell at a time. Per batch of `planes`
/// z planes: load the planes' input nodes with their x and y halo into scratch (Dirichlet and
/// missing nodes read as zero); x products X_m = M_x u, X_s = K_x u; y products
/// W = a (K_y X_m + M_y X_s) + b M_y X_m and V = a M_y X_m; each thread adds its column's W, V
/// times the z cell's rows to k + 1 accumulators in registers (out_r += M_z[r][q] W_q + K_z[r][q] V_q).
/// After a z cell its first k outputs are complete (the first plus the carry of the cell below)
/// and are stored; the last becomes the carry. 2D: the x products give W and V directly and the
/// team marches along y. The first z cell of a team's run only provides the carry (k + 1 planes
/// done twice per run).
///
/// Only the host glue (laplace_operator.cpp, through the kernel table) launches it.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "backends/device_traits.hpp"
#include "core/fast_divisor.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "discretization/laplace_kernel_table.hpp"
#include "discretization/laplace_tuning.hpp"
#include "discretization/q1_stencil.hpp"

namespace tensormg {

/// One direction's cell mass and stiffness matrices, held by value in the functor.
template <int k, class Number>
struct GatherCell1D {
  Number m[k + 1][k + 1];
  Number s[k + 1][k + 1];
};

template <int dim, int k, class Number, class ExecSpace>
struct LaplaceGatherKernel {
  static_assert(k >= 2, "k = 1 is the stencil of laplace_q1_gather.hpp");
  static constexpr LaplaceTuning tuning = laplace_tuning(dim, k, tuning_target<ExecSpace>());
  /// z planes loaded and multiplied per batch (all k planes of a z cell at once where they fit).
  static constexpr int planes = tuning.gather_planes > 0 ? tuning.gather_planes : k;
  static_assert(k % planes == 0, "a z cell's k new planes come in whole batches");
  static constexpr bool host = runs_on_host<ExecSpace>();
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<tuning.max_team_size, tuning.min_teams_per_sm>>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int line = 2 * k + 1;  // values a segment's rows read

  /// A column's march along z: accumulators of the current z cell's k + 1 rows, the carry into
  /// the next cell's first node, and W, V of the cell's first plane (the last of the cell below).
  struct Column {
    Number acc[k + 1];
    Number carry, w0, v0;
  };

  Kokkos::View<const Number*, typename ExecSpace::memory_space> src;
  Kokkos::View<Number*, typename ExecSpace::memory_space> dst;
  NodeBox box;
  Q1BoundaryLayers boundary;
  GatherCell1D<k, Number> dir[dim];
  Number laplace = 1, mass = 0;
  bool zero_boundary_input = true, skip_boundary_output = true;
  GatherTile tile;
  local_index tiles[3] = {1, 1, 1};
  /// Work-item numbers to coordinates: by the input row length, input rows, segments per tile in
  /// x and y, output row length.
  FastDivisor by_inx, by_iny, by_tile_x, by_tile_y, by_nx;

  // Tile extents: output nodes (nx, ny) and input nodes with the halo (inx, iny) per plane.
  KOKKOS_INLINE_FUNCTION int nx() const { return tile.x * k; }
  KOKKOS_INLINE_FUNCTION int ny() const { return dim == 3 ? tile.y * k : 1; }
  KOKKOS_INLINE_FUNCTION int inx() const { return (tile.x + 1) * k + 1; }
  KOKKOS_INLINE_FUNCTION int iny() const { return dim == 3 ? (tile.y + 1) * k + 1 : 1; }

  /// Scratch per team in Number units: input planes, x products (3D), W and V, and on the host the
  /// columns' march state (a GPU thread keeps its one column in registers).
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_entries(const GatherTile& t) {
    const std::size_t nx = std::size_t(t.x) * k, ny = dim == 3 ? std::size_t(t.y) * k : 1;
    const std::size_t inx = std::size_t(t.x + 1) * k + 1, iny = dim == 3 ? std::size_t(t.y + 1) * k + 1 : 1;
    std::size_t n = planes * (inx * iny + (dim == 3 ? 2 * iny * nx : 0) + 2 * ny * nx);
    if (host) n += nx * ny * (sizeof(Column) / sizeof(Number) + 1);
    return n;
  }
  static std::size_t scratch_bytes(const GatherTile& t) { return ScratchView::shmem_size(scratch_entries(t)); }
  /// Scratch level: a GPU's shared memory; on the host level 1 (ordinary memory; OpenMP grants 32
  /// KiB at level 0, less than a tile's march state).
  static constexpr int scratch_level = host ? 1 : 0;

  /// The rows of one segment of a line: u holds nodes (s − 1)k .. (s + 1)k; lo, hi are 1 where
  /// cells s − 1, s exist (else 0). om = M u, os = K u on the segment's k nodes (only om where
  /// stiffness is false).
  template <bool stiffness>
  KOKKOS_FORCEINLINE_FUNCTION static void segment(const GatherCell1D<k, Number>& c, const Number (&u)[line], Number lo,
                                                  Number hi, Number (&om)[k], Number (&os)[k]) {
    Number bm = 0, bs = 0, am = 0, as = 0;
    TENSORMG_UNROLL_ALL
    for (int q = 0; q <= k; ++q) {
      bm += c.m[k][q] * u[q];
      am += c.m[0][q] * u[k + q];
      if constexpr (stiffness) {
        bs += c.s[k][q] * u[q];
        as += c.s[0][q] * u[k + q];
      }
    }
    om[0] = lo * bm + hi * am;
    if constexpr (stiffness) os[0] = lo * bs + hi * as;
    TENSORMG_UNROLL_ALL
    for (int r = 1; r < k; ++r) {
      Number vm = 0, vs = 0;
      TENSORMG_UNROLL_ALL
      for (int q = 0; q <= k; ++q) {
        vm += c.m[r][q] * u[k + q];
        if constexpr (stiffness) vs += c.s[r][q] * u[k + q];
      }
      om[r] = vm;
      if constexpr (stiffness) os[r] = vs;
    }
  }

  template <bool fast>
  KOKKOS_FORCEINLINE_FUNCTION local_index index(local_index x, local_index y, local_index z) const {
    return fast ? x + box.o[0] * (y + box.o[1] * z) : box.index(x, y, z);
  }

  /// Loads planes z0 .. z0 + nb − 1 of the tile's input (with halo) into U, then forms W and V.
  template <bool fast>
  KOKKOS_INLINE_FUNCTION void batch(const Member& team, Number* U, Number* XM, Number* XS, Number* W, Number* V,
                                    const local_index (&base)[3], local_index z0, int nb) const {
    const int rank = team.team_rank(), size = team.team_size();
    const int NX = nx(), NY = ny(), INX = inx(), INY = iny();
    const local_index last_z = dim == 3 ? box.n[2] : 1;
    const int loads = nb * INX * INY;
    for (int w = rank; w < loads; w += size) {
      int xi, yi;
      const int rest = by_inx.divmod(w, xi), b = by_iny.divmod(rest, yi);
      const local_index x = base[0] + xi, y = dim == 3 ? base[1] + yi : z0 + b, z = dim == 3 ? z0 + b : 0;
      const bool inside = x >= 0 && x < box.n[0] && y >= 0 && y < box.n[1] && z >= 0 && z < last_z;
      const bool zero = !inside || (zero_boundary_input && (boundary.contains(0, x) || boundary.contains(1, y) ||
                                                            (dim == 3 && boundary.contains(2, z))));
      U[w] = zero ? Number(0) : src(index<fast>(x, y, z));
    }
    team.team_barrier();
    // x products, a segment of a line per work item (j fastest).
    const int x_items = nb * INY * tile.x;
    for (int w = rank; w < x_items; w += size) {
      int j;
      const int row = by_tile_x.divmod(w, j);  // row = b * INY + yi
      const local_index s = local_index(base[0] + k) / k + j;
      const Number lo = s >= 1 ? Number(1) : Number(0), hi = s < box.cells[0] ? Number(1) : Number(0);
      Number u[line], om[k], os[k];
      const Number* in = U + row * INX + j * k;
      TENSORMG_UNROLL_ALL
      for (int q = 0; q < line; ++q) u[q] = in[q];
      segment<true>(dir[0], u, lo, hi, om, os);
      if constexpr (dim == 3) {
        TENSORMG_UNROLL_ALL
        for (int r = 0; r < k; ++r) {
          XM[row * NX + j * k + r] = om[r];
          XS[row * NX + j * k + r] = os[r];
        }
      } else {
        TENSORMG_UNROLL_ALL
        for (int r = 0; r < k; ++r) {
          W[row * NX + j * k + r] = laplace * os[r] + mass * om[r];
          V[row * NX + j * k + r] = laplace * om[r];
        }
      }
    }
    team.team_barrier();
    if constexpr (dim == 3) {
      // y products, a segment of a column per work item (x fastest).
      const int y_items = nb * tile.y * NX;
      for (int w = rank; w < y_items; w += size) {
        int xo, j;
        const int rest = by_nx.divmod(w, xo), b = by_tile_y.divmod(rest, j);
        const local_index s = local_index(base[1] + k) / k + j;
        const Number lo = s >= 1 ? Number(1) : Number(0), hi = s < box.cells[1] ? Number(1) : Number(0);
        Number um[line], us[line], mm[k], sm[k], ms[k], unused[k];
        const Number* in_m = XM + (b * INY + j * k) * NX + xo;
        const Number* in_s = XS + (b * INY + j * k) * NX + xo;
        TENSORMG_UNROLL_ALL
        for (int q = 0; q < line; ++q) {
          um[q] = in_m[q * NX];
          us[q] = in_s[q * NX];
        }
        segment<true>(dir[1], um, lo, hi, mm, sm);
        segment<false>(dir[1], us, lo, hi, ms, unused);
        TENSORMG_UNROLL_ALL
        for (int r = 0; r < k; ++r) {
          const int o = (b * NY + j * k + r) * NX + xo;
          W[o] = laplace * (sm[r] + ms[r]) + mass * mm[r];
          V[o] = laplace * mm[r];
        }
      }
      team.team_barrier();
    }
  }

  /// Adds plane q (1..k) of the current cell, batch slot b, to the column's accumulators.
  template <int q>
  KOKKOS_FORCEINLINE_FUNCTION void add_plane(Column& col, Number w, Number v) const {
    const GatherCell1D<k, Number>& c = dir[dim - 1];
    TENSORMG_UNROLL_ALL
    for (int r = 0; r <= k; ++r) col.acc[r] += c.m[r][q] * w + c.s[r][q] * v;
    if constexpr (q == k) {
      col.w0 = w;
      col.v0 = v;
    }
  }

  /// Batches b0 .. planes − 1 of a z cell, as a compile-time recursion so that every plane's
  /// position in the cell (hence its matrix column) is a constant.
  template <bool fast, int q0>
  KOKKOS_INLINE_FUNCTION void cell_batches(const Member& team, Number* U, Number* XM, Number* XS, Number* W, Number* V,
                                           Column* cols, Column& mine, const local_index (&base)[3],
                                           local_index first_plane) const {
    batch<fast>(team, U, XM, XS, W, V, base, first_plane + q0 + 1, planes);
    const int columns = nx() * ny();
    for (int t = team.team_rank(); t < columns; t += team.team_size()) {
      Column& col = host ? cols[t] : mine;
      TENSORMG_UNROLL_ALL
      for (int b = 0; b < planes; ++b) {
        const Number w = W[b * columns + t], v = V[b * columns + t];
        add_plane_at<q0>(col, b, w, v);
      }
    }
    if constexpr (q0 + planes <= k - 1) cell_batches<fast, q0 + planes>(team, U, XM, XS, W, V, cols, mine, base, first_plane);
  }

  /// add_plane at the compile-time plane q0 + 1 + b (b a run-time index of an unrolled loop).
  template <int q0, int b = 0>
  KOKKOS_FORCEINLINE_FUNCTION void add_plane_at(Column& col, int slot, Number w, Number v) const {
    if (slot == b) add_plane<q0 + 1 + b>(col, w, v);
    else if constexpr (b + 1 < planes) add_plane_at<q0, b + 1>(col, slot, w, v);
  }

  template <bool fast>
  KOKKOS_INLINE_FUNCTION void run(const Member& team, const local_index (&t)[3]) const {
    const int NX = nx(), NY = ny(), INX = inx(), INY = iny();
    Number* U = static_cast<Number*>(team.team_scratch(int(scratch_level)).get_shmem(sizeof(Number) * scratch_entries(tile)));
    Number* XM = U + planes * INX * INY;
    Number* XS = XM + (dim == 3 ? planes * INY * NX : 0);
    Number* W = XS + (dim == 3 ? planes * INY * NX : 0);
    Number* V = W + planes * NY * NX;
    Column* cols = reinterpret_cast<Column*>(V + planes * NY * NX);
    const int columns = NX * NY;
    constexpr int zd = dim - 1;  // the marching direction
    const local_index base[3] = {(t[0] * tile.x - 1) * k, dim == 3 ? (t[1] * tile.y - 1) * k : 0, 0};
    const local_index out0[2] = {t[0] * tile.x * k, dim == 3 ? t[1] * tile.y * k : 0};
    const local_index first = t[zd] * tile.z_cells;  // the first z segment this team stores
    const local_index end = first + tile.z_cells < box.cells[zd] + 1 ? first + tile.z_cells : box.cells[zd] + 1;
    const local_index begin = first > 0 ? first - 1 : 0;  // the cell below gives the carry
    Column mine{};
    // The first plane of cell `begin`.
    batch<fast>(team, U, XM, XS, W, V, base, begin * k, 1);
    for (int c = team.team_rank(); c < columns; c += team.team_size()) {
      Column& col = host ? cols[c] : mine;
      col.carry = 0;
      col.w0 = W[c];
      col.v0 = V[c];
    }
    for (local_index cell = begin; cell < end; ++cell) {
      const bool exists = cell < box.cells[zd];  // the same for the whole team
      const GatherCell1D<k, Number>& cz = dir[zd];
      for (int c = team.team_rank(); c < columns; c += team.team_size()) {
        Column& col = host ? cols[c] : mine;
        TENSORMG_UNROLL_ALL
        for (int r = 0; r <= k; ++r) col.acc[r] = exists ? cz.m[r][0] * col.w0 + cz.s[r][0] * col.v0 : Number(0);
      }
      if (exists) cell_batches<fast, 0>(team, U, XM, XS, W, V, cols, mine, base, cell * k);
      // Store the cell's first k nodes of every column (the first with the carry), keep the last.
      for (int c = team.team_rank(); c < columns; c += team.team_size()) {
        Column& col = host ? cols[c] : mine;
        int xo;
        const int yo = by_nx.divmod(c, xo);
        const local_index x = out0[0] + xo, y = dim == 3 ? out0[1] + yo : 0;
        const bool column_exists = x < box.n[0] && (dim == 2 || y < box.n[1]);
        if (cell >= first && column_exists) {
          const bool skip_xy = skip_boundary_output && (boundary.contains(0, x) || (dim == 3 && boundary.contains(1, y)));
          TENSORMG_UNROLL_ALL
          for (int r = 0; r < k; ++r) {
            if (r > 0 && !exists) break;
            const local_index z = cell * k + r;
            const Number value = r == 0 ? col.carry + col.acc[0] : col.acc[r];
            const bool skip = skip_xy || (skip_boundary_output && boundary.contains(zd, z));
            dst(dim == 3 ? index<fast>(x, y, z) : index<fast>(x, z, 0)) = skip ? Number(0) : value;
          }
        }
        col.carry = col.acc[k];
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    local_index t[3];
    local_index l = team.league_rank();
    t[0] = l % tiles[0];
    l /= tiles[0];
    t[1] = l % tiles[1];
    t[2] = l / tiles[1];
    // The highest node coordinate the team reads, per direction; where all are owned, indices
    // follow lexicographically in the owned box (NodeBox).
    constexpr int zd = dim - 1;
    local_index top[3] = {0, 0, 0};
    const auto reach = [&](local_index tile_index, local_index segments, int d) {
      const std::int64_t last = std::int64_t(tile_index + 1) * segments * k;
      return last < box.n[d] - 1 ? local_index(last) : box.n[d] - 1;
    };
    top[0] = reach(t[0], tile.x, 0);
    if (dim == 3) top[1] = reach(t[1], tile.y, 1);
    top[zd] = reach(t[zd], tile.z_cells, zd);
    const bool fast = top[0] < box.o[0] && top[1] < box.o[1] && top[2] < box.o[2];
    if (fast) run<true>(team, t);
    else run<false>(team, t);
  }
};

/// dst = A src on every node of the box (owned and ghost), by tiles.
template <int dim, int k, class Number, class ExecSpace>
void launch_gather_operator(const CellKernelArgs<Number, ExecSpace>& args) {
  using Kernel = LaplaceGatherKernel<dim, k, Number, ExecSpace>;
  const NodeBox& box = args.box;
  if (box.cells[0] == 0 || box.cells[1] == 0 || (dim == 3 && box.cells[2] == 0)) return;
  Kernel kernel;
  kernel.src = args.src;
  kernel.dst = args.dst;
  kernel.box = box;
  kernel.boundary = Q1BoundaryLayers(box);
  constexpr int n = k + 1;
  for (int d = 0; d < dim; ++d)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        kernel.dir[d].m[i][j] = args.host_matrices[(d * 2 + 0) * n * n + i * n + j];
        kernel.dir[d].s[i][j] = args.host_matrices[(d * 2 + 1) * n * n + i * n + j];
      }
  kernel.laplace = args.laplace;
  kernel.mass = args.mass;
  kernel.zero_boundary_input = args.zero_boundary_input;
  kernel.skip_boundary_output = args.skip_boundary_output;
  kernel.tile = args.gather_tile;
  kernel.by_inx = FastDivisor(kernel.inx());
  kernel.by_iny = FastDivisor(kernel.iny());
  kernel.by_tile_x = FastDivisor(kernel.tile.x);
  kernel.by_tile_y = FastDivisor(kernel.tile.y);
  kernel.by_nx = FastDivisor(kernel.nx());
  const local_index z_segments = box.cells[dim - 1] + 1;
  if (kernel.tile.z_cells > z_segments) kernel.tile.z_cells = z_segments;
  const local_index segments[3] = {box.cells[0] + 1, box.cells[1] + 1, dim == 3 ? box.cells[2] + 1 : 1};
  kernel.tiles[0] = (segments[0] + kernel.tile.x - 1) / kernel.tile.x;
  if constexpr (dim == 3) {
    kernel.tiles[1] = (segments[1] + kernel.tile.y - 1) / kernel.tile.y;
    kernel.tiles[2] = (segments[2] + kernel.tile.z_cells - 1) / kernel.tile.z_cells;
  } else {
    kernel.tiles[1] = (segments[1] + kernel.tile.z_cells - 1) / kernel.tile.z_cells;
  }
  const std::int64_t league = std::int64_t(kernel.tiles[0]) * kernel.tiles[1] * kernel.tiles[2];
  const int team_size = Kernel::host ? 1 : int(kernel.tile.columns(dim, k));
  const auto policy = typename Kernel::Policy(int(league), team_size)
                          .set_scratch_size(Kernel::scratch_level, Kokkos::PerTeam(Kernel::scratch_bytes(kernel.tile)));
  Kokkos::parallel_for("tensormg::operator::laplace::gather", policy, kernel);
}

/// Floating-point operations of one gathering launch (what the kernel executes, halo included).
inline double gather_flops(int dim, int k, const NodeBox& box, const GatherTile& t) {
  const double n = k + 1, segment = n * n;  // multiply-adds of one matrix on one segment
  const double tx = std::ceil(double(box.cells[0] + 1) / t.x);
  const double ty = dim == 3 ? std::ceil(double(box.cells[1] + 1) / t.y) : 1;
  const double zc = double(box.cells[dim - 1] + 1);
  const double runs = std::ceil(zc / t.z_cells);
  const double planes_per_tile = (zc - 1) * k + runs * (k + 1);  // z cells done twice per run
  const double iny = dim == 3 ? (t.y + 1) * k + 1 : 1, ny = dim == 3 ? t.y * k : 1;
  double per_plane = iny * t.x * 2 * segment;           // x products
  if (dim == 3) per_plane += t.x * k * t.y * 3 * segment;  // y products
  per_plane += t.x * k * ny * (2 * n + 3);               // z accumulation, W and V
  return 2 * per_plane * planes_per_tile * tx * ty;
}

}  // namespace tensormg
