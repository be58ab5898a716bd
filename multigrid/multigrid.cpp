#include "multigrid/multigrid.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/preconditioners.hpp"
#include "core/profiling.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"
#include "smoothers/point_smoothers.hpp"
#include "smoothers/vertex_patch_smoother.hpp"

namespace tensormg {

namespace {
constexpr EnumName<SmoothingOrder> order_names[] = {
    {SmoothingOrder::automatic, "auto"}, {SmoothingOrder::symmetric, "symmetric"}, {SmoothingOrder::forward, "forward"}};
}  // namespace

std::string to_string(SmoothingOrder o) { return enum_name(order_names, o); }
SmoothingOrder parse_smoothing_order(const std::string& text) { return parse_enum(order_names, text, "smoothing order"); }

namespace {
template <class Number, class ExecSpace, class Disc>
std::unique_ptr<Smoother<Number, ExecSpace>> make_smoother(
    std::shared_ptr<const typename Disc::template Operator<Number, ExecSpace>> op, const MultigridOptions& o) {
  using Op = typename Disc::template Operator<Number, ExecSpace>;
  switch (o.smoother) {
    case SmootherKind::vertex_patch:
      if constexpr (std::is_same_v<Disc, DgSipg>) return std::make_unique<DgVertexPatchSmoother<Number, ExecSpace>>(op, o.dg_solver, o.dg_patch);
      else return std::make_unique<VertexPatchSmoother<Number, ExecSpace>>(op, o.patch);
    case SmootherKind::jacobi: return std::make_unique<JacobiSmoother<Number, ExecSpace, Op>>(op, o.point);
    case SmootherKind::chebyshev: return std::make_unique<ChebyshevSmoother<Number, ExecSpace, Op>>(op, o.point);
    case SmootherKind::gauss_seidel:
      if constexpr (std::is_same_v<Disc, DgSipg>) {
        collectively(op->layout().mesh().comm(), [] {
          TENSORMG_CHECK(false, "the Gauss-Seidel smoother is for continuous Q_k only; DG multigrid smooths with "
                                "vertex-patch, jacobi or chebyshev");
        });
        return nullptr;
      } else {
        return std::make_unique<GaussSeidelSmoother<Number, ExecSpace>>(op);
      }
  }
  return nullptr;
}

/// The exact solve of a coarsest level made of one vertex patch: a patch solve whose local space
/// is the whole level (fast diagonalization; DG: the full local solver).
template <class Number, class ExecSpace, class Disc>
std::unique_ptr<Smoother<Number, ExecSpace>> make_single_patch_solver(
    std::shared_ptr<const typename Disc::template Operator<Number, ExecSpace>> op) {
  if constexpr (std::is_same_v<Disc, DgSipg>) return std::make_unique<DgVertexPatchSmoother<Number, ExecSpace>>(op, DgLocalSolver::full);
  else return std::make_unique<VertexPatchSmoother<Number, ExecSpace>>(op, VertexPatchOptions{});
}
}  // namespace

template <class Number, class ExecSpace, class Disc>
Multigrid<Number, ExecSpace, Disc>::Multigrid(const BrickDescription& fine, int degree, MPI_Comm comm,
                                              operator_options op_options, MultigridOptions options)
    : Multigrid(std::make_shared<const hierarchy_type>(fine, degree, comm), op_options, options) {}

template <class Number, class ExecSpace, class Disc>
Multigrid<Number, ExecSpace, Disc>::Multigrid(std::shared_ptr<const hierarchy_type> hierarchy,
                                              operator_options op_options, MultigridOptions options, int n_levels)
    : hierarchy_(std::move(hierarchy)), options_(options) {
  const MPI_Comm comm = hierarchy_->finest()->mesh().comm();
  if (n_levels == 0) n_levels = hierarchy_->n_levels();
  TENSORMG_CHECK_COLLECTIVE(comm, n_levels >= 1 && n_levels <= hierarchy_->n_levels(),
                            "multigrid on " << n_levels << " levels of a hierarchy of " << hierarchy_->n_levels());
  coarsest_refinement_ = hierarchy_->coarsest_refinement();
  for (int l = 0; l < n_levels; ++l) {
    Level level;
    level.layout = hierarchy_->layout(l);
    level.op = std::make_shared<operator_type>(level.layout, op_options);
    if (l > 0) {
      level.smoother = make_smoother<Number, ExecSpace, Disc>(level.op, options_);
      level.from_coarser = std::make_unique<transfer_type>(levels_.back().layout, level.layout);
    }
    level.dirichlet = level.layout->constrained_nodes();
    level.x = level.op->make_vector("mg_x");
    level.b = level.op->make_vector("mg_b");
    level.r = level.op->make_vector("mg_r");
    levels_.push_back(std::move(level));
  }
  if (options_.collect_times && levels_.back().smoother) levels_.back().smoother->time_exchanges(true);
  const int dim = hierarchy_->finest()->dim();
  const auto& coarse_cells = levels_.front().layout->mesh().n_cells();
  bool single_patch = true;
  for (int d = 0; d < dim; ++d) single_patch = single_patch && coarse_cells[d] == 2;
  if (single_patch) {
    coarse_patch_ = make_single_patch_solver<Number, ExecSpace, Disc>(levels_.front().op);
  } else {
    vector_type diag = levels_.front().op->make_vector("coarse_diagonal");
    levels_.front().op->compute_diagonal(diag);
    coarse_jacobi_ = std::make_unique<JacobiPreconditioner<vector_type>>(diag);
  }
}

template <class Number, class ExecSpace, class Disc>
void Multigrid<Number, ExecSpace, Disc>::coarse_solve(vector_type& x, const vector_type& b) const {
  ScopedRegion region("multigrid::coarse_solve");
  const Level& c = levels_.front();
  if (coarse_patch_) {
    copy_entries(c.dirichlet, x, b);
    coarse_patch_->smooth(x, b, SweepOrder::forward);
    return;
  }
  // Several patches: CG with Jacobi to the precision's limit.
  SolverControl control;
  control.rtol = std::is_same_v<Number, float> ? 1e-6 : 1e-13;
  control.max_iterations = 20000;
  x.fill(Number(0));
  solve_cg(*c.op, x, b, *coarse_jacobi_, control);
}

template <class Number, class ExecSpace, class Disc>
SmoothingOrder Multigrid<Number, ExecSpace, Disc>::preconditioner_order() const {
  return options_.order == SmoothingOrder::automatic ? SmoothingOrder::symmetric : options_.order;
}

template <class Number, class ExecSpace, class Disc>
SmoothingOrder Multigrid<Number, ExecSpace, Disc>::iteration_order() const {
  return options_.order == SmoothingOrder::automatic ? SmoothingOrder::forward : options_.order;
}

template <class Number, class ExecSpace, class Disc>
void Multigrid<Number, ExecSpace, Disc>::vcycle(vector_type& x, const vector_type& b) const {
  vcycle(n_levels() - 1, x, b, iteration_order());
}

template <class Number, class ExecSpace, class Disc>
void Multigrid<Number, ExecSpace, Disc>::vcycle(int l, vector_type& x, const vector_type& b, SmoothingOrder order) const {
  if (order == SmoothingOrder::automatic) order = iteration_order();
  const SweepOrder pre = order == SmoothingOrder::symmetric ? SweepOrder::reverse : SweepOrder::forward;
  const bool timed = options_.collect_times && l == n_levels() - 1;
  const auto step = [&](const char* name, auto&& f) {
    if (!timed) return f();
    ScopedTimer t(timers_[name]);
    f();
  };
  if (l == 0) {
    step("coarse solve", [&] { coarse_solve(x, b); });
    return;
  }
  ScopedRegion region("multigrid::level_" + std::to_string(l));
  const Level& f = levels_[l];
  const Level& c = levels_[l - 1];
  step("vector operations", [&] { copy_entries(f.dirichlet, x, b); });
  step("smoothing", [&] { f.smoother->smooth(x, b, pre); });
  step("residual", [&] { f.op->residual(f.r, x, b); });
  step("transfer", [&] {
    f.from_coarser->restrict_to(c.b, f.r);
    set_entries(c.dirichlet, c.b, Number(0));
  });
  step("vector operations", [&] { c.x.fill(Number(0)); });
  step(l - 1 == 0 ? "coarse solve" : "coarser levels", [&] { vcycle(l - 1, c.x, c.b, order); });
  step("transfer", [&] { f.from_coarser->prolongate_add(x, c.x); });
  step("smoothing", [&] { f.smoother->smooth(x, b, SweepOrder::forward); });
}

template <class Number, class ExecSpace, class Disc>
void Multigrid<Number, ExecSpace, Disc>::vmult(vector_type& dst, const vector_type& src) const {
  dst.fill(Number(0));
  vcycle(n_levels() - 1, dst, src, preconditioner_order());
}

template <class Number, class ExecSpace, class Disc>
void Multigrid<Number, ExecSpace, Disc>::correction(vector_type& dst, const vector_type& src) const {
  dst.fill(Number(0));
  vcycle(n_levels() - 1, dst, src, iteration_order());
}

template <class Number, class ExecSpace, class Disc>
void Multigrid<Number, ExecSpace, Disc>::full_multigrid_start(vector_type& x, const vector_type& b) const {
  ScopedRegion region("multigrid::full_multigrid_start");
  const int top = n_levels() - 1;
  // b and x may be the finest level's own (cycle_until_converged's mixed start).
  if (b.view().data() != levels_[top].b.view().data()) levels_[top].b.copy_from(b);
  for (int l = top; l > 0; --l) {
    levels_[l].from_coarser->restrict_to(levels_[l - 1].b, levels_[l].b);
    set_entries(levels_[l - 1].dirichlet, levels_[l - 1].b, Number(0));
  }
  // The one-patch coarse solve adds a correction to x: from zero, not from what the last cycle left.
  levels_[0].x.fill(Number(0));
  coarse_solve(levels_[0].x, levels_[0].b);
  for (int l = 1; l <= top; ++l) {
    levels_[l].from_coarser->prolongate(levels_[l].x, levels_[l - 1].x);
    // The cycle on level l reuses level l-1's vectors as its coarse-grid scratch.
    vcycle(l, levels_[l].x, levels_[l].b, iteration_order());
  }
  if (x.view().data() != levels_[top].x.view().data()) x.copy_from(levels_[top].x);
  if (top == 0) copy_entries(levels_[0].dirichlet, x, b);
}

template <class Number, class ExecSpace, class Disc>
bool Multigrid<Number, ExecSpace, Disc>::half_precision_products() const {
  if constexpr (std::is_same_v<Disc, DgSipg>) {
    for (const Level& level : levels_) {
      const auto* patch = dynamic_cast<const DgVertexPatchSmoother<Number, ExecSpace>*>(level.smoother.get());
      if (patch == nullptr) continue;
      const DgPatchContraction c = patch->kernel_options().contraction;
      if (c == DgPatchContraction::f16 || c == DgPatchContraction::f16ec) return true;
    }
  }
  return false;
}

template <class Number, class ExecSpace, class Disc>
std::map<std::string, double> Multigrid<Number, ExecSpace, Disc>::times() const {
  std::map<std::string, double> t;
  for (const auto& [name, timer] : timers_.timers()) t[name] = timer.seconds();
  // The part of the finest level's smoothing spent on halo exchanges (several ranks).
  if (options_.collect_times && levels_.back().smoother && levels_.back().smoother->exchange_seconds() > 0)
    t["smoothing: halo exchange"] = levels_.back().smoother->exchange_seconds();
  return t;
}

template <class Number, class MGNumber, class ExecSpace, class Disc>
MultigridPreconditioner<Number, MGNumber, ExecSpace, Disc>::MultigridPreconditioner(
    const Multigrid<MGNumber, ExecSpace, Disc>& mg)
    : mg_(mg) {
  if constexpr (!std::is_same_v<Number, MGNumber>) {
    src_ = mg_.fine_operator().make_vector("mg_preconditioner_src");
    dst_ = mg_.fine_operator().make_vector("mg_preconditioner_dst");
  }
}

template <class Number, class MGNumber, class ExecSpace, class Disc>
void MultigridPreconditioner<Number, MGNumber, ExecSpace, Disc>::vmult(vector_type& dst, const vector_type& src) const {
  if constexpr (std::is_same_v<Number, MGNumber>) {
    mg_.vmult(dst, src);
  } else {
    src_.copy_converted_from(src);
    mg_.vmult(dst_, src_);
    dst.copy_converted_from(dst_);
  }
}

template <class Number, class MGNumber, class ExecSpace, class Disc>
SolverResult cycle_until_converged(const Multigrid<MGNumber, ExecSpace, Disc>& mg,
                                   const typename Disc::template Operator<Number, ExecSpace>& A,
                                   DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                                   const SolverControl& control, CycleStart start,
                                   DistributedVector<Number, ExecSpace>* workspace) {
  using Vector = DistributedVector<Number, ExecSpace>;
  TENSORMG_CHECK(A.layout().n_global_dofs() == mg.fine_operator().layout().n_global_dofs(),
                 "multigrid solve: the operator and the finest multigrid level differ in size");
  constexpr bool one_precision = std::is_same_v<Number, MGNumber>;
  // No allocation in the solve: an allocation of 1.35e8 entries with its initialization and its
  // free took about 2 ms on the H100 (kernel timer, perf/results/h100-2026-12-06-outer-loop/g15),
  // up to five of them per mixed solve. The finest level's b and x are used by
  // full_multigrid_start only, never by a cycle on the finest level, so they hold the cycle's
  // right-hand side and correction (and the mixed start's); A x goes into the caller's workspace,
  // in one precision on the multigrid's own layout into the finest level's b (the cycle reads its
  // right-hand side from the argument, never from there), else into a vector allocated here.
  const auto& top = mg.level(mg.n_levels() - 1);
  const bool full_multigrid = start != CycleStart::none;
  if (start == CycleStart::full_multigrid) {
    if constexpr (one_precision) {
      mg.full_multigrid_start(x, b);
    } else {
      top.b.copy_converted_from(b);
      mg.full_multigrid_start(top.x, top.b);
      x.copy_converted_from(top.x);
    }
  }
  // One cycle's vector work is a few sweeps over the finest level, as many bytes as a
  // memory-bound smoothing step: r = A x (the operator), then
  //  - in one precision where the cycle is consistent (Multigrid::consistent_cycle: all but the DG
  //    Dirichlet local solver, whose patch residual is right for a correction only), ‖b − r‖ in a
  //    sweep that stores nothing (DifferenceSweep) and x ← V(x, b) itself: for such a linear cycle
  //    this is x + V(0, b − A x) (the Dirichlet rows are identity rows, so the cycle's x = b there
  //    is the correction's too) without forming b − A x, the correction vector or the addition;
  //  - in one precision otherwise, r ← b − r with its norm in one sweep, x += V(0, r);
  //  - in mixed precision, b − r rounded into the cycle's precision with its norm in one sweep
  //    (ConvertedDifferenceSweep), x += V(0, ·) converted back in one (AddConvertedSweep); where
  //    the cycle multiplies in FP16 (Multigrid::half_precision_products) it sees (b − r) / s,
  //    s = ‖b − r‖₂, formed in r first: the size of the unit Krylov vector FGMRES hands its
  //    preconditioner, not a residual that shrinks with every cycle (with error-corrected FP16
  //    products it fell below FP16's range and the cycles stagnated near 1e-7, H100
  //    h100-2026-12-06-fast-loads/g8; scaled to max-norm one instead, the FP16 products
  //    overflowed at k = 6, 7: g9). Test MixedFullMultigridWithFP16ProductsReachesTheTolerance.
  // Before (vmult, axpby, two norms, scale, two conversions and an axpy per cycle; H100,
  // perf/results/h100-2026-12-06-outer-loop/g11) outside the V-cycles' own time went 25% of the
  // double and 40% of the mixed Q7 FMG solve (the double start below the finest level included),
  // 29% / 53% at Q1; after: Q1 FMG 1.15x (double), 1.31x (mixed) faster, Q7 1.03x, 1.10x (g15).
  const bool in_place = one_precision && mg.consistent_cycle();
  const bool scaled = !one_precision && mg.half_precision_products();
  // A x, then (one precision, not in place; scaled) b − A x.
  Vector r = [&]() -> Vector {
    if (workspace != nullptr) {
      TENSORMG_CHECK(workspace->n_local() == x.n_local() && workspace->n_owned() == x.n_owned(),
                     "multigrid solve: the workspace is not of the operator's layout");
      return *workspace;
    }
    if constexpr (one_precision)
      if (A.layout_ptr() == mg.fine_operator().layout_ptr()) return top.b;
    return A.make_vector("cycle_residual");
  }();
  // The cycle's right-hand side (mixed) and correction (not in place): views of the level's.
  DistributedVector<MGNumber, ExecSpace> rm = top.b, em = top.x;
  double norm = 0;  // ‖b − A x‖₂ of the current x
  const auto residual = [&] {
    A.vmult(r, x);
    if (in_place) norm = double(r.l2_distance(b));
    else if (one_precision || scaled) norm = double(r.subtract_from(b));
    else norm = double(rm.assign_converted_difference(b, r));
    return norm;
  };
  const auto correct = [&] {
    if constexpr (one_precision) {
      if (in_place) {
        mg.vcycle(x, b);
      } else {
        mg.correction(em, r);
        x.add(Number(1), em);
      }
    } else {
      const Number s = scaled ? Number(norm) : Number(1);
      if (!(s > 0) || !std::isfinite(double(s))) return;  // nothing to correct, or left to the checks below
      if (scaled) rm.copy_scaled_converted_from(Number(1) / s, r);
      mg.correction(em, rm);
      x.add_converted(s, em);
    }
  };
  if (start == CycleStart::prolongated_coarse) {
    if (!in_place) residual();  // b − A x of the prolongated start
    correct();
  }
  SolverResult result;
  const double first = residual();
  // Full multigrid measures against ‖b‖ and runs the while loop at least once (Algorithm 2.2,
  // lines 5–6); the plain iteration measures against its initial residual.
  const double delta0 = full_multigrid ? double(b.l2_norm()) : first;
  double delta = full_multigrid ? delta0 : first;
  result.initial_residual = delta0;
  result.history.push_back(first);
  if (control.monitor) control.monitor(0, first);
  const double target = std::max(control.rtol * delta0, control.atol);
  result.reason = SolverReason::max_iterations;
  if (!std::isfinite(first)) result.reason = SolverReason::not_finite;
  else if (first == 0) result.reason = SolverReason::converged_absolute;
  constexpr int stagnation_window = 10;
  int it = 0;
  while (result.reason == SolverReason::max_iterations && delta > target && it < control.max_iterations) {
    correct();
    delta = residual();
    ++it;
    result.history.push_back(delta);
    if (control.monitor) control.monitor(it, delta);
    if (!std::isfinite(delta)) result.reason = SolverReason::not_finite;
    else if (delta > control.divergence_factor * std::max(delta0, 1e-300)) result.reason = SolverReason::diverged;
    // A tolerance below what the precision can reach: stop instead of cycling to the limit.
    else if (delta > target && it >= stagnation_window &&
             delta > 0.9 * result.history[std::size_t(it - stagnation_window)])
      result.reason = SolverReason::stagnated;
  }
  if (result.reason == SolverReason::max_iterations && delta <= target)
    result.reason = delta <= control.rtol * delta0 ? SolverReason::converged_relative : SolverReason::converged_absolute;
  result.iterations = it;
  result.final_residual = delta;
  result.true_residual = result.history.back();
  return result;
}

template <class Number, class MGNumber, class ExecSpace, class Disc>
SolverResult solve_full_multigrid(const Multigrid<MGNumber, ExecSpace, Disc>& mg,
                                   const typename Disc::template Operator<Number, ExecSpace>& A,
                                  DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                                  const SolverControl& control) {
  ScopedRegion region("solver::full_multigrid");
  return cycle_until_converged(mg, A, x, b, control, CycleStart::full_multigrid);
}

template <class Number, class MGNumber, class ExecSpace, class Disc>
SolverResult solve_vcycles(const Multigrid<MGNumber, ExecSpace, Disc>& mg,
                                   const typename Disc::template Operator<Number, ExecSpace>& A,
                           DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                           const SolverControl& control) {
  ScopedRegion region("solver::vcycles");
  return cycle_until_converged(mg, A, x, b, control, CycleStart::none);
}

#define TENSORMG_INSTANTIATE_MG(Number, Exec)       \
  template class Multigrid<Number, Exec, ContinuousQk>; \
  template class Multigrid<Number, Exec, DgSipg>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE_MG)
