// tensormg-bench-multigrid: the multigrid studies of papers 000 and 002 on one rank (the DG ones in
// bench_multigrid_dg.cpp).
//   --study iterations  full-multigrid iteration counts (Tables 1–3): f ≡ 1, relative accuracy 1e-9,
//                       per degree and level, for the chosen smoothers
//   --study smoother    throughput of one vertex-patch smoothing step per kernel variant (Figs. 3, 5,
//                       7, 9): GDoF/s, GFLOP/s, % of the FP64/FP32 FMA and shared-memory ceilings
//   --study vcycle      time of one V-cycle by component (Figs. 10–12)
//   --study fmg         full-multigrid solve time per billion DoFs, double and mixed (Fig. 18)
//   --study dg-smoother one smoothing step of the DG vertex-patch smoother (paper 002), Dirichlet,
//                       clamped and full local solvers, per scratch layout (--dg-layouts: padded, and
//                       plain for the bank-conflict study of paper 002 Table 3): GDoF/s, GFLOP/s, % of
//                       the FMA ceiling; --dg-inversions: fast diagonalization and/or the dense inverse
//   --study dg-iterations  DG (SIPG) multigrid, paper 002 Tables 1 and 2: fractional iteration counts
//                       of GMRES preconditioned by one V-cycle, f = 1, per degree and level, for each
//                       local solver of the vertex patches; setup and solve times (its Fig. 5 right)
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "backends/device.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/hdf5_file.hpp"
#include "core/json.hpp"
#include "core/memory.hpp"
#include "core/output_file.hpp"
#include "core/provenance.hpp"
#include "core/timer.hpp"
#include "discretization/dg_poisson.hpp"
#include "discretization/poisson_problem.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/memory_estimate.hpp"
#include "multigrid/mixed_full_multigrid.hpp"
#include "multigrid/multigrid.hpp"
#include "perf/bench_multigrid.hpp"
#include "perf/benchmark_support.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"
#include "smoothers/vertex_patch_smoother.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::bench_multigrid;

/// The largest refinement with at most max_dofs nodes (at least 1).
int largest_level(int dim, int k, double max_dofs) {
  int L = 1;
  while (dofs_of(dim, k, L + 1) <= max_dofs) ++L;
  return L;
}

/// The fmg study times the three largest levels up to `top`, from 2 refinements on.
int fmg_lowest_level(int top) { return std::max(2, top - 2); }

/// Coarse cells per direction of the smoother study's mesh: close to --dofs nodes, at least 2.
int smoother_cells(const Settings& s, int dim, int k) {
  const double per_direction = std::pow(s.dofs, 1.0 / dim);
  return std::max(2, int(std::lround((per_direction - 1) / k)));
}

// ---- checks before any study runs -----------------------------------------------------------

/// The precisions a study runs: its solves' or kernels' number types.
std::vector<std::string> study_precisions(const std::string& study) {
  if (study == "iterations" || study == "dg-iterations") return {"double"};
  if (study == "fmg") return {"double", "mixed"};
  return {"double", "float"};
}

