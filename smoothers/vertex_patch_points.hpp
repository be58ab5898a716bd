#pragma once
/// @file
/// The vertex-patch kernel with one thread per point of each step (paper 000 Fig. 5, "per DoF"):
/// the closure gathered into scratch, each contraction a loop over the points of a box. The
/// comparison variant of the per-column kernel (vertex_patch_columns.hpp), which is faster at
/// every k >= 2 on the H100 (perf/HISTORY.md); its own instantiation, so the per-column kernel's
/// register blocking does not weigh on it. Only vertex_patch_launch.hpp launches it.

#include "smoothers/vertex_patch_common.hpp"

namespace tensormg {

template <int dim, int k, class Number, class ExecSpace, bool shared_scratch = false>
struct VertexPatchPointKernel : VertexPatchCommon<dim, k, Number, ExecSpace> {
  using Base = VertexPatchCommon<dim, k, Number, ExecSpace>;
  using Member = typename Base::Member;
  using Base::args;
  using Base::closure_size;
  using Base::info_entries;
  using Base::interior_size;
  using Base::line_size;
  using Base::n;
  using Base::ni;
  using Base::plane_size;
  static constexpr bool per_column = false;

  /// The team's named buffers (PatchScratch); with base = nullptr only `end` is of use.
  KOKKOS_FORCEINLINE_FUNCTION static PatchScratch<Number> layout(PatchStage stage, int ppt, Number* base) {
    PatchScratch<Number> s;
    s.zs = ni * ni;
    s.box = interior_size;
    std::size_t numbers;
    if (stage == PatchStage::solve) {
      s.R = base;
      s.T = base + interior_size * ppt;
      s.rs = s.ts = interior_size;
      numbers = 2 * std::size_t(interior_size) * ppt;
    } else {
      s.u = base;
      s.t0 = base + closure_size * ppt;
      s.t1 = s.t0 + line_size * ppt;
      s.w = s.t1 + line_size * ppt;
      s.R = dim == 3 ? s.t0 : s.u;
      s.T = dim == 3 ? s.t1 : s.t0;
      s.rs = dim == 3 ? line_size : closure_size;
      s.ts = line_size;
      numbers = (closure_size + 2 * std::size_t(line_size) + (dim == 3 ? plane_size : 0)) * ppt;
    }
    s.end = Base::with_info(numbers, ppt);
    s.info = base == nullptr ? nullptr : reinterpret_cast<local_index*>(base + numbers);
    return s;
  }
  static std::size_t scratch_bytes(PatchStage stage, int ppt) { return Base::scratch_bytes_of(layout(stage, ppt, nullptr).end); }
  /// One thread per closure point.
  static int threads_per_patch() { return closure_size; }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int ppt = args.patches_per_team;
    local_index first;
    int valid;
    this->team_patches(team, first, valid);
    const PatchStage stage = args.stage;
    // The buffers by value (a PatchScratch passed by reference stays in local memory).
    const PatchScratch<Number> s =
        layout(stage, ppt, this->template scratch_base<shared_scratch>(team, layout(stage, ppt, nullptr).end));
    for (int p = team.team_rank(); p < valid; p += team.team_size()) this->patch_info(first + p, s.info + info_entries * p);
    team.team_barrier();
    if (stage != PatchStage::solve) residual(team, valid, s.u, s.t0, s.t1, s.w, s.R, s.rs, s.info);
    else this->template load_residual<false>(team, valid, s.info, s.R, s.rs, ni * ni);
    if (stage == PatchStage::residual) return;
    if (args.use_inverse) this->template solve_inverse<false>(team, valid, s.info, s.R, s.rs, ni * ni);
    else solve_fast_diagonalization(team, valid, s.info, s.R, s.rs, s.T, s.ts);
  }

