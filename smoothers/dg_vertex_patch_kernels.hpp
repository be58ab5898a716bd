#pragma once
/// @file
/// Device body of one colour of the DG vertex-patch smoother (paper 002 §3.1, Algorithm 1): one
/// team per patch (the 2^d cells around an interior vertex), one thread per line of the patch
/// ((2n)^(d−1) lines, n = k + 1). The patch residual is either computed from the patch cells
/// only (the Dirichlet local solver's inconsistent residual: r = b − A_P u_P on the patch values,
/// A_P the operator of the patch cells continued without jump across the patch's inner faces,
/// DgPatchMatrices1D::residual_laplace) or gathered from a global residual vector
/// (the full local solver), then the local problem is solved by fast diagonalization,
///   δ = (S_z ⊗ S_y ⊗ S_x) diag(1 / (a Σ_d λ + b)) (S_z ⊗ S_y ⊗ S_x)ᵀ r,
/// and x += δ. The Dirichlet solver's S is the full-size S with zero rows and columns on the
/// patch boundary (its eigenvalues there set to 1): one code path, boundary values untouched.
/// With DgPatchArgs::apply the kernel evaluates the operator patch-wise instead (paper 001 §2.1,
/// DgLaplaceOperator's DgEvaluation::patch): the same sum-factorized A_P x with the split 1D
/// matrices (sipg_patch_split), added into dst, no local solve.
/// With DgPatchArgs::use_inverse the local problem is instead solved by the stored dense inverse
/// of the patch (δ = D r, dense_solve; D is zero outside the local space), the tested alternative.
/// The patch's values move between global memory and scratch in memory order (coalesced; the
/// x-lines of a cell row are only n values long); in scratch its rows are padded to N + 1 values
/// (DgPatchLayout::padded, paper 002 §4.3) so that the threads' x-lines fall on distinct banks.
/// dg_vertex_patch_launch.hpp launches them (for dg_vertex_patch_smoother.cpp, through the kernel table).

#include <Kokkos_Core.hpp>

#include "backends/block_contraction.hpp"
#include "backends/device_traits.hpp"
#include "core/fast_divisor.hpp"
#include "core/tensor_contraction.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "smoothers/dg_vertex_patch_kernel_table.hpp"
#include "smoothers/dg_vertex_patch_tuning.hpp"

namespace tensormg {

/// Offsets in DgPatchArgs::data of direction d, position p (N = 2n).
template <int N>
struct DgPatchData {
  static constexpr int block = 3 * N * N + N;
  KOKKOS_INLINE_FUNCTION static int offset(int d, int position) { return (d * 4 + position) * block; }
  static constexpr int l = 0, m = N * N, s = 2 * N * N, lambda = 3 * N * N;
};

template <int dim, int n, class Number, class ExecSpace>
struct DgPatchKernel {
  static constexpr int N = 2 * n;
  static constexpr int patch_size = dim == 2 ? N * N : N * N * N;
  static constexpr int lines = patch_size / N;
  static constexpr DgPatchTuning tuning = dg_patch_tuning(dim, n - 1);
  static_assert(tuning.dim == dim, "no DG patch tuning row for this (dim, k)");
  static constexpr int min_blocks = sizeof(Number) == 8 ? tuning.min_blocks_fp64 : tuning.min_blocks_fp32;
  /// The largest team: the launch bound's threads (also the block path's, whose tensor-core
  /// contraction then gives each warp several tiles).
  static constexpr int max_team = 128;
  using Bounds = std::conditional_t<(min_blocks > 0), Kokkos::LaunchBounds<max_team, min_blocks>, Kokkos::LaunchBounds<>>;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Bounds>;
  using Member = typename Policy::member_type;
  using ScratchView = Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using Data = DgPatchData<N>;
  /// Output loops fully unrolled (every 1D matrix entry a compile-time offset) up to 2n = 12; above
  /// that the unrolled code grows past what nvcc compiles in reasonable time (the 2D unit took > 7
  /// minutes with k = 10 unrolled) and the rows are indexed at run time (uniform constant loads).
  static constexpr int unroll = N <= 12 ? N : 1;
  /// The patch's values staged through scratch in memory order in 3D from k = 2 and in 2D from
  /// k = 7 on; below, a patch's threads are few (3D k = 1: 16, 2D: 2(k + 1)) and the staging's
  /// extra passes and barriers cost more than the reads they coalesce (same-call A/B,
  /// h100-2026-11-24-dg-smoother-v2: 3D FP64 k = 1 3.13 staged vs 4.73 direct GDoF/s; 2D FP64
  /// k = 3..5 0.60–0.88×, k = 7, 8 1.18–1.27× staged).
  static constexpr bool staged = dim == 3 ? N > 4 : N >= 16;