/// Checks of the options that need no mesh; throws a local InputError (made collective by the caller).
void validate(const Settings& s, int ranks) {
  // Every study builds a multigrid hierarchy or a vertex-patch smoother, which refuse several ranks
  // only when the first case is built (the smoother study would skip every case and exit 0).
  TENSORMG_CHECK(ranks == 1, "tensormg-bench-multigrid runs on one MPI rank in this version (given "
                                 << ranks << " ranks): multigrid and the vertex-patch smoother are single-rank");
  TENSORMG_CHECK(s.study == "iterations" || s.study == "smoother" || s.study == "vcycle" || s.study == "fmg" ||
                     s.study == "dg-smoother" || s.study == "dg-iterations",
                 "--study '" << s.study << "': use iterations, smoother, vcycle, fmg, dg-smoother or dg-iterations");
  TENSORMG_CHECK(!s.local_solvers.empty(), "--local-solvers needs at least one value");
  for (const auto& l : s.local_solvers) (void)parse_dg_local_solver(l);
  TENSORMG_CHECK(!s.dg_layouts.empty(), "--dg-layouts needs at least one value");
  for (const auto& l : s.dg_layouts) (void)parse_dg_patch_layout(l);
  TENSORMG_CHECK(!s.dg_inversions.empty(), "--dg-inversions needs at least one value");
  for (const auto& l : s.dg_inversions) (void)parse_dg_patch_inversion(l);
  TENSORMG_CHECK(!s.dg_shared_memories.empty(), "--dg-shared-memory needs at least one value");
  for (const auto& m : s.dg_shared_memories) (void)parse_dg_patch_shared_memory(m);
  TENSORMG_CHECK(!s.dg_scratch_pointers.empty(), "--dg-scratch-pointers needs at least one value");
  for (const auto& p : s.dg_scratch_pointers) (void)parse_dg_patch_scratch_pointer(p);
  TENSORMG_CHECK(!s.dg_contractions.empty(), "--dg-contractions needs at least one value");
  for (const auto& c : s.dg_contractions) {
    const DgPatchContraction contraction = parse_dg_patch_contraction(c);
    const bool runs = s.study == "dg-smoother" &&
                      std::find(s.precisions.begin(), s.precisions.end(), "float") != s.precisions.end() &&
                      std::any_of(s.degrees.begin(), s.degrees.end(), [](int k) { return dg_patch_has_f16(k); });
    TENSORMG_CHECK((contraction != DgPatchContraction::f16 && contraction != DgPatchContraction::f16ec) || runs,
                   "--dg-contractions " << c << " (FP16 products) runs on float DG smoothers of degrees 3..7: give "
                                        << "--study dg-smoother with float among --precisions and a degree in 3..7 "
                                           "among --degrees");
  }
  TENSORMG_CHECK(!s.dims.empty() && !s.degrees.empty() && !s.levels.empty() && !s.smoothers.empty() &&
                     !s.precisions.empty() && !s.patches_per_team.empty() && !s.threads_per_patch.empty(),
                 "--dims, --degrees, --levels, --smoothers, --precisions, --patches-per-team and --threads-per-patch "
                 "need at least one value");
  for (int d : s.dims) TENSORMG_CHECK(d == 2 || d == 3, "dimension " << d << ": use 2 or 3");
  // Operator, hierarchy and vertex-patch kernels exist for the same degrees in every study.
  for (int d : s.dims)
    for (int k : s.degrees) {
      const int max_k = ContinuousDofLayout<Exec>::max_degree(d);
      TENSORMG_CHECK(k >= 1 && k <= max_k, "degree " << k << " is not supported in " << d << "D; use 1.." << max_k);
    }
  if (s.study == "dg-smoother")  // after the degrees: the rule depends on (dim, k)
    for (int d : s.dims)
      for (int k : s.degrees)
        for (int ppt : s.patches_per_team) check_dg_patches_per_team(d, k, ppt);
  if (s.study == "dg-smoother")
    for (const auto& l : s.dg_inversions)
      if (parse_dg_patch_inversion(l) == DgPatchInversion::inverse)
        for (int d : s.dims)
          for (int k : s.degrees) check_dg_dense_inverse(d, k);
  // Level 0 of the unit square is a single cell, too small for a vertex patch; 24 is the mesh's limit.
  for (int L : s.levels) TENSORMG_CHECK(L >= 1 && L <= 24, "--levels " << L << ": use 1..24 refinements");
  for (const auto& m : s.smoothers) (void)parse_smoother_kind(m);
  (void)parse_smoothing_order(s.smoothing_order);
  const auto allowed = study_precisions(s.study);
  for (const auto& p : s.precisions) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : " or ") + a;
    TENSORMG_CHECK(std::find(allowed.begin(), allowed.end(), p) != allowed.end(),
                   "precision '" << p << "' for --study " << s.study << ": use " << list);
  }
  TENSORMG_CHECK(s.variants == "default" || s.variants == "all", "--variants '" << s.variants << "': use default or all");
  TENSORMG_CHECK(!s.thread_structures.empty(), "--thread-structures needs at least one value");
  for (const auto& t : s.thread_structures) (void)parse_thread_structure(t);
  TENSORMG_CHECK(!s.patch_residuals.empty(), "--patch-residuals needs at least one value");
  for (const auto& r : s.patch_residuals) (void)parse_patch_residual(r);
  for (int ppt : s.patches_per_team)
    TENSORMG_CHECK(ppt >= 0 && ppt <= 64, "--patches-per-team must be in 0..64 (0: automatic), given " << ppt);
  for (const auto& t : s.threads_per_patch) {
    const bool number = !t.empty() && t.size() <= 4 && t.find_first_not_of("0123456789") == std::string::npos;
    TENSORMG_CHECK(t == "auto" || t == "interior" || t == "closure" || (number && std::stoi(t) <= 1024),
                   "--threads-per-patch takes auto, interior, closure or a number in 0..1024, given '" << t << "'");
  }
  perf::check_dofs("--dofs", s.dofs);
  perf::check_dofs("--max-dofs", s.max_dofs);
  // Ranges are checked here, not with CLI::Range: a CLI11 validator changes the option's type
  // name, and parse_command_line then leaves out its decimal / finite-number check ("0x3", "nan").
  TENSORMG_CHECK(s.repeats >= 1 && s.repeats <= 1000, "--repeats must be in 1..1000, given " << s.repeats);
  TENSORMG_CHECK(s.cycles >= 1 && s.cycles <= 1000, "--cycles must be in 1..1000, given " << s.cycles);
  // The solves run in double (mixed: a double solver around a float multigrid).
  const double rtol_floor = 8 * std::numeric_limits<double>::epsilon();
  TENSORMG_CHECK(s.rtol >= rtol_floor && s.rtol < 1,
                 "--rtol " << s.rtol << " must be in " << rtol_floor << "..1 (what a double solve can reach, and a reduction)");
  (void)make_poisson_problem(s.problem, 2);
  if (s.study == "fmg")
    for (int d : s.dims)
      for (int k : s.degrees)
        TENSORMG_CHECK(largest_level(d, k, s.max_dofs) >= 2,  // else study_fmg would time nothing
                       "--max-dofs " << s.max_dofs << " leaves no fmg case for " << d << "D Q" << k << ": 2 refinements have "
                                     << dofs_of(d, k, 2) << " DoFs");
}

