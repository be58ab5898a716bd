// tensormg-bench-operator: throughput of the matrix-free continuous Q_k and DG (SIPG) operators
// (one vmult, as CG applies it) over discretization, dim, k, size, precision, scatter mode and
// cells per team; the assembled KokkosSparse SpMV of the same operator where its matrix fits; %
// of the measured ceilings.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <utility>

#include "backends/device.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/hdf5_file.hpp"
#include "core/json.hpp"
#include "core/memory.hpp"
#include "core/output_file.hpp"
#include "core/provenance.hpp"
#include "discretization/assembled_dg_laplace.hpp"
#include "discretization/assembled_laplace.hpp"
#include "discretization/laplace_operator.hpp"
#include "discretization/laplace_tuning.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/memory_estimate.hpp"
#include "perf/benchmark_support.hpp"

namespace {

using namespace tensormg;
using Exec = DefaultExec;

using perf::Ceilings;
using perf::load_ceilings;

/// Coarse cells per direction so that the DoF count is close to `dofs` (continuous: (N k + 1)^d
/// nodes; DG: (N (k + 1))^d values).
int cells_for(bool dg, int dim, int k, double dofs) {
  const double per_direction = std::pow(dofs, 1.0 / dim);
  return std::max(1, int(std::lround(dg ? per_direction / (k + 1) : (per_direction - 1) / k)));
}

/// The numbers of one case that the table prints (the JSON record holds them all).
struct Row {
  int cells_per_team = 0;
  double dofs = 0, gdofs = 0, gflops = 0, pct_fma = 0, pct_dram = 0, spmv_gdofs = 0, speedup = 0;
};

struct Case {
  bool dg;
  int dim, degree;
  double target_dofs;
  std::string precision;
  std::string scatter;     ///< cg
  int cells_per_team;
  std::string evaluation;  ///< dg: cell or patch (DgEvaluation)
  std::string contraction = "auto";  ///< dg patch: auto, lines or blocks (DgPatchContraction)
  int gather_z_nodes = 0;            ///< cg, gathered: z nodes per thread (k = 1) or team (0: the tuning row's)
  int gather_tile_x = 0, gather_tile_y = 0;  ///< cg, gathered k >= 2: segments per team (0: the tuning row's)
};

/// "XxY" (segments per team of the gathered operator; 2D: X, or XxY with Y ignored); refuses
/// anything else with a local InputError.
std::pair<int, int> parse_gather_tile(const std::string& text) {
  const auto x = text.find('x');
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 4 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string a = text.substr(0, x), b = x == std::string::npos ? "1" : text.substr(x + 1);
  TENSORMG_CHECK(digits(a) && digits(b), "--gather-tiles '" << text << "' is not XxY with X, Y in 0..9999");
  return {std::stoi(a), std::stoi(b)};
}

/// Whether the continuous operator of (dim, k) with scatter mode `scatter` gathers (mode gather,
/// or auto where the tuning table gathers).
bool gathers(int dim, int k, const std::string& scatter) {
  const ScatterMode m = parse_scatter_mode(scatter);
  return m == ScatterMode::gather || (m == ScatterMode::automatic && laplace_tuning(dim, k, tuning_target<Exec>()).gather);
}

/// The variant column: the scatter mode (cg), the evaluation (dg), with the contraction (dg patch).
std::string variant_label(const Case& c) {
  if (!c.dg) {
    std::string v = c.scatter;
    if (c.gather_tile_x > 0) v += "/t" + std::to_string(c.gather_tile_x) + "x" + std::to_string(c.gather_tile_y);
    if (c.gather_z_nodes > 0) v += "/z" + std::to_string(c.gather_z_nodes);
    return v;
  }
  return c.evaluation == "patch" ? "patch/" + c.contraction : c.evaluation;
}

/// DoFs (mesh nodes) of a case's mesh.
double case_dofs(const Case& c) {
  const double cells = cells_for(c.dg, c.dim, c.degree, c.target_dofs);
  return std::pow(c.dg ? cells * (c.degree + 1) : cells * c.degree + 1, c.dim);
}

/// Average nonzeros per row of the assembled matrix: vertex rows of the 1D matrix couple 2k+1
/// nodes, the k-1 inner rows of a cell k+1; the d-dimensional rows are their tensor products.
/// DG: a row couples its cell's (k+1)^d values and (k+1)^d of each of the 2d face neighbours.
double nonzeros_per_row(const Case& c) {
  const int dim = c.dim, k = c.degree;
  if (c.dg) return (1 + 2.0 * dim) * std::pow(k + 1.0, dim);
  return std::pow(((2.0 * k + 1) + (k - 1) * (k + 1.0)) / k, dim);
}

/// Estimated size in GiB of the whole CRS matrix of a case (what --spmv-max-gib bounds).
double spmv_matrix_gib(const Case& c) {
  const double number = c.precision == "float" ? sizeof(float) : sizeof(double);
  return case_dofs(c) * nonzeros_per_row(c) * (number + sizeof(local_index)) / double(1 << 30);
}

/// Checks, collectively and before any case runs, that every case of the sweep can be addressed
/// by one rank (32-bit local indices) and fits in memory: x and y; with the SpMV comparison also z
/// and the CRS matrix (host arrays while assembling, then device arrays); a margin for Kokkos.
void check_sweep_sizes(const std::vector<Case>& cases, double spmv_max_gib, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    // Scatter mode and cells per team (the innermost loops) do not change a case's size.
    if (i > 0 && c.dg == cases[i - 1].dg && c.dim == cases[i - 1].dim && c.degree == cases[i - 1].degree &&
        c.target_dofs == cases[i - 1].target_dofs && c.precision == cases[i - 1].precision)
      continue;
    const global_index cells = cells_for(c.dg, c.dim, c.degree, c.target_dofs);
    const std::array<global_index, 3> n_cells{cells, cells, c.dim == 3 ? cells : 1};
    const double nodes = c.dg ? largest_rank_box_dg_values(c.dim, c.degree, n_cells, ranks)
                              : largest_rank_box_nodes(c.dim, c.degree, n_cells, ranks);
    std::ostringstream what;
    what << "the case " << c.dim << "D " << (c.dg ? "DG " : "") << "Q" << c.degree << " " << c.precision << " with " << case_dofs(c) << " DoFs";
    TENSORMG_CHECK_COLLECTIVE(comm, nodes <= double(std::numeric_limits<local_index>::max()),
                              what.str() << " puts " << nodes << " nodes on one rank, more than the "
                                         << std::numeric_limits<local_index>::max()
                                         << " one rank can address with 32-bit local indices; use smaller --dofs or "
                                            "more MPI ranks");
    const double number = c.precision == "float" ? sizeof(float) : sizeof(double);
    MemoryNeed need;
    need.device_bytes = 2 * nodes * number + 64.0 * (1 << 20);
    const bool spmv = spmv_matrix_gib(c) <= spmv_max_gib;
    if (spmv) {
      const double matrix = nodes * nonzeros_per_row(c) * (number + sizeof(local_index));
      need.device_bytes += nodes * number + matrix + (nodes + 1) * sizeof(std::int64_t);
      need.host_bytes += matrix + 3 * (nodes + 1) * sizeof(std::int64_t);
    }
    check_memory(need, device_available_bytes(), device_memory_is_host(), comm, what.str(),
                 spmv ? "use smaller --dofs, more MPI ranks or a smaller --spmv-max-gib (the CRS matrix is included)"
                      : "use smaller --dofs or more MPI ranks");
  }
}

