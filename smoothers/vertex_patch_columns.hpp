#pragma once
/// @file
/// The vertex-patch kernel with one thread per 1D column along the contracted direction (paper 000
/// Fig. 5, the default): a team works on `patches_per_team` patches of one color in scratch
/// memory, each step loads C columns per thread into registers and contracts them with the
/// reference 1D matrices held in the functor (core/tensor_contraction.hpp), where the tuning row
/// says in even-odd form (core/even_odd_contraction.hpp): the residual's interior rows of M̂ and Â
/// (`even_odd_residual`) and the solve's eigenvectors (`even_odd`, mode-split), each an output
/// pair at the FMAs of one output. Compile-time choices come from the tuning row
/// (vertex_patch_tuning.hpp). Only vertex_patch_launch.hpp launches it.
///
/// `shared_scratch`: the team scratch is level 0, i.e. CUDA shared memory, and the kernel rebuilds
/// its pointer as fast scratch (DeviceTraits::fast_scratch) so that scratch accesses are LDS/STS
/// (a separate kernel rather than a run-time branch: two bodies in one kernel doubled its code and
/// cost up to 14% at k = 2, 4, 5 through instruction-fetch and constant-cache stalls,
/// h100-2026-11-22-smoother/v6).

#include "smoothers/vertex_patch_common.hpp"

namespace tensormg {

template <int dim, int k, class Number, class ExecSpace, bool shared_scratch = false>
struct VertexPatchColumnKernel : VertexPatchCommon<dim, k, Number, ExecSpace> {
  using Base = VertexPatchCommon<dim, k, Number, ExecSpace>;
  using Member = typename Base::Member;
  using Traits = typename Base::Traits;
  using Base::args;
  using Base::closure_size;
  using Base::info_entries;
  using Base::interior_size;
  using Base::line_size;
  using Base::n;
  using Base::ni;
  static constexpr PatchTuning tuning = Base::tuning;
  static constexpr bool per_column = true;
  static constexpr int C = tuning.columns_per_thread;
  static constexpr int x_columns = tuning.x_columns;
  static constexpr int unroll = tuning.unroll_interior;
  static constexpr contraction::Pair pair = tuning.chained_fma ? contraction::Pair::chained : contraction::Pair::expression;
  static constexpr bool merge_steps = tuning.merge_steps;
  /// The fast diagonalization's Ŝᵀ and Ŝ in mode-split form (core/even_odd_contraction.hpp; the
  /// eigenvectors come ordered by parity, patch_matrices.hpp): half the FMAs and entries.
  static constexpr bool even_odd = Base::even_odd;
  /// The residual's contractions with the interior rows of M̂ and Â in even-odd form: output
  /// pairs (o, 2k − 2 − o) and the middle row.
  static constexpr bool even_odd_residual = Base::even_odd_residual;
  static constexpr int half = (n + 1) / 2, odd_half = n / 2;  // even and odd parts of a closure column
  static constexpr int pair_unroll = std::is_same_v<Number, float> && tuning.float_unroll_pairs > 0
                                         ? tuning.float_unroll_pairs
                                         : (unroll >= ni ? ni / 2 : (unroll / 2 > 1 ? unroll / 2 : 1));
  /// 3D: the ni^3 boxes of the residual and the solve stay where the residual's last step leaves
  /// them, in place in the line buffer t0: z stride ni·n (not ni²), ni·ni·n entries per box. The
  /// fused scratch is then 2 line buffers (k = 5: 2 patches, k = 6: one patch in 30 KB instead of
  /// 41 KB; +13% / +8%, h100-2026-11-22-smoother/v10). In 2D the box has its own buffer (in
  /// place, ptxas spilled 10× more at k = 4: −23%).
  static constexpr bool column_in_place = tuning.column_in_place;
  static_assert(column_in_place == (dim == 3), "the per-column steps keep 3D boxes in place, 2D boxes apart");
  static_assert(!tuning.y_rounds || (Traits::has_warps && Traits::warp_size >= ni),
                "y rounds need warps of at least 2k - 1 lanes");
  static constexpr int column_zs = dim == 3 ? ni * n : ni * ni;
  static constexpr int column_box = dim == 3 ? ni * ni * n : ni * ni;