/// What a multigrid case allocates (the estimate tensormg-poisson checks its solves with).
MemoryNeed multigrid_need(int dim, int k, int L, int number_bytes, int mg_number_bytes, const std::string& solver,
                          SmootherKind smoother, bool mixed_fmg, bool discontinuous = false, bool dg_full = false) {
  SolveShape shape;
  shape.discontinuous = discontinuous;
  shape.dg_global_residual = dg_full;
  shape.brick = unit_brick(dim, L);
  shape.degree = k;
  shape.number_bytes = number_bytes;
  shape.mg_number_bytes = mg_number_bytes;
  shape.outer_vectors = krylov_vectors(solver, 0);
  shape.multigrid = true;
  shape.mixed_full_multigrid = mixed_fmg;
  shape.smoother = smoother;
  return estimate_solve_memory(shape);
}

/// Collective, before the first case runs: every case of the study can be addressed by one rank
/// (32-bit local indices) and fits in memory, so that a sweep does not stop after an hour.
void check_study_sizes(const Settings& s, MPI_Comm comm) {
  const auto check = [&](int dim, int k, const std::string& precision, double nodes, const MemoryNeed& need,
                         const std::string& hint) {
    std::ostringstream what;
    what << "the " << s.study << " case " << dim << "D Q" << k << " " << precision << " with " << nodes << " DoFs";
    TENSORMG_CHECK_COLLECTIVE(comm, nodes <= double(std::numeric_limits<local_index>::max()),
                              what.str() << " has more nodes than the " << std::numeric_limits<local_index>::max()
                                         << " one rank can address with 32-bit local indices; " << hint);
    check_memory(need, device_available_bytes(), device_memory_is_host(), comm, what.str(), hint);
  };
  for (int dim : s.dims)
    for (int k : s.degrees) {
      if (s.study == "iterations") {
        for (const auto& smoother : s.smoothers)
          for (int L : s.levels) {
            if (dofs_of(dim, k, L) > s.max_dofs) continue;  // skipped by the study
            check(dim, k, "double", dofs_of(dim, k, L),
                  multigrid_need(dim, k, L, 8, 8, "fmg", parse_smoother_kind(smoother), false),
                  "use a smaller --max-dofs or fewer --levels");
          }
      } else if (s.study == "dg-iterations") {
        for (const auto& l : s.local_solvers)
          for (int L : s.levels) {
            if (dg_dofs_of(dim, k, L) > s.max_dofs) continue;  // skipped by the study
            check(dim, k, "double", dg_dofs_of(dim, k, L),
                  multigrid_need(dim, k, L, 8, 8, "gmres", SmootherKind::vertex_patch, false, true,
                                 parse_dg_local_solver(l) == DgLocalSolver::full),
                  "use a smaller --max-dofs or fewer --levels");
          }
      } else if (s.study == "dg-smoother") {
        for (const auto& p : s.precisions) {
          // x, b, the full solver's residual and the right-hand side's copy; a margin for the rest.
          const double values = std::pow(double(dg_smoother_cells(s, dim, k)) * (k + 1), dim);
          MemoryNeed need;
          need.device_bytes = 4 * values * (p == "float" ? 4 : 8) + 64.0 * (1 << 20);
          const int cells = dg_smoother_cells(s, dim, k);
          for (const auto& l : s.dg_inversions)
            if (uses_dg_dense_inverse(parse_dg_patch_inversion(l), dim, k, !device_memory_is_host()))
              need.device_bytes += double(dg_dense_inverse_entries(dim, k, {cells, cells, dim == 3 ? cells : 1})) *
                                   (p == "float" ? 4 : 8);
          check(dim, k, p, values, need, "use smaller --dofs");
        }
      } else if (s.study == "smoother") {
        for (const auto& p : s.precisions) {
          // The study's mesh, x, b and the smoother's two work vectors; a margin for the rest.
          const double nodes = std::pow(double(smoother_cells(s, dim, k)) * k + 1, dim);
          MemoryNeed need;
          need.device_bytes = 4 * nodes * (p == "float" ? 4 : 8) + 64.0 * (1 << 20);
          check(dim, k, p, nodes, need, "use smaller --dofs");
        }
      } else if (s.study == "vcycle") {
        const int L = largest_level(dim, k, s.dofs);
        for (const auto& p : s.precisions) {
          const int number = p == "float" ? 4 : 8;
          check(dim, k, p, dofs_of(dim, k, L),
                multigrid_need(dim, k, L, number, number, "vcycle", SmootherKind::vertex_patch, false),
                "use smaller --dofs");
        }
      } else {
        const int top = largest_level(dim, k, s.max_dofs);
        for (const auto& p : s.precisions)
          check(dim, k, p, dofs_of(dim, k, top),
                multigrid_need(dim, k, top, 8, p == "mixed" ? 4 : 8, "fmg", SmootherKind::vertex_patch, p == "mixed"),
                "use a smaller --max-dofs");
      }
    }
}

