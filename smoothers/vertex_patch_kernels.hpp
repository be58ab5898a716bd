#pragma once
/// @file
/// Device bodies of the colored multiplicative vertex-patch smoother (paper 000, Algorithm 2.3,
/// eq. 2.8, §3.1, Table 4). A team works on `patches_per_team` patches of one color in scratch
/// memory; every step is a loop over the points of a lexicographic box, handed to threads either
/// one point each or one column (along the contracted direction) each (Fig. 5); at 3D k = 6, 7 a
/// thread takes two columns of a step (register blocking, `C`). Only the host glue
/// (vertex_patch_smoother.cpp, through vertex_patch_launch.hpp) launches these.
///
/// Patch j of interior vertex v has the (2k+1)^d closure nodes starting at node (v−1)k per
/// direction and the (2k−1)^d interior nodes inside. Steps (3D; 2D drops the middle one):
///   residual  t0 = M0_I u, t1 = A0_I u          (x: only interior rows are ever needed)
///             s1 = M1_I t0, s2 = A1_I t0 + M1_I t1
///             r  = b_I − (a A2_I s1 + M2_I (a s2 + c s1))
///   solve     fast diagonalization: S0ᵀ, S1ᵀ, S2ᵀ, divide by a(λ0+λ1+λ2)+c, S0, S1, S2, add to x
///             or the dense inverse of A_j times r, added to x.


#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/prefetch.hpp"
#include "core/shared_pointer.hpp"
#include "smoothers/vertex_patch_args.hpp"

namespace tensormg {

#if defined(__CUDA_ARCH__)
#define TENSORMG_PATCH_UNROLL_INTERIOR TENSORMG_PATCH_PRAGMA(unroll(unroll_interior))
#define TENSORMG_PATCH_UNROLL TENSORMG_PATCH_PRAGMA(unroll)
#else
#define TENSORMG_PATCH_UNROLL_INTERIOR
#define TENSORMG_PATCH_UNROLL
#endif
#define TENSORMG_PATCH_PRAGMA(x) _Pragma(#x)

/// `shared_scratch`: the team scratch is level 0, i.e. CUDA shared memory, and the kernel rebuilds
/// its pointer with as_shared_pointer so that scratch accesses are LDS/STS (a separate kernel
/// rather than a run-time branch: two bodies in one kernel doubled its code and cost up to 14%
/// at k = 2, 4, 5 through instruction-fetch and constant-cache stalls, h100-2026-11-22-smoother/v6).
template <int dim, int k, class Number, class ExecSpace, bool shared_scratch = false>
struct VertexPatchKernel {
  /// Columns per thread of the per-column steps (register blocking): a thread holds C columns of
  /// a step in registers, so each matrix entry (a uniform ULDC.64 from the constant bank on sm_90,
  /// one per DFMA with one column) feeds C DFMAs, and C output chains are independent. 3D k = 6, 7:
  /// 2 (teams of ⌈(2k−1)²/2⌉ threads; ncu at k = 7: 17% fewer instructions, ULDC 44.5M → 27.0M;
  /// measured +3% at k = 6 and k = 7, h100-2026-11-22-smoother/v19).
  static constexpr int C = dim == 3 && (k == 6 || k == 7) ? 2 : 1;
  /// Columns per thread of the residual's x step, the widest (n² columns): with C = 2 its
  /// ⌈n²/3⌉ blocks (57, 75) fit the teams of 61 and 85 threads in one round, where blocks of two
  /// (85, 113) took a second round on 24 and 28 threads while the rest waited at the barrier.
  /// Measured (h100-2026-11-22-smoother/v21): k = 6 +2%; at k = 7 the same alone, +21% with
  /// y_rounds below (+4.5% for y_rounds alone). Device spaces only: on this VM's OpenMP build
  /// (cpu-2026-11-22-smoother-y-rounds/ab-x-columns.txt) k = 6 lost ~7%, k = 7 was the same.
  static constexpr int x_columns =
      C == 2 && !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible ? 3 : C;
  /// 3D k = 7: the y step (195 columns, teams of 85) in whole rounds of one block per thread and
  /// y_leftover for the 25 lines left, instead of blocks of ⌈195/2⌉ = 98 columns in two rounds,
  /// the second on 13 threads. At k = 6 (143 columns, teams of 61 or 64) this cost 3.5%, so
  /// there the blocks stay.
  static constexpr bool y_rounds = dim == 3 && k == 7;
  /// At most 256 threads per team and a register cap. Without it nvcc used 82 registers at k = 3
  /// and 152 at k = 5 in 3D (ncu on the H100: 31% and 19% theoretical occupancy, issue slots 31%
  /// and 20% busy; perf/results/h100-2026-11-21-multigrid/multigrid-v1/ncu-smoother-*). Now 4 teams
  /// of 256 per SM (64 registers) up to k = 4, 3 (85) for k = 5, 6 (2D: up to 7), 2 (128) above,
  /// where the column arrays alone need 2 (2k+1) doubles (+27% at k = 3, +17% at k = 5 in 3D).
  /// 3D k = 4 is capped at its default team (4 × 49 threads in whole warps), so the cap follows
  /// the occupancy it really gets: 4 teams of 224 per SM with 72 registers instead of 64 (ptxas
  /// spills 72/120 bytes instead of 132/320; +38%, h100-2026-11-22-smoother/v12). The blocked
  /// kernels (C = 2) take 128 threads and 3 teams, i.e. 168 registers: their teams of 64 (k = 6)
  /// and 96 (k = 7) threads then run 4–6 per SM, as many as their shared memory allows (with a
  /// cap of 128 registers, 4 teams of 128, k = 7 spilled 316 bytes and lost 25%, v19).
  static constexpr int max_team_size = dim == 3 && k == 4 ? 224 : (C == 2 ? 128 : 256);
  static constexpr int min_teams_per_sm = C == 2 ? 3 : (k <= 4 ? 4 : (k <= (dim == 2 ? 7 : 6) ? 3 : 2));
  /// Outputs' loops unrolled fully up to ni = 9, by 2 above in 3D (two independent chains; by 3
  /// or 4 measured the same at k = 7, v19), not above in 2D.
  static constexpr int unroll_interior = 2 * k - 1 <= 9 ? 2 * k - 1 : (dim == 3 ? 2 : 1);
  /// 3D: v += a·b + c·d as two chained FMAs, not DMUL + DFMA + DADD (ncu at k = 7: 20.2M of 66M
  /// FP64 instructions were the unfused ones). Measured (v19, without and with the b prefetch):
  /// k = 4 +2%, k = 5 +6%, k = 6 +4%, k = 3 and 7 within ±1%. (With one
  /// column per thread and the earlier register caps it had cost 3–6%: step 14.)
  static constexpr bool chained_fma = dim == 3;
  /// 3D: the x step, which reads the closure rows, also prefetches b's interior rows into L2
  /// (core/prefetch.hpp), which the last residual step reads two barriers later; otherwise they
  /// come from DRAM then. Measured (v19): k = 4 +1…3%, k = 6 +4%, k = 7 +3%, k = 5 −10% (kept off).
  static constexpr bool prefetch_b = dim == 3 && (k == 4 || k == 6 || k == 7);
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<max_team_size, min_teams_per_sm>>;
  using Member = typename Policy::member_type;
  using execution_space = ExecSpace;
  static constexpr int dimension = dim;
  static constexpr int n = 2 * k + 1;   // closure nodes per direction
  static constexpr int ni = 2 * k - 1;  // interior nodes per direction
  static constexpr int closure_size = dim == 2 ? n * n : n * n * n;
  static constexpr int interior_size = dim == 2 ? ni * ni : ni * ni * ni;
  static constexpr int line_size = dim == 2 ? ni * n : ni * n * n;  // after the first contraction
  static constexpr int plane_size = ni * ni * n;                      // 3D, after the second
  static constexpr int info_entries = 5;                              // origin[3], first index, fast
  /// In 3D the per-column kernels keep the ni^3 boxes of the residual and the solve where the
  /// residual's last step leaves them, in place in the line buffer t0: z stride ni·n (not ni²),
  /// ni·ni·n entries per box. The fused scratch is then 2 line buffers, so k = 5 holds 2 patches
  /// and k = 6 one patch in 30 KB instead of 41 KB (+13% / +8%, h100-2026-11-22-smoother/v10
  /// against v8).
  /// In 2D the box has its own buffer (in place, ptxas spilled 10× more at k = 4: −23%).
  static constexpr bool column_in_place = dim == 3;
  static constexpr int column_zs = dim == 3 ? ni * n : ni * ni;
  static constexpr int column_box = dim == 3 ? ni * ni * n : ni * ni;

