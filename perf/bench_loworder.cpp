// tensormg-bench-loworder: the Q1 Laplace and elasticity operators on perturbed, optionally
// renumbered hexahedral bricks (paper 004, Figures 1–2): per problem and size the matrix-free
// operator (geometry on the fly or stored, atomic or coloured scatter), the assembled CRS SpMV and
// the NoOp-SpMV bound (the matrix streamed once). Per variant: one application (median of fenced
// repeats), GDoF/s, GFLOP/s, bytes of the operator's data per DoF, % of the DRAM copy bandwidth,
// and a CG iteration (fused CG, fixed count); the matrix-free results are checked against the SpMV.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "backends/device_traits.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/fused_cg.hpp"
#include "core/json.hpp"
#include "core/krylov.hpp"
#include "core/memory.hpp"
#include "core/output_file.hpp"
#include "core/provenance.hpp"
#include "discretization/assembled_low_order.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/hex_mesh.hpp"
#include "discretization/low_order_operator.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/memory_estimate.hpp"
#include "perf/benchmark_support.hpp"

namespace {

using namespace tensormg;
using Exec = DefaultExec;
using Vector = DistributedVector<double, Exec>;
using Layout = HexLayout<Exec>;

/// Largest relative max-norm difference between the matrix-free and the assembled product.
constexpr double agreement_tolerance = 1e-12;

/// One matrix-free variant (evaluation × geometry × scatter).
struct MfVariant {
  LowOrderEvaluation evaluation;
  LowOrderGeometry geometry;
  LowOrderScatter scatter;
  std::string evaluation_name, geometry_name, scatter_name;
  int lanes = 0;  ///< lanes evaluation: threads per cell (0 otherwise)
  std::string name() const {
    return "mf/" + evaluation_name + (lanes ? std::to_string(lanes) : "") + "/" + geometry_name + "/" + scatter_name;
  }
};

/// What the sweep runs at each (problem, size).
struct Sweep {
  std::vector<MfVariant> mf;
  bool spmv = false, noop = false;
  int repeats = 10, cg_iterations = 20;
  int block_cells = 128;  ///< cells per block of the block scatter
  double perturbation = 0.2;
  bool renumber = false;
  long long seed = 1;
  HexOrdering ordering = HexOrdering::morton;
  std::string ordering_name = "morton";
  /// Exactly one case was asked for: a case that does not fit is an error, not a skip.
  bool single_case = false;
  /// Folder for the assembled matrices (perf/cusparse_spmv.py reads them); empty: none written.
  std::string export_csr;
};

/// Writes the rank's CSR matrix as <prefix>.row_map (int64), .entries (int32), .values (float64)
/// and <prefix>.json, each through a temporary and a rename. One rank only (checked at parsing).
void export_matrix(const AssembledLowOrder<Exec>& A, const std::string& prefix, LowOrderProblem problem, double dofs) {
  const auto& M = A.matrix();
  const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), M.graph.row_map);
  const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), M.graph.entries);
  const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), M.values);
  const auto bytes = [](const auto& view) {
    return std::string(reinterpret_cast<const char*>(view.data()), view.span() * sizeof(*view.data()));
  };
  write_text_file_atomically(prefix + ".row_map", bytes(rows));
  write_text_file_atomically(prefix + ".entries", bytes(cols));
  write_text_file_atomically(prefix + ".values", bytes(vals));
  Json meta = Json::object();
  meta["rows"] = double(M.numRows());
  meta["nnz"] = double(M.nnz());
  meta["problem"] = to_string(problem);
  meta["dofs"] = dofs;
  write_text_file_atomically(prefix + ".json", meta.dump() + "\n");
}

/// Brick cells per direction so that the DoF count, components·(n + 1)³, is close to dofs.
int cells_for(int components, double dofs) {
  return std::max(1, int(std::lround(std::cbrt(dofs / components) - 1)));
}

/// Collective: "" when the need fits the memory of every rank, else the reason (check_memory's
/// message). With `fail`, the refusal is thrown instead.
std::string memory_refusal(const MemoryNeed& need, const std::string& what, bool fail, MPI_Comm comm) {
  try {
    check_memory(need, device_available_bytes(), device_memory_is_host(), comm, what,
                 "use smaller --dofs or more MPI ranks");
  } catch (const InputError& e) {
    if (fail) throw;
    return e.what();
  }
  return "";
}