// ---- iterations -----------------------------------------------------------------------------

Json study_iterations(const Settings& s, MPI_Comm comm, bool root) {
  Json out = Json::array();
  for (int dim : s.dims)
    for (const auto& smoother : s.smoothers) {
      if (root) {
        std::printf("\nFull multigrid iterations, %dD, f = 1, relative accuracy %.0e, smoother %s\n", dim, s.rtol, smoother.c_str());
        std::printf("%4s", "k \\ L");
        for (int L : s.levels) std::printf(" %5d", L);
        std::printf("   (paper 000 §2.2: mesh-independent; <= 3 from k = 3 on; its tables are withheld from our copy)\n");
      }
      for (int k : s.degrees) {
        if (root) std::printf("%5d", k);
        for (int L : s.levels) {
          Json r = Json::object();
          r["dim"] = dim;
          r["degree"] = k;
          r["level"] = L;
          r["smoother"] = smoother;
          r["dofs"] = dofs_of(dim, k, L);
          if (dofs_of(dim, k, L) > s.max_dofs) {
            if (root) std::printf(" %5s", "-");
            r["skipped"] = "above --max-dofs";
            out.push_back(std::move(r));
            continue;
          }
          MultigridOptions mo;
          mo.smoother = parse_smoother_kind(smoother);
          mo.order = parse_smoothing_order(s.smoothing_order);
          const Multigrid<double, Exec> mg(unit_brick(dim, L), k, comm, {}, mo);
          const auto& A = mg.fine_operator();
          auto x = A.make_vector(), b = A.make_vector();
          assemble_rhs(A, make_poisson_problem(s.problem, dim), b);
          SolverControl control;
          control.rtol = s.rtol;
          control.max_iterations = 200;
          const auto result = solve_full_multigrid(mg, A, x, b, control);
          if (root) std::printf(" %5s", result.converged() ? std::to_string(result.iterations).c_str() : "n.c.");
          if (root) std::fflush(stdout);
          r["iterations"] = result.iterations;
          r["converged"] = result.converged();
          r["residual_history"] = result.history;
          out.push_back(std::move(r));
        }
        if (root) std::printf("\n");
      }
    }
  return out;
}

// ---- smoother -------------------------------------------------------------------------------

