#pragma once
/// @file
/// What the studies of tensormg-bench-multigrid share: the settings parsed from the command line,
/// the unit-cube meshes and their sizes, and the DG studies (bench_multigrid_dg.cpp) the main
/// program (bench_multigrid.cpp) dispatches to.

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "discretization/cartesian_mesh.hpp"
#include "perf/benchmark_support.hpp"

namespace tensormg::bench_multigrid {

using Exec = DefaultExec;

struct Settings {
  std::string study = "iterations";
  std::vector<int> dims{2};
  std::vector<int> degrees{1, 2, 3, 4};
  std::vector<int> levels{4, 5, 6};
  std::vector<std::string> smoothers{"vertex-patch"};
  std::vector<std::string> local_solvers{"full", "dirichlet"};  ///< dg-iterations
  std::vector<std::string> dg_layouts{"padded"};                 ///< dg-smoother
  std::vector<std::string> dg_inversions{"auto"};                 ///< dg-smoother
  std::vector<std::string> dg_contractions{"auto"};               ///< dg-smoother
  std::vector<std::string> dg_shared_memories{"auto"};            ///< dg-smoother
  std::vector<std::string> dg_scratch_pointers{"auto"};           ///< dg-smoother
  std::string smoothing_order = "auto";
  std::vector<std::string> precisions{"double"};
  std::string variants = "default";
  std::vector<int> patches_per_team{0};
  std::vector<std::string> threads_per_patch{"auto"};
  std::vector<std::string> patch_residuals{"auto"};  ///< smoother, vcycle, fmg: full and/or boundary
  std::vector<std::string> thread_structures{"auto"};  ///< smoother study, default variant
  double dofs = 1e6;
  double max_dofs = 2e7;
  double rtol = 1e-9;
  std::string problem = "one";
  int repeats = 10;
  int cycles = 10;
  std::string ceilings;
};

inline BrickDescription unit_brick(int dim, int refinements) {
  BrickDescription b;
  b.dim = dim;
  b.refinements = refinements;
  return b;
}

inline double dofs_of(int dim, int k, int refinements) { return std::pow(double(k) * (1 << refinements) + 1, dim); }
inline double dg_dofs_of(int dim, int k, int refinements) { return std::pow(double(k + 1) * (1 << refinements), dim); }

/// Cells per direction of the DG smoother study's mesh: close to --dofs values, at least 2.
inline int dg_smoother_cells(const Settings& s, int dim, int k) {
  return std::max(2, int(std::lround(std::pow(s.dofs, 1.0 / dim) / (k + 1))));
}

/// Paper 002 Tables 1 and 2 (dg-iterations): GMRES + one V-cycle, fractional iteration counts.
Json study_dg_iterations(const Settings& s, MPI_Comm comm, bool root);
/// One smoothing step of the DG vertex-patch smoother per local solver, layout, patches per team
/// and inversion (dg-smoother).
Json study_dg_smoother(const Settings& s, MPI_Comm comm, bool root, const perf::Ceilings& ceil);

}  // namespace tensormg::bench_multigrid