  PatchKernelArgs<Number, ExecSpace> args;
  detail::PatchRange patches;
  int scratch_level = 0;
  PatchMatricesConstant<k, Number> cm;

  /// Scratch entries (in Number) per patch for a stage; patch info is added by scratch_bytes.
  /// Solve: R | T (interior boxes). Residual per column: t0 | t1 (after the x step the y step
  /// works in place; 3D: the last step leaves R in t0, and t1 is the solve's T) | R (2D).
  /// Residual per DoF: u (closure) | t0 | t1 | w (3D).
  KOKKOS_FORCEINLINE_FUNCTION static std::size_t entries_per_patch(PatchStage stage, bool per_column) {
    if (stage == PatchStage::solve) return 2 * (per_column ? column_box : interior_size);
    if (per_column) return 2 * line_size + (column_in_place ? 0 : interior_size);
    return closure_size + 2 * line_size + (dim == 3 ? plane_size : 0);
  }
  static std::size_t scratch_bytes(PatchStage stage, bool per_column, int patches_per_team) {
    const std::size_t numbers = entries_per_patch(stage, per_column) * patches_per_team +
                                (info_entries * sizeof(local_index) * patches_per_team + sizeof(Number) - 1) / sizeof(Number);
    return Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>::shmem_size(numbers);
  }
  /// One thread per C closure columns (per column) or per closure point.
  static int threads_per_patch(bool per_column) { return per_column ? (closure_size / n + C - 1) / C : closure_size; }
  /// One thread per C interior columns: the solve's steps keep every thread busy.
  static int interior_threads_per_patch() { return ((dim == 2 ? ni : ni * ni) + C - 1) / C; }

