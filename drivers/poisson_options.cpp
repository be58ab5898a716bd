#include "drivers/poisson_options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/error.hpp"
#include "core/krylov.hpp"
#include "discretization/dg_poisson.hpp"
#include "multigrid/mixed_full_multigrid.hpp"
#include "discretization/poisson_problem.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/multigrid.hpp"

namespace tensormg {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

/// The smallest relative tolerance the outer solver's precision can show: 8 unit roundoffs.
double rtol_floor(const std::string& precision) {
  return 8 * (precision == "float" ? double(std::numeric_limits<float>::epsilon()) : std::numeric_limits<double>::epsilon());
}

}  // namespace

bool uses_multigrid(const PoissonOptions& o) {
  return o.solver == "fmg" || o.solver == "vcycle" || o.preconditioner == "mg";
}

SolveShape solve_shape(const PoissonOptions& o, int ranks) {
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

void validate_poisson_options(PoissonOptions& o) {
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
  (void)parse_mixed_start(o.mixed_start);
  TENSORMG_CHECK(o.mixed_start == "auto" || (o.precision == "mixed" && o.solver == "fmg"),
                 "--mixed-start applies to --precision mixed --solver fmg only");
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
  const ThreadStructure structure = parse_thread_structure(o.thread_structure);
  TENSORMG_CHECK((structure != ThreadStructure::per_patch && structure != ThreadStructure::per_line) || o.degree == 1,
                 "--thread-structure " << o.thread_structure << " smooths Q1 patches (one unknown each): use it with -k 1");
  TENSORMG_CHECK(structure != ThreadStructure::lanes || o.degree >= 2,
                 "--thread-structure lanes smooths patches of Q2 and above: use per-line or per-patch with -k 1");
  TENSORMG_CHECK(structure != ThreadStructure::lanes || runs_on_host<DefaultExec>(),
                 "--thread-structure lanes puts patches in the lanes of a CPU vector register: this build runs on a "
                 "GPU; use per-column or per-dof");
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
  check_scatter_mode<DefaultExec>(parse_scatter_mode(o.scatter));
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

Json poisson_options_record(const PoissonOptions& o) {
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
  j["mixed_start"] = o.mixed_start;
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

void add_poisson_options(CLI::App& app, PoissonOptions& o) {
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
  app.add_option("--mixed-start", o.mixed_start,
                 "--precision mixed --solver fmg: the start's cycles below the finest level (its iterate in double "
                 "either way): auto (double, measured), double (double V-cycles) or corrections (float V-cycles "
                 "correcting the double residual; not with FP16 products)");
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
                 "tensor cores in CUDA builds for FP64 3D k = 3, and k = 5, 6, 7 on sm_90, and f16ec for the float "
                 "multigrid of 3D k = 7, where they measured faster; lines elsewhere), lines (a thread per patch line, CUDA cores), blocks (whole-patch block "
                 "contractions, tensor cores where available: FP64 k = 3, k = 4..7 on sm_90; paper 001), f16 or f16ec (block contractions with FP16 operands and "
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
  app.add_option("--thread-structure", o.thread_structure, "vertex-patch threads: auto (the tuning table's: per-patch (GPU) or per-line (CPU) at k = 1, "
                 "per-column or lanes (CPU) above), per-dof, per-column, per-patch or per-line (k = 1), lanes (CPU, k >= 2: "
                 "patches in SIMD lanes)");
  app.add_option("--patches-per-team", o.patches_per_team, "vertex patches per Kokkos team (0: automatic)");
  app.add_option("--threads-per-patch", o.threads_per_patch,
                 "vertex-patch threads per patch, e.g. (2k+1)^(d-1) closure or (2k-1)^(d-1) interior columns (0: automatic)");
  app.add_option("--chebyshev-degree", o.chebyshev_degree, "Chebyshev smoother degree");
  app.add_flag("--mg-times", o.mg_times, "time the V-cycle's components (adds fences)");
  app.add_option("--problem", o.problem, "sine (u = prod sin(pi x_i)), exponential (u = exp(sum x_i)) or one (f = 1)");
  app.add_option("--scatter", o.scatter,
                 "operator summation: auto (the tuning table's), atomic, store-interior (plain stores at a cell's interior "
                 "nodes), coloring, gather (each node sums its cells' contributions: k = 1 its stencil, k >= 2 by tiles "
                 "of the Kronecker sum of banded 1D matrices) or simd (CPU builds: cells in the lanes of vector registers)");
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
}

void note_given_poisson_options(const CLI::App& app, PoissonOptions& o) {
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
}

}  // namespace tensormg
