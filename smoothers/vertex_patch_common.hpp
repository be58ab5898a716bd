#pragma once
/// @file
/// What the two vertex-patch kernels (vertex_patch_columns.hpp: one thread per 1D column,
/// vertex_patch_points.hpp: one thread per point) share (paper 000, Algorithm 2.3, eq. 2.8, §3.1):
/// sizes, the tuning row, the patch info and index maps, the named scratch buffers, the residual
/// store and the dense-inverse local solve.
///
/// Patch j of interior vertex v has the (2k+1)^d closure nodes starting at node (v−1)k per
/// direction and the (2k−1)^d interior nodes inside. Steps (3D; 2D drops the middle one):
///   residual  t0 = M0_I u, t1 = A0_I u          (x: only interior rows are ever needed)
///             s1 = M1_I t0, s2 = A1_I t0 + M1_I t1
///             r  = b_I − (a A2_I s1 + M2_I (a s2 + c s1))
///   solve     fast diagonalization: S0ᵀ, S1ᵀ, S2ᵀ, divide by a(λ0+λ1+λ2)+c, S0, S1, S2, add to x
///             or the dense inverse of A_j times r, added to x.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "backends/device_traits.hpp"
#include "core/even_odd_contraction.hpp"
#include "core/tensor_contraction.hpp"
#include "smoothers/vertex_patch_args.hpp"
#include "smoothers/vertex_patch_tuning.hpp"

namespace tensormg {

/// The named buffers of a team's scratch (all patches of the team, `ppt`): R holds the patch
/// residual, T the other buffer of the solve's ping-pong; u (closure), t0, t1 (after the first
/// contraction), w (3D, after the second) are the residual's. rs, ts: patch strides of R and T;
/// zs, box: z stride and size of a solve box. `end` is the number of Number entries used.
template <class Number>
struct PatchScratch {
  Number* u = nullptr;
  Number* t0 = nullptr;
  Number* t1 = nullptr;
  Number* w = nullptr;
  Number* R = nullptr;
  Number* T = nullptr;
  local_index* info = nullptr;
  int rs = 0, ts = 0, zs = 0, box = 0;
  std::size_t end = 0;
};

template <int dim, int k, class Number, class ExecSpace>
struct VertexPatchCommon {
  static constexpr PatchTuning tuning = patch_tuning(dim, k, tuning_target<ExecSpace>());
  static_assert(tuning.dim == dim && tuning.k == k, "no tuning row for this (dim, k)");
  using Traits = DeviceTraits<ExecSpace>;
  using execution_space = ExecSpace;
  static constexpr int dimension = dim;
  static constexpr int n = 2 * k + 1;   // closure nodes per direction
  static constexpr int ni = 2 * k - 1;  // interior nodes per direction
  static constexpr int closure_size = dim == 2 ? n * n : n * n * n;
  static constexpr int interior_size = dim == 2 ? ni * ni : ni * ni * ni;
  static constexpr int line_size = dim == 2 ? ni * n : ni * n * n;  // after the first contraction
  static constexpr int plane_size = ni * ni * n;                      // 3D, after the second
  static constexpr int info_entries = 5;                              // origin[3], first index, fast
  static constexpr int max_team_size = tuning.max_team_size;
  static constexpr int min_teams_per_sm =
      std::is_same_v<Number, float> && tuning.float_min_teams_per_sm > 0 ? tuning.float_min_teams_per_sm : tuning.min_teams_per_sm;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<tuning.max_team_size, min_teams_per_sm>>;
  using Member = typename Policy::member_type;

  PatchKernelArgs<Number, ExecSpace> args;
  detail::PatchRange patches;
  int scratch_level = 0;
  PatchMatricesConstant<k, Number> cm;
  /// The eigenvectors in mode-split form where the tuning row says (k >= 2: 2k − 1 >= 3 points;
  /// float kernels not where the row keeps them direct).
  static constexpr bool even_odd = tuning.even_odd && !(std::is_same_v<Number, float> && tuning.float_direct_solve);
  struct NoModeSplit {};
  std::conditional_t<even_odd, contraction::ModeSplit<ni, Number>, NoModeSplit> sm;
  /// The interior rows 1 .. 2k − 1 of M̂ and Â in even-odd form where the tuning row says.
  static constexpr bool even_odd_residual = tuning.even_odd_residual;
  struct InteriorRows {
    contraction::EvenOddMatrix<ni, n, Number> M, A;
  };
  struct NoInteriorRows {};
  std::conditional_t<even_odd_residual, InteriorRows, NoInteriorRows> rm;

