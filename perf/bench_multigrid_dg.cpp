// The DG (SIPG) studies of tensormg-bench-multigrid (paper 002): dg-iterations (Tables 1 and 2)
// and dg-smoother (one smoothing step, Table 3's layouts). bench_multigrid.cpp parses and checks
// the options and dispatches here.
#include "perf/bench_multigrid.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "core/timer.hpp"
#include "discretization/dg_poisson.hpp"
#include "discretization/poisson_problem.hpp"
#include "multigrid/multigrid.hpp"
#include "smoothers/dg_vertex_patch_smoother.hpp"

namespace tensormg::bench_multigrid {

namespace {

/// Paper 002 Tables 1 and 2 (3D, relative accuracy 1e-8, A100 study): the fractional iteration
/// counts by finest level L = 2..7 (rows) and degree k = 3..7 (columns); NaN where the paper has
/// none. The paper's extracted text names neither axis; the degrees are those of its authors'
/// table scripts (CuiCu-618/GPUTensorProductSmoothers, DG branches: 3D degrees 3..7), and their
/// GMRES is deal.II's left-preconditioned one, stopped on the preconditioned residual, where ours
/// measures the true residual.
double paper002_iterations(const std::string& solver, int L, int k) {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  static constexpr double full[6][5] = {{3.4, 2.9, 2.8, 2.6, 2.4}, {3.7, 3.2, 2.8, 2.6, 2.3}, {3.6, 3.1, 2.7, 2.5, 2.2},
                                        {3.4, 2.8, 2.5, 2.4, 2.0}, {3.0, 2.6, 2.4, 2.2, 1.8}, {2.8, 2.5, 1.9, 1.9, nan}};
  static constexpr double dirichlet[6][5] = {{4.9, 4.4, 4.8, 4.8, 5.0}, {5.7, 5.9, 6.1, 6.2, 6.5}, {5.6, 6.1, 6.1, 6.1, 6.4},
                                             {5.4, 5.7, 5.8, 5.8, 6.2}, {5.3, 5.5, 5.6, 5.6, 5.9}, {4.9, 5.3, 5.4, nan, nan}};
  static constexpr double clamped[6][5] = {{18.6, 11.1, 7.9, 6.6, 5.4}, {22.7, 12.2, 7.7, 6.6, 5.2}, {21.7, 11.6, 7.4, 5.8, 4.8},
                                           {19.0, 10.7, 6.9, 5.7, 4.7}, {17.6, 9.7, 6.6, 5.5, 4.6}, {16.4, 8.8, 6.0, nan, nan}};
  if (L < 2 || L > 7 || k < 3 || k > 7) return nan;
  const auto& t = solver == "full" ? full : solver == "dirichlet" ? dirichlet : clamped;
  return t[L - 2][k - 3];
}

/// Paper 002 Tables 1 and 2: GMRES with one V-cycle (symmetric order) as preconditioner on the DG
/// discretization of the unit cube refined L times, f = 1, to --rtol; the fractional iteration
/// count n log(rtol) / log(|r_n| / |r_0|) per degree (rows) and level (columns), one table per
/// local solver. Each case also records its setup (hierarchy, operators, smoothers) and solve times.
}  // namespace

Json study_dg_iterations(const Settings& s, MPI_Comm comm, bool root) {
  Json out = Json::array();
  for (int dim : s.dims)
    for (const auto& solver_name : s.local_solvers) {
      const DgLocalSolver solver = parse_dg_local_solver(solver_name);
      if (root) {
        std::printf("\nDG multigrid: GMRES + V-cycle, %dD, f = 1, relative accuracy %.0e, %s local solver: fractional "
                    "iterations | paper 002 (3D, 1e-8) (setup s / solve s)\n", dim, s.rtol, solver_name.c_str());
        std::printf("%4s", "k \\ L");
        for (int L : s.levels) std::printf(" %26d", L);
        std::printf("\n");
      }
      for (int k : s.degrees) {
        if (root) std::printf("%5d", k);
        for (int L : s.levels) {
          Json r = Json::object();
          r["dim"] = dim;
          r["degree"] = k;
          r["level"] = L;
          r["local_solver"] = solver_name;
          r["dofs"] = dg_dofs_of(dim, k, L);
          const bool too_low = solver == DgLocalSolver::clamped && k < 3;  // refused: the spaces do not cover
          if (dg_dofs_of(dim, k, L) > s.max_dofs || too_low) {
            if (root) std::printf(" %26s", too_low ? "(clamped: k >= 3)" : "-");
            r["skipped"] = too_low ? "the clamped local solver needs k >= 3" : "above --max-dofs";
            out.push_back(std::move(r));
            continue;
          }
          MultigridOptions mo;
          mo.dg_solver = solver;
          mo.order = parse_smoothing_order(s.smoothing_order);
          Timer setup;
          setup.start();
          const Multigrid<double, Exec, DgSipg> mg(unit_brick(dim, L), k, comm, {}, mo);
          setup.stop();
          const auto& A = mg.fine_operator();
          auto x = A.make_vector(), b = A.make_vector();
          assemble_rhs(A, make_poisson_problem(s.problem, dim), b);
          SolverControl control;
          control.rtol = s.rtol;
          control.max_iterations = 200;
          control.restart = 50;
          const MultigridPreconditioner<double, double, Exec, DgSipg> P(mg);
          Timer solve;
          solve.start();
          const auto result = solve_gmres(A, x, b, P, control);
          solve.stop();
          const double fractional = result.fractional_iterations(s.rtol);
          const double paper = dim == 3 ? paper002_iterations(solver_name, L, k) : std::numeric_limits<double>::quiet_NaN();
          if (root) {
            char cell[96], theirs[16] = "-";
            if (std::isfinite(paper)) std::snprintf(theirs, sizeof theirs, "%.1f", paper);
            if (result.converged())
              std::snprintf(cell, sizeof cell, "%.1f|%s (%.3g/%.3g)", fractional, theirs, setup.seconds(), solve.seconds());
            else
              std::snprintf(cell, sizeof cell, "n.c.|%s", theirs);
            std::printf(" %26s", cell);
            std::fflush(stdout);
          }
          if (std::isfinite(paper)) r["paper_fractional_iterations"] = paper;
          r["iterations"] = result.iterations;
          if (std::isfinite(fractional)) r["fractional_iterations"] = fractional;
          r["converged"] = result.converged();
          r["setup_seconds"] = setup.seconds();
          r["solve_seconds"] = solve.seconds();
          r["residual_history"] = result.history;
          out.push_back(std::move(r));
        }
        if (root) std::printf("\n");
      }
    }
  return out;
}

namespace {

// ---- dg-smoother ----------------------------------------------------------------------------

template <class Number>
void dg_smoother_cases(const Settings& s, MPI_Comm comm, bool root, int dim, int k, const perf::Ceilings& ceil, Json& out) {
  BrickDescription brick;
  brick.dim = dim;
  const int cells = dg_smoother_cells(s, dim, k);
  brick.coarse_cells = {cells, cells, dim == 3 ? cells : 1};
  const auto layout = std::make_shared<DgDofLayout<Exec>>(std::make_shared<CartesianMesh>(brick, comm), k);
  const auto op = std::make_shared<const DgLaplaceOperator<Number, Exec>>(layout);
  auto x = op->make_vector(), b = op->make_vector();
  b.fill(Number(1));
  const double dofs = double(layout->n_global_dofs());
  double patches = 1;
  for (int d = 0; d < dim; ++d) patches *= cells - 1;
  for (const auto& pointer_name : s.dg_scratch_pointers)
  for (const auto& shared_name : s.dg_shared_memories)
  for (const auto& contraction_name : s.dg_contractions)
  for (const auto& inversion_name : s.dg_inversions)
  for (const auto& layout_name : s.dg_layouts)
  for (const int ppt : s.patches_per_team)
  for (const auto solver : {DgLocalSolver::dirichlet, DgLocalSolver::clamped, DgLocalSolver::full}) {
    if (solver == DgLocalSolver::clamped && k < 3) continue;
    const DgPatchLayout patch_layout = parse_dg_patch_layout(layout_name);
    DgPatchKernelOptions options{patch_layout, ppt, parse_dg_patch_inversion(inversion_name)};
    options.contraction = parse_dg_patch_contraction(contraction_name);
    options.shared_memory = parse_dg_patch_shared_memory(shared_name);
    options.scratch_pointer = parse_dg_patch_scratch_pointer(pointer_name);
    // FP16 products run on float smoothers of degrees 3..7 with the fast-diagonalization solve; the
    // sweep's other cases skip them (validate checks that some case runs them).
    if ((options.contraction == DgPatchContraction::f16 || options.contraction == DgPatchContraction::f16ec) &&
        (!std::is_same_v<Number, float> || !dg_patch_has_f16(k) ||
         uses_dg_dense_inverse(options.inversion, dim, k, !runs_on_host<Exec>())))
      continue;
    const DgVertexPatchSmoother<Number, Exec> smoother(op, solver, options);
    const DgPatchInversion inversion = smoother.kernel_options().inversion;  // auto resolved
    const double seconds = perf::median_seconds(comm, s.repeats, [&] { smoother.smooth(x, b, SweepOrder::forward); });
    // The FMAs the kernel does on an interior patch (N = 2(k+1) values per direction, m of them
    // unknowns: N full, N − 2 Dirichlet, N − 4 clamped), 2 flops each: the patch residual (2D 4,
    // 3D 7 contractions of N^(d+1); not for full, whose global residual is one operator
    // application per colour), the forward transforms to the m eigen coordinates, the backward
    // ones to all N values (dg_vertex_patch_kernels.hpp); the dense inverse: P² for the P = N^d
    // patch values (its zero rows and columns included).
    const double N = 2.0 * (k + 1);
    const double m = solver == DgLocalSolver::full ? N : solver == DgLocalSolver::dirichlet ? N - 2 : N - 4;
    const double residual = solver == DgLocalSolver::full ? 0 : (dim == 2 ? 4 : 7) * std::pow(N, dim + 1);
    const double solve =
        inversion == DgPatchInversion::inverse ? std::pow(N, 2 * dim)
        : dim == 2 ? N * m * N + m * (m * N + N * N) + N * N * N
                   : N * N * m * N + m * N * m * N + m * m * (m * N + N * N) + m * N * N * N + N * N * N * N;
    const double flops = patches * 2 * (residual + solve) +
                         (solver == DgLocalSolver::full ? (1 << dim) * op->flops_per_vmult() : 0.0);
    const double gflops = flops / seconds / 1e9;
    const double fma = std::is_same_v<Number, float> ? ceil.fp32_GFLOPs : ceil.fp64_GFLOPs;
    Json r = Json::object();
    r["dim"] = dim;
    r["degree"] = k;
    r["precision"] = number_name<Number>();
    r["local_solver"] = to_string(solver);
    r["layout"] = to_string(patch_layout);
    r["inversion"] = to_string(inversion);
    r["patches_per_team"] = ppt;
    r["contraction"] = contraction_name;
    r["shared_memory"] = to_string(smoother.kernel_options().shared_memory);
    r["scratch_pointer"] = pointer_name;
    r["dofs"] = dofs;
    r["seconds"] = seconds;
    r["GDoFps"] = dofs / seconds / 1e9;
    r["GFLOPs"] = gflops;
    if (fma > 0) r["pct_fma_ceiling"] = 100 * gflops / fma;
    if (root) {
      std::printf("%3d %2d %-6s %-9s %-7s %-6s %-6s %-6s %-7s %3d %11.0f %9.3f %9.1f %6.2f\n", dim, k, number_name<Number>(),
                  to_string(solver).c_str(), inversion == DgPatchInversion::inverse ? "inverse" : "fd",
                  to_string(patch_layout).c_str(), contraction_name.c_str(),
                  to_string(smoother.kernel_options().shared_memory).c_str(), pointer_name.c_str(), ppt, dofs, dofs / seconds / 1e9, gflops, fma > 0 ? 100 * gflops / fma : 0.0);
      std::fflush(stdout);
    }
    out.push_back(std::move(r));
  }
}

}  // namespace

Json study_dg_smoother(const Settings& s, MPI_Comm comm, bool root, const perf::Ceilings& ceil) {
  Json out = Json::array();
  if (root)
    std::printf("%3s %2s %-6s %-9s %-7s %-6s %-6s %-6s %-7s %3s %11s %9s %9s %6s\n", "dim", "k", "prec", "solver", "inverse", "layout",
                "contr.", "shared", "scratch", "ppt", "DoFs",
                "GDoF/s", "GFLOP/s", "%FMA");
  for (int dim : s.dims)
    for (int k : s.degrees)
      for (const auto& p : s.precisions) {
        if (p == "float") dg_smoother_cases<float>(s, comm, root, dim, k, ceil, out);
        else dg_smoother_cases<double>(s, comm, root, dim, k, ceil, out);
      }
  if (root)
    std::printf("flops: interior patches' FMAs x 2 (patch residual, transforms to the local solver's m of 2n eigen "
                "coordinates and back; or P^2 of the dense inverse); full adds 2^d operator applications\n");
  return out;
}

}  // namespace tensormg::bench_multigrid