/// Sum over the ranks.
double sum_over_ranks(double mine, MPI_Comm comm) {
  double sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sum;
}

/// max |a − b| / max |b| over the owned entries of all ranks.
double relative_difference(const Vector& a, const Vector& b) {
  const auto av = a.view(), bv = b.view();
  double local[2] = {0, 0};
  Kokkos::parallel_reduce(
      "tensormg::bench::difference", Kokkos::RangePolicy<Exec>(0, a.n_owned()),
      KOKKOS_LAMBDA(local_index i, double& m) {
        const double d = av(i) > bv(i) ? av(i) - bv(i) : bv(i) - av(i);
        m = d > m ? d : m;
      },
      Kokkos::Max<double>(local[0]));
  Kokkos::parallel_reduce(
      "tensormg::bench::max_norm", Kokkos::RangePolicy<Exec>(0, a.n_owned()),
      KOKKOS_LAMBDA(local_index i, double& m) {
        const double d = bv(i) > 0 ? bv(i) : -bv(i);
        m = d > m ? d : m;
      },
      Kokkos::Max<double>(local[1]));
  double global[2] = {0, 0};
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, a.comm());
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

/// Deterministic pseudo-random values in [0.5, 1.5) from the global vertex number and component,
/// so every rank count sees the same vector.
void fill_random(const Layout& layout, Vector& x) {
  const int nc = layout.components();
  const auto host = Kokkos::create_mirror_view(x.view());
  const auto& global = layout.global_vertex();
  for (std::size_t i = 0; i < std::size_t(layout.n_owned_vertices()); ++i)
    for (int c = 0; c < nc; ++c) {
      std::uint64_t h = std::uint64_t(global[i]) * 3 + std::uint64_t(c) + 0x9e3779b97f4a7c15ull;
      h ^= h >> 33;
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 33;
      h *= 0xc4ceb9fe1a85ec53ull;
      h ^= h >> 33;
      host(i * nc + c) = 0.5 + double(h >> 11) * 0x1p-53;
    }
  Kokkos::deep_copy(x.view(), host);
}

/// The measurements of one operator variant: record entry and printed line.
struct Measured {
  Json record = Json::object();
  std::string line;
};

class SizeBench {
 public:
  SizeBench(LowOrderProblem problem, std::shared_ptr<const Layout> layout, const Sweep& sweep,
            const perf::Ceilings& ceil)
      : problem_(problem), layout_(std::move(layout)), sweep_(sweep), ceil_(ceil), comm_(layout_->comm()) {
    dofs_ = double(layout_->n_global_dofs());
    MPI_Comm_size(comm_, &ranks_);
    x_.reinit(layout_->partitioner(), "x");
    y_.reinit(layout_->partitioner(), "y");
    fill_random(*layout_, x_);
    layout_bytes_ = sum_over_ranks(layout_->device_bytes(), comm_);
  }