/// The layout, operator and assembled matrix of each discretization, built for a case.
template <class Number>
struct ContinuousCase {
  using Layout = ContinuousDofLayout<Exec>;
  using Operator = LaplaceOperator<Number, Exec>;
  using Assembled = AssembledLaplace<Number, Exec>;
  static Operator make_operator(std::shared_ptr<const Layout> layout, const Case& c) {
    LaplaceOptions options;
    options.scatter = parse_scatter_mode(c.scatter);
    options.cells_per_team = c.cells_per_team;
    options.gather_z_nodes = c.gather_z_nodes;
    options.gather_tile_x = c.gather_tile_x;
    options.gather_tile_y = c.gather_tile_y;
    return Operator(std::move(layout), options);
  }
};
template <class Number>
struct DgCase {
  using Layout = DgDofLayout<Exec>;
  using Operator = DgLaplaceOperator<Number, Exec>;
  using Assembled = AssembledDgLaplace<Number, Exec>;
  static Operator make_operator(std::shared_ptr<const Layout> layout, const Case& c) {
    DgLaplaceOptions options;
    options.cells_per_team = c.cells_per_team;
    options.evaluation = parse_dg_evaluation(c.evaluation);
    options.patch_contraction = parse_dg_patch_contraction(c.contraction);
    return Operator(std::move(layout), options);
  }
};