  /// Calls f(p, i0, i1, i2) for every point of patch-local boxes of extent e (e[2] = 1 in 2D) of
  /// the team's ppt patches: one point per thread, or one column along the last direction.
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void for_each_point(const Member& team, int ppt, int e0, int e1, int e2, F&& f) const {
    const int rank = team.team_rank(), size = team.team_size();
    if (!args.per_column) {
      const int box = e0 * e1 * e2;
      for (int w = rank; w < ppt * box; w += size) {
        const int p = w / box, q = w % box;
        f(p, q % e0, (q / e0) % e1, q / (e0 * e1));
      }
    } else if constexpr (dim == 2) {
      for (int w = rank; w < ppt * e0; w += size) {
        const int p = w / e0, i0 = w % e0;
        for (int i1 = 0; i1 < e1; ++i1) f(p, i0, i1, 0);
      }
    } else {
      const int columns = e0 * e1;
      for (int w = rank; w < ppt * columns; w += size) {
        const int p = w / columns, q = w % columns;
        for (int i2 = 0; i2 < e2; ++i2) f(p, q % e0, q / e0, i2);
      }
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION const Number* mat(int d) const { return args.matrices.data() + d * PatchKernelArgs<Number, ExecSpace>::matrix_stride(k); }

  /// Vector index of closure node (i0, i1, i2) of a patch; -1 for a Dirichlet node.
  KOKKOS_FORCEINLINE_FUNCTION local_index closure_index(const local_index* info, int i0, int i1, int i2) const {
    if (info[4]) return info[3] + i0 + args.box.o[0] * (i1 + args.box.o[1] * i2);
    const local_index ix = info[0] + i0, iy = info[1] + i1, iz = dim == 3 ? info[2] + i2 : 0;
    if (args.box.on_boundary(ix, iy, iz)) return -1;
    return args.box.index(ix, iy, iz);
  }

  /// Info of patch j of this color: closure origin (3), local index of the first closure node and
  /// the fast-path flag (all closure nodes owned, none on the Dirichlet boundary).
  KOKKOS_FORCEINLINE_FUNCTION void patch_info(local_index j, local_index* in) const {
    local_index o[3];
    patches.origin(j, k, o);
    const NodeBox& bx = args.box;
    bool fast = true;
    for (int d = 0; d < dim; ++d) {
      in[d] = o[d];
      const global_index g = bx.offset[d] + o[d];
      fast = fast && o[d] + 2 * k < bx.o[d] && g > 0 && g + 2 * k < bx.global_nodes[d] - 1;
    }
    if (dim == 2) in[2] = 0;
    in[3] = fast ? o[0] + bx.o[0] * (o[1] + bx.o[1] * (dim == 3 ? o[2] : 0)) : 0;
    in[4] = fast ? 1 : 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int ppt = args.patches_per_team;
    const local_index first = team.league_rank() * ppt;
    const local_index n_patches = patches.size();
    const int valid = n_patches - first < ppt ? int(n_patches - first) : ppt;
    const PatchStage stage = args.stage;
    const std::size_t per_patch = entries_per_patch(stage, args.per_column);
    Number* base = static_cast<Number*>(team.team_scratch(scratch_level).get_shmem(
        sizeof(Number) * (per_patch * ppt + (info_entries * sizeof(local_index) * ppt + sizeof(Number) - 1) / sizeof(Number))));
    if constexpr (shared_scratch) base = as_shared_pointer(base);
    local_index* info = reinterpret_cast<local_index*>(base + per_patch * ppt);

    // The per-column residual computes the patch info in its first step (which reads the closure
    // straight from x); the other paths look it up here, one thread per patch.
    const bool info_in_first_step = args.per_column && stage != PatchStage::solve;
    if (!info_in_first_step) {
      for (int p = team.team_rank(); p < valid; p += team.team_size()) patch_info(first + p, info + info_entries * p);
      team.team_barrier();
    }

    // Buffers (entries_per_patch): R holds the patch residual, T is the other buffer of the
    // solve's ping-pong (in the fused kernel the residual's t0, free by then).
    Number* u = base;
    Number* t0 = args.per_column ? base : u + closure_size * ppt;
    Number* t1 = t0 + line_size * ppt;
    Number* w = t1 + line_size * ppt;
    const int box = args.per_column ? column_box : interior_size;  // entries of a solve box
    const int zs = args.per_column ? column_zs : ni * ni;          // its z stride
    Number* R = stage == PatchStage::solve ? base : (dim == 3 ? t0 : (args.per_column ? t1 + line_size * ppt : u));
    Number* T = stage == PatchStage::solve ? base + box * ppt : (dim == 3 ? t1 : t0);
    const int rs = stage == PatchStage::solve ? box : (dim == 3 ? line_size : (args.per_column ? interior_size : closure_size));
    const int ts = stage == PatchStage::solve ? box : line_size;

    // The fused per-column kernel applies the solve's first Sᵀ (last direction) in its residual step.
    const bool transform_last = merge_steps && args.per_column && stage == PatchStage::fused && !args.use_inverse;
    if (stage != PatchStage::solve) {
      if (args.per_column) residual_columns(team, first, valid, info, t0, t1, R, transform_last);
      else residual(team, valid, info, u, t0, t1, w, R, rs);
    } else {
      for_each_point(team, valid, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
        const local_index idx = closure_index(info + info_entries * p, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0);
        R[p * rs + i0 + ni * i1 + zs * i2] = args.r(idx);
      });
      team.team_barrier();
    }
    if (stage == PatchStage::residual) return;
    if (args.use_inverse) solve_inverse(team, valid, info, R, rs, zs);
    else if (args.per_column) solve_fast_diagonalization_columns(team, valid, info, R, rs, T, ts, transform_last);
    else solve_fast_diagonalization(team, valid, info, R, rs, T, ts);
  }

  // ---- one thread per column along the contracted direction -------------------------------

  /// The columns of one thread in a per-column step: lines l + c h (c < C, h = ⌈lines/C⌉) of
  /// patch p. A line past the end repeats line l and is not stored (`valid`).
  template <int CC>
  struct ColumnBlockOf {
    int p;
    int line[CC];
    bool valid[CC];
  };
  using ColumnBlock = ColumnBlockOf<C>;

  /// Calls f(block) for the team's ppt patches × lines_per_patch columns, CC per thread. With
  /// `whole_rounds` (one patch per team) only the first ⌊lines/(CC size)⌋ CC size lines, in rounds
  /// of one block per thread (round q, thread w: lines q CC size + w + c size), so that no round
  /// is partial; the caller takes the lines left.
  template <int CC = C, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_each_column(const Member& team, int ppt, int lines_per_patch, F&& f,
                                                          bool whole_rounds = false) {
    const int size = team.team_size();
    const int h = (lines_per_patch + CC - 1) / CC;
    const int blocks = whole_rounds ? lines_per_patch / (CC * size) * size : ppt * h;
    const int step = whole_rounds ? size : h;
    for (int w = team.team_rank(); w < blocks; w += size) {
      ColumnBlockOf<CC> b;
      b.p = whole_rounds ? 0 : w / h;
      const int l = whole_rounds ? w / size * CC * size + w % size : w % h;
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < CC; ++c) {
        b.line[c] = l + c * step;
        b.valid[c] = c == 0 || b.line[c] < lines_per_patch;
        if (!b.valid[c]) b.line[c] = l;
      }
      f(b);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void residual_columns(const Member& team, local_index first_patch, int ppt, local_index* info,
                                               Number* t0, Number* t1, Number* R, bool transform_last) const {
    constexpr int rs = column_in_place ? line_size : interior_size;  // 3D: R is t0 (in place)
    constexpr int e2 = dim == 3 ? n : 1;
    // x: interior rows of M0, A0 on every x-row of the closure, read straight from x (Dirichlet
    // nodes as zero). Each thread finds its patch itself; the first row's thread also stores the
    // patch info for the later steps (visible after the barrier), so no gather pass and no extra
    // barrier are needed.
    local_index cached = -1;
    local_index in[info_entries] = {0, 0, 0, 0, 0};
    // 3D: t1 = (α0/α1) Â_x u, so that the y step needs one sum for both of its Â and M̂ terms.
    const Number t1_scale = dim == 2 ? Number(1) : args.alpha0_over_alpha1;
    constexpr int CX = x_columns;
    for_each_column<CX>(team, ppt, n * e2, [&](const ColumnBlockOf<CX>& b) {
      const int p = b.p;
      if (p != cached) {
        patch_info(first_patch + p, in);
        cached = p;
      }
      if (b.line[0] == 0)
        for (int e = 0; e < info_entries; ++e) info[info_entries * p + e] = in[e];
      Number r[CX][n];
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < CX; ++c) {
        const int i1 = b.line[c] % n, i2 = b.line[c] / n;
        if (in[4]) {
          const local_index row = in[3] + args.box.o[0] * (i1 + args.box.o[1] * i2);
          const Number* src = args.x.data() + row;
          TENSORMG_PATCH_UNROLL
          for (int m = 0; m < n; ++m) r[c][m] = src[m];
          if (prefetch_b && b.valid[c] && i1 >= 1 && i1 <= ni && i2 >= 1 && i2 <= ni) {
            prefetch_l2(args.b.data() + row + 1);
            prefetch_l2(args.b.data() + row + ni);
          }
        } else {
          for (int m = 0; m < n; ++m) {
            const local_index idx = closure_index(in, m, i1, i2);
            r[c][m] = idx >= 0 ? args.x(idx) : Number(0);
          }
        }
      }
      Number* d0[CX];
      Number* d1[CX];
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < CX; ++c) {
        d0[c] = t0 + p * line_size + ni * b.line[c];
        d1[c] = t1 + p * line_size + ni * b.line[c];
      }
      TENSORMG_PATCH_UNROLL_INTERIOR
      for (int o = 0; o < ni; ++o) {
        Number sm[CX], sa[CX];
        TENSORMG_PATCH_UNROLL
        for (int c = 0; c < CX; ++c) sm[c] = sa[c] = 0;
        TENSORMG_PATCH_UNROLL
        for (int m = 0; m < n; ++m) {
          const Number mm = cm.M[o + 1][m], am = cm.A[o + 1][m];
          TENSORMG_PATCH_UNROLL
          for (int c = 0; c < CX; ++c) {
            sm[c] += mm * r[c][m];
            sa[c] += am * r[c][m];
          }
        }
        TENSORMG_PATCH_UNROLL
        for (int c = 0; c < CX; ++c)
          if (b.valid[c]) {
            d0[c][o] = sm[c];
            d1[c][o] = t1_scale * sa[c];
          }
      }
    });
    team.team_barrier();
    if constexpr (dim == 2) {
      // y (last): r = b_I − (α1 Â t0 + M̂ (α0 t1 + γ t0)) on every y-column (line = i0) of the
      // interior rows.
      for_each_column(team, ppt, ni, [&](const ColumnBlock& b) {
        last_residual_columns<1>(info + info_entries * b.p, b, t0 + b.p * line_size, t1 + b.p * line_size, ni, R + b.p * rs,
                                 transform_last, args.alpha[1], args.alpha[0]);
      });
    } else {
      // y, in place (a thread owns its y-columns of both buffers): s1 = M̂ t0 into t0,
      // s2 = α1 (Â t0 + M̂ t1) = α1 Â t0 + α0 M̂ Â_x u into t1 (t1 came scaled by α0/α1 from the x
      // step: two accumulators, not three, which spilled at k = 4), on every y-column (i0, i2).
      const Number alpha1 = args.alpha[1];
      auto y_block = [&](const ColumnBlock& b) {
        Number r0[C][n], r1[C][n];
        int start[C];  // the column's first entry: (i0, 0, i2)
        TENSORMG_PATCH_UNROLL
        for (int c = 0; c < C; ++c) {
          start[c] = b.p * line_size + b.line[c] % ni + ni * n * (b.line[c] / ni);
          TENSORMG_PATCH_UNROLL
          for (int m = 0; m < n; ++m) {
            r0[c][m] = t0[start[c] + ni * m];
            r1[c][m] = t1[start[c] + ni * m];
          }
        }
        TENSORMG_PATCH_UNROLL_INTERIOR
        for (int o = 0; o < ni; ++o) {
          Number v1[C], v2[C];
          y_output(o, r0, r1, v1, v2);
          TENSORMG_PATCH_UNROLL
          for (int c = 0; c < C; ++c)
            if (b.valid[c]) {
              t0[start[c] + ni * o] = v1[c];
              t1[start[c] + ni * o] = alpha1 * v2[c];
            }
        }
      };
      // y_rounds (3D k = 7, teams of 85: 195 = 2 · 85 + 25): whole rounds of one block per thread
      // and y_leftover for the lines left; otherwise for_each_column's blocks.
      const int team_size = team.team_size(), lines = ni * n, left = lines % (C * team_size);
      const bool rounds = y_rounds && ppt == 1 && team_size >= 32 && lines > C * team_size && left > 0;
      for_each_column(team, ppt, lines, y_block, rounds);
      if (rounds) y_leftover(team, t0, t1, lines - left, left);
      team.team_barrier();
      // z (last): r = b_I − (α2 Â s1 + M̂ (s2 + γ s1)) on every z-column (line = i0 + ni i1).
      for_each_column(team, ppt, ni * ni, [&](const ColumnBlock& b) {
        last_residual_columns<2>(info + info_entries * b.p, b, t0 + b.p * line_size, t1 + b.p * line_size, ni * n, R + b.p * rs,
                                 transform_last, args.alpha[2], Number(1));
      });
    }
    team.team_barrier();
  }