  /// Info entries after `numbers` Number entries, in Number units.
  KOKKOS_FORCEINLINE_FUNCTION static std::size_t with_info(std::size_t numbers, int ppt) {
    return numbers + (info_entries * sizeof(local_index) * ppt + sizeof(Number) - 1) / sizeof(Number);
  }

  /// Bytes of `entries` Number entries of team scratch (with the View's alignment), the one rule
  /// both kernels' scratch_bytes use on their layout's `end`.
  static std::size_t scratch_bytes_of(std::size_t entries) {
    return Kokkos::View<Number*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>::shmem_size(entries);
  }

  /// The team's first patch and how many of its patches_per_team exist (the last team's may not).
  KOKKOS_FORCEINLINE_FUNCTION void team_patches(const Member& team, local_index& first, int& valid) const {
    const int ppt = args.patches_per_team;
    first = team.league_rank() * ppt;
    const local_index n_patches = patches.size();
    valid = n_patches - first < ppt ? int(n_patches - first) : ppt;
  }

  KOKKOS_FORCEINLINE_FUNCTION const Number* mat(int d) const {
    return args.matrices.data() + d * PatchKernelArgs<Number, ExecSpace>::matrix_stride(k);
  }

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

  /// The patch info of patch p copied from scratch into registers (stores to x or r cannot alias it).
  KOKKOS_FORCEINLINE_FUNCTION static void load_info(const local_index* info, int p, local_index (&in)[info_entries]) {
    for (int e = 0; e < info_entries; ++e) in[e] = info[info_entries * p + e];
  }

  /// Whether closure node (i0, i1, i2) lies inside the patch (not on its boundary layer).
  KOKKOS_FORCEINLINE_FUNCTION static bool inside_patch(int i0, int i1, int i2) {
    return i0 >= 1 && i0 <= ni && i1 >= 1 && i1 <= ni && (dim == 2 || (i2 >= 1 && i2 <= ni));
  }

  /// x at closure node (i0, i1, i2) as the local residual reads it: zero on the Dirichlet boundary
  /// and, for the Boundary residual, inside the patch.
  KOKKOS_FORCEINLINE_FUNCTION Number closure_value(const local_index* info, int i0, int i1, int i2) const {
    if (args.boundary_residual && inside_patch(i0, i1, i2)) return Number(0);
    const local_index idx = closure_index(info, i0, i1, i2);
    return idx >= 0 ? args.x(idx) : Number(0);
  }

  /// The local solve's result v at patch-interior vector index idx: added to x, or (Boundary
  /// residual) stored, which needs no read of x.
  KOKKOS_FORCEINLINE_FUNCTION void update_x(local_index idx, Number v) const {
    if (args.boundary_residual) args.x(idx) = v;
    else args.x(idx) += v;
  }

  /// b − v at the interior point of vector index idx; the residual stage also writes it to the
  /// global r (where `store`).
  KOKKOS_FORCEINLINE_FUNCTION Number residual_at(local_index idx, Number v, bool store = true) const {
    const Number res = args.b(idx) - v;
    if (args.stage == PatchStage::residual && store) args.r(idx) = res;
    return res;
  }

  /// r = b − v at interior point (i0, i1, i2): to the global r (residual stage) or to scratch.
  KOKKOS_FORCEINLINE_FUNCTION void store_residual(const local_index* info, int i0, int i1, int i2, Number v, Number* R) const {
    const Number res = residual_at(closure_index(info, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0), v);
    if (args.stage != PatchStage::residual) R[i0 + ni * (i1 + ni * i2)] = res;
  }

