// tensormg-bench-bp: the CEED bake-off operators on deformed meshes (paper 003). Per case (problem,
// degree, size, precision): the element kernel on E-vectors (what paper 003 times; bytes by its
// Table 2 model, % of the measured DRAM copy bandwidth, GFLOP/s, arithmetic intensity), the full
// BP operator on the continuous vector with the gather/scatter fused into the kernel or separate,
// and CG with a fixed iteration count (CEED protocol: BP1 = mass, BP3 = BP3.0, BP5 = BP3.5).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "backends/device.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/fused_cg.hpp"
#include "core/json.hpp"
#include "core/krylov.hpp"
#include "core/memory.hpp"
#include "core/output_file.hpp"
#include "core/provenance.hpp"
#include "discretization/bake_off_operator.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/memory_estimate.hpp"
#include "perf/benchmark_support.hpp"

namespace {

using namespace tensormg;
using Exec = DefaultExec;

struct Case {
  BakeOff problem;
  int degree;
  double target_dofs;
  std::string precision;
  BakeOffGather gather;
  int cells_per_team;
  BakeOffElementIo element_io;
  BakeOffPrefetch prefetch;
  bool atomic_interior;
  BakeOffGeometry geometry;
  std::string cg_variant;  ///< fused, fused-kernel-dot or textbook
};

/// Cells per direction so that the continuous node count (N k + 1)³ is close to `dofs`.
int cells_for(int k, double dofs) { return std::max(1, int(std::lround((std::cbrt(dofs) - 1) / k))); }

/// Checks, collectively and before any case runs, that every case can be addressed with 32-bit
/// local indices and fits in memory: the factors (computed in double, then rounded for float),
/// two E-vectors, the CG vectors (x, b and 4 of CG's own), and a margin for Kokkos.
void check_sizes(const std::vector<Case>& cases, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  for (const Case& c : cases) {
    const global_index cells = cells_for(c.degree, c.target_dofs);
    const std::array<global_index, 3> n_cells{cells, cells, cells};
    const double nodes = largest_rank_box_nodes(3, c.degree, n_cells, ranks);
    const double rank_cells = double(cells) * cells * cells / ranks * 1.1 + 1;
    const int n = c.degree + 1, q = quadrature_points_1d(c.degree, quadrature_of(c.problem));
    const double element_values = rank_cells * n * n * n;
    std::ostringstream what;
    what << "the case " << to_string(c.problem) << " Q" << c.degree << " " << c.precision << " with "
         << std::pow(double(cells) * c.degree + 1, 3) << " DoFs";
    TENSORMG_CHECK_COLLECTIVE(comm, nodes <= double(std::numeric_limits<local_index>::max()) &&
                                        element_values <= double(std::numeric_limits<local_index>::max()),
                              what.str() << " puts " << std::max(nodes, element_values)
                                         << " values on one rank, more than the "
                                         << std::numeric_limits<local_index>::max()
                                         << " one rank can address with 32-bit local indices; use smaller --dofs or "
                                            "more MPI ranks");
    const double number = c.precision == "float" ? sizeof(float) : sizeof(double);
    // The factors (computed in double, then rounded for float), or the trilinear geometry's
    // vertices (one per cell and 3 doubles each, with a margin for the last layers).
    const double factors = c.geometry == BakeOffGeometry::trilinear
                               ? 0.0
                               : rank_cells * (has_stiffness(c.problem) ? 7 : 1) * double(q) * q * q;
    const double vertex_bytes = c.geometry == BakeOffGeometry::trilinear ? 1.2 * rank_cells * 3 * sizeof(double) : 0.0;
    MemoryNeed need;
    need.device_bytes = factors * (sizeof(double) + (c.precision == "float" ? number : 0)) + vertex_bytes +
                        2 * element_values * number +
                        (2 + krylov_vectors("cg", 0)) * nodes * number + 64.0 * (1 << 20);
    check_memory(need, device_available_bytes(), device_memory_is_host(), comm, what.str(),
                 "use smaller --dofs or more MPI ranks");
  }
}

/// Why the case's team shape (--cells-per-team) cannot run this problem and degree, or "" if it can:
/// such cases are skipped; every other refusal (an inverted mesh, memory) ends the run.
template <class Number>
std::string team_shape_refusal(const Case& c, MPI_Comm comm) {
  std::string why;
  try {
    collectively(comm, [&] {
      (void)choose_cells_per_team<Exec>(bake_off_kernels<Number, Exec>(c.problem, c.degree), c.cells_per_team,
                                        to_string(c.problem) + " at Q" + std::to_string(c.degree));
    });
  } catch (const InputError& e) {
    why = e.what();
  }
  return why;
}

template <class Number>
double global_geometry_bytes(const BakeOffOperator<Number, Exec>& op, MPI_Comm comm) {
  double local = op.geometry_bytes(), global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
  return global;
}

template <class Number>
Json run_case(const Case& c, const DeformationOptions& deformation, MPI_Comm comm, int repeats, int cg_iterations,
              const perf::Ceilings& ceil, std::string& line) {
  const bool fused_cg = c.cg_variant != "textbook";
  BrickDescription brick;
  brick.dim = 3;
  const int cells = cells_for(c.degree, c.target_dofs);
  brick.coarse_cells = {cells, cells, cells};
  const auto mesh = std::make_shared<CartesianMesh>(brick, comm);
  const auto layout = std::make_shared<ContinuousDofLayout<Exec>>(mesh, c.degree);
  const auto geometry = std::make_shared<DeformedGeometry<Exec>>(layout, deformation);
  BakeOffOptions options;  // (the team shape was checked by team_shape_refusal)
  options.problem = c.problem;
  options.gather = c.gather;
  options.cells_per_team = c.cells_per_team;
  options.element_io = c.element_io;
  options.prefetch = c.prefetch;
  options.atomic_interior = c.atomic_interior;
  options.geometry = c.geometry;
  options.kernel_dot = c.cg_variant == "fused-kernel-dot";
  const BakeOffOperator<Number, Exec> op(geometry, options);

  // Element kernel on E-vectors (values not zero: METHOD.md).
  auto src = op.make_element_vector("src"), dst = op.make_element_vector("dst");
  Kokkos::parallel_for("tensormg::bench::fill", Kokkos::RangePolicy<Exec>(0, src.extent(0)),
                       KOKKOS_LAMBDA(std::size_t i) { src(i) = Number(0.5) + Number((i * 7919) % 1000) * Number(1e-3); });
  const double element_seconds = perf::median_seconds(comm, repeats, [&] { op.apply_elements(dst, src); });
  double local[4] = {op.flops_per_apply(), op.model_bytes_per_apply(), double(op.n_cells()) * op.nodes_per_cell(),
                     op.scratch_bytes_per_apply()}, sums[4];
  MPI_Allreduce(local, sums, 4, MPI_DOUBLE, MPI_SUM, comm);
  const double flops = sums[0], model_bytes = sums[1], element_dofs = sums[2], scratch_bytes = sums[3];
  const double dofs = double(layout->n_global_dofs());

  Json r = Json::object();
  r["problem"] = to_string(c.problem);
  r["degree"] = c.degree;
  r["precision"] = c.precision;
  r["deformation"] = to_string(deformation.kind);
  r["amplitude"] = deformation.amplitude;
  r["cells"] = mesh->n_global_cells();
  r["dofs"] = layout->n_global_dofs();
  r["element_dofs"] = element_dofs;
  r["cells_per_team"] = op.cells_per_team();
  r["element_io"] = to_string(op.element_io());
  r["prefetch"] = op.prefetches();
  r["geometry"] = to_string(c.geometry);
  r["geometry_bytes_per_dof"] = global_geometry_bytes(op, comm) / dofs;
  Json e = Json::object();
  e["seconds"] = element_seconds;
  e["GDoFps"] = dofs / element_seconds / 1e9;
  e["element_GDoFps"] = element_dofs / element_seconds / 1e9;
  e["GFLOPs"] = flops / element_seconds / 1e9;
  e["model_bytes"] = model_bytes;
  e["model_GBps"] = model_bytes / element_seconds / 1e9;
  e["model_bytes_per_dof"] = model_bytes / dofs;
  e["arithmetic_intensity"] = flops / model_bytes;
  const double fma = c.precision == "float" ? ceil.fp32_GFLOPs : ceil.fp64_GFLOPs;
  double pct_dram = 0;
  if (ceil.dram_GBps > 0) {
    e["pct_dram_copy"] = pct_dram = 100 * model_bytes / element_seconds / 1e9 / ceil.dram_GBps;
    // The DRAM roofline of paper 003 (12): copy bandwidth × flops / bytes, capped by the FMA ceiling.
    const double roof = std::min(ceil.dram_GBps * flops / model_bytes, fma > 0 ? fma : 1e300);
    e["roofline_GFLOPs"] = roof;
    e["pct_roofline"] = 100 * flops / element_seconds / 1e9 / roof;
  }
  if (fma > 0) e["pct_fma"] = 100 * flops / element_seconds / 1e9 / fma;
  // The shared-memory side (paper 003 §6's second roofline): scratch values loaded and stored.
  e["scratch_bytes"] = scratch_bytes;
  e["scratch_GBps"] = scratch_bytes / element_seconds / 1e9;
  if (ceil.shared_GBps > 0) e["pct_shared"] = 100 * scratch_bytes / element_seconds / 1e9 / ceil.shared_GBps;
  r["element_kernel"] = e;

  // Full operator on the continuous vector and CG with a fixed iteration count.
  auto x = op.make_vector("x"), y = op.make_vector("y"), b = op.make_vector("b");
  const auto xv = x.view();
  Kokkos::parallel_for("tensormg::bench::fill", Kokkos::RangePolicy<Exec>(0, x.n_owned()),
                       KOKKOS_LAMBDA(local_index i) { xv(i) = Number(0.5) + Number((i * 7919) % 1000) * Number(1e-3); });
  const double vmult_seconds = perf::median_seconds(comm, repeats, [&] { op.vmult(y, x); });
  Json v = Json::object();
  v["gather"] = to_string(c.gather);
  v["interior_nodes"] = c.atomic_interior ? "atomic" : "store";
  v["fused_io"] = to_string(op.fused_io());
  v["seconds"] = vmult_seconds;
  v["GDoFps"] = dofs / vmult_seconds / 1e9;
  // Least traffic of the full operator: read x, write y (both continuous) and the factors (or
  // the vertices).
  const double factor_bytes = model_bytes - 2.0 * element_dofs * sizeof(Number);  // the model less u_e, v_e
  const double full_bytes = factor_bytes + 2.0 * dofs * sizeof(Number);
  v["model_bytes"] = full_bytes;
  v["model_bytes_per_dof"] = full_bytes / dofs;
  if (ceil.dram_GBps > 0) v["pct_dram_copy"] = 100 * full_bytes / vmult_seconds / 1e9 / ceil.dram_GBps;
  r["operator"] = v;
  double cg_seconds = 0, cg_marginal = 0;
  if (cg_iterations > 0) {
    op.vmult(b, x);  // b = A x*, start from zero
    SolverResult result;
    const auto solve = [&](int iterations) {
      SolverControl control;
      control.max_iterations = iterations;
      control.rtol = 0;
      control.atol = 0;
      return perf::median_seconds(comm, std::min(repeats, 3), [&] {
        y.fill(Number(0));
        // Fused: p·Ap by a dot product after vmult (fused-kernel-dot: from the operator's
        // kernel), one pass r −= αAp with ‖r‖², one x += αp, p = r + βp (core/fused_cg.hpp); textbook:
        // solve_cg with the identity preconditioner (z = r copied, separate updates).
        result = fused_cg ? solve_cg_fused(op, y, b, control) : solve_cg(op, y, b, IdentityPreconditioner{}, control);
      });
    };
    // A solve of one iteration as well: the difference is the cost of cg_iterations − 1
    // iterations without what every solve pays once (its three work vectors allocated and zeroed,
    // the initial residual's and the final true residual's operator applications).
    const double one_seconds = cg_iterations > 1 ? solve(1) : 0;
    cg_seconds = solve(cg_iterations);
    Json g = Json::object();
    g["variant"] = c.cg_variant;
    g["iterations"] = result.iterations;
    g["seconds"] = cg_seconds;
    g["GDoFps_per_iteration"] = dofs * result.iterations / cg_seconds / 1e9;
    if (cg_iterations > 1 && cg_seconds > one_seconds) {
      cg_marginal = (cg_seconds - one_seconds) / (cg_iterations - 1);
      g["one_iteration_seconds"] = one_seconds;
      g["seconds_per_iteration_marginal"] = cg_marginal;
      g["GDoFps_per_iteration_marginal"] = dofs / cg_marginal / 1e9;
    }
    g["relative_residual"] = result.final_residual / result.initial_residual;
    r["cg"] = g;
  }
  char text[256];
  std::snprintf(text, sizeof text, "%-6s %2d %-6s %-6s%s%s%s %11.0f %9.3f %9.1f %6.2f %7.1f %6.1f | %-8s %9.3f | %9.3f %9.3f",
                to_string(c.problem).c_str(), c.degree, c.precision.c_str(), to_string(op.element_io()).c_str(),
                op.prefetches() ? "+p" : "  ", c.atomic_interior ? "a" : " ",
                c.geometry == BakeOffGeometry::trilinear ? "t" : " ", dofs, dofs / element_seconds / 1e9,
                flops / element_seconds / 1e9, flops / model_bytes, model_bytes / element_seconds / 1e9, pct_dram,
                (to_string(c.gather) + (c.gather == BakeOffGather::fused && op.fused_io() == BakeOffElementIo::staged ? "/st" : "")).c_str(),
                dofs / vmult_seconds / 1e9,
                cg_iterations > 0 ? dofs * cg_iterations / cg_seconds / 1e9 : 0.0, cg_marginal > 0 ? dofs / cg_marginal / 1e9 : 0.0);
  line = text;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    CLI::App app{"tensormg-bench-bp: CEED bake-off operators BP1.0, BP3.5, BP3.0 on deformed meshes (paper 003)"};
    std::vector<std::string> problems{"bp1.0", "bp3.5", "bp3.0"}, precisions{"double"}, gathers{"fused"},
        element_ios{"auto"}, prefetches{"auto"}, interiors{"store"}, geometries{"stored"};
    std::vector<int> degrees{1, 2, 3, 4, 5, 6, 7, 8}, cells_per_team{0};
    std::vector<double> dofs{1e6};
    std::string deformation_name = "sine", ceilings_path, output;
    double amplitude = 0.05;
    int repeats = 10, cg_iterations = 20;
    std::vector<std::string> cg_variants{"fused"};
    bool overwrite = false;
    app.add_option("--problems", problems, "bp1.0 (mass, CEED BP1), bp3.5 (collocated stiffness + mass, BP5), bp3.0 "
                                           "(stiffness + mass with k + 2 Gauss points, BP3)")->delimiter(',');
    app.add_option("--degrees", degrees, "polynomial degrees (1..8)")->delimiter(',');
    app.add_option("--dofs", dofs, "target DoF counts (continuous nodes)")->delimiter(',');
    app.add_option("--precisions", precisions, "double and/or float")->delimiter(',');
    app.add_option("--gather", gathers, "full operator: fused (gather/scatter in the kernel) and/or separate")->delimiter(',');
    app.add_option("--cells-per-team", cells_per_team, "cells per team (0: automatic)")->delimiter(',');
    app.add_option("--prefetch", prefetches, "prefetch each team's geometric factors into L2: on, off, auto (the "
                                             "tuning row)")->delimiter(',');
    app.add_option("--element-io", element_ios, "element kernel and fused operator: input and output read "
                                                "and written along lines, staged through scratch by consecutive "
                                                "threads, or auto (the tuning row)")->delimiter(',');
    app.add_option("--interior-nodes", interiors, "fused operator: a cell's interior nodes stored (default) and/or "
                                                  "added atomically like its shared ones")->delimiter(',');
    app.add_option("--geometry", geometries, "geometric factors stored per point and/or trilinear (formed at every "
                                             "application from the cell's 8 vertices; --deformation none or random)")
        ->delimiter(',');
    app.add_option("--deformation", deformation_name, "none, sine (smooth map) or random (perturbed vertices)");
    app.add_option("--amplitude", amplitude, "deformation amplitude (sine: of the brick, random: of a cell)");
    app.add_option("--cg-iterations", cg_iterations, "CG iterations per solve (0: no CG), 0..10000");
    app.add_option("--cg-variant", cg_variants,
                   "fused (default: vector updates fused, p.Ap by a dot product after the operator, "
                   "core/fused_cg.hpp), fused-kernel-dot (the same with p.Ap formed in the operator's kernel) "
                   "and/or textbook (CG with the identity preconditioner, separate vector sweeps)")
        ->delimiter(',');
    app.add_option("--repeats", repeats, "timed repetitions (median reported), 1..10000");
    app.add_option("--ceilings", ceilings_path, "tensormg-ceilings record for % of ceiling");
    app.add_option("-o,--output", output, "JSON results file");
    app.add_flag("--overwrite", overwrite, "replace an existing results file");
    perf::add_warmup_option(app);
    if (auto code = parse_command_line(app, env)) return *code;
    perf::Ceilings ceil;
    DeformationOptions deformation;
    collectively(env.comm(), [&] {
      perf::check_warmup_option();
      TENSORMG_CHECK(!problems.empty() && !degrees.empty() && !dofs.empty() && !precisions.empty() && !gathers.empty() &&
                         !cells_per_team.empty(),
                     "--problems, --degrees, --dofs, --precisions, --gather and --cells-per-team need at least one value");
      for (const auto& p : problems) (void)parse_bake_off(p);
      for (const auto& g : gathers) (void)parse_bake_off_gather(g);
      TENSORMG_CHECK(!element_ios.empty(), "--element-io needs at least one value");
      for (const auto& e : element_ios) (void)parse_bake_off_element_io(e);
      TENSORMG_CHECK(!prefetches.empty(), "--prefetch needs at least one value");
      for (const auto& e : prefetches) (void)parse_bake_off_prefetch(e);
      TENSORMG_CHECK(!interiors.empty(), "--interior-nodes needs at least one value");
      for (const auto& e : interiors)
        TENSORMG_CHECK(e == "store" || e == "atomic", "--interior-nodes '" << e << "': use store or atomic");
      TENSORMG_CHECK(!geometries.empty(), "--geometry needs at least one value");
      for (const auto& g : geometries) (void)parse_bake_off_geometry(g);
      for (const auto& p : precisions) TENSORMG_CHECK(p == "double" || p == "float", "precision '" << p << "': use double or float");
      for (int k : degrees)
        TENSORMG_CHECK(k >= 1 && k <= max_degree(3), "degree " << k << " is not supported in 3D; use 1.." << max_degree(3));
      for (double n : dofs) perf::check_dofs("--dofs", n);
      for (int cpt : cells_per_team)
        TENSORMG_CHECK(cpt >= 0 && cpt <= 256, "--cells-per-team must be in 0..256 (0: automatic), given " << cpt);
      TENSORMG_CHECK(repeats >= 1 && repeats <= 10000, "--repeats must be in 1..10000, given " << repeats);
      TENSORMG_CHECK(cg_iterations >= 0 && cg_iterations <= 10000, "--cg-iterations must be in 0..10000, given " << cg_iterations);
      TENSORMG_CHECK(!cg_variants.empty(), "--cg-variant needs at least one value");
      for (const auto& v : cg_variants)
        TENSORMG_CHECK(v == "fused" || v == "fused-kernel-dot" || v == "textbook",
                       "--cg-variant '" << v << "': use fused, fused-kernel-dot or textbook");
      deformation.kind = parse_deformation(deformation_name);
      TENSORMG_CHECK(std::isfinite(amplitude) && amplitude >= 0 && amplitude <= 1,
                     "--amplitude must be in 0..1, given " << amplitude);
      deformation.amplitude = amplitude;
      for (const auto& g : geometries)
        TENSORMG_CHECK(parse_bake_off_geometry(g) != BakeOffGeometry::trilinear || deformation.kind != Deformation::sine,
                       "--geometry trilinear needs trilinear cells: --deformation none or random, not sine");
      ceil = perf::load_ceilings(ceilings_path);
    });
    if (app.count("--output") > 0) check_output_writable({output}, overwrite, env.comm());
    std::vector<Case> cases;
    for (const auto& p : problems)
      for (int k : degrees)
        for (double n : dofs)
          for (const auto& prec : precisions)
            for (const auto& g : gathers)
              for (const auto& io : element_ios)
                for (const auto& pf : prefetches)
                  for (int cpt : cells_per_team)
                    for (const auto& in : interiors)
                      for (const auto& geo : geometries)
                        for (const auto& cg : cg_variants)
                          cases.push_back({parse_bake_off(p), k, n, prec, parse_bake_off_gather(g), cpt,
                                           parse_bake_off_element_io(io), parse_bake_off_prefetch(pf), in == "atomic",
                                           parse_bake_off_geometry(geo), cg});
    check_sizes(cases, env.comm());

    Json results = Json::array();
    if (env.rank() == 0)
      std::printf("%-6s %2s %-6s %-10s %11s %9s %9s %6s %7s %6s | %-8s %9s | %9s %9s\n", "BP", "k", "prec", "io", "DoFs",
                  "GDoF/s", "GFLOP/s", "F/B", "GB/s", "%DRAM", "gather", "op GDoF/s", "CG GDoF/s", "CG marg.");
    for (const Case& c : cases) {
      std::string line;
      Json r;
      const std::string refusal = c.precision == "float" ? team_shape_refusal<float>(c, env.comm())
                                                         : team_shape_refusal<double>(c, env.comm());
      if (!refusal.empty()) {  // a team shape this degree cannot take: skip the case
        if (env.rank() == 0)
          std::printf("%-6s %2d %-6s skipped: %s\n", to_string(c.problem).c_str(), c.degree, c.precision.c_str(), refusal.c_str());
        r["problem"] = to_string(c.problem);
        r["degree"] = c.degree;
        r["skipped"] = refusal;
        results.push_back(std::move(r));
        continue;
      }
      r = c.precision == "float" ? run_case<float>(c, deformation, env.comm(), repeats, cg_iterations, ceil, line)
                                 : run_case<double>(c, deformation, env.comm(), repeats, cg_iterations, ceil, line);
      if (env.rank() == 0) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
      }
      results.push_back(std::move(r));
    }
    if (env.rank() == 0)
      std::printf("io: +p factors prefetched, a: interior nodes added atomically, t: trilinear geometry; /st: fused gather staged; GDoF/s and GFLOP/s: element "
                  "kernel on E-vectors; F/B, GB/s and %%DRAM by paper 003's Table 2 model; "
                  "op: the full operator on the continuous vector; CG: per iteration of a whole solve (its set-up and final "
                  "residual included), marg.: of the iterations beyond the first\n");
    if (output.empty()) return 0;
    collectively(env.comm(), [&] {
      if (env.rank() != 0) return;
      Json record = Json::object();
      record["kind"] = "tensormg-bench-bp";
      record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
      record["ceilings_record"] = ceilings_path;
      record["ceilings"] = Json::object();
      record["ceilings"]["dram_copy_GBps"] = ceil.dram_GBps;
      record["ceilings"]["fp64_fma_GFLOPs"] = ceil.fp64_GFLOPs;
      record["ceilings"]["fp32_fma_GFLOPs"] = ceil.fp32_GFLOPs;
      record["ceilings"]["shared_load_GBps"] = ceil.shared_GBps;
      record["model"] = "paper 003 Table 2: values per element BP1.0 2n^3 + q^3, BP3.5 9n^3, BP3.0 2n^3 + 7q^3 "
                        "(n = k + 1, q = k + 2); trilinear geometry: 2n^3 + 3 (the cell's vertex); flops: 2 per multiply-add of the 1D contractions plus 18 per point "
                        "for G and the mass term (bake_off_flops_per_cell); scratch: values the kernel's steps load and store "
                        "(bake_off_scratch_values_per_cell)";
      record["results"] = results;
      write_text_file_atomically(output, record.dump(2) + "\n");
    });
    return 0;
  });
}