  /// Output o of the in-place y step (3D) for the block's columns r0 (of t0) and r1 (of t1):
  /// v1 = M̂_{o+1,:} r0, v2 = Â_{o+1,:} r0 + M̂_{o+1,:} r1.
  KOKKOS_FORCEINLINE_FUNCTION void y_output(int o, const Number (&r0)[C][n], const Number (&r1)[C][n], Number (&v1)[C],
                                            Number (&v2)[C]) const {
    TENSORMG_PATCH_UNROLL
    for (int c = 0; c < C; ++c) v1[c] = v2[c] = 0;
    TENSORMG_PATCH_UNROLL
    for (int m = 0; m < n; ++m) {
      const Number mm = cm.M[o + 1][m], am = cm.A[o + 1][m];
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < C; ++c) {
        v1[c] += mm * r0[c][m];
        if constexpr (chained_fma) {
          v2[c] += am * r0[c][m];
          v2[c] += mm * r1[c][m];
        } else {
          v2[c] += am * r0[c][m] + mm * r1[c][m];
        }
      }
    }
  }

  /// Synchronizes the warp of the calling thread (CUDA) or the team (host backends); every
  /// thread of the team calls it the same number of times.
  KOKKOS_FORCEINLINE_FUNCTION static void sync_warp(const Member& team) {
#if defined(__CUDA_ARCH__)
    const int lanes = team.team_size() - 32 * (team.team_rank() / 32);
    __syncwarp(lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u);
#else
    team.team_barrier();
#endif
  }