  /// The scratch buffers' layout (DgPatchLayout): value (X, Y, Z) at X + row·Y + plane·Z with
  /// row = N + 1, plane = row·N (padded) or row = N, plane = N² (plain); sized for the padded one.
  /// Unstaged kernels keep the plain layout as compile-time strides: with a few threads per patch
  /// the run-time strides' address arithmetic cost more than the conflicts (3D FP64 k = 1: 3.8 vs
  /// 4.5–4.7 GDoF/s, h100-2026-11-24-dg-smoother-v2).
  static constexpr int padded_size = dim == 2 ? (N + 1) * N : (N + 1) * N * N;
  static constexpr int cell_values = dim == 2 ? n * n : n * n * n;

  /// The block contractions (DgPatchContraction::blocks): the backend's trait; with FP16 products
  /// (f16, f16ec: float, N = 8..16, dg_patch_has_f16) the trait of that arithmetic. Each runs as a kernel of its own
  /// (DgPatchBlockKernel), its buffers in the trait's layout.
  using Blocks = block::BlockContraction<ExecSpace, Number, dim, N>;
  template <block::Products P>
  using HalfBlocks = block::BlockContraction<ExecSpace, Number, dim, N, P>;
  static constexpr bool has_half_blocks = std::is_same_v<Number, float> && dg_patch_has_f16(n - 1);
  /// The patch's values (N^dim); a trait may store its blocks padded (B::stored_n > N: the FP64
  /// tensor cores of sm_90 take k = 4..6, 2(k + 1) = 10..14, as blocks of 16^dim).
  static constexpr int block_values = block::block_size<dim, N>;
  /// A block kernel's team and launch bound. Tensor cores: 128 threads (each warp two tiles in 3D),
  /// 6 blocks per SM (80 registers). Same-call A/Bs against the line kernel (3D k = 3 Dirichlet,
  /// h100-2026-11-25-tensor-cores): inside the line kernel under its bound 0.92x (call3); a kernel
  /// of its own with a warp per tile and no cap: 254 registers, 0.37x (call4); with
  /// LaunchBounds<256, 1>: 95 registers, 2 blocks per SM, 0.66x (call5); this, 72 registers and
  /// few spills: 1.19x (call6). Blocks of 16 (k = 7, and k = 4..6 padded; FP64 m16n8k16): the
  /// three buffers take 96 KB of the opt-in shared memory, two teams per SM (one team's barriers
  /// overlap the other's contractions) of 384 threads (12 warps, at most 85 registers each).
  /// Same-call A/B, one smoothing step (h200-2026-11-28-dg-padded/call4): 384 threads against 256
  /// (128 registers) 1.04x at k = 5, 6 and 1.10x at k = 7; 512 (64 registers) 0.86-1.06x. With
  /// four buffers (128 KB) a single team of 512 threads held an SM: 0.74-0.77x (call1). The
  /// portable contraction keeps the line kernel's bound.
  template <class B>
  static constexpr bool wide_blocks = B::tensor_cores && B::stored_n == 16;
  /// Float blocks of 16 (FP16 tensor cores, k = 4..7) take 48 KB: four teams of 256 threads an SM
  /// (64 registers each). Same-call A/B against the FP64 shape (2 × 384), one float smoothing step,
  /// 3D ~3e7 DoF (h200-2026-11-29-fp16-n16/call2): k = 7 f16 4.20 → 5.31 GDoF/s, f16ec 3.73 →
  /// 4.59; k = 5 f16 2.44 → 3.16, f16ec 2.20 → 2.63 (Dirichlet local solver).
  template <class B>
  static constexpr bool wide_float = wide_blocks<B> && sizeof(Number) == 4;
  template <class B>
  static constexpr int block_team_size = wide_float<B> ? 256 : wide_blocks<B>  ? 384
                                         : B::threads_per_block < max_team ? B::threads_per_block
                                                                           : max_team;
  template <class B>
  using BlockPolicy = Kokkos::TeamPolicy<
      ExecSpace,
      std::conditional_t<B::tensor_cores, Kokkos::LaunchBounds<block_team_size<B>, (wide_float<B> ? 4 : wide_blocks<B> ? 2 : 6)>, Bounds>>;
  /// Three buffers of a patch in B's layout (B::stored_n^dim values, padding included), each
  /// aligned to 16 bytes (tensor-core stores).
  static constexpr int block_buffers = 3;
  template <class B>
  static constexpr int block_stride = (block::block_size<dim, B::stored_n> + 3) / 4 * 4;
  template <class B>
  static std::size_t block_scratch_bytes() { return block_buffers * block_stride<B> * sizeof(Number) + 16; }

