#pragma once
/// @file
/// What the vertex-patch kernels (vertex_patch_columns.hpp, vertex_patch_points.hpp) are given: the stage, the arguments
/// of a launch, the patches of one color, and the reference 1D matrices held in the functor.

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "core/fast_divisor.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "smoothers/patch_window.hpp"

namespace tensormg {

/// What the patch kernels do in one launch.
enum class PatchStage {
  fused,     ///< local residual and local solve, x updated
  residual,  ///< local residual written to r at the patch interiors
  solve      ///< r read at the patch interiors, local solve, x updated
};

template <class Number, class ExecSpace>
struct PatchKernelArgs {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<Number*, memory_space> x;
  Kokkos::View<const Number*, memory_space> b;
  Kokkos::View<Number*, memory_space> r;
  /// Per direction d, at d * matrix_stride(k): patch mass M (n×n), stiffness A (n×n), eigenvectors
  /// S (ni×ni, column j = vector j), eigenvalues (ni); n = 2k+1, ni = 2k−1. Then, as block dim,
  /// the reference patch's (host_reference below), for lanes that need different rows.
  Kokkos::View<const Number*, memory_space> matrices;
  /// Dense inverse of A_j ((ni^d)², row-major); only for the inverse local solver.
  Kokkos::View<const Number*, memory_space> inverse;
  /// The diagonal of the fast diagonalization for the reference eigenvectors (below),
  /// 1 / ((a (λ_0[i0] + … + λ_{d−1}[i_{d−1}]) + c) V) with V = h_0 ⋯ h_{d−1}, on the ni^d box
  /// (lexicographic): a multiplication per point instead of a division.
  Kokkos::View<const Number*, memory_space> inverse_diagonal;
  /// The reference patch matrices (cell length 1; one direction in the layout of `matrices`),
  /// copied into the functor at launch (constant memory). The per-column steps use them for every
  /// direction: M_d = h_d M̂, A_d = Â / h_d and S_d = Ŝ / √h_d, so the lengths become the scalars
  /// below and the constant working set is 1/dim of the per-direction matrices.
  const Number* host_reference = nullptr;
  /// With the reference matrices, a Σ_d (A_d ⊗ M …) + c ⊗ M = Σ_d α_d (Â in d ⊗ M̂ …) + γ ⊗ M̂:
  /// α_d = a V / h_d², γ = c V; the solve's V^{-1} is part of inverse_diagonal.
  Number alpha[3] = {1, 1, 1};
  Number alpha0_over_alpha1 = 1;  ///< 0 when α1 = 0 (no Laplace term)
  Number gamma = 0;
  Number volume = 1;  ///< V, to undo the reference scaling of inverse_diagonal (per-DoF solve)
  NodeBox box;
  Number laplace = 1, mass = 0;
  int color = 0;
  PatchWindow window;  ///< the colour's patches this launch smooths (patch_window.hpp; default all)
  PatchStage stage = PatchStage::fused;
  bool use_inverse = false;
  /// Paper 000 §4.1.3 (PatchResidual::boundary): the residual reads x on the closure's boundary
  /// layer only (the interior as zero) and the solve stores x^I = A_j^{-1} r instead of adding.
  bool boundary_residual = false;
  bool per_column = true;  ///< one thread per 1D column along the contracted direction
  int patches_per_team = 1;
  int threads_per_patch = 0;  ///< team size = patches_per_team × this (0: one per closure column or point)

  static constexpr int matrix_stride(int k) { return 2 * (2 * k + 1) * (2 * k + 1) + (2 * k - 1) * (2 * k - 1) + (2 * k - 1); }
};

namespace detail {
/// Interior vertices of one color in a window: vertex v_d = 1 + parity_d + 2 (first_d + t_d),
/// t_d < extent_d.
struct PatchRange {
  local_index extent[3] = {1, 1, 1};
  local_index first[3] = {0, 0, 0};
  int parity[3] = {0, 0, 0};
  FastDivisor by_extent[2];  // extent[0], extent[1] (at least 1)
  KOKKOS_FORCEINLINE_FUNCTION local_index size() const { return extent[0] * extent[1] * extent[2]; }
  /// First closure node (v − 1) k of patch number j of this color.
  KOKKOS_FORCEINLINE_FUNCTION void origin(local_index j, int k, local_index o[3]) const {
    local_index t[3];
    const local_index q = by_extent[0].divmod(j, t[0]);
    t[2] = by_extent[1].divmod(q, t[1]);
    for (int d = 0; d < 3; ++d) o[d] = (parity[d] + 2 * (first[d] + t[d])) * k;
  }
};

inline PatchRange patch_range(const NodeBox& box, int color, const PatchWindow& window = {}) {
  PatchRange r;
  for (int d = 0; d < 3; ++d) {
    if (d >= box.dim) {
      r.extent[d] = 1;
      r.parity[d] = 0;
      continue;
    }
    // Colors by the parity of global vertices: a box whose first cell is odd flips it.
    r.parity[d] = int(((color >> d) + box.offset[d] / box.degree) & 1);
    const local_index cells = box.cells[d];
    window_patches(window, d, r.parity[d], cells > r.parity[d] ? (cells - r.parity[d]) / 2 : 0, r.first[d], r.extent[d]);
  }
  for (int d = 0; d < 2; ++d) r.by_extent[d] = FastDivisor(r.extent[d] > 0 ? r.extent[d] : 1);
  return r;
}
}  // namespace detail

/// The reference patch's 1D matrices held by value in the kernel functor. On CUDA the functor
/// lives in constant memory (Kokkos launches functors of 4–32 KB from there); the per-column
/// steps index them with compile-time offsets (unrolled loops), so an FMA reads its matrix entry
/// from the constant bank (a uniform ULDC on sm_90) and only the vector entry costs a load, once
/// per column. One set for all directions (PatchKernelArgs::host_reference): with one set per
/// direction the constant cache missed on 8 of 20 cycles per instruction at 3D k = 5 (ncu,
/// h100-2026-11-22-smoother/v7).
template <int k, class Number>
struct PatchMatricesConstant {
  static constexpr int n = 2 * k + 1, ni = 2 * k - 1;
  Number M[n][n];
  Number A[n][n];
  Number S[ni][ni];
};

}  // namespace tensormg