  /// The y step (3D, one patch per team of at least 32 threads) on its last `left` lines
  /// first .. first + left − 1, one output per lane: groups of ⌊32/ni⌋ lines, a group in one
  /// full warp (lane g ni + o: line g of the group, output o), groups dealt to the full warps in
  /// turn. A warp reads its group's columns before a warp barrier and writes the outputs after
  /// it (in place), so no team barrier and no values across one. The lanes need different matrix
  /// rows, so these come from the reference matrices in global memory (block `dim` of
  /// args.matrices, L1), not from the constant bank. 3D k = 7, teams of 85: 25 lines in 13
  /// groups, 7 rounds of the 2 full warps (teams of 96 measured the same: 3 lines, one round).
  KOKKOS_FORCEINLINE_FUNCTION void y_leftover(const Member& team, Number* t0, Number* t1, int first, int left) const {
    constexpr int per_group = 32 / ni;
    const int full_warps = team.team_size() / 32, warp = team.team_rank() / 32, lane = team.team_rank() % 32;
    const int g = lane / ni, o = lane % ni;
    const Number* M = mat(dim) + (o + 1) * n;
    const Number* A = M + n * n;
    const Number alpha1 = args.alpha[1];
    const int groups = (left + per_group - 1) / per_group;
    for (int round = 0; round * full_warps < groups; ++round) {
      const int group = round * full_warps + warp;
      const int l = group * per_group + g;
      const bool active = warp < full_warps && group < groups && g < per_group && l < left;
      const int line = first + l;
      const int start = line % ni + ni * n * (line / ni);
      Number v1 = 0, v2 = 0;
      if (active) {
        TENSORMG_PATCH_UNROLL
        for (int m = 0; m < n; ++m) {
          const Number a = t0[start + ni * m], b = t1[start + ni * m];
          v1 += M[m] * a;
          v2 += A[m] * a;
          v2 += M[m] * b;
        }
      }
      sync_warp(team);
      if (active) {
        t0[start + ni * o] = v1;
        t1[start + ni * o] = alpha1 * v2;
      }
    }
  }

  /// What one column step of the fast diagonalization does to its column in registers.
  enum class ColumnOp {
    transpose,          ///< Sᵀ
    forward,            ///< S
    transpose_scale,    ///< Sᵀ, divide by a (λ_0 + … + λ_{d−1}) + c
    transpose_scale_forward  ///< Sᵀ, divide, S: the middle of the solve in one step
  };

  /// Whether the solve merges steps that share a direction (the residual's last step with the first
  /// Sᵀ, and Sᵀ·Λ⁻¹·S along x): two fewer barriers and scratch round trips, but two columns live
  /// in registers. Measured on the H100 (perf/README.md): +4% at k = 4, −10% at k = 5 and −8%
  /// at k = 6 in 3D, where the extra registers spilled; so only up to k = 4.
  static constexpr bool merge_steps = ni <= 7;

  /// r ← Ŝᵀ r (the reference eigenvectors; the direction's 1/√h_d is in inverse_diagonal).
  KOKKOS_FORCEINLINE_FUNCTION void apply_transpose(Number (&r)[ni]) const {
    Number v[ni];
    TENSORMG_PATCH_UNROLL_INTERIOR
    for (int o = 0; o < ni; ++o) {
      Number s = 0;
      TENSORMG_PATCH_UNROLL
      for (int m = 0; m < ni; ++m) s += cm.S[m][o] * r[m];
      v[o] = s;
    }
    for (int o = 0; o < ni; ++o) r[o] = v[o];
  }

  /// Interior coordinates (i0, i1, i2) of point o of the interior column along dir whose other
  /// two coordinates are q0, q1 (in direction order; 2D: q1 = 0).
  template <int dir>
  KOKKOS_FORCEINLINE_FUNCTION static void column_coordinates(int q0, int q1, int o, int& i0, int& i1, int& i2) {
    i0 = dir == 0 ? o : q0;
    i1 = dir == 1 ? o : (dir == 0 ? q0 : q1);
    i2 = dim == 2 ? 0 : (dir == 2 ? o : q1);
  }

  /// Vector index of point o of that column; `in` is the patch info in registers.
  template <int dir>
  KOKKOS_FORCEINLINE_FUNCTION local_index column_index(const local_index (&in)[info_entries], int q0, int q1, int o) const {
    int i0, i1, i2;
    column_coordinates<dir>(q0, q1, o, i0, i1, i2);
    return closure_index(in, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0);
  }

  /// The patch info of patch p copied from scratch into registers (stores to x or r cannot alias it).
  KOKKOS_FORCEINLINE_FUNCTION static void load_info(const local_index* info, int p, local_index (&in)[info_entries]) {
    for (int e = 0; e < info_entries; ++e) in[e] = info[info_entries * p + e];
  }