std::vector<VertexPatchOptions> variant_list(const Settings& s, int dim, int k, std::size_t number_size) {
  std::vector<VertexPatchOptions> v;
  const auto inverse_fits = [&] {
    const double n = std::pow(2 * k - 1, 2 * dim);
    return n * number_size <= 8.0 * (1 << 20);  // the dense inverse must stay cache-sized
  };
  const auto add = [&](PatchKernel kernel, LocalSolver solver, ThreadStructure structure, int ppt, int tpp,
                       PatchResidual residual) {
    VertexPatchOptions o{kernel, solver, structure, ppt, tpp};
    o.residual = residual;
    v.push_back(o);
  };
  for (const auto& residual_name : s.patch_residuals) {
    const PatchResidual residual = parse_patch_residual(residual_name);
    for (int ppt : s.patches_per_team) {
      if (s.variants == "default") {
        for (const auto& t : s.threads_per_patch) {
          const int columns = dim == 2 ? 1 : 2 * k - 1, closure = dim == 2 ? 1 : 2 * k + 1;
          int tpp = 0;
          if (t == "interior") tpp = (2 * k - 1) * columns;
          else if (t == "closure") tpp = (2 * k + 1) * closure;
          else if (t != "auto") tpp = std::stoi(t);  // a number in 0..1024 (validate())
          for (const auto& structure : s.thread_structures) {
            const ThreadStructure t_s = parse_thread_structure(structure);
            // A thread per patch or per line exists for k = 1 only (other degrees skip them, as
            // they do any variant they refuse).
            if ((t_s == ThreadStructure::per_patch || t_s == ThreadStructure::per_line) && k != 1) continue;
            // Patches in SIMD lanes: host, k >= 2, no team shape.
            if (t_s == ThreadStructure::lanes && (k == 1 || !runs_on_host<DefaultExec>() || ppt != 0 || tpp != 0)) continue;
            add(PatchKernel::automatic, LocalSolver::fast_diagonalization, t_s, ppt, tpp, residual);
          }
        }
        continue;
      }
      for (auto kernel : {PatchKernel::global, PatchKernel::separate, PatchKernel::fused})
        for (auto solver : {LocalSolver::fast_diagonalization, LocalSolver::inverse})
          for (auto structure :
               {ThreadStructure::per_dof, ThreadStructure::per_column, ThreadStructure::per_patch, ThreadStructure::per_line,
                ThreadStructure::lanes}) {
            if (solver == LocalSolver::inverse && !inverse_fits()) continue;
            // A thread per patch or line: k = 1, the fused kernel, the division of fast diagonalization.
            if ((structure == ThreadStructure::per_patch || structure == ThreadStructure::per_line) &&
                (k != 1 || kernel != PatchKernel::fused || solver != LocalSolver::fast_diagonalization))
              continue;
            // Patches in SIMD lanes: host, k >= 2, the fused kernel, fast diagonalization.
            if (structure == ThreadStructure::lanes && (k == 1 || !runs_on_host<DefaultExec>() || kernel != PatchKernel::fused ||
                                                        solver != LocalSolver::fast_diagonalization || ppt != 0))
              continue;
            // The Boundary residual is the patch-local residual's (the global kernel refuses it).
            if (kernel == PatchKernel::global && residual == PatchResidual::boundary) continue;
            add(kernel, solver, structure, ppt, 0, residual);
          }
    }
  }
  return v;
}

template <class Number>
void smoother_cases(const Settings& s, MPI_Comm comm, bool root, int dim, int k, const perf::Ceilings& ceil, Json& out) {
  BrickDescription brick;
  brick.dim = dim;
  const int cells = smoother_cells(s, dim, k);
  brick.coarse_cells = {cells, cells, dim == 3 ? cells : 1};
  const auto mesh = std::make_shared<CartesianMesh>(brick, comm);
  const auto layout = std::make_shared<ContinuousDofLayout<Exec>>(mesh, k);
  const auto op = std::make_shared<LaplaceOperator<Number, Exec>>(layout);
  auto x = op->make_vector(), b = op->make_vector();
  b.fill(Number(1));
  const double dofs = double(layout->n_global_dofs());
  const double fma = std::is_same_v<Number, float> ? ceil.fp32_GFLOPs : ceil.fp64_GFLOPs;
  for (const auto& variant : variant_list(s, dim, k, sizeof(Number))) {
    Json r = Json::object();
    r["dim"] = dim;
    r["degree"] = k;
    r["precision"] = number_name<Number>();
    r["kernel_requested"] = to_string(variant.kernel);
    r["local_solver"] = to_string(variant.solver);
    r["thread_structure_requested"] = to_string(variant.structure);
    r["dofs"] = dofs;
    try {
      const VertexPatchSmoother<Number, Exec> smoother(op, variant);
      const double seconds = perf::median_seconds(comm, s.repeats, [&] { smoother.smooth(x, b, SweepOrder::forward); });
      const double gflops = smoother.flops_per_step() / seconds / 1e9;
      // Model of on-chip traffic for the per-DoF threads: every multiply-add reads one operand
      // from scratch and one 1D-matrix entry through L1 (same unit on NVIDIA GPUs). Per column
      // the matrix entries are constant-bank operands and a scratch value feeds ~n multiply-adds,
      // so the model does not apply there and the column reports 0.
      const bool per_dof = smoother.options().structure == ThreadStructure::per_dof;
      const double onchip_GBps = per_dof ? smoother.flops_per_step() * sizeof(Number) / seconds / 1e9 : 0.0;
      r["patches_per_team"] = smoother.patches_per_team();
      r["threads_per_patch"] = smoother.threads_per_patch();
      r["kernel"] = to_string(smoother.options().kernel);
      r["thread_structure"] = to_string(smoother.options().structure);
      r["patch_residual"] = to_string(smoother.options().residual);
      r["seconds"] = seconds;
      r["gdofs_per_second"] = dofs / seconds / 1e9;
      r["gflops"] = gflops;
      const double pct_fma = fma > 0 ? 100 * gflops / fma : 0.0;
      const double pct_shared = ceil.shared_GBps > 0 ? 100 * onchip_GBps / ceil.shared_GBps : 0.0;
      r["pct_fma"] = pct_fma;
      r["pct_shared"] = pct_shared;
      if (root) {
        std::printf("%3d %2d %-6s %-9s %-8s %-21s %-10s %4d %4d %11.0f %9.3f %9.1f %6.2f %7.2f\n", dim, k, number_name<Number>(),
                    to_string(smoother.options().kernel).c_str(), to_string(smoother.options().residual).c_str(),
                    to_string(variant.solver).c_str(), to_string(smoother.options().structure).c_str(),
                    smoother.patches_per_team(), smoother.threads_per_patch(), dofs, dofs / seconds / 1e9, gflops, pct_fma, pct_shared);
        std::fflush(stdout);
      }
    } catch (const InputError& e) {  // a variant this (dim, k) cannot take
      // Only a refusal every rank made is a skipped case; a local one would leave the ranks apart.
      if (!e.collective()) throw;
      if (root) std::printf("%3d %2d %-6s %-9s skipped: %s\n", dim, k, number_name<Number>(), to_string(variant.kernel).c_str(), e.what());
      r["skipped"] = e.what();
    }
    out.push_back(std::move(r));
  }
}