  /// The team's named buffers (PatchScratch); with base = nullptr only `end` is of use. The
  /// residual's x step writes t0, t1; 3D: its last step leaves R in t0 and t1 is the solve's T;
  /// 2D: R has its own box after t1.
  KOKKOS_FORCEINLINE_FUNCTION static PatchScratch<Number> layout(PatchStage stage, int ppt, Number* base) {
    PatchScratch<Number> s;
    s.zs = column_zs;
    s.box = column_box;
    std::size_t numbers;
    if (stage == PatchStage::solve) {
      s.R = base;
      s.T = base + column_box * ppt;
      s.rs = s.ts = column_box;
      numbers = 2 * std::size_t(column_box) * ppt;
    } else {
      s.t0 = base;
      s.t1 = base + line_size * ppt;
      s.R = dim == 3 ? s.t0 : s.t1 + line_size * ppt;
      s.T = dim == 3 ? s.t1 : s.t0;
      s.rs = dim == 3 ? line_size : interior_size;
      s.ts = line_size;
      numbers = (2 * std::size_t(line_size) + (column_in_place ? 0 : interior_size)) * ppt;
    }
    s.end = Base::with_info(numbers, ppt);
    s.info = base == nullptr ? nullptr : reinterpret_cast<local_index*>(base + numbers);
    return s;
  }
  static std::size_t scratch_bytes(PatchStage stage, int ppt) { return Base::scratch_bytes_of(layout(stage, ppt, nullptr).end); }
  /// One thread per C closure columns.
  static int threads_per_patch() { return (closure_size / n + C - 1) / C; }
  /// One thread per C interior columns: the solve's steps keep every thread busy.
  static int interior_threads_per_patch() { return ((dim == 2 ? ni : ni * ni) + C - 1) / C; }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int ppt = args.patches_per_team;
    local_index first;
    int valid;
    this->team_patches(team, first, valid);
    const PatchStage stage = args.stage;
    // The buffers as scalars: a PatchScratch kept whole and passed by reference stayed in local
    // memory (80-byte stack frame) and pushed the 3D k = 7 kernel into spilling (ptxas: 76/108
    // bytes of spill stores/loads against 8/8; −9% on the H100, 2026-11-24).
    const PatchScratch<Number> s =
        layout(stage, ppt, this->template scratch_base<shared_scratch>(team, layout(stage, ppt, nullptr).end));
    local_index* const info = s.info;
    Number* const R = s.R;
    Number* const T = s.T;
    const int rs = s.rs, ts = s.ts;
    // The residual computes the patch info in its first step (which reads the closure straight
    // from x); the solve stage looks it up here, one thread per patch.
    if (stage == PatchStage::solve) {
      for (int p = team.team_rank(); p < valid; p += team.team_size()) this->patch_info(first + p, info + info_entries * p);
      team.team_barrier();
    }
    // The fused kernel applies the solve's first Sᵀ (last direction) in its residual step.
    const bool transform_last = merge_steps && stage == PatchStage::fused && !args.use_inverse;
    if (stage != PatchStage::solve) residual_columns(team, first, valid, s.t0, s.t1, R, info, transform_last);
    else this->template load_residual<true>(team, valid, info, R, rs, column_zs);
    if (stage == PatchStage::residual) return;
    if (args.use_inverse) this->template solve_inverse<true>(team, valid, info, R, rs, column_zs);
    else solve_fast_diagonalization(team, valid, info, R, rs, T, ts, transform_last);
  }

