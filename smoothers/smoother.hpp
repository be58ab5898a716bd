#pragma once
/// @file
/// What a multigrid level needs from a smoother, and the run-time choices of the smoothers in
/// this directory (paper 000 §2.2, §3.1: vertex-patch smoother variants; point smoothers to compare).

#include <string>

#include "core/distributed_vector.hpp"
#include "core/halo_exchange.hpp"
#include "smoothers/patch_window.hpp"

namespace tensormg {

/// Order in which a smoothing step visits its parts (colors of patches, or nodes): the
/// post-smoothing of a symmetric V-cycle runs the pre-smoothing backwards.
enum class SweepOrder { forward, reverse };

/// One smoothing step x ← S(x, b) for A x = b on one level.
template <class Number, class ExecSpace>
class Smoother {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  virtual ~Smoother() = default;
  /// x ← S(x, b). Dirichlet entries of x are left as they are (the caller sets them).
  virtual void smooth(vector_type& x, const vector_type& b, SweepOrder order) const = 0;
  /// Short description for records ("vertex-patch fused fast-diagonalization per-column 1").
  virtual std::string description() const = 0;
  /// Seconds spent exchanging halo data between ranks (fenced), accumulated while timing is on
  /// (a smoother without exchanges reports 0).
  virtual void time_exchanges(bool on) const { (void)on; }
  virtual double exchange_seconds() const { return 0; }
  virtual void reset_exchange_seconds() const {}
};

/// Which smoother a multigrid level uses.
enum class SmootherKind { vertex_patch, jacobi, chebyshev, gauss_seidel };
std::string to_string(SmootherKind s);
/// "vertex-patch", "jacobi", "chebyshev" or "gauss-seidel"; throws InputError otherwise.
SmootherKind parse_smoother_kind(const std::string& text);

/// Table 4 of paper 000: where the vertex-patch residual is computed.
enum class PatchKernel {
  automatic, ///< chosen per (dim, k, precision, backend) from measurements (vertex_patch_smoother.cpp)
  global,    ///< r = b − A x by the global matrix-free operator, then a patch solve kernel, per color
  separate,  ///< a patch-local residual kernel writes r, a patch solve kernel reads it, per color
  fused      ///< one kernel per color: local residual and local solve in scratch memory
};
/// Fig. 3: how the patch's local system A_j is solved.
enum class LocalSolver {
  fast_diagonalization,  ///< (S ⊗ S ⊗ S)(Λ-sum)^{-1}(S ⊗ S ⊗ S)^T from 1D eigenproblems
  inverse                ///< multiplication by the stored dense inverse of A_j
};
/// Paper 000 §4.1.3 ("Boundary"): what the local residual reads. With an exact local solver,
/// x_j + A_j^{-1}(b_j − Ā_j x_j) on the patch interior equals A_j^{-1}(b^I − A^{IB} x^B): the
/// residual from the closure with the interior values taken as zero, and the solve's result
/// stored in x rather than added, so the kernel reads x only on the patch boundary layer. The same
/// result up to rounding; needs the patch-local residual (fused or separate kernel).
enum class PatchResidual {
  automatic,  ///< the tuning table's choice per (dim, k) (vertex_patch_tuning.hpp)
  full,       ///< r = b − Ā_j x_j from the whole closure, x += A_j^{-1} r
  boundary    ///< r = b^I − A^{IB} x^B from the boundary layer, x^I = A_j^{-1} r
};
/// Fig. 5: the work of one thread in the patch kernels.
enum class ThreadStructure {
  automatic,   ///< the tuning row's: per patch or per line where it says (k = 1), otherwise per column
  per_dof,     ///< one thread per patch point of a step ("3D structure")
  per_column,  ///< one thread per column along the last direction ("2D structure")
  per_patch,   ///< k = 1: one thread per patch, its one unknown's residual and solve in registers
               ///< (smoothers/vertex_patch_q1.hpp); the fused kernel
  per_line,    ///< k = 1: the two colours of a pair (patch_color) in one pass, a thread per segment
               ///< of a line of patches along the last direction (vertex_patch_q1.hpp:
               ///< VertexPatchQ1PairKernel); on several ranks a colour per pass as per_patch
  lanes        ///< host, k >= 2: a thread per W patches of a colour along x, one per lane of a SIMD
               ///< register (vertex_patch_lanes.hpp); the fused kernel, fast diagonalization
};
std::string to_string(PatchKernel v);
std::string to_string(LocalSolver v);
std::string to_string(ThreadStructure v);
std::string to_string(PatchResidual v);
PatchResidual parse_patch_residual(const std::string& text);
PatchKernel parse_patch_kernel(const std::string& text);
LocalSolver parse_local_solver(const std::string& text);
ThreadStructure parse_thread_structure(const std::string& text);

struct VertexPatchOptions {
  PatchKernel kernel = PatchKernel::automatic;
  LocalSolver solver = LocalSolver::fast_diagonalization;
  ThreadStructure structure = ThreadStructure::automatic;
  int patches_per_team = 0;  ///< 0: chosen per (dim, k), backend and precision
  /// Threads of a team per patch (0: chosen per (dim, k)). Per column, (2k+1)^{d−1} gives every
  /// closure column of the residual's first step a thread, (2k−1)^{d−1} every interior column of
  /// the solve; a step with more columns than threads loops.
  int threads_per_patch = 0;
  /// Several ranks: per colour, the patches next to the rank boundary first, then the halo
  /// exchange posted, the other patches while it travels, then the exchange finished
  /// (smoothers/patch_window.hpp); off: all patches, then the exchange. The same result;
  /// automatic: overlaps_halo_exchange's rule.
  HaloOverlap overlap = HaloOverlap::automatic;
  /// Several ranks: how the halo refreshes reach ranks whose devices can reach each other's
  /// memory (core/halo_exchange.hpp): automatic copies device to device, staged through the host.
  HaloTransport transport = HaloTransport::automatic;
  /// Full or Boundary local residual (automatic: the tuning row; full wherever the kernel resolves
  /// to global).
  PatchResidual residual = PatchResidual::automatic;
};

struct PointSmootherOptions {
  double jacobi_damping = 0;      ///< 0: 2/3 for Jacobi
  int chebyshev_degree = 3;       ///< matrix-vector products per Chebyshev step
  double chebyshev_range = 15;    ///< smoothing interval [λ_max / range, 1.1 λ_max]
  int eigenvalue_iterations = 20; ///< power iterations estimating λ_max(D^{-1} A)
};

}  // namespace tensormg