  /// Times one application of op (median of fenced repeats) and, for real operators, a CG
  /// iteration with it; fills the common record fields.
  template <class Operator, class Apply>
  Measured measure(const std::string& variant, const Operator* cg_operator, Apply&& apply, double flops,
                   double data_bytes) {
    Measured m;
    const double seconds = perf::median_seconds(comm_, sweep_.repeats, [&] { apply(y_, x_); });
    Json& r = m.record;
    r["problem"] = to_string(problem_);
    r["dofs"] = layout_->n_global_dofs();
    r["cells"] = layout_->n_global_cells();
    r["ranks"] = ranks_;
    r["perturbation"] = sweep_.perturbation;
    r["renumber"] = sweep_.renumber;
    r["ordering"] = sweep_.ordering_name;
    r["variant"] = variant;
    r["seconds"] = seconds;
    r["GDoFps"] = dofs_ / seconds / 1e9;
    if (flops > 0) {
      r["flops"] = flops;
      r["GFLOPs"] = flops / seconds / 1e9;
    }
    r["data_bytes"] = data_bytes;
    r["bytes_per_dof"] = data_bytes / dofs_;
    // Least traffic: the operator's data once, x read and y written once.
    const double model_bytes = data_bytes + 2.0 * dofs_ * sizeof(double);
    r["model_bytes"] = model_bytes;
    r["model_GBps"] = model_bytes / seconds / 1e9;
    double pct = 0;
    if (ceil_.dram_GBps > 0) r["pct_dram_copy"] = pct = 100 * model_bytes / seconds / 1e9 / ceil_.dram_GBps;
    double cg_gdofs = 0;
    if (cg_operator && sweep_.cg_iterations > 0) {
      Vector b, solution;
      b.reinit(layout_->partitioner(), "b");
      solution.reinit(layout_->partitioner(), "cg_x");
      cg_operator->vmult(b, x_);  // b = A x*, start from zero
      SolverControl control;
      control.max_iterations = sweep_.cg_iterations;
      control.rtol = 0;
      control.atol = 0;
      SolverResult result;
      const double cg_seconds = perf::median_seconds(comm_, std::min(sweep_.repeats, 3), [&] {
        solution.fill(0.0);
        result = solve_cg_fused(*cg_operator, solution, b, control);
      });
      Json g = Json::object();
      g["iterations"] = result.iterations;
      g["seconds"] = cg_seconds;
      // The solve also applies A once before the first and once after the last iteration.
      g["seconds_per_iteration"] = cg_seconds / std::max(result.iterations, 1);
      g["GDoFps_per_iteration"] = cg_gdofs = dofs_ * result.iterations / cg_seconds / 1e9;
      g["relative_residual"] = result.initial_residual > 0 ? result.final_residual / result.initial_residual : 0.0;
      r["cg"] = g;
    }
    char text[256];
    std::snprintf(text, sizeof text, "%-10s %11.0f %-35s %10.3e %8.3f %8.1f %8.1f %6.1f %9.3f",
                  to_string(problem_).c_str(), dofs_, variant.c_str(), seconds, dofs_ / seconds / 1e9,
                  flops / seconds / 1e9, data_bytes / dofs_, pct, cg_gdofs);
    m.line = text;
    return m;
  }

  /// The SpMV and the NoOp-SpMV bound; keeps A x of the matrix for the agreement checks.
  std::vector<Measured> run_assembled() {
    std::vector<Measured> out;
    const AssembledLowOrder<Exec> A(layout_, problem_);
    Kokkos::fence();
    const double nnz = sum_over_ranks(double(A.nnz()), comm_);
    const double bytes = sum_over_ranks(A.matrix_bytes(), comm_);
    if (!sweep_.export_csr.empty())
      export_matrix(A, sweep_.export_csr + "/" + to_string(problem_) + "-" + std::to_string((long long)dofs_), problem_,
                    dofs_);
    reference_.emplace();
    reference_->reinit(layout_->partitioner(), "y_spmv");
    A.vmult(*reference_, x_);
    if (sweep_.spmv) {
      Measured m = measure("spmv", &A, [&](Vector& y, const Vector& x) { A.vmult(y, x); }, 2 * nnz, bytes);
      m.record["nnz"] = nnz;
      out.push_back(std::move(m));
    }
    if (sweep_.noop) {
      Measured m = measure("noop", static_cast<const AssembledLowOrder<Exec>*>(nullptr),
                           [&](Vector& y, const Vector& x) { A.stream_matrix(y, x); }, 0, bytes);
      m.record["nnz"] = nnz;
      out.push_back(std::move(m));
    }
    return out;
  }

  /// One matrix-free variant, with its agreement against the SpMV where the matrix was built.
  Measured run_matrix_free(const MfVariant& v) {
    LowOrderOptions lo;
    lo.problem = problem_;
    lo.geometry = v.geometry;
    lo.scatter = v.scatter;
    lo.evaluation = v.evaluation;
    lo.block_cells = sweep_.block_cells;
    lo.lanes_per_cell = v.lanes;
    const LowOrderOperator<Exec> A(layout_, lo);
    // What runs: an automatic evaluation and lanes per cell resolved by the operator.
    MfVariant ran = v;
    ran.evaluation = A.options().evaluation;
    ran.evaluation_name = to_string(ran.evaluation);
    ran.lanes = ran.evaluation == LowOrderEvaluation::lanes ? A.options().lanes_per_cell : 0;
    const double flops = sum_over_ranks(A.flops(), comm_);
    const double bytes = layout_bytes_ + sum_over_ranks(A.device_bytes(), comm_);
    Measured m = measure(ran.name(), &A,
                         [&](Vector& y, const Vector& x) { A.vmult(y, x); }, flops, bytes);
    m.record["evaluation"] = ran.evaluation_name;
    if (v.evaluation == LowOrderEvaluation::automatic) m.record["evaluation_asked"] = v.evaluation_name;
    m.record["geometry"] = v.geometry_name;
    m.record["scatter"] = v.scatter_name;
    if (v.scatter == LowOrderScatter::block) m.record["block_cells"] = sweep_.block_cells;
    if (ran.lanes) m.record["lanes_per_cell"] = ran.lanes;
    m.record["flops_per_cell"] = low_order_flops_per_cell(problem_, v.geometry, ran.evaluation);
    if (reference_) {
      A.vmult(y_, x_);
      const double difference = relative_difference(y_, *reference_);
      m.record["agreement"] = difference;
      if (!(difference <= agreement_tolerance)) {
        m.record["agreement_violated"] = true;
        violations_++;
      }
      char text[64];
      std::snprintf(text, sizeof text, " %9.1e", difference);
      m.line += text;
    }
    return m;
  }