  DgPatchArgs<Number, ExecSpace> args;
  FastDivisor by_patches[2];
  int layout_row = N, layout_plane = N * N;
  int patches_per_team = 1;  ///< a team smooths this many patches side by side, each with its threads and buffers
  local_index n_patches = 0;
  KOKKOS_INLINE_FUNCTION int row_stride() const { return staged ? layout_row : N; }
  KOKKOS_INLINE_FUNCTION int plane_stride() const { return staged ? layout_plane : N * N; }

  static std::size_t scratch_bytes(int patches) { return ScratchView::shmem_size(2 * padded_size * patches); }
  /// Threads per patch: one per line, at most 128 (with one patch per team).
  static constexpr int patch_threads = lines < 128 ? lines : 128;
  /// Whether teams may hold several patches (the tuning row puts several): only these kernels carry
  /// the slot arithmetic, which cost the one-patch 3D k = 3 kernel 112 bytes of spills at its
  /// launch bound's 80 registers.
  static constexpr bool multi = tuning.patches_per_team > 1;

  /// Scratch offset of the first value of x-line `line` ((y, z) = (line % N, line / N)).
  KOKKOS_INLINE_FUNCTION int x_line(int line) const { return row_stride() * (line % N) + plane_stride() * (line / N); }

  /// Patch value e in memory order (its 2^d cells one after the other, each cell's values
  /// lexicographic; a box's cells are lexicographic, so the patch's x-neighbour cells are adjacent
  /// in memory): its global index g and its scratch offset at. Consecutive threads take
  /// consecutive e: the global reads and writes of the patch coalesce.
  KOKKOS_INLINE_FUNCTION void patch_value(const local_index c0[3], int e, local_index& g, int& at) const {
    int X, Y, Z;
    patch_position(c0, e, g, X, Y, Z);
    at = X + row_stride() * Y + plane_stride() * Z;
  }

  /// Patch value e in memory order: its global index g and its patch position (X, Y, Z).
  KOKKOS_INLINE_FUNCTION void patch_position(const local_index c0[3], int e, local_index& g, int& X, int& Y,
                                             int& Z) const {
    const int cell = e / cell_values, i = e % cell_values;
    const int cx = cell & 1, cy = (cell >> 1) & 1, cz = cell >> 2;
    const int x = i % n, y = (i / n) % n, z = dim == 3 ? i / (n * n) : 0;
    g = args.box.cell_index(c0[0] + cx, c0[1] + cy, dim == 3 ? c0[2] + cz : 0) * args.box.cell_dofs + i;
    X = cx * n + x;
    Y = cy * n + y;
    Z = cz * n + z;
  }

  /// t[at] = v(g) for this thread's share (e = rank, rank + size, … < count) of the patch values.
  template <class V>
  KOKKOS_INLINE_FUNCTION void gather_patch(const V& v, const local_index c0[3], int rank, int size, int count,
                                           Number* t) const {
    for (int e = rank; e < count; e += size) {
      local_index g;
      int at;
      patch_value(c0, e, g, at);
      t[at] = v(g);
    }
  }

  /// A row / column accessor of an N × N matrix in the data view.
  struct Row {
    const Number* p;
    KOKKOS_INLINE_FUNCTION Number operator[](int m) const { return p[m]; }
  };
  struct Matrix {
    const Number* p;
    KOKKOS_INLINE_FUNCTION Row operator[](int row) const { return {p + row * N}; }
  };

  /// Global index of patch value (X, Y, Z) (each 0..N−1) of the patch whose first cell is c0.
  KOKKOS_INLINE_FUNCTION local_index index_of(const local_index c0[3], int X, int Y, int Z) const {
    const local_index cell = args.box.cell_index(c0[0] + X / n, c0[1] + Y / n, dim == 3 ? c0[2] + Z / n : 0);
    return cell * args.box.cell_dofs + X % n + n * ((Y % n) + n * (dim == 3 ? Z % n : 0));
  }

  /// The interior patches' 1D data (position 0 in every direction) held by value: with the loops
  /// unrolled every entry has a compile-time offset, a constant-bank operand on CUDA instead of one
  /// L1 load per FMA (ncu: the device-array version ran L1/TEX at 95%).
  struct Interior {
    Number l[dim][N][N], m[dim][N][N], s[dim][N][N], lambda[dim][N];
  };
  Interior interior;

