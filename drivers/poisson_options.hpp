#pragma once
/// @file
/// tensormg-poisson's options: the command line (CLI11), their checks before anything is built,
/// their copy in the run record and the shape of the solve they ask for (the memory check).

#include <string>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "multigrid/memory_estimate.hpp"

namespace CLI {
class App;
}

namespace tensormg {

struct PoissonOptions {
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
  std::string mixed_start = "auto";  ///< MixedStart of mixed-precision full multigrid
  std::string smoother_kernel = "auto";
  std::string patch_residual = "auto";
  /// cg: fast-diagonalization or inverse; dg: full, dirichlet or clamped (paper 002 §3.1); the
  /// default of each when not given (validate_poisson_options()).
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

/// Registers every option of the program on app, each writing into o.
void add_poisson_options(CLI::App& app, PoissonOptions& o);
/// After parsing: which options were given (defaults and checks that depend on it).
void note_given_poisson_options(const CLI::App& app, PoissonOptions& o);
/// Checks of the options that need no mesh, and the defaults that depend on other options;
/// throws InputError (made collective by the caller).
void validate_poisson_options(PoissonOptions& o);
/// FMG, a V-cycle or a multigrid preconditioner.
bool uses_multigrid(const PoissonOptions& o);
/// The options as the run record keeps them.
Json poisson_options_record(const PoissonOptions& o);
/// What the solve will allocate, for the collective memory check before anything is built.
SolveShape solve_shape(const PoissonOptions& o, int ranks);

}  // namespace tensormg
