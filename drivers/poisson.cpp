// tensormg-poisson: −Δu = f on a brick with Dirichlet conditions, continuous Q_k, matrix-free,
// Krylov-solved, on any number of MPI ranks; prints a summary, writes HDF5 + XDMF + run record.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "backends/device.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/json.hpp"
#include "core/krylov.hpp"
#include "core/preconditioners.hpp"
#include "core/provenance.hpp"
#include "core/timer.hpp"
#include "discretization/dg_poisson.hpp"
#include "discretization/poisson_problem.hpp"
#include "discretization/solution_output.hpp"
#include "multigrid/memory_estimate.hpp"
#include "multigrid/mixed_full_multigrid.hpp"
#include "multigrid/multigrid.hpp"
#include "drivers/command_line.hpp"
#include "drivers/poisson_options.hpp"

namespace {

using namespace tensormg;

/// The median of a non-empty list (the mean of the two middle values for an even count).
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Number: vectors, operator and the outer solver; MGNumber: the multigrid (float in mixed).
/// Disc: ContinuousQk or DgSipg.
template <class Disc, class Number, class MGNumber>
int run(const PoissonOptions& o, Environment& env) {
  using Exec = DefaultExec;
  using Layout = typename Disc::template Layout<Exec>;
  using Operator = typename Disc::template Operator<Number, Exec>;
  constexpr bool continuous = std::is_same_v<Disc, ContinuousQk>;
  using Vector = DistributedVector<Number, Exec>;
  // Counts every Kokkos allocation of the run, to hold the memory estimate to the truth.
  std::optional<AllocationTracker> allocations;
  if (o.memory_report) allocations.emplace();
  TimerSet timers;
  timers["setup"].start();
  // The setup's phases, each fenced so its device work is charged to it (printed and recorded).
  TimerSet setup_phases;
  std::vector<std::string> phase_order;
  const auto phase = [&](const std::string& name, auto&& f) {
    if (std::find(phase_order.begin(), phase_order.end(), name) == phase_order.end()) phase_order.push_back(name);
    ScopedTimer t(setup_phases[name]);
    f();
    Kokkos::fence();
  };
  BrickDescription brick;
  brick.dim = o.dim;
  for (int d = 0; d < 3; ++d) {
    brick.coarse_cells[d] = o.cells[d];
    brick.lower[d] = o.lower[d];
    brick.upper[d] = o.upper[d];
  }
  brick.refinements = o.refinements;
  typename Disc::OperatorOptions lo;
  if constexpr (continuous) {
    lo.scatter = parse_scatter_mode(o.scatter);
  } else {
    lo.penalty_factor = o.penalty;
    lo.evaluation = parse_dg_evaluation(o.dg_evaluation);
  }
  lo.cells_per_team = o.cells_per_team;
  // One way: levels (meshes and layouts) built once; the multigrid's operators on them; the
  // solver's operator is the multigrid's finest one when the precisions agree.
  std::shared_ptr<const Layout> layout;
  std::unique_ptr<Multigrid<MGNumber, Exec, Disc>> mg;
  std::unique_ptr<MixedFullMultigrid<Exec, Disc>> mixed_fmg;
  std::shared_ptr<const Operator> A_ptr;
  int replicated_levels = 0;  ///< multigrid levels held whole by every rank (several ranks)
  if (uses_multigrid(o)) {
    MultigridOptions mo;
    mo.smoother = parse_smoother_kind(o.smoother);
    mo.order = parse_smoothing_order(o.smoothing_order);
    mo.patch.kernel = parse_patch_kernel(o.smoother_kernel);
    if constexpr (continuous) mo.patch.solver = parse_local_solver(o.local_solver);
    else {
      mo.dg_solver = parse_dg_local_solver(o.local_solver);
      mo.dg_patch.inversion = parse_dg_patch_inversion(o.patch_inversion);
      mo.dg_patch.contraction = parse_dg_patch_contraction(o.contraction);
    }
    mo.patch.structure = parse_thread_structure(o.thread_structure);
    mo.patch.residual = parse_patch_residual(o.patch_residual);
    mo.patch.patches_per_team = o.patches_per_team;
    mo.patch.threads_per_patch = o.threads_per_patch;
    mo.patch.overlap = mo.dg_patch.overlap = parse_halo_overlap(o.halo_overlap);
    mo.patch.transport = mo.dg_patch.transport = parse_halo_transport(o.halo_transport);
    mo.point.chebyshev_degree = o.chebyshev_degree;
    mo.collect_times = o.mg_times;
    std::shared_ptr<const LevelHierarchy<Exec, Disc>> hierarchy;
    phase("levels (meshes, layouts)",
          [&] {
            HierarchyOptions ho;
            ho.rank_grid = {o.rank_grid[0], o.rank_grid[1], o.rank_grid[2]};
            ho.replicate_below_dofs = o.replicate_below_dofs;
            ho.transport = parse_halo_transport(o.halo_transport);
            hierarchy = std::make_shared<const LevelHierarchy<Exec, Disc>>(brick, o.degree, env.comm(), ho);
          });
    layout = hierarchy->finest();
    replicated_levels = hierarchy->first_distributed_level();
    // Mixed full multigrid keeps its start's iterates in double below the finest level
    // (mixed_full_multigrid.hpp).
    if constexpr (!std::is_same_v<Number, MGNumber>) {
      if (o.solver == "fmg" && hierarchy->n_levels() >= 2)
        phase("multigrid (float cycle, double start)",
              [&] {
                mixed_fmg = std::make_unique<MixedFullMultigrid<Exec, Disc>>(hierarchy, lo, mo,
                                                                             parse_mixed_start(o.mixed_start));
              });
    }
    if (!mixed_fmg) phase("multigrid", [&] { mg = std::make_unique<Multigrid<MGNumber, Exec, Disc>>(hierarchy, lo, mo); });
    if constexpr (std::is_same_v<Number, MGNumber>) A_ptr = mg->fine_operator_ptr();
  }
  if (!layout)
    phase("mesh and layout", [&] {
      const auto mesh = std::make_shared<CartesianMesh>(brick, env.comm(), std::array<int, 3>{o.rank_grid[0], o.rank_grid[1], o.rank_grid[2]});
      layout = std::make_shared<Layout>(mesh, o.degree, parse_halo_transport(o.halo_transport));
    });
  const CartesianMesh* mesh = &layout->mesh();
  if (!A_ptr) phase("operator", [&] { A_ptr = std::make_shared<const Operator>(layout, lo); });
  const Operator& A = *A_ptr;
  // The V-cycle in MGNumber, for the preconditioner and the records.
  const Multigrid<MGNumber, Exec, Disc>* cycle = mg.get();
  if constexpr (!std::is_same_v<Number, MGNumber>)
    if (mixed_fmg) cycle = &mixed_fmg->cycle();
  const bool multigrid_iteration = o.solver == "fmg" || o.solver == "vcycle";
  const SmoothingOrder smoothing_order =
      !cycle ? SmoothingOrder::automatic
             : (multigrid_iteration ? cycle->iteration_order() : cycle->preconditioner_order());
  const auto problem = make_poisson_problem(o.problem, o.dim);
  Vector b, x;
  phase("right-hand side", [&] {
    b = A.make_vector("rhs");
    x = A.make_vector("solution");
    assemble_rhs(A, problem, b);
  });
  std::optional<JacobiPreconditioner<Vector>> jacobi;
  if (o.preconditioner == "jacobi" && !cycle) {
    phase("Jacobi diagonal", [&] {
      Vector diag = A.make_vector("diagonal");
      A.compute_diagonal(diag);
      jacobi.emplace(diag);
    });
  }
  std::optional<MultigridPreconditioner<Number, MGNumber, Exec, Disc>> mg_preconditioner;
  if (mg && o.solver != "fmg" && o.solver != "vcycle") mg_preconditioner.emplace(*mg);
  timers["setup"].stop();
  const auto setup_times = setup_phases.max_over_ranks(env.comm());

  SolverControl control;
  control.rtol = o.rtol;
  control.atol = o.atol;
  control.max_iterations = o.max_iterations;
  control.restart = o.restart;
  if (o.monitor && env.rank() == 0)
    control.monitor = [](int it, double r) { std::printf("  iteration %5d  residual %.6e\n", it, r); };
  const auto solve = [&](const auto& P) {
    if (o.solver == "cg") return solve_cg(A, x, b, P, control);
    if (o.solver == "gmres") return solve_gmres(A, x, b, P, control);
    return solve_fgmres(A, x, b, P, control);
  };
  SolverResult result;
  // --repeat: the same solve from a zero start, timed each time; the record's solve time is the
  // median of the repetitions (the slowest rank's time of each), the rest of the record the last's.
  std::vector<double> solve_seconds_each;
  std::vector<int> iterations_each;
  for (int rep = 0; rep < o.repeat; ++rep) {
    if (rep > 0) x.fill(Number(0));
    if (cycle) cycle->reset_times();
    Timer solve_timer;
    solve_timer.start();
    if (o.solver == "fmg") {
      if constexpr (!std::is_same_v<Number, MGNumber>)
        if (mixed_fmg) result = mixed_fmg->solve(A, x, b, control);
      if (mg) result = solve_full_multigrid(*mg, A, x, b, control);
    } else if (o.solver == "vcycle") {
      result = solve_vcycles(*mg, A, x, b, control);
    } else if (mg_preconditioner) {
      result = solve(*mg_preconditioner);
    }
    if (!(o.solver == "fmg" || o.solver == "vcycle" || mg_preconditioner)) {
      if (jacobi) result = solve(*jacobi);
      else result = solve(IdentityPreconditioner{});
    }
    const double mine = solve_timer.stop();
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, env.comm());
    solve_seconds_each.push_back(slowest);
    iterations_each.push_back(result.iterations);
  }

