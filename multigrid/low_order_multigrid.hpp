#pragma once
/// @file
/// Matrix-free geometric multigrid for the low-order (Q1) Laplace and elasticity operators on a
/// uniformly refined unstructured hexahedral mesh (paper 004's "ongoing research": a preconditioner
/// for its CG): on every level the matrix-free LowOrderOperator (re-discretised on that level's
/// cells and materials), Chebyshev–Jacobi smoothing (smoothers/point_smoothers.hpp), the Q1
/// interpolation between levels (multigrid/hex_transfer.hpp), and on the coarsest level its dense
/// inverse (up to 4000 DoFs on a GPU, 1000 on the host) or CG with Jacobi to a tight tolerance. One V-cycle with one pre- and one post-smoothing step (the
/// same polynomial: the cycle is symmetric) is the preconditioner of CG.
///
/// Dirichlet rows are identity rows on every level; the cycle keeps the correction zero on them.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/preconditioners.hpp"
#include "core/timer.hpp"
#include "discretization/low_order_operator.hpp"
#include "multigrid/dense_coarse_inverse.hpp"
#include "multigrid/hex_hierarchy.hpp"
#include "multigrid/hex_transfer.hpp"
#include "smoothers/point_smoothers.hpp"

namespace tensormg {

struct LowOrderMultigridOptions {
  /// Chebyshev degree (operator applications per smoothing step), its range and the power
  /// iterations estimating λ_max(D⁻¹A) on each level.
  PointSmootherOptions smoother{0, 4, 15, 20};
  /// The coarsest level's solver: the dense inverse (multigrid/dense_coarse_inverse.hpp) when the
  /// level has at most this many DoFs, else CG with Jacobi (0: always CG; −1: 4000 on a GPU, 1000 on
  /// the host, where Gauss–Jordan's N³ flops at N = 2744 take 15 s on two cores).
  global_index coarse_dense_max_dofs = -1;
  double coarse_rtol = 1e-10;        ///< relative tolerance of the coarse CG
  int coarse_max_iterations = 2000;  ///< the coarse CG stops after this many steps
  bool collect_times = false;        ///< fenced time per component of the cycle (times())
};

template <class ExecSpace = DefaultExec>
class LowOrderMultigrid {
 public:
  using vector_type = DistributedVector<double, ExecSpace>;
  using operator_type = LowOrderOperator<ExecSpace>;

  /// Collective. fine_operator: the finest level's operator when the caller has one (it must be
  /// built on hierarchy->fine_layout()), else null and the multigrid builds it with op_options.
  /// Every coarser level gets op_options' matrix-free operator. Throws InputError for a hierarchy
  /// of one level or bad smoother options.
  LowOrderMultigrid(std::shared_ptr<const HexHierarchy<ExecSpace>> hierarchy, const LowOrderOptions& op_options,
                    std::shared_ptr<const operator_type> fine_operator = nullptr,
                    const LowOrderMultigridOptions& options = {});

  /// As a preconditioner: dst = V(0, src).
  void vmult(vector_type& dst, const vector_type& src) const;

  int n_levels() const { return int(levels_.size()); }
  const operator_type& level_operator(int l) const { return *levels_.at(l).op; }
  /// The Chebyshev smoother's λ_max(D⁻¹A) estimate on level l ≥ 1.
  double max_eigenvalue_estimate(int l) const { return levels_.at(l).smoother->max_eigenvalue_estimate(); }
  /// True when the coarsest level is solved by its dense inverse (else by CG).
  bool coarse_is_dense() const { return coarse_dense_ != nullptr; }
  /// Coarse CG iterations of the last cycle and the most of any cycle so far (0 with the dense inverse).
  int last_coarse_iterations() const { return last_coarse_iterations_; }
  int max_coarse_iterations() const { return max_coarse_iterations_; }
  /// Device bytes of the levels below the finest (operators' stored data, transfers, vectors)
  /// and of the finest level's smoother and transfer vectors.
  double device_bytes() const;
  /// Accumulated fenced seconds per component ("smoothing", "residual", "transfer",
  /// "coarse solve") when collect_times is on.
  std::map<std::string, double> times() const { return timers_.max_over_ranks(comm_); }
  /// Wall-clock seconds of the constructor's steps on this rank, summed over the levels and in
  /// order ("operators and vectors", "smoothers" (Chebyshev set-up: the eigenvalue estimate),
  /// "transfers", "coarse solver"): what the programs print as the multigrid set-up breakdown.
  const std::vector<std::pair<std::string, double>>& setup_seconds() const { return setup_seconds_; }
  void reset_times() const { timers_ = TimerSet(); }

 private:
  struct Level {
    std::shared_ptr<const operator_type> op;
    std::unique_ptr<ChebyshevSmoother<double, ExecSpace, operator_type>> smoother;  ///< null on level 0
    std::unique_ptr<HexTransfer<ExecSpace>> from_coarser;                          ///< null on level 0
    mutable vector_type x, b, r;
  };
  void vcycle(int l, vector_type& x, const vector_type& b) const;
  template <class F>
  void timed(const char* name, F&& f) const;

  MPI_Comm comm_;
  LowOrderMultigridOptions options_;
  std::vector<Level> levels_;
  std::unique_ptr<JacobiPreconditioner<vector_type>> coarse_jacobi_;
  std::unique_ptr<DenseCoarseInverse<operator_type>> coarse_dense_;
  mutable int last_coarse_iterations_ = 0, max_coarse_iterations_ = 0;
  mutable TimerSet timers_;
  std::vector<std::pair<std::string, double>> setup_seconds_;
};

}  // namespace tensormg
