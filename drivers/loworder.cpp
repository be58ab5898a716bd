// tensormg-loworder: Q1 Laplace −∇·(κ∇u) = f or linear elasticity on an unstructured hexahedral mesh
// (paper 004): a perturbed, optionally renumbered brick or a Gmsh file; the matrix-free operator
// or the assembled matrix, optionally refined uniformly; unpreconditioned fused CG, CG with Jacobi
// or CG with a matrix-free multigrid V-cycle on the refinement levels; any number of MPI ranks.
// On the uniform brick a manufactured solution gives L2 and nodal errors. Prints a summary,
// writes HDF5 + XDMF (points, hexahedra, solution or displacement, material) and a run record.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
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
#include "core/preconditioners.hpp"
#include "core/provenance.hpp"
#include "core/timer.hpp"
#include "discretization/assembled_low_order.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/gmsh_io.hpp"
#include "discretization/hex_mesh.hpp"
#include "discretization/low_order_operator.hpp"
#include "discretization/low_order_problem.hpp"
#include "discretization/solution_output.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/hex_hierarchy.hpp"
#include "multigrid/low_order_multigrid.hpp"
#include "multigrid/memory_estimate.hpp"

namespace {

using namespace tensormg;
using Exec = DefaultExec;
using Vector = DistributedVector<double, Exec>;
using Layout = HexLayout<Exec>;

struct Options {
  std::string problem = "laplace";
  std::string mesh = "brick";  ///< "brick" or the path of a Gmsh 4.1 file
  std::vector<int> cells{8};
  double perturbation = 0.2;
  bool renumber = false;
  long long seed = 1;
  std::string op = "matrix-free";
  std::string geometry = "on-the-fly";
  std::string scatter = "atomic";
  std::string evaluation = "auto";
  int lanes = 0;
  std::string ordering = "morton";
  std::string material = "uniform";
  double contrast = 1e3;
  int layers = 4;
  std::string dirichlet = "boundary";
  int refinements = 0;
  std::string preconditioner = "none";
  int smoothing_degree = 4;
  bool smoothing_degree_given = false;
  std::string coarse_solver = "auto";
  bool coarse_solver_given = false;
  double rtol = 1e-8;
  int max_iterations = 10000;
  std::string output;
  bool output_given = false;
  bool overwrite = false;
  std::string record;
  bool record_given = false;
  bool monitor = false;
  /// Options that apply to one choice only, and whether each was given (validate()).
  std::vector<std::pair<bool, std::string>> brick_only_given, matrix_free_only_given;
  bool contrast_given = false, layers_given = false;
};

bool is_brick(const Options& o) { return o.mesh == "brick"; }
int components(const Options& o) { return o.problem == "elasticity" ? 3 : 1; }
bool is_multigrid(const Options& o) { return o.preconditioner == "multigrid"; }
/// The manufactured solution needs the unit cube and one material.
bool has_manufactured_solution(const Options& o) { return is_brick(o) && o.material == "uniform"; }

LowOrderOptions operator_options(const Options& o) {
  LowOrderOptions lo;
  lo.problem = parse_low_order_problem(o.problem, "--problem");
  lo.geometry = parse_low_order_geometry(o.geometry, "--geometry");
  lo.scatter = parse_low_order_scatter(o.scatter, "--scatter");
  lo.evaluation = parse_low_order_evaluation(o.evaluation, "--evaluation");
  lo.lanes_per_cell = o.lanes;
  return lo;
}

HexMaterialOptions material_options(const Options& o) {
  HexMaterialOptions m;
  m.kind = parse_hex_material(o.material, "--material");
  m.contrast = o.contrast;
  m.layers = o.layers;
  return m;
}

/// Checks of the options that need no mesh; throws InputError (made collective by the caller).
void validate(Options& o, HexDirichlet& dirichlet) {
  parse_low_order_problem(o.problem, "--problem");  // the name tables of the library check the names
  TENSORMG_CHECK(!o.mesh.empty(), "--mesh needs 'brick' or the name of a Gmsh 4.1 .msh file (it is empty)");
  TENSORMG_CHECK(o.cells.size() == 1 || o.cells.size() == 3,
                 "--cells takes 1 or 3 values (given " << o.cells.size() << ")");
  if (o.cells.size() == 1) o.cells.assign(3, o.cells[0]);
  for (int n : o.cells) TENSORMG_CHECK(n >= 1, "--cells must be at least 1 in every direction (given " << n << ")");
  TENSORMG_CHECK(o.perturbation >= 0 && o.perturbation < 1,
                 "--perturbation must be in [0, 1) (a fraction of the cell size; 1 can fold cells), given "
                     << o.perturbation);
  TENSORMG_CHECK(o.seed >= 0, "--seed must be >= 0, given " << o.seed);
  if (!is_brick(o))
    for (const auto& [given, name] : o.brick_only_given)
      TENSORMG_CHECK(!given, name << " applies to --mesh brick only (the mesh is read from '" << o.mesh << "')");
  TENSORMG_CHECK(o.op == "matrix-free" || o.op == "assembled",
                 "--operator '" << o.op << "' is not supported; use matrix-free or assembled");
  const LowOrderOptions lo = operator_options(o);
  check_lanes_per_cell(o.lanes, DeviceTraits<DefaultExec>::has_warps, "--lanes");
  TENSORMG_CHECK(o.lanes == 0 || lo.evaluation == LowOrderEvaluation::lanes, "--lanes applies to --evaluation lanes only");
  TENSORMG_CHECK(!(lo.evaluation == LowOrderEvaluation::lanes && lo.scatter == LowOrderScatter::block),
                 "--scatter block works with --evaluation factorized or pointwise, not lanes");
  parse_hex_ordering(o.ordering, "--ordering");
  if (o.op == "assembled")
    for (const auto& [given, name] : o.matrix_free_only_given)
      TENSORMG_CHECK(!given, name << " applies to --operator matrix-free only");
  material_options(o);
  TENSORMG_CHECK(o.contrast > 0, "--contrast must be > 0, given " << o.contrast);
  TENSORMG_CHECK(o.layers >= 1 && o.layers <= 1000000, "--layers must be in 1..1000000, given " << o.layers);
  TENSORMG_CHECK(o.material == "layered" || (!o.contrast_given && !o.layers_given),
                 "--contrast and --layers apply to --material layered only");
  try {
    dirichlet = parse_hex_dirichlet(o.dirichlet);
  } catch (const InputError& e) {
    throw InputError("--dirichlet '" + o.dirichlet + "': " + e.what());
  }
  const bool none = !dirichlet.whole_boundary && dirichlet.tags.empty() && dirichlet.planes.empty();
  TENSORMG_CHECK(!none, "--dirichlet " << o.dirichlet << " leaves the operator singular: " << o.problem
                                       << " needs Dirichlet vertices (e.g. --dirichlet boundary or z=0)");
  TENSORMG_CHECK(o.preconditioner == "none" || o.preconditioner == "jacobi" || is_multigrid(o),
                 "--preconditioner '" << o.preconditioner
                                      << "' is not supported; use none (fused CG), jacobi or multigrid");
  TENSORMG_CHECK(o.refinements >= 0 && o.refinements <= 12, "--refinements must be in 0..12, given " << o.refinements);
  TENSORMG_CHECK(!is_multigrid(o) || o.refinements >= 1,
                 "--preconditioner multigrid needs the levels of --refinements 1 or more (given " << o.refinements
                                                                                                 << ")");
  TENSORMG_CHECK(is_multigrid(o) || !o.smoothing_degree_given,
                 "--smoothing-degree applies to --preconditioner multigrid only");
  TENSORMG_CHECK(o.coarse_solver == "auto" || o.coarse_solver == "dense" || o.coarse_solver == "cg",
                 "--coarse-solver '" << o.coarse_solver << "' is not supported; use auto, dense or cg");
  TENSORMG_CHECK(is_multigrid(o) || !o.coarse_solver_given, "--coarse-solver applies to --preconditioner multigrid only");
  TENSORMG_CHECK(o.smoothing_degree >= 1 && o.smoothing_degree <= 20,
                 "--smoothing-degree must be in 1..20, given " << o.smoothing_degree);
  const double floor = 8 * std::numeric_limits<double>::epsilon();
  TENSORMG_CHECK(o.rtol > 0 && o.rtol < 1, "--rtol must be in (0, 1), given " << o.rtol);
  TENSORMG_CHECK(o.rtol >= floor,
                 "--rtol " << o.rtol << " is below what double precision can reach (" << floor << ")");
  TENSORMG_CHECK(o.max_iterations >= 0, "--max-iterations must be >= 0, given " << o.max_iterations);
  TENSORMG_CHECK(!o.output_given || !o.output.empty(), "--output needs a file name (it is empty)");
  TENSORMG_CHECK(!o.record_given || !o.record.empty(), "--record needs a file name (it is empty)");
  TENSORMG_CHECK(o.record.empty() || o.record != o.output, "--record and --output name the same file");
}

/// Collective, before the mesh is built (brick) or right after it is read (file): enough cells
/// for the ranks, local counts that fit 32-bit indices, and memory for mesh, hierarchy, operator,
/// multigrid and vectors. The counts are those of the mesh as given (before --refinements).
/// Counts in floating point so that absurd sizes cannot overflow.
void check_size(const Options& o, double n_cells, double n_vertices, double n_boundary_faces, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  TENSORMG_CHECK_COLLECTIVE(comm, n_cells >= ranks,
                            "the mesh has " << n_cells << " cells, fewer than the " << ranks
                                            << " MPI ranks (each rank needs a cell); use more --cells or fewer ranks");
  // Each refinement adds a vertex per edge (about 3 per cell plus the boundary's), face (3 per
  // cell plus half the boundary faces) and cell.
  const double coarse_cells = n_cells, coarse_vertices = n_vertices;
  for (int l = 0; l < o.refinements; ++l) {
    n_vertices += 7 * n_cells + 1.5 * n_boundary_faces;
    n_cells *= 8;
    n_boundary_faces *= 4;
  }
  // The largest rank holds about its share of the vertices plus the ghosts of its surface; the
  // layout numbers its cells' vertex slots (8 per cell) with 32-bit indices as well.
  const double rank_dofs = components(o) * (n_vertices / ranks * 1.1 + 4 * std::pow(n_vertices / ranks, 2.0 / 3) + 8);
  const double rank_cells = n_cells / ranks * 1.1;
  const double limit = double(std::numeric_limits<local_index>::max());
  TENSORMG_CHECK_COLLECTIVE(comm, rank_dofs < limit && rank_cells * 8 < limit,
                            "the mesh of " << n_cells << " cells and " << n_vertices << " vertices puts about "
                                           << rank_dofs << " DoFs and " << rank_cells
                                           << " cells on one rank, more than one rank can address with 32-bit local "
                                              "indices ("
                                           << local_index(limit) << " DoFs, " << local_index(limit / 8)
                                           << " cells); use fewer --cells or more MPI ranks");
  const auto e = estimate_hex_memory(global_index(n_cells), global_index(n_vertices), components(o), ranks);
  // Vectors: b and x, CG's r, p, Ap (Jacobi: z, the diagonal and its inverse as well; multigrid:
  // z, and on the finest level the cycle's residual and the smoother's inverse diagonal, residual
  // and direction).
  const int vectors = 5 + (o.preconditioner == "jacobi" ? 3 : 0) + (is_multigrid(o) ? 5 : 0);
  MemoryNeed need;
  need.device_bytes = e.layout_device_bytes + vectors * e.vector_bytes + small_data_margin_bytes;
  // The finest layout's set-up on the device: the whole mesh's points and connectivity and the
  // numbering's arrays.
  need.device_bytes += hex_layout_setup_device_bytes(global_index(n_cells), global_index(n_vertices));
  // The dense coarse inverse (auto: up to 4000 DoFs on a GPU, 1000 on the host): the matrix
  // eliminated in place and the rank's rows of the inverse.
  const double coarse_dofs = components(o) * coarse_vertices;
  if (is_multigrid(o) && o.coarse_solver != "cg" && coarse_dofs <= (device_memory_is_host() ? 1000 : 4000))
    need.device_bytes += 2 * coarse_dofs * coarse_dofs * sizeof(double);
  if (o.refinements > 0) {
    // The coarser levels: about 1/7 of the finest level's layout, and with multigrid their
    // operators' vectors (x, b, r, smoother's three); the transfers: about 3.4 entries (index and
    // weight) per fine vertex, twice (P and its transpose), on every level.
    const double fine_vertices_per_rank = n_vertices / ranks * 1.1;
    need.device_bytes += e.layout_device_bytes / 7;
    if (is_multigrid(o)) need.device_bytes += 6 * e.vector_bytes / 7 + 8.0 / 7 * fine_vertices_per_rank * 2 * (3.4 * 12 + 4);
    // On a GPU the hierarchy keeps every level's interpolation stencils there (about 3.4 entries
    // of 16 bytes and an offset per fine vertex of the whole mesh).
    if (!device_memory_is_host()) need.device_bytes += 8.0 / 7 * n_vertices * (3.4 * 16 + 8);
  }
  if (o.op == "assembled") need.device_bytes += e.csr_bytes;
  if (o.op == "matrix-free" && o.geometry == "stored") need.device_bytes += e.geometry_bytes;
  // The last refinement runs on the device with its own arrays (refine_hex_mesh), freed before the
  // finest layout is built, while the coarser levels' layouts exist.
  if (o.refinements > 0)
    need.device_bytes = std::max(need.device_bytes, refinement_device_bytes(global_index(n_cells / 8), global_index(n_vertices / 8)) +
                                                        e.layout_device_bytes / 7 + small_data_margin_bytes);
  if (o.op == "matrix-free" && o.scatter == "block") need.device_bytes += e.block_scatter_bytes;
  // Host: the whole mesh on every rank, the layout's host copies, the matrix assembled on the host,
  // the right-hand side, the errors and the output staged through host vectors.
  need.host_bytes = e.mesh_host_bytes + e.layout_device_bytes + 3 * e.vector_bytes;
  // Refining: the coarse and the fine mesh at once, the refinement's edge and face table, and the
  // interpolation stencils of every level (about 3.4 entries of 16 bytes per vertex).
  if (o.refinements > 0) need.host_bytes += e.mesh_host_bytes / 8 + 8.0 / 7 * n_vertices * (3.4 * 16 + 8) + n_cells / 8 * 6 * 56;
  if (o.op == "assembled") need.host_bytes += e.csr_bytes;
  std::ostringstream what;
  what << "this solve (" << o.problem << ", " << n_cells << " cells, " << components(o) * n_vertices << " DoFs";
  if (o.refinements > 0)
    what << " after " << o.refinements << " refinements of " << coarse_cells << " cells and " << coarse_vertices
         << " vertices";
  what << ")";
  check_memory(need, device_available_bytes(), device_memory_is_host(), comm, what.str(),
               "use fewer --cells or more MPI ranks");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    std::printf("  %-24s %s device, %s host per rank (checked before building)\n", "memory estimate",
                format_bytes(need.device_bytes).c_str(), format_bytes(need.host_bytes).c_str());
}

/// The nodal error: max over the vertices and components of |x − u(vertex)|.
double nodal_max_error(const Layout& layout, const Vector& x, const PointFunction& exact) {
  Vector difference(layout.partitioner(), "nodal_error");
  interpolate(layout, exact, difference);
  difference.axpby(1.0, x, -1.0);  // x − u on the owned entries
  return difference.linf_norm();
}

/// An operator whose applications are timed (fenced), for the operator's share of a CG solve.
template <class Operator>
struct TimedOperator {
  const Operator& A;
  Timer& timer;
  void vmult(Vector& dst, const Vector& src) const {
    timer.start();
    A.vmult(dst, src);
    timer.stop();
  }
};

// ---- the run ----------------------------------------------------------------------------------

std::string solver_name(const Options& o) {
  if (o.preconditioner == "none") return "fused CG (paper 004 Algorithm 1)";
  if (o.preconditioner == "jacobi") return "CG with Jacobi";
  return "CG with a multigrid V-cycle (Chebyshev-Jacobi degree " + std::to_string(o.smoothing_degree) + ")";
}

Json options_record(const Options& o) {
  Json j = Json::object();
  j["problem"] = o.problem;
  j["mesh"] = o.mesh;
  if (is_brick(o)) {
    j["cells"] = o.cells;
    j["perturbation"] = o.perturbation;
    j["renumber"] = o.renumber;
    j["seed"] = o.seed;
  }
  j["operator"] = o.op;
  if (o.op == "matrix-free") {
    j["geometry"] = o.geometry;
    j["scatter"] = o.scatter;
    j["evaluation"] = o.evaluation;
  }
  j["ordering"] = o.ordering;
  j["material"] = o.material;
  if (o.material == "layered") {
    j["contrast"] = o.contrast;
    j["layers"] = o.layers;
  }
  j["dirichlet"] = o.dirichlet;
  j["refinements"] = o.refinements;
  j["preconditioner"] = o.preconditioner;
  if (is_multigrid(o)) {
    j["smoothing_degree"] = o.smoothing_degree;
    j["coarse_solver"] = o.coarse_solver;
  }
  j["solver"] = solver_name(o);
  j["rtol"] = o.rtol;
  j["max_iterations"] = o.max_iterations;
  j["output"] = o.output;
  j["record"] = o.record;
  return j;
}

int run(const Options& o, const HexDirichlet& dirichlet, Environment& env) {
  const MPI_Comm comm = env.comm();
  TimerSet timers, phases;
  std::vector<std::string> phase_order;
  const auto phase = [&](const std::string& name, auto&& f) {
    if (std::find(phase_order.begin(), phase_order.end(), name) == phase_order.end()) phase_order.push_back(name);
    ScopedTimer t(phases[name]);
    f();
    Kokkos::fence();
  };
  timers["setup"].start();
  if (env.rank() == 0)
    std::printf("tensormg-loworder: Q1 %s on %s, %s operator, %s on %s\n", o.problem.c_str(),
                is_brick(o) ? "a perturbed brick" : o.mesh.c_str(), o.op.c_str(),
                o.preconditioner == "none" ? "fused CG" : o.preconditioner == "jacobi" ? "CG + Jacobi" : "CG + multigrid",
                backend_name().c_str());

  // The mesh: the brick is checked for size before it exists, a file right after it is read.
  auto mesh = std::make_shared<HexMesh>();
  if (is_brick(o)) {
    const double nx = o.cells[0], ny = o.cells[1], nz = o.cells[2];
    check_size(o, nx * ny * nz, (nx + 1) * (ny + 1) * (nz + 1), 2 * (nx * ny + ny * nz + nx * nz), comm);
    phase("mesh", [&] {
      collectively(comm, [&] {
        BrickHexOptions bo;
        bo.cells = {o.cells[0], o.cells[1], o.cells[2]};
        bo.perturbation = o.perturbation;
        bo.renumber = o.renumber;
        bo.seed = std::uint64_t(o.seed);
        *mesh = brick_hex_mesh(bo);
      });
    });
  } else {
    phase("mesh", [&] {
      collectively(comm, [&] {
        std::ifstream probe(o.mesh);
        TENSORMG_CHECK(probe.good(), "--mesh '" << o.mesh << "' cannot be read (give brick or a Gmsh 4.1 .msh file)");
        probe.close();
        *mesh = read_gmsh(o.mesh);
      });
    });
    check_size(o, double(mesh->n_cells()), double(mesh->n_vertices()), double(mesh->n_boundary_faces()), comm);
  }
  const global_index mesh_cells = mesh->n_cells(), mesh_vertices = mesh->n_vertices();

  // The levels: the mesh as given and its uniform refinements (one level without --refinements).
  std::shared_ptr<const HexHierarchy<Exec>> hierarchy;
  phase(o.refinements > 0 ? "refinement and layouts" : "layout", [&] {
    hierarchy = std::make_shared<const HexHierarchy<Exec>>(*mesh, o.refinements, components(o), dirichlet,
                                                           material_options(o), comm,
                                                           parse_hex_ordering(o.ordering, "--ordering"));
  });
  mesh.reset();  // the layouts hold what the run needs: every rank drops its copy of the whole mesh
  // Its steps, the slowest rank's time of each (every rank has the same steps).
  std::vector<std::pair<std::string, double>> layout_steps = hierarchy->setup_seconds();
  for (auto& [name, seconds] : layout_steps) MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  const std::shared_ptr<const Layout> layout = hierarchy->fine_layout();
  {
    const long long mine = layout->constrained_dofs().extent(0);
    long long total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
    TENSORMG_CHECK_COLLECTIVE(comm, total > 0,
                              "--dirichlet " << o.dirichlet << " selects no vertex of this mesh: " << o.problem
                                             << " needs Dirichlet vertices (e.g. --dirichlet boundary)");
  }
  const LowOrderOptions lo = operator_options(o);
  std::shared_ptr<const LowOrderOperator<Exec>> matrix_free_ptr;
  std::optional<AssembledLowOrder<Exec>> assembled;
  if (o.op == "matrix-free")
    phase("operator", [&] { matrix_free_ptr = std::make_shared<const LowOrderOperator<Exec>>(layout, lo); });
  else phase("matrix (assembly)", [&] { assembled.emplace(layout, lo.problem); });
  const LowOrderOperator<Exec>* matrix_free = matrix_free_ptr.get();
  // The evaluation that runs (auto resolved), for the summary and the record.
  const std::string evaluation =
      !matrix_free ? o.evaluation
      : matrix_free->options().evaluation == LowOrderEvaluation::lanes
          ? "lanes (" + std::to_string(matrix_free->options().lanes_per_cell) + " per cell)"
          : to_string(matrix_free->options().evaluation);

  // The load: the manufactured one (E = 1, ν of HexMaterialOptions), else f = 1 (Laplace) or
  // the body force (0, 0, −1) (elasticity).
  std::optional<LowOrderManufactured> mms;
  if (has_manufactured_solution(o)) {
    const double E = 1, nu = HexMaterialOptions{}.poisson_ratio;
    mms = LowOrderManufactured{lo.problem, E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))};
  }
  const PointFunction exact = [&](const double* p, double* u) { mms->solution(p, u); };
  const PointFunction load = [&](const double* p, double* f) {
    if (mms) {
      mms->rhs(p, f);
    } else if (components(o) == 1) {
      f[0] = 1;
    } else {
      f[0] = f[1] = 0;
      f[2] = -1;
    }
  };
  Vector b, x;
  phase("right-hand side", [&] {
    b.reinit(layout->partitioner(), "rhs");
    x.reinit(layout->partitioner(), "solution");
    if (mms) {
      assemble_load_vector(*layout, load, b);
    } else {
      double constant[3] = {0, 0, 0};
      load(nullptr, constant);  // f = 1 or (0, 0, −1): constant, assembled on the device
      assemble_constant_load(*layout, constant, b);
    }
  });
  std::optional<JacobiPreconditioner<Vector>> jacobi;
  if (o.preconditioner == "jacobi")
    phase("Jacobi diagonal", [&] {
      Vector diagonal(layout->partitioner(), "diagonal");
      // The assembled operator's diagonal is the matrix-free one's (same quadrature); computing it
      // matrix-free, with the geometry on the fly, stores nothing.
      if (matrix_free) matrix_free->compute_diagonal(diagonal);
      else LowOrderOperator<Exec>(layout, LowOrderOptions{lo.problem, LowOrderGeometry::on_the_fly, lo.scatter,
                                                          lo.evaluation})
               .compute_diagonal(diagonal);
      jacobi.emplace(diagonal);
    });
  // Multigrid: matrix-free operators on every level (the finest one shared with CG when it is the
  // matrix-free one), Chebyshev–Jacobi smoothing, Q1 transfer, coarse CG.
  std::optional<LowOrderMultigrid<Exec>> multigrid;
  if (is_multigrid(o))
    phase("multigrid (levels, smoothers, transfers)", [&] {
      LowOrderMultigridOptions mo;
      mo.smoother.chebyshev_degree = o.smoothing_degree;
      if (o.coarse_solver == "cg") mo.coarse_dense_max_dofs = 0;
      if (o.coarse_solver == "dense") mo.coarse_dense_max_dofs = 4000;
      const global_index coarse_dofs = hierarchy->layout(0)->n_global_dofs();
      TENSORMG_CHECK_COLLECTIVE(comm, o.coarse_solver != "dense" || coarse_dofs <= mo.coarse_dense_max_dofs,
                                "--coarse-solver dense takes coarse levels of at most "
                                    << mo.coarse_dense_max_dofs << " DoFs; this one has " << coarse_dofs
                                    << " (use fewer --cells and more --refinements, or --coarse-solver cg)");
      multigrid.emplace(hierarchy, lo, matrix_free_ptr, mo);
    });
  timers["setup"].stop();
  const auto setup_times = phases.max_over_ranks(comm);
  // The multigrid's steps, the slowest rank's time of each.
  std::vector<std::pair<std::string, double>> multigrid_steps;
  if (multigrid) multigrid_steps = multigrid->setup_seconds();
  for (auto& [name, seconds] : multigrid_steps) MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);

  SolverControl control;
  control.rtol = o.rtol;
  control.max_iterations = o.max_iterations;
  if (o.monitor && env.rank() == 0)
    control.monitor = [](int it, double r) { std::printf("  iteration %5d  residual %.6e\n", it, r); };
  Timer& operator_timer = timers["operator in CG"];
  const auto solve = [&](const auto& A) {
    const TimedOperator<std::decay_t<decltype(A)>> timed{A, operator_timer};
    if (jacobi) return solve_cg(timed, x, b, *jacobi, control);
    if (multigrid) return solve_cg(timed, x, b, *multigrid, control);
    return solve_cg_fused(timed, x, b, control);
  };
  timers["solve"].start();
  const SolverResult result = matrix_free ? solve(*matrix_free) : solve(*assembled);
  timers["solve"].stop();
  const int applications = operator_timer.count();

  // Errors: L2 by 3×3×3 Gauss points per cell, nodal at the vertices.
  std::optional<std::pair<double, double>> errors;
  if (mms) errors = std::make_pair(l2_error(*layout, x, exact), nodal_max_error(*layout, x, exact));
  const double b_norm = b.l2_norm();
  const auto times = timers.max_over_ranks(comm);
  const double dofs = double(layout->n_global_dofs());
  const double per_iteration = result.iterations > 0 ? times.at("solve") / result.iterations : 0;
  const double operator_gdofs = applications > 0 ? dofs * applications / times.at("operator in CG") / 1e9 : 0;
  double nnz = 0;
  if (assembled) {
    const double mine = double(assembled->nnz());
    MPI_Allreduce(&mine, &nnz, 1, MPI_DOUBLE, MPI_SUM, comm);
  }

  Json record = Json::object();
  record["kind"] = "tensormg-loworder";
  record["options"] = options_record(o);
  Json& res = record["result"];
  if (matrix_free) res["evaluation"] = evaluation;
  res["dofs"] = layout->n_global_dofs();
  res["vertices"] = layout->n_global_vertices();
  res["cells"] = layout->n_global_cells();
  res["levels"] = hierarchy->n_levels();
  if (multigrid) {
    res["coarse_dofs"] = hierarchy->layout(0)->n_global_dofs();
    res["coarse_solver"] = multigrid->coarse_is_dense() ? "dense inverse" : "CG with Jacobi";
    res["coarse_iterations_max"] = multigrid->max_coarse_iterations();
    double mine = multigrid->device_bytes(), most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, comm);
    res["multigrid_device_bytes_max_rank"] = most;
  }
  res["mesh_cells"] = mesh_cells;
  res["mesh_vertices"] = mesh_vertices;
  res["ranks"] = env.size();
  if (assembled) res["nnz"] = nnz;
  res["iterations"] = result.iterations;
  res["reason"] = to_string(result.reason);
  res["converged"] = result.converged();
  res["initial_residual"] = result.initial_residual;
  res["final_residual"] = result.final_residual;
  res["true_residual"] = result.true_residual;
  const double relative_true = b_norm > 0 ? result.true_residual / b_norm : result.true_residual;
  res["relative_true_residual"] = relative_true;
  const bool drifted = result.converged() && relative_true > 10 * o.rtol;
  res["true_residual_exceeds_tolerance"] = drifted;
  res["residual_history"] = result.history;
  res["setup_seconds"] = times.at("setup");
  Json breakdown = Json::object();
  for (const auto& name : phase_order) breakdown[name] = setup_times.at(name);
  res["setup_breakdown_seconds"] = breakdown;
  Json steps = Json::object();
  for (const auto& [name, seconds] : layout_steps) steps[name] = seconds;
  res["layout_steps_seconds"] = steps;
  if (multigrid) {
    Json mg_steps = Json::object();
    for (const auto& [name, seconds] : multigrid_steps) mg_steps[name] = seconds;
    res["multigrid_steps_seconds"] = mg_steps;
  }
  res["solve_seconds"] = times.at("solve");
  res["seconds_per_iteration"] = per_iteration;
  res["operator_applications"] = applications;
  res["operator_seconds"] = times.at("operator in CG");
  res["operator_GDoFps"] = operator_gdofs;
  res["dof_iterations_per_second"] = per_iteration > 0 ? dofs / per_iteration : 0.0;
  if (errors) {
    res["l2_error"] = errors->first;
    res["nodal_max_error"] = errors->second;
  }
  record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());

  if (env.rank() == 0) {
    std::printf("  %-24s %s\n", "device", device_name().c_str());
    std::printf("  %-24s %.0f (%lld vertices x %d)\n", "DoFs", dofs,
                static_cast<long long>(layout->n_global_vertices()), components(o));
    std::printf("  %-24s %lld\n", "cells", static_cast<long long>(layout->n_global_cells()));
    if (o.refinements > 0)
      std::printf("  %-24s %d (%lld coarsest cells, refined %d times)\n", "levels", hierarchy->n_levels(),
                  static_cast<long long>(hierarchy->layout(0)->n_global_cells()), o.refinements);
    if (multigrid && multigrid->coarse_is_dense())
      std::printf("  %-24s V-cycle, Chebyshev-Jacobi degree %d, coarse dense inverse (%lld DoFs)\n", "multigrid",
                  o.smoothing_degree, static_cast<long long>(hierarchy->layout(0)->n_global_dofs()));
    else if (multigrid)
      std::printf("  %-24s V-cycle, Chebyshev-Jacobi degree %d, coarse CG (%lld DoFs, at most %d iterations)\n",
                  "multigrid", o.smoothing_degree, static_cast<long long>(hierarchy->layout(0)->n_global_dofs()),
                  multigrid->max_coarse_iterations());
    std::printf("  %-24s %d\n", "MPI ranks", env.size());
    std::printf("  %-24s %s%s\n", "operator", o.op.c_str(),
                o.op == "matrix-free"
                    ? (", " + evaluation + ", geometry " + o.geometry + ", scatter " + o.scatter).c_str()
                                      : (", " + std::to_string(static_cast<long long>(nnz)) + " nonzeros").c_str());
    std::printf("  %-24s %s%s\n", "material", o.material.c_str(),
                o.material == "layered"
                    ? (" (" + std::to_string(o.layers) + " layers, contrast " + Json(o.contrast).dump(-1) + ")").c_str()
                    : "");
    std::printf("  %-24s %d\n", "iterations", result.iterations);
    std::printf("  %-24s %s\n", "reason", to_string(result.reason).c_str());
    std::printf("  %-24s %.3e\n", "relative true residual", relative_true);
    std::printf("  %-24s %.4f s\n", "setup time", times.at("setup"));
    for (const auto& name : phase_order) {
      std::printf("    %-22s %.4f s\n", name.c_str(), setup_times.at(name));
      if (name == "refinement and layouts" || name == "layout")
        for (const auto& [step, seconds] : layout_steps)
          if (step != "refinement" || o.refinements > 0) std::printf("      %-20s %.4f s\n", step.c_str(), seconds);
      if (name == "multigrid (levels, smoothers, transfers)")
        for (const auto& [step, seconds] : multigrid_steps) std::printf("      %-20s %.4f s\n", step.c_str(), seconds);
    }
    std::printf("  %-24s %.4f s\n", "solve time", times.at("solve"));
    std::printf("  %-24s %.3e s\n", "time per iteration", per_iteration);
    std::printf("  %-24s %.4f (DoFs x iterations / solve time)\n", "GDoF/s per iteration",
                per_iteration > 0 ? dofs / per_iteration / 1e9 : 0.0);
    std::printf("  %-24s %.4f (%d applications, %.4f s, fenced)\n", "operator GDoF/s", operator_gdofs, applications,
                times.at("operator in CG"));
    if (errors) {
      std::printf("  %-24s %.6e\n", "L2 error", errors->first);
      std::printf("  %-24s %.6e\n", "nodal max error", errors->second);
    }
  }
  if (!result.converged() || drifted) {
    if (env.rank() == 0)
      std::fprintf(stderr, "tensormg-loworder: not converged (%s, relative true residual %.3e); no output written\n",
                   drifted ? "the true residual exceeds 10x the tolerance" : to_string(result.reason).c_str(),
                   relative_true);
    return 3;
  }
  if (!o.output.empty()) {
    write_solution(o.output, *layout, x, record, o.overwrite);
    if (env.rank() == 0) std::printf("  %-24s %s (+ .xdmf)\n", "output", o.output.c_str());
  }
  if (!o.record.empty()) {
    collectively(comm, [&] {
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
    CLI::App app{"tensormg-loworder: Q1 Laplace or linear elasticity on unstructured hexahedra (paper 004), "
                 "matrix-free or assembled, CG"};
    app.add_option("--problem", o.problem, "laplace (-div(kappa grad u) = f) or elasticity (isotropic, nu = 0.3)");
    app.add_option("--mesh", o.mesh, "brick (the unit cube, perturbed) or a Gmsh 4.1 ASCII .msh file of hexahedra");
    app.add_option("--cells", o.cells, "brick: cells per direction before --refinements (one value or NX,NY,NZ)")
        ->delimiter(',');
    app.add_option("--perturbation", o.perturbation,
                   "brick: interior vertices move by up to this fraction of half a cell, in [0, 1)");
    app.add_flag("--renumber", o.renumber, "brick: random numbering of cells and vertices");
    app.add_option("--seed", o.seed, "brick: seed of the perturbation and the renumbering");
    app.add_option("--operator", o.op, "matrix-free or assembled (KokkosSparse CRS)");
    app.add_option("--geometry", o.geometry, "matrix-free: on-the-fly (Jacobians from the vertices) or stored");
    app.add_option("--scatter", o.scatter, "matrix-free: atomic, coloured (one launch per colour, no atomics) or block "
                                           "(summed per block of 128 cells in scratch, one atomic per vertex of a block)");
    app.add_option("--evaluation", o.evaluation,
                   "matrix-free: factorized (edge differences, the tensor structure of Q1), pointwise (sums over "
                   "the 8 vertices at each Gauss point, paper 004 Algorithm 2), lanes (the factorized steps with "
                   "a cell's 8 points on --lanes threads of a warp) or auto (default: lanes on the host, "
                   "factorized on a GPU and with the block scatter)");
    app.add_option("--lanes", o.lanes,
                   "matrix-free, lanes evaluation: threads per cell, 1, 2, 4 or 8 (more than 1 on a GPU only); 0 "
                   "(default): 1 on the host, 8 on a GPU");
    app.add_option("--ordering", o.ordering,
                   "memory order of the rank's cells and vertices: morton (Z-order of the centroids) or mesh (the "
                   "mesh's numbering, e.g. the random one of --renumber)");
    app.add_option("--material", o.material,
                   "uniform (coefficient 1, E = 1) or layered (in z, alternating 1 and --contrast)");
    app.add_option("--contrast", o.contrast, "layered: coefficient (Young's modulus) of every second layer");
    app.add_option("--layers", o.layers, "layered: number of layers");
    app.add_option("--dirichlet", o.dirichlet,
                   "Dirichlet vertices: boundary, or tag:N and x=V / y=V / z=V joined by '+' (e.g. tag:3+z=0)");
    app.add_option("--refinements", o.refinements,
                   "refine the mesh (the brick of --cells, or the file) uniformly this many times: 8^r times the "
                   "cells; the levels of the multigrid");
    app.add_option("--preconditioner", o.preconditioner,
                   "none (fused CG, paper 004 Algorithm 1), jacobi, or multigrid (matrix-free V-cycle on the "
                   "--refinements levels)");
    app.add_option("--smoothing-degree", o.smoothing_degree,
                   "multigrid: operator applications per Chebyshev-Jacobi smoothing step (default 4)");
    app.add_option("--coarse-solver", o.coarse_solver,
                   "multigrid: the coarsest level's solver: dense (its inverse, up to 4000 DoFs), cg (CG with Jacobi "
                   "to 1e-10), or auto (dense up to 4000 DoFs on a GPU, 1000 on the host)");
    app.add_option("--rtol", o.rtol, "relative residual tolerance; a true residual above 10x it exits with code 3");
    app.add_option("--max-iterations", o.max_iterations, "iteration limit");
    app.add_option("-o,--output", o.output, "HDF5 file for mesh, solution and run record (an .xdmf sidecar is added)");
    app.add_flag("--overwrite", o.overwrite, "replace existing output files");
    app.add_option("--record", o.record, "JSON file for the run record (options, result, times; no solution)");
    app.add_flag("--monitor", o.monitor, "print the residual of every iteration");
    if (auto code = tensormg::parse_command_line(app, env)) return *code;
    o.output_given = app.count("--output") > 0;
    o.record_given = app.count("--record") > 0;
    o.contrast_given = app.count("--contrast") > 0;
    o.layers_given = app.count("--layers") > 0;
    o.smoothing_degree_given = app.count("--smoothing-degree") > 0;
    o.coarse_solver_given = app.count("--coarse-solver") > 0;
    for (const char* name : {"--cells", "--perturbation", "--renumber", "--seed"})
      o.brick_only_given.push_back({app.count(name) > 0, name});
    for (const char* name : {"--geometry", "--scatter", "--evaluation", "--lanes"})
      o.matrix_free_only_given.push_back({app.count(name) > 0, name});
    tensormg::HexDirichlet dirichlet;
    tensormg::collectively(env.comm(), [&] { validate(o, dirichlet); });
    // Before anything is built: the output can be written (the memory is checked in run()).
    if (!o.output.empty()) tensormg::check_output_path(o.output, o.overwrite, env.comm());
    if (!o.record.empty()) tensormg::check_output_writable({o.record}, o.overwrite, env.comm());
    return run(o, dirichlet, env);
  });
}