  int violations() const { return violations_; }

 private:
  LowOrderProblem problem_;
  std::shared_ptr<const Layout> layout_;
  const Sweep& sweep_;
  const perf::Ceilings& ceil_;
  MPI_Comm comm_;
  int ranks_ = 1;
  double dofs_ = 0, layout_bytes_ = 0;
  Vector x_, y_;
  std::optional<Vector> reference_;
  int violations_ = 0;
};

Json skipped(LowOrderProblem problem, double dofs, const std::string& variant, const std::string& why) {
  Json r = Json::object();
  r["problem"] = to_string(problem);
  r["dofs"] = dofs;
  r["variant"] = variant;
  r["skipped"] = why;
  return r;
}

/// All variants of one (problem, size): the memory and index checks, the mesh and layout once,
/// the assembled variants (their product is the reference), then the matrix-free ones. Appends
/// records; returns the number of agreement violations.
int run_size(LowOrderProblem problem, double target, const Sweep& sweep, const perf::Ceilings& ceil, MPI_Comm comm,
             int rank, Json& results) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const int nc = n_components(problem);
  const int n = cells_for(nc, target);
  const double n_cells = double(n) * n * n, n_vertices = std::pow(double(n) + 1, 3), dofs = nc * n_vertices;
  std::vector<std::string> variants;
  if (sweep.spmv) variants.push_back("spmv");
  if (sweep.noop) variants.push_back("noop");
  for (const auto& v : sweep.mf) variants.push_back(v.name());
  const auto skip_all = [&](const std::string& why) {
    if (rank == 0) std::printf("%-10s %11.0f skipped: %s\n", to_string(problem).c_str(), dofs, why.c_str());
    for (const auto& v : variants) results.push_back(skipped(problem, dofs, v, why));
  };
  // "the case elasticity with 1e+06 DoFs (68^3 cells" + what is added + ")".
  std::ostringstream what;
  what << "the case " << to_string(problem) << " with " << dofs << " DoFs (" << n << "^3 cells";
  const std::string case_name = what.str() + ")";
  // Cells for the ranks, 32-bit local indices (the largest rank: its share plus the ghosts).
  std::string refusal;
  if (n_cells < ranks) {
    std::ostringstream why;
    why << case_name << " has fewer cells than the " << ranks << " MPI ranks; use larger --dofs or fewer ranks";
    refusal = why.str();
  }
  const double rank_dofs = nc * (n_vertices / ranks * 1.1 + 4 * std::pow(n_vertices / ranks, 2.0 / 3) + 8);
  const double rank_cells = n_cells / ranks * 1.1, limit = double(std::numeric_limits<local_index>::max());
  if (refusal.empty() && (rank_dofs >= limit || rank_cells * 8 >= limit)) {
    std::ostringstream why;
    why << case_name << " puts about " << rank_dofs << " DoFs and " << rank_cells << " cells on one rank, more than "
        << "one rank can address with 32-bit local indices (" << local_index(limit) << " DoFs, "
        << local_index(limit / 8) << " cells); use smaller --dofs or more MPI ranks";
    refusal = why.str();
  }
  TENSORMG_CHECK_COLLECTIVE(comm, refusal.empty() || !sweep.single_case, refusal);
  if (!refusal.empty()) {
    skip_all(refusal);
    return 0;
  }
  const auto e = estimate_hex_memory(global_index(n_cells), global_index(n_vertices), nc, ranks);
  // Base: the whole mesh on the host of every rank, the layout, x, y, the reference product and
  // CG's b, x, r, p, Ap.
  MemoryNeed base;
  base.device_bytes = e.layout_device_bytes + 8 * e.vector_bytes + small_data_margin_bytes;
  // The layout's set-up on the device: the mesh's points and cells and the numbering's arrays.
  base.device_bytes += hex_layout_setup_device_bytes(global_index(n_cells), global_index(n_vertices));
  base.host_bytes = e.mesh_host_bytes + e.layout_device_bytes + e.vector_bytes;
  refusal = memory_refusal(base, case_name, sweep.single_case, comm);
  if (!refusal.empty()) {
    skip_all(refusal);
    return 0;
  }

  std::shared_ptr<const Layout> layout;
  {
    HexMesh mesh;
    collectively(comm, [&] {
      BrickHexOptions bo;
      bo.cells = {n, n, n};
      bo.perturbation = sweep.perturbation;
      bo.renumber = sweep.renumber;
      bo.seed = std::uint64_t(sweep.seed);
      mesh = brick_hex_mesh(bo);
    });
    layout = std::make_shared<const Layout>(mesh, nc, HexDirichlet{}, HexMaterialOptions{}, comm, sweep.ordering);
  }
  SizeBench bench(problem, layout, sweep, ceil);
  const auto report = [&](Measured&& m) {
    if (rank == 0) {
      std::printf("%s\n", m.line.c_str());
      std::fflush(stdout);
    }
    results.push_back(std::move(m.record));
  };
  if (sweep.spmv || sweep.noop) {
    MemoryNeed need = base;
    need.device_bytes += e.csr_bytes;
    need.host_bytes += e.csr_bytes;  // assembled on the host
    const std::string why = memory_refusal(need, what.str() + ", CRS matrix)", sweep.single_case, comm);
    if (why.empty()) {
      for (auto& m : bench.run_assembled()) report(std::move(m));
    } else {
      const char* names = sweep.spmv && sweep.noop ? "spmv, noop" : sweep.spmv ? "spmv" : "noop";
      if (rank == 0) std::printf("%-10s %11.0f %s skipped: %s\n", to_string(problem).c_str(), dofs, names, why.c_str());
      if (sweep.spmv) results.push_back(skipped(problem, dofs, "spmv", why));
      if (sweep.noop) results.push_back(skipped(problem, dofs, "noop", why));
    }
  }
  for (const auto& v : sweep.mf) {
    MemoryNeed need = base;
    if (v.geometry == LowOrderGeometry::stored) need.device_bytes += e.geometry_bytes;
    if (v.scatter == LowOrderScatter::block) need.device_bytes += e.block_scatter_bytes;
    const std::string why = memory_refusal(need, what.str() + ", geometry " + v.geometry_name + ")",
                                           sweep.single_case, comm);
    if (!why.empty()) {
      const std::string name = v.name();
      if (rank == 0)
        std::printf("%-10s %11.0f %s skipped: %s\n", to_string(problem).c_str(), dofs, name.c_str(), why.c_str());
      results.push_back(skipped(problem, dofs, name, why));
      continue;
    }
    report(bench.run_matrix_free(v));
  }
  return bench.violations();
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    CLI::App app{"tensormg-bench-loworder: Q1 Laplace and elasticity on perturbed hexahedral bricks, matrix-free "
                 "against SpMV and the NoOp-SpMV bound (paper 004)"};
    std::vector<std::string> problems{"laplace", "elasticity"}, operators{"mf", "spmv", "noop"},
        geometries{"on-the-fly", "stored"}, scatters{"atomic", "coloured", "block"}, evaluations{"factorized", "pointwise"};
    std::vector<double> dofs{1e4, 1e5, 1e6};
    Sweep sweep;
    std::string ceilings_path, output;
    bool overwrite = false;
    app.add_option("--problems", problems, "laplace and/or elasticity")->delimiter(',');
    app.add_option("--dofs", dofs, "target DoF counts (laplace (n+1)^3, elasticity 3 (n+1)^3 for n^3 cells)")
        ->delimiter(',');
    app.add_option("--operators", operators,
                   "mf (matrix-free), spmv (assembled CRS) and/or noop (the matrix streamed once: the SpMV bound)")
        ->delimiter(',');
    app.add_option("--geometry", geometries, "mf: on-the-fly and/or stored")->delimiter(',');
    app.add_option("--scatter", scatters, "mf: atomic, coloured and/or block (summed per block of cells in scratch)")
        ->delimiter(',');
    app.add_option("--block-cells", sweep.block_cells, "mf, block scatter: cells per block (threads per team), 1..256");
    app.add_option("--evaluation", evaluations,
                   "mf: factorized (edge differences), pointwise (paper 004 Algorithm 2), lanes (the "
                   "factorized steps with a cell's 8 points on --lanes threads) and/or auto (the build's default)")
        ->delimiter(',');
    std::vector<int> lanes{0};
    app.add_option("--lanes", lanes,
                   "mf, lanes evaluation: threads per cell, 1, 2, 4, 8 (more than 1 on a GPU only), 0 automatic; "
                   "each value a variant")
        ->delimiter(',');
    app.add_option("--ordering", sweep.ordering_name,
                   "memory order of cells and vertices: morton (Z-order) or mesh (the mesh's numbering)");
    app.add_option("--perturbation", sweep.perturbation,
                   "interior vertex perturbation, a fraction of half a cell in [0, 1)");
    app.add_flag("--renumber", sweep.renumber, "random numbering of cells and vertices");
    app.add_option("--seed", sweep.seed, "seed of the perturbation and the renumbering");
    app.add_option("--repeats", sweep.repeats, "timed repetitions (median reported), 1..10000");
    app.add_option("--cg-iterations", sweep.cg_iterations, "fused-CG iterations per timed solve (0: no CG), 0..10000");
    app.add_option("--ceilings", ceilings_path, "tensormg-ceilings record for % of the DRAM copy bandwidth");
    app.add_option("-o,--output", output, "JSON results file");
    app.add_flag("--overwrite", overwrite, "replace an existing results file");
    app.add_option("--export-csr", sweep.export_csr,
                   "folder to write each assembled matrix to (<problem>-<DoFs>.{row_map,entries,values,json}; "
                   "one rank) for perf/cusparse_spmv.py");
    perf::add_warmup_option(app);
    if (auto code = parse_command_line(app, env)) return *code;
    perf::Ceilings ceil;
    std::vector<LowOrderProblem> problem_list;
    collectively(env.comm(), [&] {
      perf::check_warmup_option();
      TENSORMG_CHECK(!problems.empty() && !dofs.empty() && !operators.empty() && !geometries.empty() &&
                         !scatters.empty(),
                     "--problems, --dofs, --operators, --geometry and --scatter need at least one value");
      for (const auto& p : problems) problem_list.push_back(parse_low_order_problem(p, "--problems"));
      bool mf = false;
      for (const auto& o : operators) {
        TENSORMG_CHECK(o == "mf" || o == "spmv" || o == "noop",
                       "--operators '" << o << "' is not supported; use mf, spmv or noop");
        mf = mf || o == "mf";
        sweep.spmv = sweep.spmv || o == "spmv";
        sweep.noop = sweep.noop || o == "noop";
      }
      TENSORMG_CHECK(!evaluations.empty(), "--evaluation needs at least one value");
      sweep.ordering = parse_hex_ordering(sweep.ordering_name, "--ordering");
      // Parsed (and checked) through the library's name tables, also when mf is not asked for.
      for (const auto& e : evaluations)
        for (const auto& g : geometries)
          for (const auto& s : scatters) {
            MfVariant v{parse_low_order_evaluation(e, "--evaluation"), parse_low_order_geometry(g, "--geometry"),
                        parse_low_order_scatter(s, "--scatter"), e, g, s};
            if (v.evaluation != LowOrderEvaluation::lanes) {
              if (mf) sweep.mf.push_back(v);
              continue;
            }
            // The block scatter is refused with lanes (the operator's check): left out of the sweep.
            if (v.scatter == LowOrderScatter::block) continue;
            for (const int l : lanes) {
              v.lanes = l;  // 0: the operator's choice per problem
              if (mf) sweep.mf.push_back(v);
            }
          }
      for (double n : dofs) perf::check_dofs("--dofs", n);
      TENSORMG_CHECK(sweep.perturbation >= 0 && sweep.perturbation < 1,
                     "--perturbation must be in [0, 1), given " << sweep.perturbation);
      TENSORMG_CHECK(sweep.seed >= 0, "--seed must be >= 0, given " << sweep.seed);
      TENSORMG_CHECK(!lanes.empty(), "--lanes needs at least one value");
      for (const int l : lanes) check_lanes_per_cell(l, DeviceTraits<Exec>::has_warps, "--lanes");
      TENSORMG_CHECK(sweep.block_cells >= 1 && sweep.block_cells <= 256,
                     "--block-cells must be in 1..256, given " << sweep.block_cells);
      TENSORMG_CHECK(sweep.repeats >= 1 && sweep.repeats <= 10000,
                     "--repeats must be in 1..10000, given " << sweep.repeats);
      TENSORMG_CHECK(sweep.cg_iterations >= 0 && sweep.cg_iterations <= 10000,
                     "--cg-iterations must be in 0..10000, given " << sweep.cg_iterations);
      TENSORMG_CHECK(app.count("--output") == 0 || !output.empty(), "--output needs a file name (it is empty)");
      TENSORMG_CHECK(sweep.export_csr.empty() || env.size() == 1,
                     "--export-csr writes one rank's matrix; run it on one rank (given " << env.size() << ")");
      TENSORMG_CHECK(sweep.export_csr.empty() || sweep.spmv || sweep.noop,
                     "--export-csr needs the assembled matrix: add spmv to --operators");
      ceil = perf::load_ceilings(ceilings_path);
    });
    if (!output.empty()) check_output_writable({output}, overwrite, env.comm());
    const std::size_t n_variants = sweep.mf.size() + (sweep.spmv ? 1 : 0) + (sweep.noop ? 1 : 0);
    sweep.single_case = problem_list.size() * dofs.size() * n_variants == 1;

    Json results = Json::array();
    if (env.rank() == 0)
      std::printf("%-10s %11s %-35s %10s %8s %8s %8s %6s %9s %9s\n", "problem", "DoFs", "variant", "s/apply", "GDoF/s",
                  "GFLOP/s", "B/DoF", "%DRAM", "CG GDoF/s", "vs spmv");
    int violations = 0;
    // The record is written after every size (complete: false) and at the end, so that a run cut
    // short (a time limit) keeps what it measured.
    const auto write_record = [&](bool complete) {
      if (output.empty()) return;
      collectively(env.comm(), [&] {
        if (env.rank() != 0) return;
        Json record = Json::object();
        record["kind"] = "tensormg-bench-loworder";
        record["complete"] = complete;
        record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
        record["ceilings_record"] = ceilings_path;
        record["ceilings"] = Json::object();
        record["ceilings"]["dram_copy_GBps"] = ceil.dram_GBps;
        record["ceilings"]["fp64_fma_GFLOPs"] = ceil.fp64_GFLOPs;
        record["agreement_tolerance"] = agreement_tolerance;
        record["agreement_violations"] = violations;
        record["model"] = "data_bytes: mf the layout's and the operator's device bytes (cells, points, materials, "
                          "colouring, stored geometry), spmv/noop the CRS matrix (values, columns, row offsets); "
                          "model_bytes: data_bytes plus x read and y written once; flops: mf cells x "
                          "low_order_flops_per_cell, spmv 2 nnz";
        record["results"] = results;
        write_text_file_atomically(output, record.dump(2) + "\n");
      });
    };
    for (const LowOrderProblem p : problem_list)
      for (double n : dofs) {
        violations += run_size(p, n, sweep, ceil, env.comm(), env.rank(), results);
        write_record(false);
      }
    if (env.rank() == 0)
      std::printf("s/apply: median of %d fenced applications; B/DoF: bytes of the operator's data per DoF; "
                  "%%DRAM: that data plus x and y once, of the copy bandwidth; CG: per fused-CG iteration; "
                  "vs spmv: max |A_mf x - A_spmv x| / max |A_spmv x|\n",
                  sweep.repeats);
    write_record(true);
    if (violations > 0) {
      if (env.rank() == 0)
        std::fprintf(stderr,
                     "tensormg-bench-loworder: %d matrix-free case(s) differ from the SpMV by more than %.0e "
                     "(relative, max norm)\n",
                     violations, agreement_tolerance);
      return 1;
    }
    return 0;
  });
}
