#include "multigrid/mixed_full_multigrid.hpp"

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
constexpr EnumName<MixedStart> mixed_start_names[] = {{MixedStart::automatic, "auto"},
                                                      {MixedStart::double_cycles, "double"},
                                                      {MixedStart::float_corrections, "corrections"}};
}  // namespace

std::string to_string(MixedStart s) { return enum_name(mixed_start_names, s); }
MixedStart parse_mixed_start(const std::string& text) { return parse_enum(mixed_start_names, text, "mixed start"); }

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
                                                        operator_options op_options, MultigridOptions options,
                                                        MixedStart start)
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
      residual_(hierarchy->finest()->partitioner(), "cycle_residual") {
  // Automatic: double cycles. Corrections measured no faster on the host (the VM, mixed FMG Q1 r6
  // / Q3 r5 / Q7 r4, corrections over double 0.98x, 1.01x, 0.77-0.99x;
  // perf/results/h100-2026-12-07-time-to-solution) nor on the H100 (Q1 135M 1.00x, Q3 57M 0.99x,
  // Q7 90.5M 1.02x, one round: .../g28).
  start_kind_ = start != MixedStart::automatic ? start : MixedStart::double_cycles;
  TENSORMG_CHECK_COLLECTIVE(hierarchy->finest()->mesh().comm(),
                            start_kind_ != MixedStart::float_corrections || !cycle_.half_precision_products(),
                            "the mixed start's float corrections need a float cycle without FP16 products; with the FP16 "
                            "contraction use the double start (--mixed-start double or auto)");
}

template <class ExecSpace, class Disc>
void MixedFullMultigrid<ExecSpace, Disc>::corrections_start() const {
  ScopedRegion region("multigrid::mixed_full_multigrid_start");
  // Algorithm 2.2 lines 1–4 on the start's levels 0..T, the iterate and its residual in double;
  // each level's cycle a float V-cycle on the float hierarchy's same level (which leaves that
  // level's own b and x alone: they hold the correction's right-hand side and the correction).
  const int top = start_.n_levels() - 1;
  const auto& st = start_.level(top);
  st.b.copy_from(coarse_b_);
  for (int l = top; l > 0; --l) {
    start_.level(l).from_coarser->restrict_to(start_.level(l - 1).b, start_.level(l).b);
    set_entries(start_.level(l - 1).dirichlet, start_.level(l - 1).b, 0.0);
  }
  start_.level(0).x.fill(0.0);
  start_.coarse_solve(start_.level(0).x, start_.level(0).b);
  for (int l = 1; l <= top; ++l) {
    const auto& d = start_.level(l);
    const auto& f = cycle_.level(l);
    d.from_coarser->prolongate(d.x, start_.level(l - 1).x);
    d.op->residual(d.r, d.x, d.b);
    f.b.copy_converted_from(d.r);
    f.x.fill(0.0f);
    cycle_.vcycle(l, f.x, f.b, cycle_.iteration_order());
    d.x.add_converted(1.0, f.x);
  }
  coarse_x_.copy_from(st.x);
}

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
  if (start_kind_ == MixedStart::float_corrections) corrections_start();
  else start_.full_multigrid_start(coarse_x_, coarse_b_);
  to_finest_.prolongate(x, coarse_x_);
  return cycle_until_converged(cycle_, A, x, b, control, CycleStart::prolongated_coarse, &residual_);
}

template class MixedFullMultigrid<DefaultExec, ContinuousQk>;
TENSORMG_IF_SECOND_SPACE(template class MixedFullMultigrid<SecondaryExec, ContinuousQk>;)
template class MixedFullMultigrid<DefaultExec, DgSipg>;
TENSORMG_IF_SECOND_SPACE(template class MixedFullMultigrid<SecondaryExec, DgSipg>;)

}  // namespace tensormg
