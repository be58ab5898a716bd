#pragma once
/// @file
/// The fused vertex-patch smoothing step on the host with patches in SIMD lanes
/// (ThreadStructure::lanes; deal.II's VectorizedArray over cells, here over patches): a thread
/// takes W patches of one colour that follow one another along x (lane w: the w-th of them, 2k
/// nodes further along x) and runs paper 000's Algorithm 2.3 on all of them at once, every value a
/// simd::Pack of W numbers: the local residual by three (2D: two) sum-factorized steps with the
/// interior rows of the reference 1D matrices, the fast diagonalization (Ŝᵀ per direction, the
/// eigenvalue division, Ŝ per direction), the result stored (Boundary residual) or added to x.
/// A colour's patch interiors are disjoint, so the lanes need no order among themselves.
///
/// Same arithmetic as the per-column kernel (vertex_patch_columns.hpp) on the same reference
/// matrices, alphas and inverse diagonal; the sums run in the plain order (no even-odd forms).
/// Lanes whose patch has every closure node owned and none on the Dirichlet boundary (the fast
/// path of patch_info) read x at one start plus a stride; the others node by node
/// (closure_value); lanes past the end of a row of patches are zero and never stored.
///
/// Scratch per thread (packs): 3D 2 n² ni (after the x step, reused for the solve's two boxes) +
/// 2 n ni² (after the y step); 2D 2 n ni + 2 ni² (3D k = 8 with 8 doubles a pack: 1.0 MB), team
/// scratch of level 1. Host execution spaces only.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/simd_pack.hpp"
#include "smoothers/vertex_patch_common.hpp"

namespace tensormg {

template <int dim, int k, class Number, class ExecSpace>
struct VertexPatchLanesKernel : VertexPatchCommon<dim, k, Number, ExecSpace> {
  using Base = VertexPatchCommon<dim, k, Number, ExecSpace>;
  static_assert(runs_on_host<ExecSpace>(), "the lanes kernel runs on the host");
  static_assert(k >= 2, "k = 1 patches have one unknown: per patch or per line");
  using Base::args;
  using Base::info_entries;
  using Base::n;
  using Base::ni;
  static constexpr int W = simd::native_width<Number>;
  using Pack = simd::Pack<Number, W>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;

  /// Packs of a thread's scratch, and the offsets of its buffers.
  static constexpr int t_size = dim == 3 ? n * n * ni : n * ni;     // t0, t1: after the x step
  static constexpr int s_size = dim == 3 ? n * ni * ni : ni * ni;   // 3D s1, s2; 2D R, T
  static constexpr int box_size = dim == 3 ? ni * ni * ni : ni * ni;
  static_assert(dim == 2 || box_size <= t_size, "3D: the solve's boxes reuse t0 and t1");
  static constexpr std::size_t packs = 2 * std::size_t(t_size) + 2 * std::size_t(s_size);
  static std::size_t scratch_bytes() { return packs * sizeof(Pack) + alignof(Pack); }

  local_index groups_x = 1;  ///< ⌈patches per x-row / W⌉