template <class Number, template <class> class Disc>
Json run_case(const Case& c, MPI_Comm comm, int repeats, double spmv_max_gib, const Ceilings& ceil, Row& row) {
  using D = Disc<Number>;
  BrickDescription brick;
  brick.dim = c.dim;
  const int cells = cells_for(c.dg, c.dim, c.degree, c.target_dofs);
  brick.coarse_cells = {cells, cells, c.dim == 3 ? cells : 1};
  const auto mesh = std::make_shared<CartesianMesh>(brick, comm);
  const auto layout = std::make_shared<typename D::Layout>(mesh, c.degree);
  const typename D::Operator op = D::make_operator(layout, c);
  auto x = op.make_vector("x"), y = op.make_vector("y");
  // Random-ish values, not zeros (METHOD.md: zeros can hide unwritten outputs and run faster).
  const auto xv = x.view();
  Kokkos::parallel_for("tensormg::bench::fill", Kokkos::RangePolicy<Exec>(0, x.n_local()),
                       KOKKOS_LAMBDA(local_index i) { xv(i) = Number(0.5) + Number((i * 7919) % 1000) * Number(1e-3); });
  const double seconds = perf::median_seconds(comm, repeats, [&] { op.vmult(y, x); });
  double local_flops = op.flops_per_vmult(), flops = 0;
  MPI_Allreduce(&local_flops, &flops, 1, MPI_DOUBLE, MPI_SUM, comm);
  const double dofs = double(layout->n_global_dofs());
  const double gdofs = dofs / seconds / 1e9;
  const double gflops = flops / seconds / 1e9;
  const double bytes_min = 2.0 * sizeof(Number) * dofs;  // read x once, write y once
  Json r = Json::object();
  r["discretization"] = c.dg ? "dg" : "cg";
  if constexpr (std::is_same_v<D, DgCase<Number>>) r["penalty_factor"] = op.options().penalty_factor;
  r["dim"] = c.dim;
  r["degree"] = c.degree;
  r["precision"] = c.precision;
  if (c.dg) r["evaluation"] = c.evaluation;
  if (c.dg && c.evaluation == "patch") r["contraction"] = c.contraction;
  else r["scatter"] = c.scatter;
  // The patch-wise DG evaluation runs the patch kernel: the cell kernel's team shape does not apply.
  const bool patchwise = c.dg && c.evaluation == "patch";
  if (!patchwise) r["cells_per_team"] = op.cells_per_team();
  if constexpr (std::is_same_v<D, ContinuousCase<Number>>) {
    r["gather_z_nodes"] = op.gather_z_nodes();
    if (op.options().scatter == ScatterMode::gather && c.degree >= 2) {
      r["gather_tile_x"] = op.gather_tile().x;
      r["gather_tile_y"] = op.gather_tile().y;
    }
  }
  r["dofs"] = layout->n_global_dofs();
  r["seconds"] = seconds;
  r["GDoFps"] = gdofs;
  r["GFLOPs"] = gflops;
  r["flops_per_dof"] = flops / dofs;
  r["min_bytes_per_dof"] = 2.0 * sizeof(Number);
  r["effective_GBps"] = bytes_min / seconds / 1e9;
  const double fma_ceiling = c.precision == "float" ? ceil.fp32_GFLOPs : ceil.fp64_GFLOPs;
  row = {patchwise ? 0 : op.cells_per_team(), dofs, gdofs, gflops, 0, 0, 0, 0};
  if (fma_ceiling > 0) r["pct_fma_ceiling"] = row.pct_fma = 100 * gflops / fma_ceiling;
  if (ceil.dram_GBps > 0) r["pct_dram_ceiling_min_bytes"] = row.pct_dram = 100 * bytes_min / seconds / 1e9 / ceil.dram_GBps;

  // SpMV of the same operator, if its matrix fits in the budget.
  const double gib = spmv_matrix_gib(c);
  if (gib <= spmv_max_gib) {
    const typename D::Assembled csr(layout);
    auto z = op.make_vector("z");
    const double spmv_seconds = perf::median_seconds(comm, repeats, [&] { csr.spmv_local(z, x); });
    r["spmv_seconds"] = spmv_seconds;
    r["spmv_GDoFps"] = row.spmv_gdofs = dofs / spmv_seconds / 1e9;
    r["spmv_GBps"] = double(csr.bytes() + 2 * sizeof(Number) * x.n_local()) / spmv_seconds / 1e9;
    r["speedup_vs_spmv"] = row.speedup = spmv_seconds / seconds;
    r["nnz"] = csr.nnz();
  } else {
    r["spmv_skipped"] = "matrix of ~" + std::to_string(int(gib)) + " GiB exceeds --spmv-max-gib";
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    CLI::App app{"tensormg-bench-operator: matrix-free Q_k operator throughput vs SpMV"};
    std::vector<std::string> discretizations{"cg"};
    std::vector<int> dims{3}, degrees{1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<double> dofs{1e6};
    std::vector<std::string> precisions{"double"}, scatters{"auto"}, dg_evaluations{"cell"}, dg_contractions{"auto"};
    std::vector<int> cells_per_team{0}, gather_z_nodes{0};
    std::vector<std::string> gather_tiles{"0x0"};
    int repeats = 10;
    double spmv_max_gib = 4;
    std::string ceilings_path, output;
    bool overwrite = false;
    app.add_option("--discretizations", discretizations, "cg (continuous Q_k) and/or dg (SIPG)")->delimiter(',');
    app.add_option("--dims", dims, "dimensions")->delimiter(',');
    app.add_option("--degrees", degrees, "polynomial degrees")->delimiter(',');
    app.add_option("--dofs", dofs, "target DoF counts")->delimiter(',');
    app.add_option("--precisions", precisions, "double and/or float")->delimiter(',');
    app.add_option("--scatter", scatters,
                   "auto (the tuning table's choice), atomic, store-interior, coloring, gather (k = 1: the "
                   "stencil; k >= 2: the Kronecker sum by tiles) and/or simd (host: cells in vector lanes)")
        ->delimiter(',');
    app.add_option("--cells-per-team", cells_per_team, "cells per team (0: automatic)")->delimiter(',');
    app.add_option("--gather-z-nodes", gather_z_nodes,
                   "gathered operator (scatter gather, or auto where the table gathers): k = 1 in 3D z nodes per "
                   "thread (1: a thread per node), k >= 2 z nodes per team (0: the tuning table's)")
        ->delimiter(',');
    app.add_option("--gather-tiles", gather_tiles,
                   "gathered operator at k >= 2: segments of k nodes per team, XxY (3D; 2D: X; 0x0: the tuning "
                   "table's)")
        ->delimiter(',');
    app.add_option("--dg-contractions", dg_contractions,
                   "dg patch evaluation: the patch kernel's contractions, auto, lines and/or blocks (tensor cores on "
                   "CUDA in FP64: k = 3, and k = 4..7 on sm_90)")
        ->delimiter(',');
    app.add_option("--dg-evaluations", dg_evaluations,
                   "dg: cell (cell-centric) and/or patch (patch-wise, paper 001 §2.1; one rank)")->delimiter(',');
    app.add_option("--repeats", repeats, "timed repetitions (median reported), 1..10000");
    app.add_option("--spmv-max-gib", spmv_max_gib, "largest CRS matrix to assemble for the SpMV comparison");
    app.add_option("--ceilings", ceilings_path, "tensormg-ceilings record for % of ceiling");
    app.add_option("-o,--output", output, "JSON results file");
    app.add_flag("--overwrite", overwrite, "replace an existing results file");
    perf::add_warmup_option(app);
    if (auto code = parse_command_line(app, env)) return *code;
    // Every rank parsed the same arguments: each refusal is one collective message, exit code 2.
    Ceilings ceil;
    collectively(env.comm(), [&] {
      perf::check_warmup_option();
      TENSORMG_CHECK(!dims.empty() && !degrees.empty() && !dofs.empty() && !precisions.empty() && !scatters.empty() &&
                         !cells_per_team.empty() && !gather_z_nodes.empty(),
                     "--dims, --degrees, --dofs, --precisions, --scatter, --cells-per-team and --gather-z-nodes need at "
                     "least one value");
      for (int z : gather_z_nodes)
        TENSORMG_CHECK(z >= 0 && z <= 65536, "--gather-z-nodes must be in 0..65536 (0: automatic), given " << z);
      TENSORMG_CHECK(!gather_tiles.empty(), "--gather-tiles needs at least one value");
      for (const auto& t : gather_tiles) (void)parse_gather_tile(t);
      TENSORMG_CHECK(!discretizations.empty(), "--discretizations needs at least one value");
      for (const auto& d : discretizations)
        TENSORMG_CHECK(d == "cg" || d == "dg", "discretization '" << d << "': use cg or dg");
      for (const auto& p : precisions) TENSORMG_CHECK(p == "double" || p == "float", "precision '" << p << "': use double or float");
      for (int d : dims) TENSORMG_CHECK(d == 2 || d == 3, "dimension " << d << ": use 2 or 3");
      for (int d : dims)
        for (int k : degrees) {
          const int max_k = ContinuousDofLayout<Exec>::max_degree(d);
          TENSORMG_CHECK(k >= 1 && k <= max_k, "degree " << k << " is not supported in " << d << "D; use 1.." << max_k);
        }
      for (double n : dofs) perf::check_dofs("--dofs", n);
      // Ranges are checked here, not with CLI::Range: a CLI11 validator changes the option's type
      // name, and parse_command_line then leaves out its decimal / finite-number check ("0x3", "nan").
      TENSORMG_CHECK(repeats >= 1 && repeats <= 10000, "--repeats must be in 1..10000, given " << repeats);
      for (const auto& s : scatters) check_scatter_mode<Exec>(parse_scatter_mode(s));
      TENSORMG_CHECK(!dg_evaluations.empty(), "--dg-evaluations needs at least one value");
      for (const auto& e : dg_evaluations) (void)parse_dg_evaluation(e);
      TENSORMG_CHECK(!dg_contractions.empty(), "--dg-contractions needs at least one value");
      for (const auto& e : dg_contractions) (void)parse_dg_patch_contraction(e);
      for (int cpt : cells_per_team)
        TENSORMG_CHECK(cpt >= 0 && cpt <= 256, "--cells-per-team must be in 0..256 (0: automatic), given " << cpt);
      TENSORMG_CHECK(spmv_max_gib >= 0, "--spmv-max-gib must be >= 0 (0: no SpMV comparison), given " << spmv_max_gib);
      ceil = load_ceilings(ceilings_path);
    });
    // Before the first case: the results file can be written, and every case fits.
    if (app.count("--output") > 0) check_output_writable({output}, overwrite, env.comm());
    std::vector<Case> cases;
    for (const auto& disc : discretizations)
      for (int dim : dims)
        for (int k : degrees)
          for (double n : dofs)
            for (const auto& p : precisions)
              for (const auto& s : disc == "dg" ? dg_evaluations : scatters)  // DG: no scatter, an evaluation
                for (const auto& contraction : disc == "dg" && s == "patch" ? dg_contractions : std::vector<std::string>{"auto"}) {
                  // FP16 products: float patch-wise operators of degrees 3..7 only; other cases skip them.
                  const DgPatchContraction pc = parse_dg_patch_contraction(contraction);
                  if ((pc == DgPatchContraction::f16 || pc == DgPatchContraction::f16ec) &&
                      (p != "float" || !dg_patch_has_f16(k)))
                    continue;
                  // z nodes and tiles: the gathered operator only (scatter gather, or auto where the
                  // tuning table gathers); tiles at k >= 2.
                  const bool gathered = disc == "cg" && gathers(dim, k, s);
                  const std::vector<std::string> tiles = gathered && k >= 2 ? gather_tiles : std::vector<std::string>{"0x0"};
                  for (int cpt : cells_per_team)
                    for (int z : gathered ? gather_z_nodes : std::vector<int>{0})
                      for (const auto& t : tiles) {
                        const auto [tx, ty] = parse_gather_tile(t);
                        cases.push_back({disc == "dg", dim, k, n, p, disc == "dg" ? "" : s, cpt, disc == "dg" ? s : "",
                                         contraction, z, tx, ty});
                      }
                }
    for (const auto& e : dg_contractions) {
      const DgPatchContraction pc = parse_dg_patch_contraction(e);
      const bool half = pc == DgPatchContraction::f16 || pc == DgPatchContraction::f16ec;
      TENSORMG_CHECK_COLLECTIVE(
          env.comm(), !half || std::any_of(cases.begin(), cases.end(), [&](const Case& c) { return c.contraction == e; }),
          "--dg-contractions " << e << " (FP16 products) runs on float DG patch-wise operators of degrees 3..7: give "
                               << "--discretizations dg --dg-evaluations patch --precisions float and a degree in 3..7");
    }
    // Every gathered case's tile fits this backend (threads, scratch) before the first case runs.
    collectively(env.comm(), [&] {
      for (const Case& c : cases) {
        if (c.dg || c.degree < 2 || !gathers(c.dim, c.degree, c.scatter)) continue;
        LaplaceOptions o;
        o.gather_z_nodes = c.gather_z_nodes;
        o.gather_tile_x = c.gather_tile_x;
        o.gather_tile_y = c.gather_tile_y;
        if (c.precision == "float") (void)gather_tile_of<float, Exec>(c.dim, c.degree, o);
        else (void)gather_tile_of<double, Exec>(c.dim, c.degree, o);
      }
    });
    check_sweep_sizes(cases, spmv_max_gib, env.comm());

    Json results = Json::array();
    if (env.rank() == 0)
      std::printf("%-3s %3s %2s %-6s %-12s %4s %11s %9s %9s %7s %8s %9s %8s\n", "FE", "dim", "k", "prec", "variant", "cpt", "DoFs",
                  "GDoF/s", "GFLOP/s", "%FMA", "%DRAM*", "SpMV GD/s", "speedup");
    for (const Case& c : cases) {
      Row row;
      Json r;
      try {
        if (c.dg)
          r = c.precision == "float" ? run_case<float, DgCase>(c, env.comm(), repeats, spmv_max_gib, ceil, row)
                                     : run_case<double, DgCase>(c, env.comm(), repeats, spmv_max_gib, ceil, row);
        else
          r = c.precision == "float" ? run_case<float, ContinuousCase>(c, env.comm(), repeats, spmv_max_gib, ceil, row)
                                     : run_case<double, ContinuousCase>(c, env.comm(), repeats, spmv_max_gib, ceil, row);
      } catch (const InputError& e) {  // e.g. a team shape this (dim, k) cannot take
        // Only a refusal every rank made is a skipped case; a local one would leave the ranks apart.
        if (!e.collective()) throw;
        if (env.rank() == 0)
          std::printf("%-3s %3d %2d %-6s %-12s %4d skipped: %s\n", c.dg ? "dg" : "cg", c.dim, c.degree, c.precision.c_str(),
                      variant_label(c).c_str(),
                      c.cells_per_team, e.what());
        r["discretization"] = c.dg ? "dg" : "cg";
        r["dim"] = c.dim;
        r["degree"] = c.degree;
        r["skipped"] = e.what();
        results.push_back(std::move(r));
        continue;
      }
      if (env.rank() == 0) {
        std::printf("%-3s %3d %2d %-6s %-12s %4d %11.0f %9.3f %9.1f %7.2f %8.2f %9.3f %8.2f\n", c.dg ? "dg" : "cg",
                    c.dim, c.degree, c.precision.c_str(), variant_label(c).c_str(), row.cells_per_team, row.dofs, row.gdofs, row.gflops,
                    row.pct_fma, row.pct_dram, row.spmv_gdofs, row.speedup);
        std::fflush(stdout);
      }
      results.push_back(std::move(r));
    }
    if (env.rank() == 0) std::printf("* %%DRAM counts only the minimum traffic: read x once, write y once\n");
    if (output.empty()) return 0;
    // Rank 0 writes; a failure there is everyone's error (one message, exit code 2).
    collectively(env.comm(), [&] {
      if (env.rank() != 0) return;
      Json record = Json::object();
      record["kind"] = "tensormg-bench-operator";
      record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
      record["ceilings_record"] = ceilings_path;
      record["flop_model"] = "sum factorization: 2D 4, 3D 7 one-dimensional contractions of 2n flops per cell entry, "
                             "plus 3 flops per cell entry for the coefficient combination; gather/scatter not counted; "
                             "DG adds the neighbours' face data (derivatives), the masses applied to them and the "
                             "coupling terms (DgLaplaceOperator::flops_per_vmult)";
      record["results"] = results;
      write_text_file_atomically(output, record.dump(2) + "\n");
    });
    return 0;
  });
}