Json study_smoother(const Settings& s, MPI_Comm comm, bool root, const perf::Ceilings& ceil) {
  Json out = Json::array();
  if (root)
    std::printf("%3s %2s %-6s %-9s %-8s %-21s %-10s %4s %4s %11s %9s %9s %6s %7s\n", "dim", "k", "prec", "kernel", "residual", "local solver",
                "threads", "ppt", "tpp", "DoFs", "GDoF/s", "GFLOP/s", "%FMA", "%shared*");
  for (int dim : s.dims)
    for (int k : s.degrees)
      for (const auto& p : s.precisions) {
        if (p == "float") smoother_cases<float>(s, comm, root, dim, k, ceil, out);
        else smoother_cases<double>(s, comm, root, dim, k, ceil, out);
      }
  if (root) std::printf("* on-chip traffic model (per-DoF threads only, 0 per column): one scratch operand and one 1D-matrix entry (L1) per multiply-add\n");
  return out;
}

// ---- vcycle ---------------------------------------------------------------------------------

template <class Number>
Json vcycle_case(const Settings& s, MPI_Comm comm, bool root, int dim, int k, const std::string& residual) {
  const int L = largest_level(dim, k, s.dofs);
  MultigridOptions mo;
  mo.collect_times = true;
  mo.order = parse_smoothing_order(s.smoothing_order);
  mo.patch.residual = parse_patch_residual(residual);
  const Multigrid<Number, Exec> mg(unit_brick(dim, L), k, comm, {}, mo);
  const auto& A = mg.fine_operator();
  auto x = A.make_vector(), b = A.make_vector();
  b.fill(Number(1));
  mg.vmult(x, b);  // warm-up
  mg.reset_times();
  Timer total;
  total.start();
  for (int c = 0; c < s.cycles; ++c) mg.vmult(x, b);
  total.stop();
  const auto times = mg.times();
  double sum = 0;
  for (const auto& [name, t] : times) sum += t;
  Json r = Json::object();
  r["dim"] = dim;
  r["degree"] = k;
  r["level"] = L;
  r["precision"] = number_name<Number>();
  r["patch_residual"] = residual;
  r["dofs"] = double(A.layout().n_global_dofs());
  r["seconds_per_cycle"] = total.seconds() / s.cycles;
  Json comp = Json::object();
  for (const auto& [name, t] : times) comp[name] = t / s.cycles;
  r["components_seconds_per_cycle"] = comp;
  if (root) {
    std::printf("%3d %2d %-6s %-8s L=%d %11.0f DoFs  %.4e s/cycle:", dim, k, number_name<Number>(), residual.c_str(), L,
                double(A.layout().n_global_dofs()),
                total.seconds() / s.cycles);
    for (const auto& [name, t] : times) std::printf("  %s %.1f%%", name.c_str(), 100 * t / sum);
    std::printf("\n");
    std::fflush(stdout);
  }
  return r;
}

Json study_vcycle(const Settings& s, MPI_Comm comm, bool root) {
  Json out = Json::array();
  for (int dim : s.dims)
    for (int k : s.degrees)
      for (const auto& p : s.precisions)
        for (const auto& res : s.patch_residuals)
          out.push_back(p == "float" ? vcycle_case<float>(s, comm, root, dim, k, res) : vcycle_case<double>(s, comm, root, dim, k, res));
  return out;
}

// ---- fmg ------------------------------------------------------------------------------------