  KOKKOS_FORCEINLINE_FUNCTION void residual(const Member& team, int ppt, Number* u, Number* t0, Number* t1, Number* w,
                                            Number* R, int rs, const local_index* info) const {
    const Number* M0 = this->mat(0);
    const Number* A0 = M0 + n * n;
    const Number* M1 = this->mat(1);
    const Number* A1 = M1 + n * n;
    const Number a = args.laplace, c = args.mass;
    constexpr int e2 = dim == 3 ? n : 1;
    // Gather the closure; Dirichlet nodes (and for the Boundary residual the interior) read as zero.
    Base::for_each_point(team, ppt, n, n, e2, [&](int p, int i0, int i1, int i2) {
      u[p * closure_size + i0 + n * (i1 + n * i2)] = this->closure_value(info + info_entries * p, i0, i1, i2);
    });
    team.team_barrier();
    // x: interior rows of M0, A0.
    Base::for_each_point(team, ppt, ni, n, e2, [&](int p, int i0, int i1, int i2) {
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
      Base::for_each_point(team, ppt, ni, ni, 1, [&](int p, int i0, int i1, int) {
        const Number* s0 = t0 + p * line_size + i0;
        const Number* s1 = t1 + p * line_size + i0;
        Number v = 0;
        for (int m = 0; m < n; ++m)
          v += a * A1[(i1 + 1) * n + m] * s0[ni * m] + M1[(i1 + 1) * n + m] * (a * s1[ni * m] + c * s0[ni * m]);
        this->store_residual(info + info_entries * p, i0, i1, 0, v, R + p * rs);
      });
    } else {
      const Number* M2 = this->mat(2);
      const Number* A2 = M2 + n * n;
      // y: s1 = M1 t0 into u, s2 = A1 t0 + M1 t1 into w.
      Base::for_each_point(team, ppt, ni, ni, n, [&](int p, int i0, int i1, int i2) {
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
      Base::for_each_point(team, ppt, ni, ni, ni, [&](int p, int i0, int i1, int i2) {
        const Number* s1 = u + p * closure_size + i0 + ni * i1;
        const Number* s2 = w + p * plane_size + i0 + ni * i1;
        Number v = 0;
        for (int m = 0; m < n; ++m)
          v += a * A2[(i2 + 1) * n + m] * s1[ni * ni * m] +
               M2[(i2 + 1) * n + m] * (a * s2[ni * ni * m] + c * s1[ni * ni * m]);
        this->store_residual(info + info_entries * p, i0, i1, i2, v, R + p * rs);
      });
    }
    team.team_barrier();
  }

  /// One 1D contraction of the solve along direction dir with S (transpose: Sᵀ) on ni^d boxes,
  /// from src (patch stride ss) to dst (patch stride ds); `scale` divides by the eigenvalue sum.
  KOKKOS_FORCEINLINE_FUNCTION void apply_s(const Member& team, int ppt, int dir, bool transpose, bool scale,
                                           const Number* src, int ss, Number* dst, int ds) const {
    const Number* S = this->mat(dir) + 2 * n * n;
    const int stride = dir == 0 ? 1 : (dir == 1 ? ni : ni * ni);
    Base::for_each_point(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
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

  KOKKOS_FORCEINLINE_FUNCTION void solve_fast_diagonalization(const Member& team, int ppt, const local_index* info,
                                                              Number* R, int rs, Number* T, int ts) const {
    // Forward: Sᵀ along every direction (the last one divides by the eigenvalue sum).
    Number* from = R;
    Number* to = T;
    int fs = rs, tsz = ts;
    for (int d = 0; d < dim; ++d) {
      apply_s(team, ppt, d, true, d == dim - 1, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
    }
    // Back: S along every direction; the last one adds to x.
    for (int d = 0; d < dim - 1; ++d) {
      apply_s(team, ppt, d, false, false, from, fs, to, tsz);
      Base::swap_buffers(from, to, fs, tsz);
    }
    constexpr int last = dim - 1;
    const Number* S = this->mat(last) + 2 * n * n;
    constexpr int stride = last == 1 ? ni : ni * ni;
    Base::for_each_point(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
      const int row = dim == 3 ? i2 : i1;
      const Number* in = from + p * fs + i0 + ni * (i1 + ni * i2) - row * stride;
      Number v = 0;
      for (int m = 0; m < ni; ++m) v += S[row * ni + m] * in[m * stride];
      this->update_x(this->closure_index(info + info_entries * p, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0), v);
    });
  }
};

}  // namespace tensormg