  const double b_norm = b.l2_norm();
  const double true_residual = result.true_residual;
  std::optional<DiscretizationErrors> errors;
  if (problem.known_solution()) errors = compute_errors(*layout, x, problem);
  auto times = timers.max_over_ranks(env.comm());
  times["solve"] = median(solve_seconds_each);
  const double dofs = double(layout->n_global_dofs());

  Json record = Json::object();
  record["kind"] = "tensormg-poisson";
  record["options"] = poisson_options_record(o);
  Json& res = record["result"];
  res["dofs"] = layout->n_global_dofs();
  res["cells"] = mesh->n_global_cells();
  res["ranks"] = env.size();
  res["rank_grid"] = std::vector<int>(mesh->rank_grid().begin(), mesh->rank_grid().begin() + o.dim);
  if (uses_multigrid(o)) res["replicated_levels"] = replicated_levels;
  res["cells_per_team"] = A.cells_per_team();
  res["iterations"] = result.iterations;
  if (o.rtol > 0 && std::isfinite(result.fractional_iterations(o.rtol)))
    res["fractional_iterations"] = result.fractional_iterations(o.rtol);
  res["reason"] = to_string(result.reason);
  res["converged"] = result.converged();
  res["initial_residual"] = result.initial_residual;
  res["final_residual"] = result.final_residual;
  res["true_residual"] = true_residual;
  const double relative_true = b_norm > 0 ? true_residual / b_norm : true_residual;
  res["relative_true_residual"] = relative_true;
  // The recursively updated residual can drift from the true one (single precision on large
  // problems): say so instead of reporting only "converged".
  // More than 10x the tolerance in the true residual counts as not converged (exit code 3).
  const bool drifted = result.converged() && relative_true > 10 * o.rtol && true_residual > 10 * o.atol;
  res["true_residual_exceeds_tolerance"] = drifted;
  res["residual_history"] = result.history;
  res["setup_seconds"] = times.at("setup");
  Json breakdown = Json::object();
  for (const auto& name : phase_order) breakdown[name] = setup_times.at(name);
  res["setup_breakdown_seconds"] = breakdown;
  res["solve_seconds"] = times.at("solve");
  res["solve_seconds_each"] = solve_seconds_each;
  res["iterations_each"] = iterations_each;
  res["dofs_per_second"] = dofs / times.at("solve");
  res["dof_iterations_per_second"] = dofs * result.iterations / times.at("solve");
  if (errors) {
    res["l2_error"] = errors->l2;
    res["h1_error"] = errors->h1;
  }
  if (cycle) {
    const auto& mg = cycle;
    Json& m = res["multigrid"];
    m["levels"] = mg->n_levels();
    m["coarsest_refinement"] = mg->coarsest_refinement();
    m["coarse_solver"] = mg->coarse_is_single_patch() ? "one patch solve" : "CG with Jacobi";
    m["smoother"] = mg->n_levels() > 1 ? mg->level(mg->n_levels() - 1).smoother->description() : "none";
    m["precision"] = number_name<MGNumber>();
    m["smoothing_order"] = to_string(smoothing_order);
    if (mixed_fmg) m["mixed_start"] = to_string(mixed_fmg->start_kind());
    Json t = Json::object();
    for (const auto& [name, seconds] : mg->times()) t[name] = seconds;
    m["times"] = t;
  }
  double estimated_bytes = 0, measured_bytes = 0;
  if (allocations) {
    estimated_bytes = estimate_solve_memory(solve_shape(o, env.size())).device_bytes;
    const double mine = allocations->peak_bytes();
    MPI_Allreduce(&mine, &measured_bytes, 1, MPI_DOUBLE, MPI_MAX, env.comm());
    Json& m = res["memory"];
    m["estimated_bytes"] = estimated_bytes;
    m["estimate_margin_bytes"] = small_data_margin_bytes;
    m["measured_peak_bytes"] = measured_bytes;
  }
  record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
  {
    // Which device each rank ran on (node-local rank mod device count; 0 on the host backends):
    // a multi-GPU record shows one GPU per rank, or ranks sharing one.
    const int mine = env.device_id();
    std::vector<int> ids(env.size());
    MPI_Allgather(&mine, 1, MPI_INT, ids.data(), 1, MPI_INT, env.comm());
    record["provenance"]["device_ids"] = ids;
  }