  /// Lane w's patch info (in[4]: the fast path), or zeros where the lane is past its row's end.
  struct Lanes {
    local_index in[W][info_entries];
    int count = 0;
    bool all_fast = false;
  };

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const local_index g = team.league_rank();
    const local_index row = g / groups_x, gx = g % groups_x;
    const local_index extent0 = this->patches.extent[0];
    Lanes L;
    const local_index j0 = row * extent0 + gx * W;
    L.count = int(extent0 - gx * W < W ? extent0 - gx * W : W);
    L.all_fast = L.count == W;
    for (int w = 0; w < W; ++w) {
      if (w < L.count) this->patch_info(j0 + w, L.in[w]);
      else
        for (int e = 0; e < info_entries; ++e) L.in[w][e] = 0;
      L.all_fast = L.all_fast && (w >= L.count || L.in[w][4] != 0);
    }
    Pack* base = static_cast<Pack*>(team.team_scratch(1).get_shmem_aligned(packs * sizeof(Pack), alignof(Pack)));
    Pack* t0 = base;
    Pack* t1 = t0 + t_size;
    Pack* s1 = t1 + t_size;
    Pack* s2 = s1 + s_size;
    x_step(L, t0, t1);
    if constexpr (dim == 2) {
      // y (last): R = b − (α1 Â t0 + M̂ (α0 t1 + γ t0)) into s1; the solve's T is s2.
      last_step(L, t0, t1, args.alpha[1], args.alpha[0], s1);
      solve(L, s1, s2);
    } else {
      y_step(t0, t1, s1, s2);
      // z (last): R = b − (α2 Â s1 + M̂ (s2 + γ s1)) into t0; the solve's T is t1.
      last_step(L, s1, s2, args.alpha[2], Number(1), t0);
      solve(L, t0, t1);
    }
  }

  /// Vector index of closure node (i0, i1, i2) of lane w; `offset` is the node's offset from the
  /// closure's first node in a fast lane's box (node_offset).
  KOKKOS_FORCEINLINE_FUNCTION local_index index_of(const Lanes& L, int w, local_index offset, int i0, int i1, int i2) const {
    return L.all_fast || L.in[w][4] ? L.in[w][3] + offset : this->closure_index(L.in[w], i0, i1, i2);
  }
  KOKKOS_FORCEINLINE_FUNCTION local_index node_offset(int i0, int i1, int i2) const {
    return i0 + args.box.o[0] * (i1 + args.box.o[1] * local_index(i2));
  }

  /// Row (i1, i2) of the lanes' closures along x: u[m] = x at node (m, i1, i2), zero on the
  /// Dirichlet boundary, past the row's end and (Boundary residual) inside the patch.
  KOKKOS_FORCEINLINE_FUNCTION void load_row(const Lanes& L, int i1, int i2, bool ends_only, Pack (&u)[n]) const {
    const Number* x = args.x.data();
    for (int m = 0; m < n; ++m) u[m] = Pack(Number(0));
    const local_index stride = args.box.o[0] * (i1 + args.box.o[1] * i2);
    for (int w = 0; w < L.count; ++w) {
      if (L.all_fast || L.in[w][4]) {
        const Number* row = x + L.in[w][3] + stride;
        if (ends_only) {
          u[0].set(w, row[0]);
          u[n - 1].set(w, row[n - 1]);
        } else {
          for (int m = 0; m < n; ++m) u[m].set(w, row[m]);
        }
      } else {
        for (int m = 0; m < n; ++m)
          if (!ends_only || m == 0 || m == n - 1) u[m].set(w, this->closure_value(L.in[w], m, i1, i2));
      }
    }
  }

  /// x: t0 = M̂_I u, t1 = s Â_I u on every x-row (i1, i2) of the closure (3D s = α0/α1, 2D 1),
  /// stored at (i2 n + i1) ni + o.
  KOKKOS_FORCEINLINE_FUNCTION void x_step(const Lanes& L, Pack* t0, Pack* t1) const {
    const Number t1_scale = dim == 2 ? Number(1) : args.alpha0_over_alpha1;
    const auto& M = this->cm.M;
    const auto& A = this->cm.A;
    constexpr int e2 = dim == 3 ? n : 1;
    for (int i2 = 0; i2 < e2; ++i2)
      for (int i1 = 0; i1 < n; ++i1) {
        // A row through the patch interior has (Boundary residual) its two ends only.
        const bool ends_only = args.boundary_residual && Base::inside_patch(1, i1, i2);
        Pack u[n];
        load_row(L, i1, i2, ends_only, u);
        Pack* d0 = t0 + (i2 * n + i1) * ni;
        Pack* d1 = t1 + (i2 * n + i1) * ni;
        if (ends_only) {
          for (int o = 0; o < ni; ++o) {
            d0[o] = Pack(M[o + 1][0]) * u[0] + Pack(M[o + 1][n - 1]) * u[n - 1];
            d1[o] = Pack(t1_scale) * (Pack(A[o + 1][0]) * u[0] + Pack(A[o + 1][n - 1]) * u[n - 1]);
          }
        } else {
          for (int o = 0; o < ni; ++o) {
            Pack vm(Number(0)), va(Number(0));
            for (int m = 0; m < n; ++m) {
              vm += Pack(M[o + 1][m]) * u[m];
              va += Pack(A[o + 1][m]) * u[m];
            }
            d0[o] = vm;
            d1[o] = Pack(t1_scale) * va;
          }
        }
      }
  }