  /// The matrices of a patch: from the functor (interior) or from the device array (boundary).
  struct ConstantSource {
    const Interior* p;
    KOKKOS_INLINE_FUNCTION const Number (&l(int d) const)[N][N] { return p->l[d]; }
    KOKKOS_INLINE_FUNCTION const Number (&m(int d) const)[N][N] { return p->m[d]; }
    KOKKOS_INLINE_FUNCTION const Number (&s(int d) const)[N][N] { return p->s[d]; }
    KOKKOS_INLINE_FUNCTION Number lambda(int d, int i) const { return p->lambda[d][i]; }
  };
  struct ArraySource {
    const Number* base[3];  // per direction: L, M, S, λ at the offsets of DgPatchData
    KOKKOS_INLINE_FUNCTION Matrix l(int d) const { return {base[d] + Data::l}; }
    KOKKOS_INLINE_FUNCTION Matrix m(int d) const { return {base[d] + Data::m}; }
    KOKKOS_INLINE_FUNCTION Matrix s(int d) const { return {base[d] + Data::s}; }
    KOKKOS_INLINE_FUNCTION Number lambda(int d, int i) const { return base[d][Data::lambda + i]; }
  };

  /// In place along a line of a buffer (start, stride): v ← A v (transposed: Aᵀ v), read through
  /// `in` and written through `out`, two pointers to the same buffer (run: loads and stores).
  template <class A>
  KOKKOS_INLINE_FUNCTION static void line_apply(const Number* in, Number* out, int start, int stride, const A& a,
                                                bool transposed) {
    Number v[1][N];
    contraction::load_column(in + start, stride, v[0]);
    TENSORMG_UNROLL(unroll)
    for (int o = 0; o < N; ++o) {
      DeviceTraits<ExecSpace>::template keep_unroll<unroll, N>();
      Number s[1];
      if (transposed) contraction::dot_column(a, o, v, s);
      else contraction::dot(a[o], v, s);
      out[start + o * stride] = s[0];
    }
  }

  /// As line_apply, the outputs 0..count−1 only; those from count on are set to 0 (eigen-space
  /// coordinates beyond the local space: S's columns there are zero).
  template <class A>
  KOKKOS_INLINE_FUNCTION static void line_apply_first(const Number* in, Number* out, int start, int stride, const A& a,
                                                      bool transposed, int count) {
    Number v[1][N];
    contraction::load_column(in + start, stride, v[0]);
    TENSORMG_UNROLL(unroll)
    for (int o = 0; o < N; ++o) {
      DeviceTraits<ExecSpace>::template keep_unroll<unroll, N>();
      Number s[1] = {Number(0)};
      if (o < count) {
        if (transposed) contraction::dot_column(a, o, v, s);
        else contraction::dot(a[o], v, s);
      }
      out[start + o * stride] = s[0];
    }
  }

  /// Patch p of the colour: its first cell, the local space's size per direction, the boundary
  /// patches' matrices, its dense inverse's block (DgPatchArgs::inverse_slot); returns whether it
  /// is an interior patch.
  KOKKOS_INLINE_FUNCTION bool describe(local_index p, local_index c0[3], int m[3], ArraySource& array,
                                       int& combo) const {
    local_index r0, r1;
    const local_index q0 = by_patches[0].divmod(p, r0);
    const local_index q1 = by_patches[1].divmod(q0, r1);
    const local_index rest[3] = {r0, r1, q1};
    bool is_interior = true;
    combo = 0;
    for (int d = 0; d < dim; ++d) {
      // Vertex 1..cells−1 of the box whose global coordinate has the colour's parity; the
      // boundary position by the global vertex (a halo box is part of the mesh).
      const int parity = int(((args.color >> d) + args.box.offset[d]) & 1);
      const local_index v = 1 + parity + 2 * (args.first[d] + rest[d]);
      c0[d] = v - 1;
      const global_index gv = args.box.offset[d] + v;
      const int position = (gv == 1 ? 1 : 0) + (gv + 1 == args.box.global_cells[d] ? 2 : 0);
      is_interior = is_interior && position == 0;
      array.base[d] = args.data.data() + Data::offset(d, position);
      m[d] = args.local_size[d][position];
      combo += args.inverse_slot[d][position];
    }
    return is_interior;
  }

  /// The team's scratch (`bytes`; aligned to 16 bytes with `aligned`: the block path's tensor-core
  /// stores) at the launch's level; with `fast` (a device launch at level 0) rebuilt as fast scratch
  /// (DeviceTraits::fast_scratch), so that its loads and stores are shared-memory ones instead of
  /// generic ones, which wait on the long scoreboard like global loads.
  template <bool fast, bool aligned = false, class M>
  KOKKOS_FORCEINLINE_FUNCTION Number* team_buffers(const M& team, std::size_t bytes) const {
    const auto& scratch = team.team_scratch(args.scratch_level);
    Number* const p = static_cast<Number*>(aligned ? scratch.get_shmem_aligned(bytes, 16) : scratch.get_shmem(bytes));
    if constexpr (fast) return DeviceTraits<ExecSpace>::fast_scratch(p);
    return p;
  }