  if (env.rank() == 0) {
    std::printf("tensormg-poisson: %dD %sQ%d, problem '%s', %s precision, %s + %s on %s\n", o.dim,
                continuous ? "" : "DG ", o.degree,
                o.problem.c_str(), o.precision.c_str(), o.solver.c_str(),
                (o.solver == "fmg" || o.solver == "vcycle") ? "V-cycle" : o.preconditioner.c_str(), backend_name().c_str());
    std::printf("  %-24s %s\n", "device", device_name().c_str());
    std::printf("  %-24s %.0f\n", "DoFs", dofs);
    std::printf("  %-24s %d (grid %dx%dx%d)\n", "MPI ranks", env.size(), mesh->rank_grid()[0], mesh->rank_grid()[1], mesh->rank_grid()[2]);
    if (uses_multigrid(o) && env.size() > 1) std::printf("  %-24s %d\n", "replicated levels", replicated_levels);
    if (o.rtol > 0)
      std::printf("  %-24s %d (fractional %.2f for a reduction by %.0e)\n", "iterations", result.iterations,
                  result.fractional_iterations(o.rtol), o.rtol);
    else
      std::printf("  %-24s %d\n", "iterations", result.iterations);
    std::printf("  %-24s %s\n", "reason", to_string(result.reason).c_str());
    std::printf("  %-24s %.3e\n", "relative true residual", relative_true);
    std::printf("  %-24s %.4f s\n", "setup time", times.at("setup"));
    for (const auto& name : phase_order) std::printf("    %-22s %.4f s\n", name.c_str(), setup_times.at(name));
    if (o.repeat > 1) {
      std::string each;
      for (double t : solve_seconds_each) each += (each.empty() ? "" : ", ") + std::to_string(t);
      std::printf("  %-24s %.4f s (median of %d: %s)\n", "solve time", times.at("solve"), o.repeat, each.c_str());
    } else {
      std::printf("  %-24s %.4f s\n", "solve time", times.at("solve"));
    }
    std::printf("  %-24s %.4f (DoFs / solve time)\n", "GDoF/s", dofs / times.at("solve") / 1e9);
    std::printf("  %-24s %.4f (DoFs x iterations / solve time)\n", "GDoF/s per iteration", dofs * result.iterations / times.at("solve") / 1e9);
    if (cycle) {
      const auto& mg = cycle;
      std::printf("  %-24s %d (coarsest: %s), %s in %s, %s smoothing order\n", "multigrid levels", mg->n_levels(),
                  mg->coarse_is_single_patch() ? "one patch solve" : "CG", mg->n_levels() > 1 ? mg->level(mg->n_levels() - 1).smoother->description().c_str() : "-",
                  number_name<MGNumber>(), to_string(smoothing_order).c_str());
      if (mixed_fmg) std::printf("  %-24s %s\n", "mixed start", to_string(mixed_fmg->start_kind()).c_str());
      for (const auto& [name, seconds] : mg->times())
        std::printf("    %-22s %.4f s\n", name.c_str(), seconds);
    }
    if (allocations)
      std::printf("  %-24s estimated %s (%s of it a fixed margin), measured peak %s per rank\n", "memory",
                  format_bytes(estimated_bytes).c_str(), format_bytes(small_data_margin_bytes).c_str(),
                  format_bytes(measured_bytes).c_str());
    if (errors) {
      std::printf("  %-24s %.6e\n", "L2 error", errors->l2);
      std::printf("  %-24s %.6e\n", "H1 error", errors->h1);
    }
  }
  if (!result.converged()) {
    if (env.rank() == 0)
      std::fprintf(stderr, "tensormg-poisson: not converged (%s); no output written\n", to_string(result.reason).c_str());
    return 3;
  }
  if (drifted) {
    if (env.rank() == 0)
      std::fprintf(stderr,
                   "tensormg-poisson: not converged: the true residual is %.1fx the tolerance (the solver's own "
                   "residual drifted in %s precision); no output written\n",
                   relative_true / std::max(o.rtol, 1e-300), o.precision.c_str());
    return 3;
  }
  if (!o.output.empty()) {
    write_solution(o.output, *layout, x, record, o.overwrite);
    if (env.rank() == 0) std::printf("  %-24s %s (+ .xdmf)\n", "output", o.output.c_str());
  }
  if (!o.record.empty()) {
    collectively(env.comm(), [&] {
      if (env.rank() == 0) write_text_file_atomically(o.record, record.dump() + "\n");
    });
    if (env.rank() == 0) std::printf("  %-24s %s\n", "record", o.record.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    PoissonOptions o;
    CLI::App app{"tensormg-poisson: -Laplace u = f, continuous Q_k or DG (SIPG), matrix-free, Krylov and multigrid"};
    add_poisson_options(app, o);
    if (auto code = tensormg::parse_command_line(app, env)) return *code;
    note_given_poisson_options(app, o);
    tensormg::collectively(env.comm(), [&] { validate_poisson_options(o); });
    // Before anything is allocated or solved: the output can be written, the memory suffices.
    if (!o.output.empty()) tensormg::check_output_path(o.output, o.overwrite, env.comm());
    if (!o.record.empty()) tensormg::check_output_writable({o.record}, o.overwrite, env.comm());
    {
      // GMRES never needs more basis vectors than there are unknowns.
      double dofs = 1;
      for (int d = 0; d < o.dim; ++d)
        dofs *= o.discretization == "dg" ? std::ldexp(double(o.cells[d]), o.refinements) * (o.degree + 1)
                                         : std::ldexp(double(o.cells[d]), o.refinements) * o.degree + 1;
      o.restart = int(std::min<double>(o.restart, std::max(dofs, 1.0)));
    }
    tensormg::check_solve_memory(solve_shape(o, env.size()), env.comm());
    if (o.discretization == "dg") {
      if (o.precision == "float") return run<DgSipg, float, float>(o, env);
      if (o.precision == "mixed") return run<DgSipg, double, float>(o, env);
      return run<DgSipg, double, double>(o, env);
    }
    if (o.precision == "float") return run<ContinuousQk, float, float>(o, env);
    if (o.precision == "mixed") return run<ContinuousQk, double, float>(o, env);
    return run<ContinuousQk, double, double>(o, env);
  });
}
