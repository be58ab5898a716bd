#pragma once
/// @file
/// Geometric multigrid on the nested meshes of a brick (paper 000 §2.1, Algorithms 2.1 and 2.2;
/// paper 002 §3 for DG): per level a matrix-free operator, a smoother and the transfer from the
/// next coarser level, all in one precision (MGNumber), for either discretization (Disc:
/// ContinuousQk or DgSipg, discretizations.hpp; MultigridParts names each one's transfer and
/// smoothers). The V-cycle uses one pre- and one post-smoothing step, in the
/// colour order of SmoothingOrder (symmetric as a preconditioner, forward in multigrid
/// iterations); the coarsest level is
/// solved exactly: by one patch solve when it is a single vertex patch (2 cells per direction),
/// otherwise by CG to a tight tolerance.
///
/// Continuous Q_k: Dirichlet rows are identity rows (as in LaplaceOperator): a cycle sets x = b on
/// them and keeps the correction zero there on coarser levels. DG has no such rows (Nitsche).
///
/// Any number of MPI ranks: the distributed levels smooth on halo boxes (vertex patches) or
/// through the distributed operator (Jacobi, Chebyshev); continuous Q_k's replicated coarse levels
/// (LevelHierarchy::first_distributed_level) run redundantly on every rank. The Gauss–Seidel
/// smoother runs on one rank (collective error otherwise).

#include <map>
#include <memory>
#include <vector>

#include "core/krylov.hpp"
#include "core/preconditioners.hpp"
#include "core/timer.hpp"
#include "discretization/cartesian_mesh.hpp"
#include "discretization/discretizations.hpp"
#include "multigrid/dg_transfer.hpp"
#include "multigrid/level_hierarchy.hpp"
#include "multigrid/transfer.hpp"
#include "smoothers/dg_patch_matrices.hpp"
#include "smoothers/dg_vertex_patch_kernel_table.hpp"  // DgPatchKernelOptions
#include "smoothers/smoother.hpp"

namespace tensormg {

/// Order of the colors (vertex patches) or nodes (Gauss–Seidel) in the V-cycle's two smoothing
/// steps. Colors are numbered by patch parity; the last one holds the patches around the vertices
/// of the next coarser mesh.
///
/// Measured (f ≡ 1, 1e-9; perf/README.md, "Iteration counts"): with both steps in the same order,
/// full multigrid takes 5 cycles at 2D Q1 where the symmetric cycle below takes 7–8 (the paper's
/// Table 1: 9–7) and the symmetric cycle of the other direction (coarse-vertex patches last
/// before the restriction, first after the prolongation) 10–11; 2 instead of 3–4 at Q2.
enum class SmoothingOrder {
  automatic,  ///< symmetric in vmult (a preconditioner, CG needs it), forward in multigrid iterations (FMG, V-cycles)
  symmetric,  ///< pre-smoothing last color to first, post-smoothing first to last: V-cycle = its transpose
  forward     ///< both steps first color to last (coarse-vertex patches last): not symmetric, fewer cycles
};
std::string to_string(SmoothingOrder o);
SmoothingOrder parse_smoothing_order(const std::string& text);

struct MultigridOptions {
  SmootherKind smoother = SmootherKind::vertex_patch;
  SmoothingOrder order = SmoothingOrder::automatic;
  VertexPatchOptions patch;  ///< continuous Q_k
  /// DG: the vertex patch's local solver (paper 002 §3.1). Dirichlet is the default: its smoothing
  /// step is several times cheaper, which outweighs its extra iterations (paper 002 Fig. 5).
  DgLocalSolver dg_solver = DgLocalSolver::dirichlet;
  /// DG: the patch kernel's run-time variants (layout, patches per team, dense inverse or fast
  /// diagonalization).
  DgPatchKernelOptions dg_patch;
  PointSmootherOptions point;
  /// Collect a per-component time breakdown of the cycles (adds a fence per component).
  bool collect_times = false;
};

/// What a discretization's multigrid uses besides its layout and operator: the transfer between
/// nested levels.
template <class Disc>
struct MultigridParts;
template <>
struct MultigridParts<ContinuousQk> {
  template <class Number, class ExecSpace>
  using Transfer = ::tensormg::Transfer<Number, ExecSpace>;
};
template <>
struct MultigridParts<DgSipg> {
  template <class Number, class ExecSpace>
  using Transfer = DgTransfer<Number, ExecSpace>;
};

template <class Number, class ExecSpace = DefaultExec, class Disc = ContinuousQk>
class Multigrid {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using discretization = Disc;
  using operator_type = typename Disc::template Operator<Number, ExecSpace>;
  using operator_options = typename Disc::OperatorOptions;
  using layout_type = typename Disc::template Layout<ExecSpace>;
  using transfer_type = typename MultigridParts<Disc>::template Transfer<Number, ExecSpace>;
  using hierarchy_type = LevelHierarchy<ExecSpace, Disc>;
  using value_type = Number;