  /// The generic-scratch kernel (the host, global-memory scratch, DgPatchScratchPointer::generic and
  /// the cases `automatic` leaves generic: dg_patch_fast_scratch).
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const { body<false>(team); }

  template <bool fast>
  KOKKOS_INLINE_FUNCTION void body(const Member& team) const {
    local_index c0[3] = {0, 0, 0};
    int m[3] = {N, N, N};  // the local space's size per direction
    ArraySource array{};
    int combo = 0;
    if constexpr (!multi) {
      const bool is_interior = describe(team.league_rank(), c0, m, array, combo);
      // The branch is uniform over the team (one patch per team); the tuning row says whether the
      // functor path exists for this (dim, k).
      if constexpr (tuning.constant_interior) {
        if (is_interior) {
          run<fast>(team, 0, team.team_size(), true, c0, m, combo, ConstantSource{&interior});
          return;
        }
      }
      run<fast>(team, 0, team.team_size(), true, c0, m, combo, array);
    } else {
      // The team's patches: slot s takes patch league_rank · patches_per_team + s with the threads
      // s·T .. (s+1)·T − 1; the slots past the colour's last patch only meet the barriers.
      const int T = team.team_size() / patches_per_team;
      const int slot = team.team_rank() / T;
      const local_index first = local_index(team.league_rank()) * patches_per_team;
      const bool active = first + slot < n_patches;
      describe(active ? first + slot : first, c0, m, array, combo);
      if (!active) m[0] = m[1] = m[2] = 0;
      // Every thread of the team takes the same branch (the barriers are team-wide): the functor's
      // matrices only when all the team's patches are interior.
      if constexpr (tuning.constant_interior) {
        bool all_interior = true;
        for (int s = 0; s < patches_per_team; ++s) {
          local_index c[3];
          int ms[3];
          ArraySource a{};
          int cs;
          if (first + s < n_patches) all_interior = all_interior && describe(first + s, c, ms, a, cs);
        }
        if (all_interior) {
          run<fast>(team, slot, T, active, c0, m, combo, ConstantSource{&interior});
          return;
        }
      }
      run<fast>(team, slot, T, active, c0, m, combo, array);
    }
  }

  /// The dense-inverse local solve: x += D r with r in t0 (scratch layout). On a device the thread
  /// of patch value e (memory order) forms row e of D r, reading D's column-major block
  /// (DgPatchArgs::inverse: consecutive threads, consecutive addresses) and r as a broadcast; on
  /// the host (one thread per team) the columns stream into an accumulator in t1.
  KOKKOS_INLINE_FUNCTION void dense_solve(const Number* t0, Number* t1, const local_index c0[3], int rank, int size,
                                          int count, int combo) const {
    const Number* const D = args.inverse.data() + std::size_t(combo) * patch_size * patch_size;
    const int row = row_stride(), plane = plane_stride();
    if constexpr (runs_on_host<ExecSpace>()) {
      for (int e = 0; e < count; ++e) t1[e] = 0;
      const Number* column = D;
      for (int Z = 0; Z < (dim == 3 ? N : 1); ++Z)
        for (int Y = 0; Y < N; ++Y)
          for (int X = 0; X < N; ++X, column += patch_size) {
            const Number r = t0[X + row * Y + plane * Z];
            for (int e = 0; e < count; ++e) t1[e] += column[e] * r;
          }
      for (int e = 0; e < count; ++e) {
        local_index g;
        int at;
        patch_value(c0, e, g, at);
        args.x(g) += t1[e];
      }
    } else {
      for (int e = rank; e < count; e += size) {
        local_index g;
        int at;
        patch_value(c0, e, g, at);
        Number s = 0;
        const Number* column = D + e;
        for (int Z = 0; Z < (dim == 3 ? N : 1); ++Z)
          for (int Y = 0; Y < N; ++Y) {
            const Number* const r = t0 + row * Y + plane * Z;
            for (int X = 0; X < N; ++X, column += patch_size) s += *column * r[X];
          }
        args.x(g) += s;
      }
    }
  }

  /// The block path of team league_rank's patch (one patch per team), contractions by Blocks.
  template <class Blocks, bool fast, class M>
  KOKKOS_INLINE_FUNCTION void block_team(const M& team) const {
    local_index c0[3] = {0, 0, 0};
    int m[3] = {N, N, N};
    ArraySource array{};
    int combo = 0;
    describe(team.league_rank(), c0, m, array, combo);
    run_blocks<Blocks, fast>(team, c0, array);
  }

  /// to[L::at(X, Y, Z)] = v(g) for the team's share of the patch values, in memory order (coalesced).
  template <class L, class V>
  KOKKOS_INLINE_FUNCTION void gather_block(const V& v, const local_index c0[3], int rank, int size, Number* to) const {
    for (int e = rank; e < block_values; e += size) {
      local_index g;
      int X, Y, Z;
      patch_position(c0, e, g, X, Y, Z);
      to[L::at(X, Y, Z)] = v(g);
    }
  }