  /// Calls f(p, i0, i1, i2) for every point of patch-local boxes of extent e (e[2] = 1 in 2D) of
  /// the team's ppt patches: one point per thread, or (`columns`) one column along the last
  /// direction per thread.
  template <bool columns = false, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_each_point(const Member& team, int ppt, int e0, int e1, int e2, F&& f) {
    const int rank = team.team_rank(), size = team.team_size();
    if constexpr (!columns) {
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
      const int cols = e0 * e1;
      for (int w = rank; w < ppt * cols; w += size) {
        const int p = w / cols, q = w % cols;
        for (int i2 = 0; i2 < e2; ++i2) f(p, q % e0, q / e0, i2);
      }
    }
  }

  /// Reads the patch interiors of the global residual r into R (the solve stage's first step).
  template <bool columns>
  KOKKOS_FORCEINLINE_FUNCTION void load_residual(const Member& team, int ppt, const local_index* info, Number* R, int rs,
                                                 int zs) const {
    for_each_point<columns>(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
      const local_index idx = closure_index(info + info_entries * p, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0);
      R[p * rs + i0 + ni * i1 + zs * i2] = args.r(idx);
    });
    team.team_barrier();
  }

  /// x += A_j^{-1} r (Boundary residual: x = A_j^{-1} r) with the stored dense inverse; R's boxes have z stride zs.
  template <bool columns>
  KOKKOS_FORCEINLINE_FUNCTION void solve_inverse(const Member& team, int ppt, const local_index* info, const Number* R,
                                                 int rs, int zs) const {
    const Number* inv = args.inverse.data();
    for_each_point<columns>(team, ppt, ni, ni, dim == 3 ? ni : 1, [&](int p, int i0, int i1, int i2) {
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
      update_x(closure_index(info + info_entries * p, i0 + 1, i1 + 1, dim == 3 ? i2 + 1 : 0), v);
    });
  }

  KOKKOS_FORCEINLINE_FUNCTION static void swap_buffers(Number*& a, Number*& b, int& sa, int& sb) {
    Number* t = a;
    a = b;
    b = t;
    const int s = sa;
    sa = sb;
    sb = s;
  }

  /// The team's scratch pointer at the kernel's level, as fast scratch where it is level 0.
  template <bool shared_scratch>
  KOKKOS_FORCEINLINE_FUNCTION Number* scratch_base(const Member& team, std::size_t entries) const {
    Number* base = static_cast<Number*>(team.team_scratch(scratch_level).get_shmem(sizeof(Number) * entries));
    if constexpr (shared_scratch) base = Traits::fast_scratch(base);
    return base;
  }
};

/// Copies the reference 1D matrices into a kernel functor (constant memory on CUDA).
template <class Kernel, class Number>
void set_patch_constants(Kernel& kernel, const Number* h) {
  constexpr int n = Kernel::n, ni = Kernel::ni;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      kernel.cm.M[i][j] = h[i * n + j];
      kernel.cm.A[i][j] = h[n * n + i * n + j];
    }
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < ni; ++j) kernel.cm.S[i][j] = h[2 * n * n + i * ni + j];
  // The even-odd forms reproduce the products only where the matrices have the symmetry.
  const auto require = [](double deviation, const char* what, const char* problem, const char* form) {
    if (deviation > 64 * std::numeric_limits<Number>::epsilon())
      throw std::logic_error(std::string("the vertex-patch ") + what + " of degree " + std::to_string((n - 1) / 2) + " " +
                             problem + " (relative deviation " + std::to_string(deviation) + "); the kernel needs their " +
                             form);
  };
  if constexpr (Kernel::even_odd_residual)  // rows 1 .. ni of the row-major n × n matrices: ni × n from row 1
    require(std::max(contraction::make_even_odd(h + n, kernel.rm.M), contraction::make_even_odd(h + n * n + n, kernel.rm.A)),
            "matrices", "are not centro-symmetric", "even-odd form in the residual");
  if constexpr (Kernel::even_odd)
    require(contraction::make_mode_split(h + 2 * n * n, kernel.sm), "eigenvectors", "are not ordered by parity",
            "mode-split form");
}

}  // namespace tensormg