  /// One step of the fast diagonalization on every column along `dir` of the ni^d boxes (one
  /// thread per column, the column in registers); `add_to_x` adds the result to x instead of
  /// storing it. The division by the eigenvalue sums is a multiplication by inverse_diagonal
  /// (lexicographic ni^d; the boxes have z stride column_zs).
  template <int dir, ColumnOp op, bool add_to_x>
  KOKKOS_FORCEINLINE_FUNCTION void column_step(const Member& team, int ppt, const local_index* info, const Number* src, int ss,
                                          Number* dst, int ds) const {
    constexpr int stride = dir == 0 ? 1 : (dir == 1 ? ni : column_zs);
    constexpr int lines = dim == 2 ? ni : ni * ni;
    // Box strides of the column's other two coordinates q0, q1 (in direction order), and the
    // same in inverse_diagonal (z stride ni²).
    constexpr int stride_q0 = dir == 0 ? ni : 1;
    constexpr int stride_q1 = dir == 2 ? ni : column_zs;
    constexpr int dstride = dir == 0 ? 1 : (dir == 1 ? ni : ni * ni);
    constexpr int dstride_q1 = dir == 2 ? ni : ni * ni;
    const Number* dinv = args.inverse_diagonal.data();
    for_each_column(team, ppt, lines, [&](const ColumnBlock& b) {
      const int p = b.p;
      int q0[C], q1[C], base[C], dbase[C];
      Number r[C][ni];
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < C; ++c) {
        q0[c] = b.line[c] % ni;
        q1[c] = b.line[c] / ni;
        base[c] = q0[c] * stride_q0 + q1[c] * stride_q1;
        dbase[c] = q0[c] * stride_q0 + q1[c] * dstride_q1;
        TENSORMG_PATCH_UNROLL
        for (int m = 0; m < ni; ++m) r[c][m] = src[p * ss + base[c] + m * stride];
      }
      if constexpr (op == ColumnOp::transpose || op == ColumnOp::transpose_scale) {
        // Each output straight to scratch: no second column in registers.
        TENSORMG_PATCH_UNROLL_INTERIOR
        for (int o = 0; o < ni; ++o) {
          Number v[C];
          s_output<true>(o, r, v);
          TENSORMG_PATCH_UNROLL
          for (int c = 0; c < C; ++c) {
            if constexpr (op == ColumnOp::transpose_scale) v[c] *= dinv[dbase[c] + o * dstride];
            if (b.valid[c]) dst[p * ds + base[c] + o * stride] = v[c];
          }
        }
      } else {
        if constexpr (op == ColumnOp::transpose_scale_forward) {
          TENSORMG_PATCH_UNROLL
          for (int c = 0; c < C; ++c) {
            apply_transpose(r[c]);
            TENSORMG_PATCH_UNROLL
            for (int m = 0; m < ni; ++m) r[c][m] *= dinv[dbase[c] + m * dstride];
          }
        }
        local_index in[info_entries];
        if constexpr (add_to_x) load_info(info, p, in);
        TENSORMG_PATCH_UNROLL_INTERIOR
        for (int o = 0; o < ni; ++o) {
          Number v[C];
          s_output<false>(o, r, v);
          TENSORMG_PATCH_UNROLL
          for (int c = 0; c < C; ++c)
            if (b.valid[c]) {
              if constexpr (add_to_x) args.x(column_index<dir>(in, q0[c], q1[c], o)) += v[c];
              else dst[p * ds + base[c] + o * stride] = v[c];
            }
        }
      }
    });
    if constexpr (!add_to_x) team.team_barrier();
  }

  /// Output o of Ŝᵀ (`transposed`) or Ŝ applied to the block's columns r: v[c] = Σ_m Ŝ_{m,o} r[c][m]
  /// or Σ_m Ŝ_{o,m} r[c][m]; each matrix entry is read once for the C columns.
  template <bool transposed>
  KOKKOS_FORCEINLINE_FUNCTION void s_output(int o, const Number (&r)[C][ni], Number (&v)[C]) const {
    TENSORMG_PATCH_UNROLL
    for (int c = 0; c < C; ++c) v[c] = 0;
    TENSORMG_PATCH_UNROLL
    for (int m = 0; m < ni; ++m) {
      const Number s = transposed ? cm.S[m][o] : cm.S[o][m];
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < C; ++c) v[c] += s * r[c][m];
    }
  }

  /// Fast diagonalization S (Λ)^{-1} Sᵀ r with one thread per column: Sᵀ along the last direction
  /// (already applied by the fused residual when `last_done`), the other Sᵀ, then along x Sᵀ, the
  /// division by the eigenvalue sums and S in one step, S along the other directions, the last one
  /// adding to x. 2d − 1 column steps (2D 3, 3D 5) instead of 2d.
  KOKKOS_FORCEINLINE_FUNCTION void solve_fast_diagonalization_columns(const Member& team, int ppt, const local_index* info,
                                                                 Number* R, int rs, Number* T, int ts,
                                                                 bool last_done) const {
    Number* from = R;
    Number* to = T;
    int fs = rs, tsz = ts;
    if constexpr (!merge_steps) {
      // Sᵀ along every direction (the last one divides), then S along every direction.
      column_step<0, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      if constexpr (dim == 3) {
        column_step<1, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
        swap_buffers(from, to, fs, tsz);
      }
      column_step<dim - 1, ColumnOp::transpose_scale, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      column_step<0, ColumnOp::forward, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      if constexpr (dim == 3) {
        column_step<1, ColumnOp::forward, false>(team, ppt, info, from, fs, to, tsz);
        swap_buffers(from, to, fs, tsz);
      }
      column_step<dim - 1, ColumnOp::forward, true>(team, ppt, info, from, fs, nullptr, 0);
    } else if constexpr (dim == 2) {
      if (!last_done) {
        column_step<1, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
        swap_buffers(from, to, fs, tsz);
      }
      column_step<0, ColumnOp::transpose_scale_forward, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      column_step<1, ColumnOp::forward, true>(team, ppt, info, from, fs, nullptr, 0);
    } else {
      if (!last_done) {
        column_step<2, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
        swap_buffers(from, to, fs, tsz);
      }
      column_step<1, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      column_step<0, ColumnOp::transpose_scale_forward, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      column_step<1, ColumnOp::forward, false>(team, ppt, info, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
      column_step<2, ColumnOp::forward, true>(team, ppt, info, from, fs, nullptr, 0);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void residual(const Member& team, int ppt, const local_index* info, Number* u, Number* t0,
                                       Number* t1, Number* w, Number* R, int rs) const {
    const Number* M0 = mat(0);
    const Number* A0 = M0 + n * n;
    const Number* M1 = mat(1);
    const Number* A1 = M1 + n * n;
    const Number a = args.laplace, c = args.mass;
    constexpr int e2 = dim == 3 ? n : 1;
    // Gather the closure; Dirichlet nodes read as zero.
    for_each_point(team, ppt, n, n, e2, [&](int p, int i0, int i1, int i2) {
      const local_index idx = closure_index(info + info_entries * p, i0, i1, i2);
      u[p * closure_size + i0 + n * (i1 + n * i2)] = idx >= 0 ? args.x(idx) : Number(0);
    });
    team.team_barrier();
    // x: interior rows of M0, A0.
    for_each_point(team, ppt, ni, n, e2, [&](int p, int i0, int i1, int i2) {
      const Number* in = u + p * closure_size + n * (i1 + n * i2);
      Number sm = 0, sa = 0;
      for (int m = 0; m < n; ++m) {
        sm += M0[(i0 + 1) * n + m] * in[m];
        sa += A0[(i0 + 1) * n + m] * in[m];
      }
      const int o = p * line_size + i0 + ni * (i1 + n * i2);
      t0[o] = sm;
      t1[o] = sa;
    });
    team.team_barrier();
    if constexpr (dim == 2) {
      // y (last): r = b_I − (a A1 t0 + M1 (a t1 + c t0)), into R (= u).
      for_each_point(team, ppt, ni, ni, 1, [&](int p, int i0, int i1, int) {
        const Number* s0 = t0 + p * line_size + i0;
        const Number* s1 = t1 + p * line_size + i0;
        Number v = 0;
        for (int m = 0; m < n; ++m)
          v += a * A1[(i1 + 1) * n + m] * s0[ni * m] + M1[(i1 + 1) * n + m] * (a * s1[ni * m] + c * s0[ni * m]);
        store_residual(info + info_entries * p, i0, i1, 0, v, R + p * rs);
      });
    } else {
      const Number* M2 = mat(2);
      const Number* A2 = M2 + n * n;
      // y: s1 = M1 t0 into u, s2 = A1 t0 + M1 t1 into w.
      for_each_point(team, ppt, ni, ni, n, [&](int p, int i0, int i1, int i2) {
        const Number* s0 = t0 + p * line_size + i0 + ni * n * i2;
        const Number* s1 = t1 + p * line_size + i0 + ni * n * i2;
        Number v1 = 0, v2 = 0;
        for (int m = 0; m < n; ++m) {
          v1 += M1[(i1 + 1) * n + m] * s0[ni * m];
          v2 += A1[(i1 + 1) * n + m] * s0[ni * m] + M1[(i1 + 1) * n + m] * s1[ni * m];
        }
        const int o = i0 + ni * (i1 + ni * i2);
        u[p * closure_size + o] = v1;
        w[p * plane_size + o] = v2;
      });
      team.team_barrier();
      // z (last): r = b_I − (a A2 s1 + M2 (a s2 + c s1)), into R (= t0).
      for_each_point(team, ppt, ni, ni, ni, [&](int p, int i0, int i1, int i2) {
        const Number* s1 = u + p * closure_size + i0 + ni * i1;
        const Number* s2 = w + p * plane_size + i0 + ni * i1;
        Number v = 0;
        for (int m = 0; m < n; ++m)
          v += a * A2[(i2 + 1) * n + m] * s1[ni * ni * m] +
               M2[(i2 + 1) * n + m] * (a * s2[ni * ni * m] + c * s1[ni * ni * m]);
        store_residual(info + info_entries * p, i0, i1, i2, v, R + p * rs);
      });
    }
    team.team_barrier();
  }

  /// b − v at the interior point of vector index idx; the residual stage also writes it to the
  /// global r (where `store`).
  KOKKOS_FORCEINLINE_FUNCTION Number residual_at(local_index idx, Number v, bool store = true) const {
    const Number res = args.b(idx) - v;
    if (args.stage == PatchStage::residual && store) args.r(idx) = res;
    return res;
  }

  /// The residual's last step on the block's columns along dir (line = q0 + ni q1, q0, q1 the
  /// other coordinates in direction order; in 2D q1 = 0) of the interior rows:
  /// r = b_I − (α Â s0 + M̂ (β s1 + γ s0)) from the columns s0 + line, s1 + line (n values, `stride`
  /// apart), stored by store_residual_columns.
  template <int dir>
  KOKKOS_FORCEINLINE_FUNCTION void last_residual_columns(const local_index* info, const ColumnBlock& b, const Number* s0,
                                                         const Number* s1, int stride, Number* R, bool transform, Number alpha,
                                                         Number beta) const {
    const Number g = args.gamma;
    local_index in[info_entries];
    load_info(info, 0, in);
    Number r0[C][n], q[C][n];
    int q0[C], q1[C];
    TENSORMG_PATCH_UNROLL
    for (int c = 0; c < C; ++c) {
      q0[c] = b.line[c] % ni;
      q1[c] = b.line[c] / ni;
      const Number* a0 = s0 + b.line[c];
      const Number* a1 = s1 + b.line[c];
      TENSORMG_PATCH_UNROLL
      for (int m = 0; m < n; ++m) {
        r0[c][m] = a0[stride * m];
        q[c][m] = beta * a1[stride * m] + g * r0[c][m];
        r0[c][m] *= alpha;
      }
    }
    if constexpr (!merge_steps) {
      // Each output straight to scratch: a res[ni] array written in the outputs' loop (not
      // unrolled from ni = 11 on) went to local memory.
      constexpr int rstride = dir == 1 ? ni : column_zs;
      TENSORMG_PATCH_UNROLL_INTERIOR
      for (int o = 0; o < ni; ++o) {
        Number v[C];
        last_residual_output(o, r0, q, v);
        TENSORMG_PATCH_UNROLL
        for (int c = 0; c < C; ++c)
          if (b.valid[c]) {
            const Number res = residual_at(column_index<dir>(in, q0[c], q1[c], o), v[c]);
            if (args.stage != PatchStage::residual) (R + q0[c] + ni * q1[c] * (dim == 3 ? 1 : 0))[o * rstride] = res;
          }
      }
    } else {
      Number res[C][ni];
      TENSORMG_PATCH_UNROLL_INTERIOR
      for (int o = 0; o < ni; ++o) {
        Number v[C];
        last_residual_output(o, r0, q, v);
        TENSORMG_PATCH_UNROLL
        for (int c = 0; c < C; ++c)
          res[c][o] = residual_at(column_index<dir>(in, q0[c], q1[c], o), v[c], b.valid[c]);
      }
      store_residual_columns<dir>(res, b, q0, q1, R, transform);
    }
  }

  /// Output o of the last residual step for the block's columns: v = Â_{o+1,:} r0 + M̂_{o+1,:} q.
  KOKKOS_FORCEINLINE_FUNCTION void last_residual_output(int o, const Number (&r0)[C][n], const Number (&q)[C][n],
                                                        Number (&v)[C]) const {
    TENSORMG_PATCH_UNROLL
    for (int c = 0; c < C; ++c) v[c] = 0;
    TENSORMG_PATCH_UNROLL
    for (int m = 0; m < n; ++m) {
      const Number am = cm.A[o + 1][m], mm = cm.M[o + 1][m];
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < C; ++c) {
        if constexpr (chained_fma) {
          v[c] += am * r0[c][m];
          v[c] += mm * q[c][m];
        } else {
          v[c] += am * r0[c][m] + mm * q[c][m];
        }
      }
    }
  }

  /// Stores the block's residual columns along the last direction dir to the patch's scratch box R
  /// (column start = line), first multiplied by Sᵀ of dir when `transform` (the first step of the
  /// fast diagonalization, done while the columns are in registers). The residual stage stores
  /// nothing: residual_at wrote the global r.
  template <int dir>
  KOKKOS_FORCEINLINE_FUNCTION void store_residual_columns(Number (&res)[C][ni], const ColumnBlock& b, const int (&q0)[C],
                                                          const int (&q1)[C], Number* R, bool transform) const {
    if (args.stage == PatchStage::residual) return;
    constexpr int stride = dir == 1 ? ni : column_zs;
    Number* out[C];
    TENSORMG_PATCH_UNROLL
    for (int c = 0; c < C; ++c) out[c] = R + q0[c] + ni * q1[c] * (dim == 3 ? 1 : 0);
    if (transform) {
      // Each output of Sᵀ straight to scratch: no second column in registers.
      TENSORMG_PATCH_UNROLL_INTERIOR
      for (int o = 0; o < ni; ++o) {
        Number v[C];
        s_output<true>(o, res, v);
        TENSORMG_PATCH_UNROLL
        for (int c = 0; c < C; ++c)
          if (b.valid[c]) out[c][o * stride] = v[c];
      }
    } else {
      TENSORMG_PATCH_UNROLL
      for (int c = 0; c < C; ++c)
        if (b.valid[c]) {
          TENSORMG_PATCH_UNROLL
          for (int o = 0; o < ni; ++o) out[c][o * stride] = res[c][o];
        }
    }
  }

  /// r = b − v at interior point (i0, i1, i2): to the global r (residual stage) or to scratch.
  KOKKOS_FORCEINLINE_FUNCTION void store_residual(const local_index* info, int i0, int i1, int i2, Number v, Number* R) const {
    const Number res = residual_at(closure_index(info, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0), v);
    if (args.stage != PatchStage::residual) R[i0 + ni * (i1 + ni * i2)] = res;
  }

  /// One 1D contraction of the solve along direction dir with S (transpose: Sᵀ) on ni^d boxes,
  /// from src (patch stride ss) to dst (patch stride ds); `scale` divides by the eigenvalue sum.
  KOKKOS_FORCEINLINE_FUNCTION void apply_s(const Member& team, int ppt, int dir, bool transpose, bool scale,
                                      const Number* src, int ss, Number* dst, int ds) const {
    const Number* S = mat(dir) + 2 * n * n;
    const int stride = dir == 0 ? 1 : (dir == 1 ? ni : ni * ni);
    for_each_point(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
      const int i[3] = {i0, i1, i2};
      const int row = i[dir];
      const Number* in = src + p * ss + i0 + ni * (i1 + ni * i2) - row * stride;
      Number v = 0;
      if (transpose)
        for (int m = 0; m < ni; ++m) v += S[m * ni + row] * in[m * stride];
      else
        for (int m = 0; m < ni; ++m) v += S[row * ni + m] * in[m * stride];
      if (scale) v *= args.inverse_diagonal(i0 + ni * (i1 + ni * i2)) * args.volume;
      dst[p * ds + i0 + ni * (i1 + ni * i2)] = v;
    });
    team.team_barrier();
  }

  KOKKOS_FORCEINLINE_FUNCTION static void swap_buffers(Number*& a, Number*& b, int& sa, int& sb) {
    Number* t = a;
    a = b;
    b = t;
    const int s = sa;
    sa = sb;
    sb = s;
  }

  KOKKOS_FORCEINLINE_FUNCTION void solve_fast_diagonalization(const Member& team, int ppt, const local_index* info, Number* R,
                                                         int rs, Number* T, int ts) const {
    // Forward: Sᵀ along every direction (the last one divides by the eigenvalue sum).
    Number* from = R;
    Number* to = T;
    int fs = rs, tsz = ts;
    for (int d = 0; d < dim; ++d) {
      apply_s(team, ppt, d, true, d == dim - 1, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
    }
    // Back: S along every direction; the last one adds to x.
    for (int d = 0; d < dim - 1; ++d) {
      apply_s(team, ppt, d, false, false, from, fs, to, tsz);
      swap_buffers(from, to, fs, tsz);
    }
    constexpr int last = dim - 1;
    const Number* S = mat(last) + 2 * n * n;
    constexpr int stride = last == 1 ? ni : ni * ni;
    for_each_point(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
      const int row = dim == 3 ? i2 : i1;
      const Number* in = from + p * fs + i0 + ni * (i1 + ni * i2) - row * stride;
      Number v = 0;
      for (int m = 0; m < ni; ++m) v += S[row * ni + m] * in[m * stride];
      const local_index idx = closure_index(info + info_entries * p, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0);
      args.x(idx) += v;
    });
  }

  /// x += A_j^{-1} r with the stored dense inverse; R's boxes have z stride zs.
  KOKKOS_FORCEINLINE_FUNCTION void solve_inverse(const Member& team, int ppt, const local_index* info, const Number* R,
                                                 int rs, int zs) const {
    const Number* inv = args.inverse.data();
    for_each_point(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
      const int row = i0 + ni * (i1 + ni * i2);
      const Number* in = R + p * rs;
      const Number* a = inv + std::size_t(row) * interior_size;
      Number v = 0;
      if (zs == ni * ni) {
        for (int m = 0; m < interior_size; ++m) v += a[m] * in[m];
      } else {
        for (int m2 = 0; m2 < ni; ++m2)
          for (int m1 = 0; m1 < ni; ++m1)
            for (int m0 = 0; m0 < ni; ++m0) v += *a++ * in[m0 + ni * m1 + zs * m2];
      }
      const local_index idx = closure_index(info + info_entries * p, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0);
      args.x(idx) += v;
    });
  }
};

}  // namespace tensormg
