#pragma once
/// @file
/// Mixed-precision full multigrid (paper 000 §4.3, Table 7): float V-cycles correcting a double
/// residual, with a start that keeps double accuracy.
///
/// A float FMG start would cost the accuracy of the double iteration: the float solution's
/// rounding error makes a residual of relative size ~κ·1e-7, and at Q7 in 3D four float cycles
/// were needed after it where double needed one (H100, perf/HISTORY.md). So the start keeps its
/// iterates in double on the levels below the finest (≤ 1/2^d of the work), prolongated in
/// double, and every finest-level cycle — the start's own (Algorithm 2.2 line 4, not counted) and
/// those of the while loop — is a float V-cycle correction of the double residual. Below the
/// finest level the start's cycles are (MixedStart) double V-cycles, or float V-cycles correcting
/// the double residual there too: the iterate's rounding stays double's, only the correction, a
/// small difference, is rounded to float.
///
/// Both multigrids are built on one LevelHierarchy: the double start shares the layouts of the
/// float cycle's coarser levels, and the finest-level transfer is built once here.

#include <memory>
#include <string>

#include "multigrid/multigrid.hpp"

namespace tensormg {

/// How mixed full multigrid's start cycles on the levels below the finest (the iterate is double
/// either way): double V-cycles, or float V-cycles correcting the double residual (not with FP16
/// products: Multigrid::half_precision_products); automatic: double (the measured choice).
enum class MixedStart { automatic, double_cycles, float_corrections };
std::string to_string(MixedStart s);
/// "auto", "double", "corrections"; InputError otherwise.
MixedStart parse_mixed_start(const std::string& text);

template <class ExecSpace = DefaultExec, class Disc = ContinuousQk>
class MixedFullMultigrid {
 public:
  using hierarchy_type = LevelHierarchy<ExecSpace, Disc>;
  using operator_type = typename Disc::template Operator<double, ExecSpace>;
  using operator_options = typename Disc::OperatorOptions;

  /// Collective; the hierarchy needs at least two levels (else plain float FMG has no double start:
  /// throws InputError).
  MixedFullMultigrid(std::shared_ptr<const hierarchy_type> hierarchy, operator_options op_options = {},
                     MultigridOptions options = {}, MixedStart start = MixedStart::automatic);

  /// The float V-cycle on all levels.
  const Multigrid<float, ExecSpace, Disc>& cycle() const { return cycle_; }
  /// The double multigrid of the start, on all levels but the finest.
  const Multigrid<double, ExecSpace, Disc>& start() const { return start_; }
  /// The start's cycles below the finest level (never automatic).
  MixedStart start_kind() const { return start_kind_; }

  /// Solves A x = b (A on the finest layout of the hierarchy) to the control, measured against ‖b‖
  /// as full multigrid is; x's input is ignored.
  SolverResult solve(const operator_type& A, DistributedVector<double, ExecSpace>& x,
                     const DistributedVector<double, ExecSpace>& b, const SolverControl& control) const;

 private:
  Multigrid<float, ExecSpace, Disc> cycle_;
  Multigrid<double, ExecSpace, Disc> start_;
  typename Multigrid<double, ExecSpace, Disc>::transfer_type to_finest_;
  mutable DistributedVector<double, ExecSpace> coarse_b_, coarse_x_;
  /// A x of the cycle loop on the finest layout, allocated with the rest of the setup.
  mutable DistributedVector<double, ExecSpace> residual_;
  MixedStart start_kind_ = MixedStart::double_cycles;
  /// The start below the finest level with float corrections: coarse_x_ from coarse_b_.
  void corrections_start() const;
};

}  // namespace tensormg
