// tensormg-poisson: −Δu = f on a brick with Dirichlet conditions, continuous Q_k, matrix-free,
// Krylov-solved, on any number of MPI ranks; prints a summary, writes HDF5 + XDMF + run record.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <limits>
#include <cmath>
#include <cstdio>
#include <optional>
#include <iostream>
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

namespace {

using namespace tensormg;

struct Options {
  std::string discretization = "cg";  ///< cg: continuous Q_k; dg: discontinuous Q_k with SIPG
  double penalty = 1;                 ///< γ of the SIPG penalty (dg)
  bool penalty_given = false;
  bool local_solver_given = false;
  /// Continuous-only vertex-patch and operator options, and whether each was given.
  std::vector<std::pair<bool, std::string>> cg_only_given;
  int dim = 2;
  int degree = 2;
  std::vector<int> cells{1};
  std::vector<double> lower{0}, upper{1};
  int refinements = 4;
  std::vector<int> rank_grid{0};
  double replicate_below_dofs = -1;  ///< HierarchyOptions::replicate_below_dofs (-1: automatic)
  std::string solver = "cg";
  std::string preconditioner = "jacobi";
  std::string precision = "double";
  std::string problem = "sine";
  std::string scatter = "auto";
  int cells_per_team = 0;
  std::string smoother = "vertex-patch";
  std::string smoothing_order = "auto";
  std::string smoother_kernel = "auto";
  std::string patch_residual = "auto";
  /// cg: fast-diagonalization or inverse; dg: full, dirichlet or clamped (paper 002 §3.1); the
  /// default of each when not given (validate()).
  std::string local_solver = "fast-diagonalization";
  /// dg: how the patch's local problem is inverted (continuous: --local-solver says it).
  std::string patch_inversion = "auto";
  std::string halo_overlap = "auto";
  std::string halo_transport = "auto";
  bool patch_inversion_given = false;
  /// dg: line or block contractions (tensor cores) in the patch kernels (DgPatchContraction).
  std::string contraction = "auto";
  bool contraction_given = false;
  std::string dg_evaluation = "cell";  ///< dg: cell-centric or patch-wise operator (paper 001 §2.1)
  bool dg_evaluation_given = false;
  std::string thread_structure = "auto";
  int patches_per_team = 0;
  int threads_per_patch = 0;
  int chebyshev_degree = 3;
  bool mg_times = false;
  double rtol = 1e-8;
  double atol = 0;
  int max_iterations = 10000;
  int restart = 30;
  int repeat = 1;  ///< solves timed (from a zero start); the median is reported
  std::string output;
  bool output_given = false;  ///< --output appeared (an empty name is then an error)
  bool rtol_given = false;    ///< --rtol appeared (else float runs default to 1e-5)
  bool overwrite = false;
  std::string record;  ///< JSON run record (the scaling study reads these)
  bool record_given = false;
  bool monitor = false;
  bool memory_report = false;
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

/// The median of a non-empty list (the mean of the two middle values for an even count).
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool uses_multigrid(const Options& o) {
  return o.solver == "fmg" || o.solver == "vcycle" || o.preconditioner == "mg";
}

/// The smallest relative tolerance the outer solver's precision can show: 8 unit roundoffs.
double rtol_floor(const std::string& precision) {
  return 8 * (precision == "float" ? double(std::numeric_limits<float>::epsilon()) : std::numeric_limits<double>::epsilon());
}

/// What the solve will allocate, for the collective memory check before anything is built.
SolveShape solve_shape(const Options& o, int ranks) {
  SolveShape s;
  s.brick.dim = o.dim;
  for (int d = 0; d < 3; ++d) s.brick.coarse_cells[d] = o.cells[d];
  s.brick.refinements = o.refinements;
  s.degree = o.degree;
  s.ranks = ranks;
  s.rank_grid = {o.rank_grid[0], o.rank_grid[1], o.rank_grid[2]};
  s.replicate_below_dofs = o.replicate_below_dofs;
  s.number_bytes = o.precision == "float" ? 4 : 8;
  s.mg_number_bytes = o.precision == "double" ? 8 : 4;
  s.outer_vectors = krylov_vectors(o.solver, o.restart);
  s.jacobi = o.preconditioner == "jacobi" && !uses_multigrid(o);
  s.multigrid = uses_multigrid(o);
  s.mixed_full_multigrid = o.solver == "fmg" && o.precision == "mixed";
  s.smoother = parse_smoother_kind(o.smoother);
  s.patch_kernel = parse_patch_kernel(o.smoother_kernel);
  s.write_output = !o.output.empty();
  s.discontinuous = o.discretization == "dg";
  s.dg_global_residual = s.discontinuous && parse_dg_local_solver(o.local_solver) == DgLocalSolver::full;
  s.dg_dense_inverse = s.discontinuous && uses_dg_dense_inverse(parse_dg_patch_inversion(o.patch_inversion), o.dim,
                                                                o.degree, !device_memory_is_host());
  return s;
}

/// Checks of the options that need no mesh; throws InputError (made collective by the caller).
void validate(Options& o) {
  TENSORMG_CHECK(o.discretization == "cg" || o.discretization == "dg",
                 "--discretization '" << o.discretization << "' is not supported; use cg (continuous) or dg (SIPG)");
  TENSORMG_CHECK(o.dim == 2 || o.dim == 3, "--dim " << o.dim << " is not supported; use 2 or 3");
  const int max_degree = ContinuousDofLayout<DefaultExec>::max_degree(o.dim);
  TENSORMG_CHECK(o.degree >= 1 && o.degree <= max_degree,
                 "--degree " << o.degree << " is not supported in " << o.dim << "D; use 1.." << max_degree);
  TENSORMG_CHECK(o.cells.size() == 1 || int(o.cells.size()) == o.dim,
                 "--cells takes 1 or " << o.dim << " values (given " << o.cells.size() << ")");
  if (o.cells.size() == 1) o.cells.assign(3, o.cells[0]);
  o.cells.resize(3, 1);
  for (auto* v : {&o.lower, &o.upper}) {
    TENSORMG_CHECK(v->size() == 1 || int(v->size()) == o.dim, "--lower/--upper take 1 or " << o.dim << " values");
    if (v->size() == 1) v->assign(3, (*v)[0]);
    v->resize(3, 0.0);
  }
  const bool automatic_grid = o.rank_grid.size() == 1 && o.rank_grid[0] == 0;
  TENSORMG_CHECK(automatic_grid || int(o.rank_grid.size()) == o.dim,
                 "--rank-grid takes " << o.dim << " values (or 0 for automatic)");
  for (std::size_t d = 0; !automatic_grid && d < o.rank_grid.size(); ++d)
    TENSORMG_CHECK(o.rank_grid[d] >= 1, "--rank-grid entries must be >= 1 (or a single 0 for automatic)");
  o.rank_grid.resize(3, automatic_grid ? 0 : 1);
  TENSORMG_CHECK(o.replicate_below_dofs == -1 || o.replicate_below_dofs >= 0,  // finite: parse_command_line
                 "--replicate-below-dofs takes a DoF count >= 0 (or -1 for automatic)");
  TENSORMG_CHECK(o.solver == "cg" || o.solver == "gmres" || o.solver == "fgmres" || o.solver == "fmg" || o.solver == "vcycle",
                 "--solver '" << o.solver << "' is not supported; use cg, gmres, fgmres, fmg or vcycle");
  TENSORMG_CHECK(o.preconditioner == "none" || o.preconditioner == "jacobi" || o.preconditioner == "mg",
                 "--preconditioner '" << o.preconditioner << "' is not supported; use none, jacobi or mg");
  TENSORMG_CHECK(o.precision == "double" || o.precision == "float" || o.precision == "mixed",
                 "--precision '" << o.precision << "' is not supported; use double, float or mixed");
  TENSORMG_CHECK(o.precision != "mixed" || uses_multigrid(o),
                 "--precision mixed runs the multigrid in float under a double solver: use --preconditioner mg or "
                 "--solver fmg|vcycle");
  (void)parse_smoother_kind(o.smoother);
  (void)parse_smoothing_order(o.smoothing_order);
  (void)parse_patch_kernel(o.smoother_kernel);
  (void)parse_halo_overlap(o.halo_overlap);
  (void)parse_halo_transport(o.halo_transport);
  // DG default, measured (perf/README.md, DG multigrid, H100): at k <= 2 the full solver's FMG
  // needs 1 cycle where Dirichlet needs 9 (Q2 56.6M: 0.31 s against 0.74 s); from k = 3 on the
  // cheaper Dirichlet step wins or ties. Under CG the V-cycle must be symmetric, which the
  // Dirichlet solver's inconsistent residual breaks (2D Q3 level 4: 39 CG iterations, full 4).
  if (o.discretization == "dg" && !o.local_solver_given)
    o.local_solver = o.degree <= 2 || o.solver == "cg" ? "full" : "dirichlet";
  if (o.discretization == "dg") {
    const DgLocalSolver dg_solver = parse_dg_local_solver(o.local_solver);
    TENSORMG_CHECK(dg_solver != DgLocalSolver::clamped || o.degree >= 3,
                   "--local-solver clamped needs --degree >= 3 (below, the clamped patch spaces do not cover a cell's "
                   "polynomials); use full or dirichlet");
    if (parse_dg_patch_inversion(o.patch_inversion) == DgPatchInversion::inverse) check_dg_dense_inverse(o.dim, o.degree);
    // FP16 products: the float multigrid of --precision float or mixed (mixed FMG's double start
    // keeps double arithmetic), degrees 3..7, the fast-diagonalization solve.
    check_dg_patch_contraction(parse_dg_patch_contraction(o.contraction), o.dim, o.degree,
                               o.precision != "double" && uses_multigrid(o),
                               uses_dg_dense_inverse(parse_dg_patch_inversion(o.patch_inversion), o.dim, o.degree,
                                                     !runs_on_host<DefaultExec>()));
    (void)parse_dg_evaluation(o.dg_evaluation);
  } else {
    (void)parse_local_solver(o.local_solver);
  }
  // k = 1 only: the smoother's thread per patch (the smoother refuses it as well; here before
  // anything is built).
  TENSORMG_CHECK(parse_thread_structure(o.thread_structure) != ThreadStructure::per_patch || o.degree == 1,
                 "--thread-structure per-patch smooths Q1 patches (one unknown each): use it with -k 1");
  TENSORMG_CHECK(parse_patch_residual(o.patch_residual) != PatchResidual::boundary ||
                     parse_patch_kernel(o.smoother_kernel) != PatchKernel::global,
                 "--patch-residual boundary needs the patch-local residual: --smoother-kernel fused, separate or auto");
  TENSORMG_CHECK(o.cells_per_team >= 0 && o.cells_per_team <= 256, "--cells-per-team must be in 0..256 (0: automatic)");
  TENSORMG_CHECK(o.patches_per_team >= 0 && o.patches_per_team <= 64, "--patches-per-team must be in 0..64 (0: automatic)");
  TENSORMG_CHECK(o.threads_per_patch >= 0 && o.threads_per_patch <= 1024,
                 "--threads-per-patch must be in 0..1024 (0: automatic)");
  TENSORMG_CHECK(o.chebyshev_degree >= 1 && o.chebyshev_degree <= 20, "--chebyshev-degree must be in 1..20");
  TENSORMG_CHECK(o.repeat >= 1 && o.repeat <= 100, "--repeat must be in 1..100");
  const auto names = poisson_problem_names();
  TENSORMG_CHECK(std::find(names.begin(), names.end(), o.problem) != names.end(),
                 "--problem '" << o.problem << "' is not known; use " << join(names));
  (void)parse_scatter_mode(o.scatter);
  // Single precision cannot show a relative residual of 1e-8: its default is 1e-5.
  if (!o.rtol_given && o.precision == "float") o.rtol = 1e-5;
  TENSORMG_CHECK(o.rtol >= 0 && o.atol >= 0 && (o.rtol > 0 || o.atol > 0), "--rtol and --atol must be >= 0, one of them > 0");
  TENSORMG_CHECK(o.rtol < 1, "--rtol " << o.rtol << " asks for no reduction of the residual; give a value below 1");
  // The outer solver's number type bounds what a residual can show (float: also the solution).
  const double floor = rtol_floor(o.precision);
  TENSORMG_CHECK(o.rtol == 0 || o.rtol >= floor,
                 "--rtol " << o.rtol << " is below what " << (o.precision == "float" ? "single" : "double")
                           << " precision can reach (" << floor << "); use --rtol >= " << floor
                           << (o.precision == "float" ? " or --precision double|mixed" : ""));
  TENSORMG_CHECK(o.max_iterations >= 0, "--max-iterations must be >= 0");
  TENSORMG_CHECK(o.restart >= 1, "--restart must be >= 1");
  TENSORMG_CHECK(!o.output_given || !o.output.empty(), "--output needs a file name (it is empty)");
  TENSORMG_CHECK(!o.record_given || !o.record.empty(), "--record needs a file name (it is empty)");
  TENSORMG_CHECK(o.record.empty() || o.record != o.output, "--record and --output name the same file");
  if (o.discretization == "dg") {
    TENSORMG_CHECK(o.penalty > 0 && o.penalty < 1e6, "--penalty must be in (0, 1e6), given " << o.penalty);
    TENSORMG_CHECK(!uses_multigrid(o) || o.smoother != "gauss-seidel",
                   "--smoother gauss-seidel is for --discretization cg only; DG multigrid smooths with vertex-patch, "
                   "jacobi or chebyshev");
    for (const auto& [given, name] : o.cg_only_given)
      TENSORMG_CHECK(!given, name << " applies to --discretization cg only");
  } else {
    TENSORMG_CHECK(!o.penalty_given, "--penalty applies to --discretization dg only");
    TENSORMG_CHECK(!o.patch_inversion_given,
                   "--patch-inversion applies to --discretization dg only (continuous: --local-solver inverse)");
    TENSORMG_CHECK(!o.dg_evaluation_given, "--dg-evaluation applies to --discretization dg only");
    TENSORMG_CHECK(!o.contraction_given, "--contraction applies to --discretization dg only");
  }
}

Json options_record(const Options& o) {
  Json j = Json::object();
  j["discretization"] = o.discretization;
  if (o.discretization == "dg") j["penalty"] = o.penalty;
  j["dim"] = o.dim;
  j["degree"] = o.degree;
  j["coarse_cells"] = std::vector<int>(o.cells.begin(), o.cells.begin() + o.dim);
  j["lower"] = std::vector<double>(o.lower.begin(), o.lower.begin() + o.dim);
  j["upper"] = std::vector<double>(o.upper.begin(), o.upper.begin() + o.dim);
  j["refinements"] = o.refinements;
  j["solver"] = o.solver;
  j["preconditioner"] = o.preconditioner;
  j["precision"] = o.precision;
  j["problem"] = o.problem;
  j["scatter"] = o.scatter;
  j["cells_per_team"] = o.cells_per_team;
  j["smoother"] = o.smoother;
  j["smoothing_order"] = o.smoothing_order;
  j["smoother_kernel"] = o.smoother_kernel;
  j["patch_residual"] = o.patch_residual;
  j["halo_overlap"] = o.halo_overlap;
  j["halo_transport"] = o.halo_transport;
  j["replicate_below_dofs"] = o.replicate_below_dofs;
  j["local_solver"] = o.local_solver;
  if (o.discretization == "dg") j["patch_inversion"] = o.patch_inversion;
  if (o.discretization == "dg") j["dg_evaluation"] = o.dg_evaluation;
  if (o.discretization == "dg") j["contraction"] = o.contraction;
  j["thread_structure"] = o.thread_structure;
  j["patches_per_team"] = o.patches_per_team;
  j["threads_per_patch"] = o.threads_per_patch;
  j["chebyshev_degree"] = o.chebyshev_degree;
  j["rtol"] = o.rtol;
  j["atol"] = o.atol;
  j["max_iterations"] = o.max_iterations;
  j["restart"] = o.restart;
  j["output"] = o.output;
  j["record"] = o.record;
  return j;
}

/// Number: vectors, operator and the outer solver; MGNumber: the multigrid (float in mixed).
/// Disc: ContinuousQk or DgSipg.
template <class Disc, class Number, class MGNumber>
int run(const Options& o, Environment& env) {
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
    // Mixed full multigrid starts in double below the finest level (mixed_full_multigrid.hpp).
    if constexpr (!std::is_same_v<Number, MGNumber>) {
      if (o.solver == "fmg" && hierarchy->n_levels() >= 2)
        phase("multigrid (float cycle, double start)",
              [&] { mixed_fmg = std::make_unique<MixedFullMultigrid<Exec, Disc>>(hierarchy, lo, mo); });
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
  record["options"] = options_record(o);
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
    Options o;
    CLI::App app{"tensormg-poisson: -Laplace u = f, continuous Q_k or DG (SIPG), matrix-free, Krylov and multigrid"};
    app.add_option("--discretization", o.discretization,
                   "cg (continuous Q_k, default) or dg (discontinuous Q_k, symmetric interior penalty)");
    app.add_option("--penalty", o.penalty, "dg: penalty factor gamma of sigma = gamma k (k+1) / h (default 1)");
    app.add_option("--dim", o.dim, "space dimension (2 or 3)");
    app.add_option("-k,--degree", o.degree, "polynomial degree (1..10 in 2D, 1..8 in 3D)");
    app.add_option("--cells", o.cells, "coarse cells per direction (one value or one per direction)")->delimiter(',');
    app.add_option("--lower", o.lower, "lower corner of the brick")->delimiter(',');
    app.add_option("--upper", o.upper, "upper corner of the brick")->delimiter(',');
    app.add_option("-r,--refinements", o.refinements, "uniform refinements of the coarse mesh");
    app.add_option("--rank-grid", o.rank_grid, "MPI process grid, e.g. 2,2 (0: automatic)")->delimiter(',');
    app.add_option("--replicate-below-dofs", o.replicate_below_dofs,
                   "several ranks: multigrid levels of at most this many DoFs are held whole by every rank and solved "
                   "redundantly instead of exchanging halos (-1, default: 2^17 on a GPU, none on the CPU)");
    app.add_option("--solver", o.solver, "cg, gmres, fgmres, fmg (full multigrid) or vcycle");
    app.add_option("--preconditioner", o.preconditioner, "none, jacobi or mg (one V-cycle)");
    app.add_option("--precision", o.precision, "double, float or mixed (multigrid in float, solver in double)");
    app.add_option("--smoother", o.smoother, "multigrid smoother: vertex-patch, jacobi, chebyshev or gauss-seidel");
    app.add_option("--smoothing-order", o.smoothing_order,
                   "colour order of the V-cycle's smoothing steps: auto (symmetric under CG/GMRES, forward in fmg and "
                   "vcycle), symmetric or forward (same order in both steps: fewer cycles, not symmetric)");
    app.add_option("--smoother-kernel", o.smoother_kernel, "vertex-patch kernel: auto (measured default per dim, k), global, separate or fused");
    app.add_option("--patch-residual", o.patch_residual,
                   "vertex-patch local residual: auto (the tuning table's choice per dim, k), full (x read on the whole "
                   "patch closure, the solve's result added) or boundary (paper 000 §4.1.3: x read on the closure's "
                   "boundary layer only, the solve's result stored; the same result up to rounding; fused or separate "
                   "kernel)");
    app.add_option("--local-solver", o.local_solver,
                   "vertex-patch local solver: cg: fast-diagonalization (default) or inverse; dg: full (default at k <= 2 "
                   "and under --solver cg), dirichlet (default otherwise) or clamped (k >= 3) (paper 002 §3.1)");
    app.add_option("--patch-inversion", o.patch_inversion,
                   "dg: how the vertex patch's local problem is inverted: auto (default: dense inverses on a GPU in 2D "
                   "k <= 2, where they measured faster), fast-diagonalization or inverse (stored dense inverses; 3D k <= 4)");
    app.add_option("--contraction", o.contraction,
                   "dg: how the vertex-patch kernel contracts: auto (default: the tuning table's choice, blocks on "
                   "tensor cores in CUDA builds for FP64 3D k = 3, where they measured faster; lines elsewhere), lines "
                   "(a thread per patch line, CUDA cores), blocks (whole-patch block contractions, tensor cores "
                   "where available: FP64 k = 3; paper 001), f16 or f16ec (block contractions with FP16 operands and "
                   "FP32 sums, without or with error correction, paper 001 §6: tensor cores in CUDA builds, emulated "
                   "elsewhere; the float multigrid of --precision float|mixed, k = 3..7)");
    app.add_option("--dg-evaluation", o.dg_evaluation,
                   "dg: operator evaluation: cell (cell-centric, default) or patch (patch-wise, paper 001 §2.1; one rank)");
    app.add_option("--halo-overlap", o.halo_overlap,
                   "several ranks: on smooths each colour's patches next to the rank boundary first and exchanges "
                   "their values while the other patches are smoothed; off exchanges after all patches; auto "
                   "(default): on where two ranks share a GPU at degree >= 2, where it measured faster (off with a "
                   "GPU to each rank, where it measured slower)");
    app.add_option("--halo-transport", o.halo_transport,
                   "several ranks: how the vertex-patch smoothers' halo refreshes and the vectors' ghost exchanges "
                   "travel between ranks whose GPUs can reach each other's memory (one node: NVLink/PCIe peers or one "
                   "shared GPU): auto (default) copies device to device (CUDA IPC) and signals through MPI, staged "
                   "goes through host memory and MPI; the same values either way");
    app.add_option("--thread-structure", o.thread_structure, "vertex-patch threads: auto (the tuning table's: per-patch at k = 1, per-column above), per-dof, "
                   "per-column or per-patch (k = 1)");
    app.add_option("--patches-per-team", o.patches_per_team, "vertex patches per Kokkos team (0: automatic)");
    app.add_option("--threads-per-patch", o.threads_per_patch,
                   "vertex-patch threads per patch, e.g. (2k+1)^(d-1) closure or (2k-1)^(d-1) interior columns (0: automatic)");
    app.add_option("--chebyshev-degree", o.chebyshev_degree, "Chebyshev smoother degree");
    app.add_flag("--mg-times", o.mg_times, "time the V-cycle's components (adds fences)");
    app.add_option("--problem", o.problem, "sine (u = prod sin(pi x_i)), exponential (u = exp(sum x_i)) or one (f = 1)");
    app.add_option("--scatter", o.scatter,
                   "operator summation: auto (the tuning table's), atomic, store-interior (plain stores at a cell's interior "
                   "nodes), coloring or gather (each node sums its cells' contributions: k = 1 its stencil, k >= 2 by tiles "
                   "of the Kronecker sum of banded 1D matrices)");
    app.add_option("--cells-per-team", o.cells_per_team, "cells per Kokkos team in the operator (0: automatic)");
    app.add_option("--rtol", o.rtol,
                   "relative residual tolerance (1e-5 with --precision float); a true residual above 10x it exits with code 3");
    app.add_option("--atol", o.atol, "absolute residual tolerance");
    app.add_option("--max-iterations", o.max_iterations, "iteration limit");
    app.add_option("--restart", o.restart, "GMRES/FGMRES restart length");
    app.add_option("--repeat", o.repeat,
                   "solve this many times from a zero start and report the median solve time (1..100, default 1)");
    app.add_option("-o,--output", o.output, "HDF5 file for solution and run record (an .xdmf sidecar is added)");
    app.add_flag("--overwrite", o.overwrite, "replace existing output files");
    app.add_option("--record", o.record, "JSON file for the run record (options, result, times; no solution)");
    app.add_flag("--monitor", o.monitor, "print the residual of every iteration");
    app.add_flag("--memory-report", o.memory_report,
                 "print the memory estimate (checked before the run) next to the measured peak of Kokkos allocations");
    if (auto code = tensormg::parse_command_line(app, env)) return *code;
    o.output_given = app.count("--output") > 0;
    o.record_given = app.count("--record") > 0;
    o.penalty_given = app.count("--penalty") > 0;
    o.local_solver_given = app.count("--local-solver") > 0;
    o.patch_inversion_given = app.count("--patch-inversion") > 0;
    o.dg_evaluation_given = app.count("--dg-evaluation") > 0;
    o.contraction_given = app.count("--contraction") > 0;
    for (const char* name : {"--smoother-kernel", "--patch-residual", "--thread-structure", "--patches-per-team",
                             "--threads-per-patch", "--scatter"})
      o.cg_only_given.push_back({app.count(name) > 0, name});
    o.rtol_given = app.count("--rtol") > 0;
    tensormg::collectively(env.comm(), [&] { validate(o); });
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
