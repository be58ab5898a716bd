#include "multigrid/mixed_full_multigrid.hpp"

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
template <class Hierarchy>
const std::shared_ptr<const Hierarchy>& with_two_levels(const std::shared_ptr<const Hierarchy>& hierarchy) {
  TENSORMG_CHECK_COLLECTIVE(hierarchy->finest()->mesh().comm(), hierarchy->n_levels() >= 2,
                            "mixed full multigrid needs two levels or more (given one): use one more refinement, "
                            "or plain full multigrid");
  return hierarchy;
}
}  // namespace

template <class ExecSpace, class Disc>
MixedFullMultigrid<ExecSpace, Disc>::MixedFullMultigrid(std::shared_ptr<const hierarchy_type> hierarchy,
                                                        operator_options op_options, MultigridOptions options)
    : cycle_(with_two_levels(hierarchy), op_options, options),
      start_(hierarchy, op_options,
             [&] {
               MultigridOptions o = options;
               o.collect_times = false;  // the times asked for are the float cycle's
               // FP16 products are for the float cycles; the start keeps double arithmetic.
               if (o.dg_patch.contraction == DgPatchContraction::f16 || o.dg_patch.contraction == DgPatchContraction::f16ec)
                 o.dg_patch.contraction = DgPatchContraction::automatic;
               return o;
             }(),
             hierarchy->n_levels() - 1),
      to_finest_(hierarchy->layout(hierarchy->n_levels() - 2), hierarchy->finest()),
      coarse_b_(hierarchy->layout(hierarchy->n_levels() - 2)->partitioner(), "fmg_coarse_b"),
      coarse_x_(hierarchy->layout(hierarchy->n_levels() - 2)->partitioner(), "fmg_coarse_x"),
      residual_(hierarchy->finest()->partitioner(), "cycle_residual") {}

template <class ExecSpace, class Disc>
SolverResult MixedFullMultigrid<ExecSpace, Disc>::solve(const operator_type& A,
                                                  DistributedVector<double, ExecSpace>& x,
                                                  const DistributedVector<double, ExecSpace>& b,
                                                  const SolverControl& control) const {
  ScopedRegion region("solver::full_multigrid_mixed");
  TENSORMG_CHECK(A.layout_ptr() == cycle_.hierarchy()->finest(),
                 "mixed full multigrid: the operator must live on the finest layout of the hierarchy");
  to_finest_.restrict_to(coarse_b_, b);
  set_entries(start_.level(start_.n_levels() - 1).dirichlet, coarse_b_, 0.0);
  start_.full_multigrid_start(coarse_x_, coarse_b_);
  to_finest_.prolongate(x, coarse_x_);
  return cycle_until_converged(cycle_, A, x, b, control, CycleStart::prolongated_coarse, &residual_);
}

template class MixedFullMultigrid<DefaultExec, ContinuousQk>;
TENSORMG_IF_SECOND_SPACE(template class MixedFullMultigrid<SecondaryExec, ContinuousQk>;)
template class MixedFullMultigrid<DefaultExec, DgSipg>;
TENSORMG_IF_SECOND_SPACE(template class MixedFullMultigrid<SecondaryExec, DgSipg>;)

}  // namespace tensormg