template <class MGNumber>
Json fmg_case(const Settings& s, MPI_Comm comm, bool root, int dim, int k, int L, const std::string& residual) {
  // As the driver builds it: one hierarchy; mixed runs MixedFullMultigrid (float cycle, double
  // start) when there are two levels or more.
  const auto hierarchy = std::make_shared<const LevelHierarchy<Exec>>(unit_brick(dim, L), k, comm);
  const auto layout = hierarchy->finest();
  std::unique_ptr<Multigrid<MGNumber, Exec>> mg;
  std::unique_ptr<MixedFullMultigrid<Exec>> mixed;
  MultigridOptions mo;
  mo.order = parse_smoothing_order(s.smoothing_order);
  mo.patch.residual = parse_patch_residual(residual);
  if (std::is_same_v<MGNumber, float> && hierarchy->n_levels() >= 2)
    mixed = std::make_unique<MixedFullMultigrid<Exec>>(hierarchy, LaplaceOptions{}, mo);
  else mg = std::make_unique<Multigrid<MGNumber, Exec>>(hierarchy, LaplaceOptions{}, mo);
  const LaplaceOperator<double, Exec> A(layout);
  const auto problem = make_poisson_problem(s.problem, dim);
  auto x = A.make_vector(), b = A.make_vector();
  assemble_rhs(A, problem, b);
  SolverControl control;
  control.rtol = s.rtol;
  control.max_iterations = 100;
  SolverResult result;
  const int repeats = std::max(1, std::min(s.repeats, 5));
  const double seconds = perf::median_seconds(comm, repeats, [&] {
    x.fill(0.0);
    result = mixed ? mixed->solve(A, x, b, control) : solve_full_multigrid(*mg, A, x, b, control);
  }, 0.0);
  const double dofs = double(layout->n_global_dofs());
  Json r = Json::object();
  r["dim"] = dim;
  r["degree"] = k;
  r["level"] = L;
  r["precision"] = std::is_same_v<MGNumber, double> ? "double" : "mixed";
  r["patch_residual"] = residual;
  r["dofs"] = dofs;
  r["seconds"] = seconds;
  r["seconds_per_gdof"] = seconds / (dofs / 1e9);
  r["iterations"] = result.iterations;
  r["converged"] = result.converged();
  r["relative_residual"] = result.true_residual / double(b.l2_norm());
  double l2 = 0;
  if (problem.known_solution()) {
    l2 = compute_errors(*layout, x, problem).l2;
    r["l2_error"] = l2;
  }
  if (root) {
    std::printf("%3d %2d %-6s %-8s %2d %12.0f %9.4f %9.3f %4d %10.2e %10.3e\n", dim, k,
                std::is_same_v<MGNumber, double> ? "double" : "mixed", residual.c_str(), L, dofs, seconds, seconds / (dofs / 1e9), result.iterations, result.true_residual / double(b.l2_norm()), l2);
    std::fflush(stdout);
  }
  return r;
}