  /// 3D y: s1 = M̂_I t0, s2 = α1 (Â_I t0 + M̂_I t1) along y, stored at (i2 ni + o1) ni + o0.
  KOKKOS_FORCEINLINE_FUNCTION void y_step(const Pack* t0, const Pack* t1, Pack* s1, Pack* s2) const {
    const auto& M = this->cm.M;
    const auto& A = this->cm.A;
    const Pack alpha1(args.alpha[1]);
    for (int i2 = 0; i2 < n; ++i2)
      for (int o1 = 0; o1 < ni; ++o1) {
        Pack v1[ni], v2[ni];
        for (int o0 = 0; o0 < ni; ++o0) v1[o0] = v2[o0] = Pack(Number(0));
        for (int m = 0; m < n; ++m) {
          const Pack em(M[o1 + 1][m]), ea(A[o1 + 1][m]);
          const Pack* a0 = t0 + (i2 * n + m) * ni;
          const Pack* a1 = t1 + (i2 * n + m) * ni;
          for (int o0 = 0; o0 < ni; ++o0) {
            v1[o0] += em * a0[o0];
            v2[o0] += ea * a0[o0] + em * a1[o0];
          }
        }
        Pack* d1 = s1 + (i2 * ni + o1) * ni;
        Pack* d2 = s2 + (i2 * ni + o1) * ni;
        for (int o0 = 0; o0 < ni; ++o0) {
          d1[o0] = v1[o0];
          d2[o0] = alpha1 * v2[o0];
        }
      }
  }

  /// The last direction: R = b − (α Â_I p + M̂_I (β q + γ p)) at every interior point (the
  /// interior box lexicographic, ni^d); p, q have the last direction outermost with n entries.
  KOKKOS_FORCEINLINE_FUNCTION void last_step(const Lanes& L, const Pack* p, const Pack* q, Number alpha, Number beta,
                                             Pack* R) const {
    const auto& M = this->cm.M;
    const auto& A = this->cm.A;
    constexpr int plane = dim == 3 ? ni * ni : ni;  // a plane of the last direction
    const Pack a(alpha), bt(beta), gm(args.gamma);
    for (int o = 0; o < ni; ++o) {
      Pack* r = R + o * plane;
      for (int c = 0; c < plane; ++c) r[c] = Pack(Number(0));
      for (int m = 0; m < n; ++m) {
        const Pack ea = Pack(A[o + 1][m]) * a, em(M[o + 1][m]);
        const Pack* pm = p + m * plane;
        const Pack* qm = q + m * plane;
        for (int c = 0; c < plane; ++c) r[c] += ea * pm[c] + em * (bt * qm[c] + gm * pm[c]);
      }
      // r = b − v at the plane's interior points, lane by lane (a lane's row of b is contiguous).
      const Number* b = args.b.data();
      for (int c = 0; c < plane; ++c) {
        const int i0 = c % ni + 1, i1 = (dim == 3 ? c / ni : o) + 1, i2 = dim == 3 ? o + 1 : 0;
        const local_index offset = node_offset(i0, i1, i2);
        Pack bv(Number(0));
        for (int w = 0; w < L.count; ++w) bv.set(w, b[index_of(L, w, offset, i0, i1, i2)]);
        r[c] = bv - r[c];
      }
    }
  }

