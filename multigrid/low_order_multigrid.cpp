#include "multigrid/low_order_multigrid.hpp"

#include <chrono>

#include "core/error.hpp"
#include "core/krylov.hpp"
#include "core/profiling.hpp"

namespace tensormg {

template <class ExecSpace>
LowOrderMultigrid<ExecSpace>::LowOrderMultigrid(std::shared_ptr<const HexHierarchy<ExecSpace>> hierarchy,
                                                const LowOrderOptions& op_options,
                                                std::shared_ptr<const operator_type> fine_operator,
                                                const LowOrderMultigridOptions& options)
    : comm_(hierarchy->fine_layout()->comm()), options_(options) {
  const int n = hierarchy->n_levels();
  collectively(comm_, [&] {
    TENSORMG_CHECK(n >= 2, "the low-order multigrid needs at least two levels (refine the mesh at least once)");
    TENSORMG_CHECK(!fine_operator || &fine_operator->layout() == hierarchy->fine_layout().get(),
                   "internal: the fine operator is not built on the hierarchy's finest layout");
    TENSORMG_CHECK(options.coarse_rtol > 0 && options.coarse_rtol < 1, "the coarse tolerance must be in (0, 1)");
    TENSORMG_CHECK(options.coarse_max_iterations >= 1, "the coarse solver needs at least one iteration");
  });
  // The steps' wall-clock times (setup_seconds), each fenced, summed over the levels.
  setup_seconds_ = {{"operators and vectors", 0.0}, {"smoothers", 0.0}, {"transfers", 0.0}, {"coarse solver", 0.0}};
  const auto step = [this](int index, auto&& f) {
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    setup_seconds_[index].second += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  levels_.resize(n);
  for (int l = 0; l < n; ++l) {
    Level& level = levels_[l];
    step(0, [&] {
      level.op = l == n - 1 && fine_operator ? fine_operator
                                             : std::make_shared<const operator_type>(hierarchy->layout(l), op_options);
      if (l < n - 1) {  // the finest level works on the caller's vectors
        level.x = level.op->make_vector("mg_x");
        level.b = level.op->make_vector("mg_b");
      }
      level.r = level.op->make_vector("mg_r");
    });
    if (l > 0) {
      step(1, [&] {
        level.smoother = std::make_unique<ChebyshevSmoother<double, ExecSpace, operator_type>>(level.op, options.smoother);
      });
      step(2, [&] {
        level.from_coarser = std::make_unique<HexTransfer<ExecSpace>>(*hierarchy->layout(l - 1), *hierarchy->layout(l),
                                                                      hierarchy->refinement(l), &hierarchy->stencils(l));
      });
    }
  }
  const bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const global_index dense_max =
      options.coarse_dense_max_dofs >= 0 ? options.coarse_dense_max_dofs : (on_host ? 1000 : 4000);
  step(3, [&] {
    if (hierarchy->layout(0)->n_global_dofs() <= dense_max) {
      coarse_dense_ = std::make_unique<DenseCoarseInverse<operator_type>>(*levels_[0].op, dense_max);
    } else {
      auto diagonal = levels_[0].op->make_vector("mg_coarse_diagonal");
      levels_[0].op->compute_diagonal(diagonal);
      coarse_jacobi_ = std::make_unique<JacobiPreconditioner<vector_type>>(diagonal);
    }
  });
}

template <class ExecSpace>
template <class F>
void LowOrderMultigrid<ExecSpace>::timed(const char* name, F&& f) const {
  if (!options_.collect_times) return f();
  Kokkos::fence();
  ScopedTimer t(timers_[name]);
  f();
  Kokkos::fence();
}

template <class ExecSpace>
void LowOrderMultigrid<ExecSpace>::vcycle(int l, vector_type& x, const vector_type& b) const {
  const Level& level = levels_[l];
  if (l == 0) {
    timed("coarse solve", [&] {
      if (coarse_dense_) return coarse_dense_->vmult(x, b);
      x.fill(0);
      SolverControl control;
      control.rtol = options_.coarse_rtol;
      control.max_iterations = options_.coarse_max_iterations;
      const SolverResult result = solve_cg(*level.op, x, b, *coarse_jacobi_, control);
      last_coarse_iterations_ = result.iterations;
      max_coarse_iterations_ = std::max(max_coarse_iterations_, result.iterations);
      // The reductions are global: every rank sees the same reason.
      TENSORMG_CHECK(result.converged() || result.reason == SolverReason::max_iterations,
                     "the coarse-level CG of the low-order multigrid failed: " << to_string(result.reason));
    });
    return;
  }
  timed("smoothing", [&] { level.smoother->smooth_from_zero(x, b); });
  timed("residual", [&] {
    level.op->vmult(level.r, x);
    level.r.axpby(1.0, b, -1.0);  // r = b − A x
  });
  const Level& coarse = levels_[l - 1];
  timed("transfer", [&] { level.from_coarser->restrict_to(coarse.b, level.r); });
  vcycle(l - 1, coarse.x, coarse.b);
  timed("transfer", [&] { level.from_coarser->prolongate_add(x, coarse.x); });
  timed("smoothing", [&] { level.smoother->smooth(x, b, SweepOrder::reverse); });
}

template <class ExecSpace>
void LowOrderMultigrid<ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::low_order_multigrid::vcycle");
  vcycle(n_levels() - 1, dst, src);
}

template <class ExecSpace>
double LowOrderMultigrid<ExecSpace>::device_bytes() const {
  double bytes = 0;
  for (int l = 0; l < n_levels(); ++l) {
    const Level& level = levels_[l];
    const double vector = double(level.r.view().span()) * sizeof(double);
    bytes += (l < n_levels() - 1 ? 3 : 1) * vector;  // x, b, r
    if (level.smoother) bytes += 3 * vector;  // inverse diagonal, residual, direction
    if (level.from_coarser) bytes += level.from_coarser->device_bytes();
    if (l < n_levels() - 1) bytes += level.op->device_bytes() + level.op->layout().device_bytes();
  }
  if (coarse_dense_) bytes += coarse_dense_->device_bytes();
  return bytes;
}

template class LowOrderMultigrid<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class LowOrderMultigrid<SecondaryExec>;)

}  // namespace tensormg