Json study_fmg(const Settings& s, MPI_Comm comm, bool root) {
  Json out = Json::array();
  if (root)
    std::printf("%3s %2s %-6s %-8s %2s %12s %9s %9s %4s %10s %10s\n", "dim", "k", "prec", "residual", "L", "DoFs", "seconds", "s/GDoF", "its",
                "rel.res.", "L2 error");
  for (int dim : s.dims)
    for (int k : s.degrees) {
      const int top = largest_level(dim, k, s.max_dofs);
      for (int L = fmg_lowest_level(top); L <= top; ++L)
        for (const auto& p : s.precisions)
          for (const auto& res : s.patch_residuals) {
            if (p == "mixed") out.push_back(fmg_case<float>(s, comm, root, dim, k, L, res));
            else out.push_back(fmg_case<double>(s, comm, root, dim, k, L, res));
          }
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  return run_program(argc, argv, [](Environment& env) {
    Settings s;
    std::string output;
    bool overwrite = false;
    CLI::App app{"tensormg-bench-multigrid: iteration counts, smoother throughput, V-cycle breakdown, FMG time"};
    app.add_option("--study", s.study, "iterations, smoother, vcycle, fmg, dg-smoother or dg-iterations");
    app.add_option("--local-solvers", s.local_solvers, "dg-iterations: DG vertex-patch local solvers, full and/or dirichlet")->delimiter(',');
    app.add_option("--dg-layouts", s.dg_layouts, "dg-smoother: scratch layouts of the DG patch kernel, padded and/or plain")
        ->delimiter(',');
    app.add_option("--dg-inversions", s.dg_inversions,
                   "dg-smoother: local-problem inversions, auto, fast-diagonalization and/or inverse (dense; 3D k <= 4)")
        ->delimiter(',');
    app.add_option("--dg-shared-memory", s.dg_shared_memories,
                   "dg-smoother: the line kernel's shared memory per team, auto, block (48 KB, global memory "
                   "beyond) and/or opt-in (the opt-in shared memory, 227 KB on Hopper)")
        ->delimiter(',');
    app.add_option("--dg-scratch-pointers", s.dg_scratch_pointers,
                   "dg-smoother: how the device kernels address their shared-memory buffers, auto (the tuning rows), "
                   "fast (shared-memory loads; the line kernel stores through the generic pointer) and/or generic "
                   "(Kokkos' generic pointer)")
        ->delimiter(',');
    app.add_option("--dg-contractions", s.dg_contractions,
                   "dg-smoother: patch-kernel contractions, auto, lines and/or blocks (tensor cores where the build has "
                   "them: CUDA FP64 k = 3, and k = 4..7 on sm_90)")
        ->delimiter(',');
    app.add_option("--dims", s.dims, "dimensions")->delimiter(',');
    app.add_option("--degrees", s.degrees, "polynomial degrees")->delimiter(',');
    app.add_option("--levels", s.levels, "refinements of the unit cell (iterations, dg-iterations)")->delimiter(',');
    app.add_option("--smoothers", s.smoothers, "vertex-patch, jacobi, chebyshev, gauss-seidel (iterations study)")->delimiter(',');
    app.add_option("--smoothing-order", s.smoothing_order,
                   "V-cycle smoothing order (iterations, vcycle, fmg): auto (forward in these multigrid iterations), "
                   "symmetric or forward");
    app.add_option("--precisions", s.precisions, "double, float (smoother, vcycle); double, mixed (fmg); double (iterations)")->delimiter(',');
    app.add_option("--variants", s.variants, "smoother study: default (automatic kernel, fast diagonalization, --thread-structures) or all");
    app.add_option("--patches-per-team", s.patches_per_team, "smoother and dg-smoother studies: patches per team (0: automatic)")
        ->delimiter(',');
    app.add_option("--patch-residuals", s.patch_residuals,
                   "smoother, vcycle, fmg: vertex-patch local residual(s): auto (the tuning table's), full and/or "
                   "boundary (paper 000 §4.1.3: x read on the patch boundary layer only)")
        ->delimiter(',');
    app.add_option("--thread-structures", s.thread_structures,
                   "smoother study, default variant: vertex-patch thread structure(s): auto (the tuning table's), "
                   "per-column, per-dof, per-patch and/or per-line (k = 1), lanes (CPU, k >= 2)")
        ->delimiter(',');
    app.add_option("--threads-per-patch", s.threads_per_patch,
                   "smoother study, default variant: threads per patch: auto, interior ((2k-1)^(d-1) columns), closure ((2k+1)^(d-1)) or a number")->delimiter(',');
    app.add_option("--dofs", s.dofs, "target DoFs (smoother, vcycle)");
    app.add_option("--max-dofs", s.max_dofs, "largest DoF count (iterations, dg-iterations, fmg)");
    app.add_option("--rtol", s.rtol, "relative accuracy of the multigrid solves");
    app.add_option("--problem", s.problem, "one (f = 1) or sine");
    app.add_option("--repeats", s.repeats, "timed repetitions (median), 1..1000");
    app.add_option("--cycles", s.cycles, "V-cycles timed in the vcycle study, 1..1000");
    app.add_option("--ceilings", s.ceilings, "tensormg-ceilings record for % of ceiling");
    app.add_option("-o,--output", output, "JSON results file");
    app.add_flag("--overwrite", overwrite, "replace an existing results file");
    perf::add_warmup_option(app);
    if (auto code = parse_command_line(app, env)) return *code;
    // Every rank parsed the same arguments: each refusal is one collective message, exit code 2.
    perf::Ceilings ceil;
    collectively(env.comm(), [&] {
      perf::check_warmup_option();
      validate(s, env.size());
      ceil = perf::load_ceilings(s.ceilings);
    });
    // Before the first case: the results file can be written, and every case fits.
    if (app.count("--output") > 0) check_output_writable({output}, overwrite, env.comm());
    check_study_sizes(s, env.comm());
    const bool root = env.rank() == 0;
    Json results;
    if (s.study == "iterations") results = study_iterations(s, env.comm(), root);
    else if (s.study == "smoother") results = study_smoother(s, env.comm(), root, ceil);
    else if (s.study == "vcycle") results = study_vcycle(s, env.comm(), root);
    else if (s.study == "dg-smoother") results = study_dg_smoother(s, env.comm(), root, ceil);
    else if (s.study == "dg-iterations") results = study_dg_iterations(s, env.comm(), root);
    else results = study_fmg(s, env.comm(), root);
    if (output.empty()) return 0;
    // Rank 0 writes; a failure there is everyone's error (one message, exit code 2).
    collectively(env.comm(), [&] {
      if (!root) return;
      Json record = Json::object();
      record["kind"] = "tensormg-bench-multigrid";
      record["study"] = s.study;
      record["smoothing_order"] = s.smoothing_order;
      record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
      record["ceilings_record"] = s.ceilings;
      record["results"] = results;
      write_text_file_atomically(output, record.dump(2) + "\n");
    });
    return 0;
  });
}