#undef TENSORMG_INSTANTIATE_MG

#define TENSORMG_INSTANTIATE_PAIR(Number, MGNumber, Exec, Disc)                                                        \
  template class MultigridPreconditioner<Number, MGNumber, Exec, Disc>;                                                \
  template SolverResult solve_full_multigrid<Number, MGNumber, Exec, Disc>(                                            \
      const Multigrid<MGNumber, Exec, Disc>&, const typename Disc::template Operator<Number, Exec>&,                   \
      DistributedVector<Number, Exec>&, const DistributedVector<Number, Exec>&, const SolverControl&);                \
  template SolverResult cycle_until_converged<Number, MGNumber, Exec, Disc>(                                           \
      const Multigrid<MGNumber, Exec, Disc>&, const typename Disc::template Operator<Number, Exec>&,                   \
      DistributedVector<Number, Exec>&, const DistributedVector<Number, Exec>&, const SolverControl&, CycleStart,     \
      DistributedVector<Number, Exec>*);                                                                               \
  template SolverResult solve_vcycles<Number, MGNumber, Exec, Disc>(                                                   \
      const Multigrid<MGNumber, Exec, Disc>&, const typename Disc::template Operator<Number, Exec>&,                   \
      DistributedVector<Number, Exec>&, const DistributedVector<Number, Exec>&, const SolverControl&);
#define TENSORMG_INSTANTIATE_SPACE(Exec, Disc)         \
  TENSORMG_INSTANTIATE_PAIR(double, double, Exec, Disc) \
  TENSORMG_INSTANTIATE_PAIR(double, float, Exec, Disc)  \
  TENSORMG_INSTANTIATE_PAIR(float, float, Exec, Disc)
TENSORMG_INSTANTIATE_SPACE(::tensormg::DefaultExec, ContinuousQk)
TENSORMG_IF_SECOND_SPACE(TENSORMG_INSTANTIATE_SPACE(::tensormg::SecondaryExec, ContinuousQk))
TENSORMG_INSTANTIATE_SPACE(::tensormg::DefaultExec, DgSipg)
TENSORMG_IF_SECOND_SPACE(TENSORMG_INSTANTIATE_SPACE(::tensormg::SecondaryExec, DgSipg))
#undef TENSORMG_INSTANTIATE_SPACE
#undef TENSORMG_INSTANTIATE_PAIR

}  // namespace tensormg