  struct Level {
    std::shared_ptr<const layout_type> layout;
    std::shared_ptr<const operator_type> op;
    std::unique_ptr<Smoother<Number, ExecSpace>> smoother;
    std::unique_ptr<transfer_type> from_coarser;  ///< null on the coarsest level
    Kokkos::View<local_index*, typename ExecSpace::memory_space> dirichlet;
    mutable vector_type x, b, r;
  };

  /// Operators, smoothers and transfers on the first `n_levels` levels of `hierarchy` (0: all of
  /// them); the layouts are shared, not rebuilt. Collective; throws InputError for n_levels
  /// beyond the hierarchy.
  Multigrid(std::shared_ptr<const hierarchy_type> hierarchy, operator_options op_options = {},
            MultigridOptions options = {}, int n_levels = 0);
  /// On a hierarchy of its own: LevelHierarchy(fine, degree, comm).
  Multigrid(const BrickDescription& fine, int degree, MPI_Comm comm, operator_options op_options = {},
            MultigridOptions options = {});

  int n_levels() const { return static_cast<int>(levels_.size()); }
  const std::shared_ptr<const hierarchy_type>& hierarchy() const { return hierarchy_; }
  const Level& level(int l) const { return levels_.at(l); }
  const operator_type& fine_operator() const { return *levels_.back().op; }
  std::shared_ptr<const operator_type> fine_operator_ptr() const { return levels_.back().op; }
  /// Refinements of the coarsest level.
  int coarsest_refinement() const { return coarsest_refinement_; }
  /// True when the coarsest level is one vertex patch, solved exactly by one patch solve.
  bool coarse_is_single_patch() const { return coarse_patch_ != nullptr; }
  const MultigridOptions& options() const { return options_; }

  /// One V-cycle on the finest level as a step of a multigrid iteration: x ← V(x, b) (smoothing
  /// order: iteration_order()).
  void vcycle(vector_type& x, const vector_type& b) const;
  /// One V-cycle on level l in the given order (automatic: iteration_order()).
  void vcycle(int l, vector_type& x, const vector_type& b, SmoothingOrder order = SmoothingOrder::automatic) const;
  /// As a preconditioner: dst = V(0, src) (smoothing order: preconditioner_order(), symmetric
  /// unless forward was asked for).
  void vmult(vector_type& dst, const vector_type& src) const;
  /// As a step of a multigrid iteration: dst = V(0, src) in iteration_order().
  void correction(vector_type& dst, const vector_type& src) const;
  /// Whether a cycle on the iterate is the correction of its residual, V(x, b) = x + V(0, b − A x),
  /// so that the multigrid iteration may run the former (cycle_until_converged). Not so for the DG
  /// vertex patch with the Dirichlet local solver: its residual is the patch's alone (paper 002's
  /// inconsistent residual), right for a correction from zero only (the clamped solver's patch
  /// residual is exact: its functions vanish with their derivatives on the patch boundary).
  bool consistent_cycle() const {
    if constexpr (std::is_same_v<Disc, DgSipg>)
      return options_.smoother != SmootherKind::vertex_patch || options_.dg_solver != DgLocalSolver::dirichlet;
    return true;
  }
  /// Whether a level's smoother multiplies in FP16 (the DG patch kernel's f16 and f16ec
  /// contractions, asked for or taken by `automatic`): its right-hand sides must be of a size FP16
  /// holds (cycle_until_converged scales them to 2-norm one).
  bool half_precision_products() const;
  /// The orders `automatic` resolves to.
  SmoothingOrder preconditioner_order() const;
  SmoothingOrder iteration_order() const;
  /// The exact solve of the coarsest level: x = A_0^{-1} b.
  void coarse_solve(vector_type& x, const vector_type& b) const;
  /// The full-multigrid start (Algorithm 2.2, lines 1–4): x = FMG(b) on the finest level.
  void full_multigrid_start(vector_type& x, const vector_type& b) const;