  /// One direction of the fast diagonalization on the ni^d box: Ŝᵀ (transpose) or Ŝ, from src to
  /// dst; `scale` multiplies by the inverse diagonal afterwards.
  template <int dir, bool transpose, bool scale>
  KOKKOS_FORCEINLINE_FUNCTION void solve_step(const Pack* src, Pack* dst) const {
    const auto& S = this->cm.S;
    constexpr int stride = dir == 0 ? 1 : (dir == 1 ? ni : ni * ni);
    constexpr int lines = dim == 3 ? ni * ni : ni;
    const Number* dinv = args.inverse_diagonal.data();
    for (int l = 0; l < lines; ++l) {
      // The column's start: the other coordinates in direction order.
      const int q0 = l % ni, q1 = l / ni;
      const int start = dir == 0 ? ni * q0 + ni * ni * q1 : (dir == 1 ? q0 + ni * ni * q1 : q0 + ni * q1);
      Pack col[ni];
      for (int m = 0; m < ni; ++m) col[m] = src[start + m * stride];
      for (int o = 0; o < ni; ++o) {
        Pack v(Number(0));
        for (int m = 0; m < ni; ++m) v += Pack(transpose ? S[m][o] : S[o][m]) * col[m];
        if constexpr (scale) v *= Pack(dinv[start + o * stride]);
        dst[start + o * stride] = v;
      }
    }
  }

  /// x_I (+)= Ŝ D Ŝᵀ R per lane; R and T are the ni^d boxes (R is overwritten).
  KOKKOS_FORCEINLINE_FUNCTION void solve(const Lanes& L, Pack* R, Pack* T) const {
    if constexpr (dim == 2) {
      solve_step<0, true, false>(R, T);
      solve_step<1, true, true>(T, R);
      solve_step<0, false, false>(R, T);
      solve_step<1, false, false>(T, R);
    } else {
      solve_step<0, true, false>(R, T);
      solve_step<1, true, false>(T, R);
      solve_step<2, true, true>(R, T);
      solve_step<0, false, false>(T, R);
      solve_step<1, false, false>(R, T);
      solve_step<2, false, false>(T, R);
    }
    constexpr int nz = dim == 3 ? ni : 1;
    for (int w = 0; w < L.count; ++w)
      for (int i2 = 0; i2 < nz; ++i2)
        for (int i1 = 0; i1 < ni; ++i1) {
          const int z = dim == 3 ? i2 + 1 : 0;
          const local_index offset = node_offset(0, i1 + 1, z);
          const Pack* row = R + ni * (i1 + ni * i2);
          for (int i0 = 0; i0 < ni; ++i0) this->update_x(index_of(L, w, offset + i0 + 1, i0 + 1, i1 + 1, z), row[i0][w]);
        }
  }
};

/// One colour (or a window of it) by the lanes kernel: the fused stage, fast diagonalization.
template <int dim, int k, class Number, class ExecSpace>
void launch_vertex_patch_lanes(const PatchKernelArgs<Number, ExecSpace>& args) {
  using Kernel = VertexPatchLanesKernel<dim, k, Number, ExecSpace>;
  Kernel kernel;
  kernel.args = args;
  kernel.patches = detail::patch_range(args.box, args.color, args.window);
  if (kernel.patches.size() == 0) return;
  set_patch_constants(kernel, args.host_reference);
  kernel.groups_x = (kernel.patches.extent[0] + Kernel::W - 1) / Kernel::W;
  const local_index league = kernel.groups_x * kernel.patches.extent[1] * kernel.patches.extent[2];
  typename Kernel::Policy policy(league, 1);
  policy.set_scratch_size(1, Kokkos::PerTeam(Kernel::scratch_bytes()));  // level 0 is 32 KB on the host
  Kokkos::parallel_for("tensormg::smoother::vertex_patch::lanes", policy, kernel);
}

}  // namespace tensormg