  /// The columns of one thread in a step: lines l + c h (c < C, h = ⌈lines/C⌉) of patch p. A line
  /// past the end repeats line l and is not stored (`valid`).
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
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < CC; ++c) {
        b.line[c] = l + c * step;
        b.valid[c] = c == 0 || b.line[c] < lines_per_patch;
        if (!b.valid[c]) b.line[c] = l;
      }
      f(b);
    }
  }

  // ---- residual ----------------------------------------------------------------------------

  KOKKOS_FORCEINLINE_FUNCTION void residual_columns(const Member& team, local_index first_patch, int ppt, Number* t0,
                                                    Number* t1, Number* R, local_index* info, bool transform_last) const {
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
        this->patch_info(first_patch + p, in);
        cached = p;
      }
      if (b.line[0] == 0)
        for (int e = 0; e < info_entries; ++e) info[info_entries * p + e] = in[e];
      Number r[CX][n];
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < CX; ++c) {
        const int i1 = b.line[c] % n, i2 = b.line[c] / n;
        if (in[4]) {
          const local_index row = in[3] + args.box.o[0] * (i1 + args.box.o[1] * i2);
          if (args.boundary_residual && Base::inside_patch(1, i1, i2)) {
            // A row through the patch interior: only its two ends are on the boundary layer.
            TENSORMG_UNROLL_ALL
            for (int m = 1; m < n - 1; ++m) r[c][m] = Number(0);
            r[c][0] = args.x(row);
            r[c][n - 1] = args.x(row + n - 1);
          } else {
            contraction::load_column(args.x.data() + row, 1, r[c]);
          }
          // The last residual step reads these rows of b two barriers later (+1..4% at 3D
          // k = 4, 6, 7; −10% at k = 5, where the row leaves it off).
          if (tuning.prefetch_b && b.valid[c] && i1 >= 1 && i1 <= ni && i2 >= 1 && i2 <= ni) {
            Traits::prefetch(args.b.data() + row + 1);
            Traits::prefetch(args.b.data() + row + ni);
          }
        } else {
          for (int m = 0; m < n; ++m) r[c][m] = this->closure_value(in, m, i1, i2);
        }
      }
      Number* d0[CX];
      Number* d1[CX];
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < CX; ++c) {
        d0[c] = t0 + p * line_size + ni * b.line[c];
        d1[c] = t1 + p * line_size + ni * b.line[c];
      }
      if constexpr (even_odd_residual) {
        Number re[CX][half], ro[CX][odd_half];
        contraction::split_even_odd(r, re, ro);
        const auto store = [&](int o, const Number(&sm)[CX], const Number(&sa)[CX]) {
          TENSORMG_UNROLL_ALL
          for (int c = 0; c < CX; ++c)
            if (b.valid[c]) {
              d0[c][o] = sm[c];
              d1[c][o] = t1_scale * sa[c];
            }
        };
        TENSORMG_UNROLL(pair_unroll)
        for (int o = 0; o < ni / 2; ++o) {
          Traits::template keep_unroll<pair_unroll, ni / 2>();
          Number ml[CX], mh[CX], al[CX], ah[CX];
          contraction::dot_even_odd(this->rm.M, o, re, ro, ml, mh);
          contraction::dot_even_odd(this->rm.A, o, re, ro, al, ah);
          store(o, ml, al);
          store(ni - 1 - o, mh, ah);
        }
        Number sm[CX], sa[CX];
        contraction::dot_even_middle(this->rm.M, re, ro, sm);
        contraction::dot_even_middle(this->rm.A, re, ro, sa);
        store(ni / 2, sm, sa);
      } else {
        TENSORMG_UNROLL(unroll)
        for (int o = 0; o < ni; ++o) {
          Traits::template keep_unroll<unroll, ni>();
          Number sm[CX], sa[CX];
          contraction::dot_two(this->cm.M[o + 1], this->cm.A[o + 1], r, sm, sa);
          TENSORMG_UNROLL_ALL
          for (int c = 0; c < CX; ++c)
            if (b.valid[c]) {
              d0[c][o] = sm[c];
              d1[c][o] = t1_scale * sa[c];
            }
        }
      }
    });
    team.team_barrier();
    if constexpr (dim == 2) {
      // y (last): r = b_I − (α1 Â t0 + M̂ (α0 t1 + γ t0)) on every y-column (line = i0) of the
      // interior rows.
      for_each_column(team, ppt, ni, [&](const ColumnBlock& b) {
        last_residual_columns<1>(info + info_entries * b.p, b, t0 + b.p * line_size, t1 + b.p * line_size, ni,
                                 R + b.p * rs, transform_last, args.alpha[1], args.alpha[0]);
      });
    } else {
      // y, in place (a thread owns its y-columns of both buffers): s1 = M̂ t0 into t0,
      // s2 = α1 (Â t0 + M̂ t1) = α1 Â t0 + α0 M̂ Â_x u into t1 (t1 came scaled by α0/α1 from the x
      // step: two accumulators, not three, which spilled at k = 4), on every y-column (i0, i2).
      const Number alpha1 = args.alpha[1];
      auto y_block = [&](const ColumnBlock& b) {
        Number r0[C][n], r1[C][n];
        int start[C];  // the column's first entry: (i0, 0, i2)
        TENSORMG_UNROLL_ALL
        for (int c = 0; c < C; ++c) {
          start[c] = b.p * line_size + b.line[c] % ni + ni * n * (b.line[c] / ni);
          contraction::load_column(t0 + start[c], ni, r0[c]);
          contraction::load_column(t1 + start[c], ni, r1[c]);
        }
        const auto store = [&](int o, const Number(&v1)[C], const Number(&v2)[C]) {
          TENSORMG_UNROLL_ALL
          for (int c = 0; c < C; ++c)
            if (b.valid[c]) {
              t0[start[c] + ni * o] = v1[c];
              t1[start[c] + ni * o] = alpha1 * v2[c];
            }
        };
        if constexpr (even_odd_residual) {
          // v1 = M̂ r0, v2 = Â r0 + M̂ r1 by output pairs from the split columns.
          Number r0e[C][half], r0o[C][odd_half], r1e[C][half], r1o[C][odd_half];
          contraction::split_even_odd(r0, r0e, r0o);
          contraction::split_even_odd(r1, r1e, r1o);
          TENSORMG_UNROLL(pair_unroll)
          for (int o = 0; o < ni / 2; ++o) {
            Traits::template keep_unroll<pair_unroll, ni / 2>();
            Number v1l[C], v1h[C], v2l[C], v2h[C];
            contraction::dot_even_odd(this->rm.M, o, r0e, r0o, v1l, v1h);
            contraction::dot_sum_even_odd(this->rm.A, r0e, r0o, this->rm.M, r1e, r1o, o, v2l, v2h);
            store(o, v1l, v2l);
            store(ni - 1 - o, v1h, v2h);
          }
          Number v1[C], v2[C];
          contraction::dot_even_middle(this->rm.M, r0e, r0o, v1);
          contraction::dot_sum_even_middle(this->rm.A, r0e, this->rm.M, r1e, v2);
          store(ni / 2, v1, v2);
        } else {
          TENSORMG_UNROLL(unroll)
          for (int o = 0; o < ni; ++o) {
            Traits::template keep_unroll<unroll, ni>();
            Number v1[C], v2[C];
            contraction::dot_two_sum<pair>(this->cm.M[o + 1], this->cm.A[o + 1], r0, r1, v1, v2);
            store(o, v1, v2);
          }
        }
      };
      // y_rounds (3D k = 7, teams of 85: 195 = 2 · 85 + 25): whole rounds of one block per thread
      // and y_leftover for the lines left; otherwise for_each_column's blocks.
      const int team_size = team.team_size(), lines = ni * n, left = lines % (C * team_size);
      const bool rounds = tuning.y_rounds && ppt == 1 && team_size >= Traits::warp_size && lines > C * team_size && left > 0;
      for_each_column(team, ppt, lines, y_block, rounds);
      if constexpr (tuning.y_rounds)
        if (rounds) y_leftover(team, t0, t1, lines - left, left);
      team.team_barrier();
      // z (last): r = b_I − (α2 Â s1 + M̂ (s2 + γ s1)) on every z-column (line = i0 + ni i1).
      for_each_column(team, ppt, ni * ni, [&](const ColumnBlock& b) {
        last_residual_columns<2>(info + info_entries * b.p, b, t0 + b.p * line_size, t1 + b.p * line_size, ni * n,
                                 R + b.p * rs, transform_last, args.alpha[2], Number(1));
      });
    }
    team.team_barrier();
  }

  /// The y step (3D, one patch per team of at least a warp) on its last `left` lines
  /// first .. first + left − 1, one output per lane: groups of ⌊warp/ni⌋ lines, a group in one
  /// full warp (lane g ni + o: line g of the group, output o), groups dealt to the full warps in
  /// turn. A warp reads its group's columns before a warp barrier and writes the outputs after
  /// it (in place), so no team barrier and no values across one. The lanes need different matrix
  /// rows, so these come from the reference matrices in global memory (block `dim` of
  /// args.matrices, L1), not from the constant bank. 3D k = 7, teams of 85: 25 lines in 13
  /// groups, 7 rounds of the 2 full warps (teams of 96 measured the same: 3 lines, one round).
  KOKKOS_FORCEINLINE_FUNCTION void y_leftover(const Member& team, Number* t0, Number* t1, int first, int left) const {
    constexpr int warp = Traits::warp_size;
    constexpr int per_group = warp / ni;
    const int full_warps = team.team_size() / warp, my_warp = team.team_rank() / warp, lane = team.team_rank() % warp;
    const int g = lane / ni, o = lane % ni;
    const Number* M = this->mat(dim) + (o + 1) * n;
    const Number* A = M + n * n;
    const Number alpha1 = args.alpha[1];
    const int groups = (left + per_group - 1) / per_group;
    for (int round = 0; round * full_warps < groups; ++round) {
      const int group = round * full_warps + my_warp;
      const int l = group * per_group + g;
      const bool active = my_warp < full_warps && group < groups && g < per_group && l < left;
      const int line = first + l;
      const int start = line % ni + ni * n * (line / ni);
      Number v1 = 0, v2 = 0;
      if (active) {
        TENSORMG_UNROLL_ALL
        for (int m = 0; m < n; ++m) {
          const Number a = t0[start + ni * m], b = t1[start + ni * m];
          v1 += M[m] * a;
          v2 += A[m] * a;
          v2 += M[m] * b;
        }
      }
      Traits::sync_warp(team);
      if (active) {
        t0[start + ni * o] = v1;
        t1[start + ni * o] = alpha1 * v2;
      }
    }
  }

  /// The residual's last step on the block's columns along dir (line = q0 + ni q1, q0, q1 the
  /// other coordinates in direction order; in 2D q1 = 0) of the interior rows:
  /// r = b_I − (α Â s0 + M̂ (β s1 + γ s0)) from the columns s0 + line, s1 + line (n values, `stride`
  /// apart), stored by store_residual_columns.
  template <int dir>
  KOKKOS_FORCEINLINE_FUNCTION void last_residual_columns(const local_index* info, const ColumnBlock& b, const Number* s0,
                                                         const Number* s1, int stride, Number* R, bool transform,
                                                         Number alpha, Number beta) const {
    const Number g = args.gamma;
    local_index in[info_entries];
    Base::load_info(info, 0, in);
    Number r0[C][n], q[C][n];
    int q0[C], q1[C];
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) {
      q0[c] = b.line[c] % ni;
      q1[c] = b.line[c] / ni;
      const Number* a0 = s0 + b.line[c];
      const Number* a1 = s1 + b.line[c];
      TENSORMG_UNROLL_ALL
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
      const auto store = [&](int o, const Number(&v)[C]) {
        TENSORMG_UNROLL_ALL
        for (int c = 0; c < C; ++c)
          if (b.valid[c]) {
            const Number res = this->residual_at(column_index<dir>(in, q0[c], q1[c], o), v[c]);
            if (args.stage != PatchStage::residual) (R + q0[c] + ni * q1[c] * (dim == 3 ? 1 : 0))[o * rstride] = res;
          }
      };
      residual_outputs(r0, q, store);
    } else {
      Number res[C][ni];
      residual_outputs(r0, q, [&](int o, const Number(&v)[C]) {
        TENSORMG_UNROLL_ALL
        for (int c = 0; c < C; ++c) res[c][o] = this->residual_at(column_index<dir>(in, q0[c], q1[c], o), v[c], b.valid[c]);
      });
      store_residual_columns<dir>(res, b, q0, q1, R, transform);
    }
  }

  /// Calls f(o, v) for every output o of v = Â r0 + M̂ q over the interior rows (the residual's
  /// last step before b − v): in the even-odd form by pairs (o, 2k − 2 − o) and the middle row.
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void residual_outputs(const Number (&r0)[C][n], const Number (&q)[C][n], F&& f) const {
    if constexpr (even_odd_residual) {
      Number r0e[C][half], r0o[C][odd_half], qe[C][half], qo[C][odd_half];
      contraction::split_even_odd(r0, r0e, r0o);
      contraction::split_even_odd(q, qe, qo);
      TENSORMG_UNROLL(pair_unroll)
      for (int o = 0; o < ni / 2; ++o) {
        Traits::template keep_unroll<pair_unroll, ni / 2>();
        Number lo[C], hi[C];
        contraction::dot_sum_even_odd(this->rm.A, r0e, r0o, this->rm.M, qe, qo, o, lo, hi);
        f(o, lo);
        f(ni - 1 - o, hi);
      }
      Number v[C];
      contraction::dot_sum_even_middle(this->rm.A, r0e, this->rm.M, qe, v);
      f(ni / 2, v);
    } else {
      TENSORMG_UNROLL(unroll)
      for (int o = 0; o < ni; ++o) {
        Traits::template keep_unroll<unroll, ni>();
        Number v[C];
        contraction::dot_sum<pair>(this->cm.A[o + 1], r0, this->cm.M[o + 1], q, v);
        f(o, v);
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
    TENSORMG_UNROLL_ALL
    for (int c = 0; c < C; ++c) out[c] = R + q0[c] + ni * q1[c] * (dim == 3 ? 1 : 0);
    if (transform) {
      // Each output of Sᵀ straight to scratch: no second column in registers.
      SplitColumns sp;
      split_columns(res, sp);
      transposed_outputs(res, sp, [&](int o, const Number(&v)[C]) {
        TENSORMG_UNROLL_ALL
        for (int c = 0; c < C; ++c)
          if (b.valid[c]) out[c][o * stride] = v[c];
      });
    } else {
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < C; ++c)
        if (b.valid[c]) {
          TENSORMG_UNROLL_ALL
          for (int o = 0; o < ni; ++o) out[c][o * stride] = res[c][o];
        }
    }
  }

  // ---- fast diagonalization ----------------------------------------------------------------

  /// What one column step of the fast diagonalization does to its column in registers.
  enum class ColumnOp {
    transpose,               ///< Sᵀ
    forward,                 ///< S
    transpose_scale,         ///< Sᵀ, divide by a (λ_0 + … + λ_{d−1}) + c
    transpose_scale_forward  ///< Sᵀ, divide, S: the middle of the solve in one step
  };

  /// The block's columns as Ŝᵀ takes them in the even-odd form: their even and odd parts (unused
  /// in the direct form).
  struct SplitColumns {
    Number e[C][(ni + 1) / 2];
    Number o[C][ni / 2 > 0 ? ni / 2 : 1];
  };
  KOKKOS_FORCEINLINE_FUNCTION static void split_columns(const Number (&r)[C][ni], SplitColumns& sp) {
    if constexpr (even_odd) contraction::split_even_odd(r, sp.e, sp.o);
  }

  /// Calls f(o, v) for every output o of Ŝᵀ applied to the block's columns r (split into sp):
  /// v[c] = Σ_m Ŝ_{m,o} r[c][m] (the reference eigenvectors; the direction's 1/√h_d is in
  /// inverse_diagonal). In the even-odd form output o is mode o: the k symmetric modes from the
  /// even parts in one loop, the k − 1 others from the odd parts in a second.
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void transposed_outputs(const Number (&r)[C][ni], const SplitColumns& sp, F&& f) const {
    if constexpr (even_odd) {
      contraction::for_each_mode<unroll, Traits>(this->sm, sp.e, sp.o, f);
    } else {
      TENSORMG_UNROLL(unroll)
      for (int o = 0; o < ni; ++o) {
        Traits::template keep_unroll<unroll, ni>();
        Number v[C];
        contraction::dot_column(this->cm.S, o, r, v);
        f(o, v);
      }
    }
  }

  /// Output o of Ŝ applied to the block's columns of modes r: the direct form (one point).
  KOKKOS_FORCEINLINE_FUNCTION void forward_output(int o, const Number (&r)[C][ni], Number (&v)[C]) const {
    contraction::dot(this->cm.S[o], r, v);
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
    return this->closure_index(in, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0);
  }

  /// Point o of a column after Ŝ: added to (or, Boundary residual, stored in) x, or stored in the
  /// scratch boxes dst (null when adding to x: no offset is formed on it) at start + o · stride.
  template <int dir, bool add_to_x>
  KOKKOS_FORCEINLINE_FUNCTION void forward_result(const local_index (&in)[info_entries], int q0, int q1, int o,
                                                  Number* dst, int start, Number v) const {
    constexpr int stride = dir == 0 ? 1 : (dir == 1 ? ni : column_zs);
    if constexpr (add_to_x) this->update_x(column_index<dir>(in, q0, q1, o), v);
    else dst[start + o * stride] = v;
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
      TENSORMG_UNROLL_ALL
      for (int c = 0; c < C; ++c) {
        q0[c] = b.line[c] % ni;
        q1[c] = b.line[c] / ni;
        base[c] = q0[c] * stride_q0 + q1[c] * stride_q1;
        dbase[c] = q0[c] * stride_q0 + q1[c] * dstride_q1;
        contraction::load_column(src + p * ss + base[c], stride, r[c]);
      }
      if constexpr (op == ColumnOp::transpose || op == ColumnOp::transpose_scale) {
        // Each output straight to scratch: no second column in registers.
        SplitColumns sp;
        split_columns(r, sp);
        transposed_outputs(r, sp, [&](int o, const Number(&v)[C]) {
          TENSORMG_UNROLL_ALL
          for (int c = 0; c < C; ++c) {
            Number w = v[c];
            if constexpr (op == ColumnOp::transpose_scale) w *= dinv[dbase[c] + o * dstride];
            if (b.valid[c]) dst[p * ds + base[c] + o * stride] = w;
          }
        });
      } else {
        if constexpr (op == ColumnOp::transpose_scale_forward) {
          Number v[C][ni];
          SplitColumns sp;
          split_columns(r, sp);
          transposed_outputs(r, sp, [&](int o, const Number(&t)[C]) {
            TENSORMG_UNROLL_ALL
            for (int c = 0; c < C; ++c) v[c][o] = t[c];
          });
          TENSORMG_UNROLL_ALL
          for (int c = 0; c < C; ++c) {
            TENSORMG_UNROLL_ALL
            for (int m = 0; m < ni; ++m) r[c][m] = v[c][m] * dinv[dbase[c] + m * dstride];
          }
        }
        local_index in[info_entries];
        if constexpr (add_to_x) Base::load_info(info, p, in);
        if constexpr (even_odd) {
          // Points o and ni − 1 − o from the symmetric and the antisymmetric modes, then the middle.
          TENSORMG_UNROLL(pair_unroll)
          for (int o = 0; o < ni / 2; ++o) {
            Traits::template keep_unroll<pair_unroll, ni / 2>();
            Number lo[C], hi[C];
            contraction::dot_from_modes(this->sm, o, r, lo, hi);
            TENSORMG_UNROLL_ALL
            for (int c = 0; c < C; ++c)
              if (b.valid[c]) {
                forward_result<dir, add_to_x>(in, q0[c], q1[c], o, dst, p * ds + base[c], lo[c]);
                forward_result<dir, add_to_x>(in, q0[c], q1[c], ni - 1 - o, dst, p * ds + base[c], hi[c]);
              }
          }
          Number v[C];
          contraction::dot_from_modes_middle(this->sm, r, v);
          TENSORMG_UNROLL_ALL
          for (int c = 0; c < C; ++c)
            if (b.valid[c]) forward_result<dir, add_to_x>(in, q0[c], q1[c], ni / 2, dst, p * ds + base[c], v[c]);
        } else {
          TENSORMG_UNROLL(unroll)
          for (int o = 0; o < ni; ++o) {
            Traits::template keep_unroll<unroll, ni>();
            Number v[C];
            forward_output(o, r, v);
            TENSORMG_UNROLL_ALL
            for (int c = 0; c < C; ++c)
              if (b.valid[c]) forward_result<dir, add_to_x>(in, q0[c], q1[c], o, dst, p * ds + base[c], v[c]);
          }
        }
      }
    });
    if constexpr (!add_to_x) team.team_barrier();
  }

  /// Fast diagonalization S (Λ)^{-1} Sᵀ r with one thread per column: Sᵀ along the last direction
  /// (already applied by the fused residual when `last_done`), the other Sᵀ, then along x Sᵀ, the
  /// division by the eigenvalue sums and S in one step, S along the other directions, the last one
  /// adding to x. 2d − 1 column steps (2D 3, 3D 5) instead of 2d where the row merges steps.
  KOKKOS_FORCEINLINE_FUNCTION void solve_fast_diagonalization(const Member& team, int ppt, const local_index* info, Number* R,
                                                              int rs, Number* T, int ts, bool last_done) const {
    Number* from = R;
    Number* to = T;
    int fs = rs, tsz = ts;
    if constexpr (!merge_steps) {
      // Sᵀ along every direction (the last one divides), then S along every direction.
      column_step<0, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      if constexpr (dim == 3) {
        column_step<1, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
        Base::swap_buffers(from, to, fs, tsz);
      }
      column_step<dim - 1, ColumnOp::transpose_scale, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      column_step<0, ColumnOp::forward, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      if constexpr (dim == 3) {
        column_step<1, ColumnOp::forward, false>(team, ppt, info, from, fs, to, tsz);
        Base::swap_buffers(from, to, fs, tsz);
      }
      column_step<dim - 1, ColumnOp::forward, true>(team, ppt, info, from, fs, nullptr, 0);
    } else if constexpr (dim == 2) {
      if (!last_done) {
        column_step<1, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
        Base::swap_buffers(from, to, fs, tsz);
      }
      column_step<0, ColumnOp::transpose_scale_forward, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      column_step<1, ColumnOp::forward, true>(team, ppt, info, from, fs, nullptr, 0);
    } else {
      if (!last_done) {
        column_step<2, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
        Base::swap_buffers(from, to, fs, tsz);
      }
      column_step<1, ColumnOp::transpose, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      column_step<0, ColumnOp::transpose_scale_forward, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      column_step<1, ColumnOp::forward, false>(team, ppt, info, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
      column_step<2, ColumnOp::forward, true>(team, ppt, info, from, fs, nullptr, 0);
    }
  }
};

}  // namespace tensormg