  /// Accumulated seconds per component (smoothing, residual, transfer, coarse solve, vector
  /// operations on the finest level; "coarser levels" for all others) when collect_times is on;
  /// on several ranks also "smoothing: halo exchange", the part of the finest smoothing spent in
  /// halo-box copies and exchanges.
  std::map<std::string, double> times() const;
  void reset_times() const {
    timers_ = TimerSet();
    if (levels_.back().smoother) levels_.back().smoother->reset_exchange_seconds();
  }

 private:
  std::shared_ptr<const hierarchy_type> hierarchy_;
  std::vector<Level> levels_;
  MultigridOptions options_;
  int coarsest_refinement_ = 0;
  std::unique_ptr<Smoother<Number, ExecSpace>> coarse_patch_;
  std::unique_ptr<JacobiPreconditioner<vector_type>> coarse_jacobi_;  ///< CG coarse solve (several patches)
  mutable TimerSet timers_;
  mutable bool in_coarser_ = false;
};

/// Multigrid in MGNumber as preconditioner of a Krylov method in Number (Multigrid::vmult):
/// converts at entry and exit when the precisions differ (mixed precision).
template <class Number, class MGNumber, class ExecSpace = DefaultExec, class Disc = ContinuousQk>
class MultigridPreconditioner {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  explicit MultigridPreconditioner(const Multigrid<MGNumber, ExecSpace, Disc>& mg);
  void vmult(vector_type& dst, const vector_type& src) const;

 private:
  const Multigrid<MGNumber, ExecSpace, Disc>& mg_;
  mutable DistributedVector<MGNumber, ExecSpace> src_, dst_;
};

/// Full multigrid (Algorithm 2.2): the FMG start in MGNumber, then V-cycles until
/// ‖b − A x‖ ≤ rtol ‖b‖ (or ≤ atol); the residual and the solution are kept in Number (double in
/// mixed precision: each further cycle is a correction x += V(0, r)). `iterations` counts the
/// cycles of the while loop (line 6), as in the paper's tables.
template <class Number, class MGNumber, class ExecSpace, class Disc>
SolverResult solve_full_multigrid(const Multigrid<MGNumber, ExecSpace, Disc>& mg,
                                  const typename Disc::template Operator<Number, ExecSpace>& A,
                                  DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                                  const SolverControl& control);

/// How the cycle loop starts.
enum class CycleStart {
  none,                ///< plain V-cycle iteration from the given x, measured against ‖b − A x_0‖
  full_multigrid,      ///< FMG start in MGNumber (Algorithm 2.2 lines 1–4), measured against ‖b‖
  prolongated_coarse   ///< x holds the prolongated coarse FMG solution: one uncounted cycle (line 4), against ‖b‖
};

/// The cycle loop of full multigrid and V-cycle iteration: x += V(0, b − A x) until the residual
/// meets the control (see solve_full_multigrid); residual and solution in Number, cycles in MGNumber.
/// In one precision with a consistent cycle (Multigrid::consistent_cycle) each step runs as
/// x ← V(x, b), the same x without forming b − A x; in mixed precision the cycle sees b − A x,
/// scaled to 2-norm one where it multiplies in FP16 (Multigrid::half_precision_products).
/// Nothing of the finest level's size is allocated where the multigrid's finest b and x can serve
/// (they are overwritten); `workspace`, a vector of A's layout, holds A x where given (else, in
/// mixed precision or with A on another layout object, one is allocated for the solve).
template <class Number, class MGNumber, class ExecSpace, class Disc>
SolverResult cycle_until_converged(const Multigrid<MGNumber, ExecSpace, Disc>& mg,
                                   const typename Disc::template Operator<Number, ExecSpace>& A,
                                   DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                                   const SolverControl& control, CycleStart start,
                                   DistributedVector<Number, ExecSpace>* workspace = nullptr);

/// The V-cycle as a stationary solver from the given x: x ← x + V(0, b − A x) until
/// ‖b − A x‖ ≤ rtol ‖b − A x_0‖ (or ≤ atol); iterations count the cycles.
template <class Number, class MGNumber, class ExecSpace, class Disc>
SolverResult solve_vcycles(const Multigrid<MGNumber, ExecSpace, Disc>& mg,
                                  const typename Disc::template Operator<Number, ExecSpace>& A,
                           DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                           const SolverControl& control);

}  // namespace tensormg