  /// 0 at the padding of every buffer of a block stored with S > N values per direction: a padded
  /// contraction reads zero padding and keeps it zero (it may skip the tiles of padded planes).
  template <class L, int S>
  KOKKOS_INLINE_FUNCTION static void zero_padding(int rank, int size, Number* buffers, int stride) {
    if constexpr (S > N) {
      for (int e = rank; e < block::block_size<dim, S>; e += size) {
        const int X = e % S, Y = (e / S) % S, Z = dim == 3 ? e / (S * S) : 0;
        if (X >= N || Y >= N || Z >= N)
          for (int b = 0; b < block_buffers; ++b) buffers[b * stride + L::at(X, Y, Z)] = Number(0);
      }
    }
  }

  /// One patch by block contractions (core/block_contraction.hpp; tensor cores where the trait
  /// has them), three buffers U, A, B in the trait's layout:
  ///   residual (local):  A = M_x U, B = L_x U;  3D: U ← L_y A + M_y B, then B ← M_y A; along the
  ///                      last direction r = b − (a (L P + M Q) + b_mass M P) with (P, Q) = (B, U)
  ///                      in 3D and (A, B) in 2D, r in the free buffer (A in 3D, U in 2D);
  ///                      or r gathered from the global residual;
  ///   solve:             δ = S diag(1 / (a Σλ + b_mass)) Sᵀ r, one direction at a time between r's
  ///                      buffer and a free one;  x += δ.
  /// The eigen-space coordinates beyond the local space come out zero from S's zero columns.
  template <class Blocks, bool fast, class M>
  KOKKOS_INLINE_FUNCTION void run_blocks(const M& team, const local_index c0[3], const ArraySource& src) const {
    using block::Term;
    using block::Write;
    using L = typename Blocks::Layout;
    constexpr int S = Blocks::stored_n, stride = block_stride<Blocks>;
    Number* const U = team_buffers<fast, true>(team, block_buffers * stride * sizeof(Number));
    Number* const A = U + stride;
    Number* const B = A + stride;
    const int rank = team.team_rank(), size = team.team_size();
    constexpr int last = dim - 1;
    const Number one = 1;
    Number* r = A;  // the residual's buffer
    zero_padding<L, S>(rank, size, U, stride);
    if (args.local_residual) {
      gather_block<L>(args.x, c0, rank, size, U);
      team.team_barrier();
      {
        const Term<Number> mx[1] = {{src.m(0).p, U}}, lx[1] = {{src.l(0).p, U}};
        Blocks::template apply<L>(team, 0, mx, one, Write::assign, A);
        Blocks::template apply<L>(team, 0, lx, one, Write::assign, B);
      }
      team.team_barrier();
      const Number* t0 = A;
      const Number* t1 = B;
      if constexpr (dim == 3) {
        const Term<Number> sum[2] = {{src.l(1).p, A}, {src.m(1).p, B}}, my[1] = {{src.m(1).p, A}};
        Blocks::template apply<L>(team, 1, sum, one, Write::assign, U);
        team.team_barrier();
        Blocks::template apply<L>(team, 1, my, one, Write::assign, B);
        team.team_barrier();
        t0 = B;
        t1 = U;
        r = A;
      } else {
        r = U;
      }
      {
        const Term<Number> lap[2] = {{src.l(last).p, t0}, {src.m(last).p, t1}}, mass[1] = {{src.m(last).p, t0}};
        Blocks::template apply<L>(team, last, lap, args.laplace, Write::assign, r);
        team.team_barrier();
        if (args.mass != Number(0)) {
          Blocks::template apply<L>(team, last, mass, args.mass, Write::add, r);
          team.team_barrier();
        }
      }
      // r ← b − r, or the patch-wise operator's dst += A_P x.
      for (int e = rank; e < block_values; e += size) {
        local_index g;
        int X, Y, Z;
        patch_position(c0, e, g, X, Y, Z);
        const int at = L::at(X, Y, Z);
        if (args.apply) args.dst(g) += r[at];  // the colour's patches do not overlap
        else r[at] = args.b(g) - r[at];
      }
      if (args.apply) return;  // uniform over the team
    } else {
      gather_block<L>(args.b, c0, rank, size, r);
    }
    team.team_barrier();
    // δ = S diag(1 / (a Σλ + b)) Sᵀ r: each transform from p into q, then the two swap (never in
    // place; r is not needed once transformed).
    Number* p = r;
    Number* q = r == A ? B : A;
    for (int d = 0; d < dim; ++d) {
      const Term<Number> st[1] = {{src.s(d).p, p, true}};
      Blocks::template apply<L>(team, d, st, one, Write::assign, q);
      team.team_barrier();
      Number* const t = p;
      p = q;
      q = t;
    }
    for (int e = rank; e < block_values; e += size) {
      const int X = e % N, Y = (e / N) % N, Z = dim == 3 ? e / (N * N) : 0;
      const Number lambda = src.lambda(0, X) + src.lambda(1, Y) + (dim == 3 ? src.lambda(2, Z) : Number(0));
      p[L::at(X, Y, Z)] /= args.laplace * lambda + args.mass;
    }
    team.team_barrier();
    for (int d = dim - 1; d >= 0; --d) {
      const Term<Number> st[1] = {{src.s(d).p, p}};
      Blocks::template apply<L>(team, d, st, one, Write::assign, q);
      team.team_barrier();
      Number* const t = p;
      p = q;
      q = t;
    }
    for (int e = rank; e < block_values; e += size) {
      local_index g;
      int X, Y, Z;
      patch_position(c0, e, g, X, Y, Z);
      args.x(g) += p[L::at(X, Y, Z)];
    }
  }

  template <bool fast, class Source>
  KOKKOS_INLINE_FUNCTION void run(const Member& team, int slot, int size, bool active, const local_index c0[3],
                                  const int m[3], int combo, const Source& src) const {
    // One patch per team (!multi): slot 0, always active, and the loop bounds compile-time.
    const int rank = multi ? team.team_rank() - slot * size : team.team_rank();
    const int team_patches = multi ? patches_per_team : 1;
    // The buffers t0, t1 are stored to through Kokkos' generic pointer and, with `fast`, loaded from
    // through the fast-scratch one (r0, r1): shared-memory loads, while the generic stores keep
    // ptxas from moving the global loads of the 1D matrices above them (with fast stores too it
    // did, and took 1.6–2.3x the registers: results/h100-2026-12-06-fast-scratch/g2).
    Number* const buffers = team_buffers<false>(team, sizeof(Number) * 2 * padded_size * team_patches);
    Number* const t0 = buffers + (multi ? 2 * padded_size * slot : 0);
    Number* const t1 = t0 + padded_size;
    const Number* r0 = t0;
    if constexpr (fast) r0 = DeviceTraits<ExecSpace>::fast_scratch(t0);
    const Number* const r1 = r0 + padded_size;
    // An inactive slot (past the last patch) loops over nothing; its m[] are 0.
    const int patch_lines = !multi || active ? lines : 0, patch_values = !multi || active ? patch_size : 0;
    constexpr int last = dim - 1;
    const int row = row_stride(), plane = plane_stride();
    const int last_stride = dim == 2 ? row : plane;

    // ---- the patch residual r into t0 (patch-lexicographic, x fastest, rows padded)
    if (args.local_residual) {
      // u into t0 in memory order (coalesced), then along the x-lines: t0 = M_x u, t1 = L_x u in
      // place (a thread reads its whole line before it writes it).
      if constexpr (staged) {
        gather_patch(args.x, c0, rank, size, patch_values, t0);
        team.team_barrier();
      }
      const auto& Mx = src.m(0);
      const auto& Lx = src.l(0);
      for (int line = rank; line < patch_lines; line += size) {
        const int base = x_line(line);
        Number u[1][N];
        if constexpr (staged) {
          contraction::load_column(r0 + base, 1, u[0]);
        } else {
          for (int X = 0; X < N; ++X) u[0][X] = args.x(index_of(c0, X, line % N, line / N));
        }
        TENSORMG_UNROLL(unroll)
        for (int o = 0; o < N; ++o) {
          DeviceTraits<ExecSpace>::template keep_unroll<unroll, N>();
          Number sm[1], sl[1];
          contraction::dot_two(Mx[o], Lx[o], u, sm, sl);
          t0[base + o] = sm[0];
          t1[base + o] = sl[0];
        }
      }
      team.team_barrier();
      if constexpr (dim == 3) {
        // y: t0 ← M_y t0, t1 ← L_y t0 + M_y t1, in place per y-line (x, z).
        const auto& My = src.m(1);
        const auto& Ly = src.l(1);
        for (int line = rank; line < patch_lines; line += size) {
          const int base = line % N + plane * (line / N);
          Number a0[1][N], a1[1][N];
          contraction::load_column(r0 + base, row, a0[0]);
          contraction::load_column(r1 + base, row, a1[0]);
          TENSORMG_UNROLL(unroll)
          for (int o = 0; o < N; ++o) {
            DeviceTraits<ExecSpace>::template keep_unroll<unroll, N>();
            Number s0[1], s1[1];
            contraction::dot_two_sum<contraction::Pair::split>(My[o], Ly[o], a0, a1, s0, s1);
            t0[base + o * row] = s0[0];
            t1[base + o * row] = s1[0];
          }
        }
        team.team_barrier();
      }
      // Last direction: r = b − (a (L t0 + M t1) + b_mass M t0), into t0 in place; b read along the
      // line's (x, y) with the threads' x adjacent (n contiguous values per cell row).
      const auto& Ml = src.m(last);
      const auto& Ll = src.l(last);
      for (int line = rank; line < patch_lines; line += size) {
        const int X = line % N, Y = dim == 3 ? line / N : 0;
        const int base = X + (dim == 3 ? row * Y : 0);
        Number a0[1][N], a1[1][N];
        contraction::load_column(r0 + base, last_stride, a0[0]);
        contraction::load_column(r1 + base, last_stride, a1[0]);
        for (int j = 0; j < N; ++j) {
          a1[0][j] = args.laplace * a1[0][j] + args.mass * a0[0][j];
          a0[0][j] *= args.laplace;
        }
        Number r[N];
        TENSORMG_UNROLL(unroll)
        for (int o = 0; o < N; ++o) {
          DeviceTraits<ExecSpace>::template keep_unroll<unroll, N>();
          Number s[1];
          contraction::dot_sum<contraction::Pair::split>(Ll[o], a0, Ml[o], a1, s);
          const local_index g = dim == 3 ? index_of(c0, X, Y, o) : index_of(c0, X, o, 0);
          if (args.apply) args.dst(g) += s[0];  // patch-wise operator: A_P x added to the patch cells
          else r[o] = args.b(g) - s[0];
        }
        if (!args.apply)
          for (int o = 0; o < N; ++o) t0[base + o * last_stride] = r[o];
      }
      if (args.apply) return;  // uniform over the team
    } else {
      gather_patch(args.b, c0, rank, size, patch_values, t0);
    }
    team.team_barrier();

    if (args.use_inverse) {
      dense_solve(r0, t1, c0, rank, size, patch_values, combo);
      return;
    }

    // ---- δ = S diag(1 / (a Σλ + b)) Sᵀ r, in place in t0; then x += δ. In eigen coordinates only
    // the first m[d] per direction are nonzero (S's other columns are zero): the forward
    // transforms compute those and write zeros beyond, later directions skip the lines that are
    // zero, and the backward transforms read the zeros.
    const auto& Sx = src.s(0);
    const auto& Sl = src.s(last);
    for (int line = rank; line < patch_lines; line += size) line_apply_first(r0, t0, x_line(line), 1, Sx, true, m[0]);
    team.team_barrier();
    if constexpr (dim == 3) {
      const auto& Sy = src.s(1);
      for (int l = rank; l < m[0] * N; l += size)  // y-lines at (x, z) with x < m[0]
        line_apply_first(r0, t0, l % m[0] + plane * (l / m[0]), row, Sy, true, m[1]);
      team.team_barrier();
    }
    const int last_lines = dim == 3 ? m[0] * m[1] : m[0];
    for (int l = rank; l < last_lines; l += size) {
      const int X = l % m[0], Y = dim == 3 ? l / m[0] : 0;
      const int base = X + row * Y;
      line_apply_first(r0, t0, base, last_stride, Sl, true, m[last]);
      for (int o = 0; o < m[last]; ++o) {
        const Number lambda = src.lambda(0, X) + (dim == 3 ? src.lambda(1, Y) + src.lambda(last, o) : src.lambda(last, o));
        t0[base + o * last_stride] = r0[base + o * last_stride] / (args.laplace * lambda + args.mass);
      }
      line_apply(r0, t0, base, last_stride, Sl, false);
    }
    team.team_barrier();
    if constexpr (dim == 3) {
      const auto& Sy = src.s(1);
      for (int l = rank; l < m[0] * N; l += size) line_apply(r0, t0, l % m[0] + plane * (l / m[0]), row, Sy, false);
      team.team_barrier();
    }
    if constexpr (staged) {
      for (int line = rank; line < patch_lines; line += size) line_apply(r0, t0, x_line(line), 1, Sx, false);
      team.team_barrier();
      // x += δ in memory order (coalesced).
      for (int e = rank; e < patch_values; e += size) {
        local_index g;
        int at;
        patch_value(c0, e, g, at);
        args.x(g) += r0[at];
      }
    } else {
      for (int line = rank; line < patch_lines; line += size) {
        const int base = x_line(line);
        line_apply(r0, t0, base, 1, Sx, false);
        for (int X = 0; X < N; ++X) args.x(index_of(c0, X, line % N, line / N)) += r0[base + X];
      }
    }
  }
};

}  // namespace tensormg
