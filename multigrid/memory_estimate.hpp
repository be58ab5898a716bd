#pragma once
/// @file
/// What a Poisson solve will allocate, estimated from its description before anything is built,
/// so that an oversized run fails at once on every rank ("needs X GiB, has Y GiB") instead of
/// after minutes in a constructor or in an allocation deep inside Kokkos. The counts follow the
/// allocations of the driver, the Krylov solvers, the hierarchy and the smoothers; the test
/// AllocationTracker-checks them (tests/multigrid/test_memory_estimate.cpp).

#include <array>
#include <string>

#include "core/memory.hpp"
#include "discretization/cartesian_mesh.hpp"
#include "smoothers/smoother.hpp"

namespace tensormg {

/// A solve as tensormg-poisson runs it.
struct SolveShape {
  BrickDescription brick;
  int degree = 1;
  int ranks = 1;
  std::array<int, 3> rank_grid{0, 0, 0};  ///< 0: automatic (choose_rank_grid)
  double replicate_below_dofs = -1;        ///< HierarchyOptions::replicate_below_dofs
  int number_bytes = 8;                    ///< vectors of the outer solver
  int mg_number_bytes = 8;                 ///< vectors of the multigrid
  /// Vectors of the outer iteration besides x and b (CG 4, GMRES(m) m + 4, FGMRES(m) 2m + 4,
  /// multigrid cycles 1): krylov_vectors().
  int outer_vectors = 4;
  bool jacobi = false;         ///< Jacobi-preconditioned Krylov (diagonal + inverse)
  bool multigrid = false;
  bool mixed_full_multigrid = false;  ///< a double hierarchy one level below the float one
  SmootherKind smoother = SmootherKind::vertex_patch;
  PatchKernel patch_kernel = PatchKernel::automatic;
  bool write_output = false;  ///< the solution is written (each rank its own block)
  bool discontinuous = false;  ///< DG: (k+1)^d values per cell, ghost cells behind each box face
  bool dg_global_residual = false;  ///< DG vertex patches with the full local solver keep b − A x
  bool dg_dense_inverse = false;    ///< DG vertex patches store the dense inverses of their local problems
};

/// What estimate_solve_memory adds for Kokkos' own and small per-level data (1D matrices, boundary
/// lists, staging buffers).
inline constexpr double small_data_margin_bytes = 64.0 * 1024 * 1024;

/// Nodes (owned + ghost) of the largest rank box of a Q_k mesh with `cells` per direction on
/// `ranks` ranks (rank_grid {0, ..}: the automatic grid CartesianMesh chooses), in floating point
/// so that absurd sizes cannot overflow.
double largest_rank_box_nodes(int dim, int degree, const std::array<global_index, 3>& cells, int ranks,
                              std::array<int, 3> rank_grid = {0, 0, 0});

/// Values (owned + ghost cells) of the largest rank box of a DG Q_k mesh, as largest_rank_box_nodes.
double largest_rank_box_dg_values(int dim, int degree, const std::array<global_index, 3>& cells, int ranks,
                                  std::array<int, 3> rank_grid = {0, 0, 0});

/// Vectors an outer solver allocates besides x and b: "cg", "gmres", "fgmres", "fmg", "vcycle".
int krylov_vectors(const std::string& solver, int restart);

/// Bytes per rank (the largest rank box) on the device and on the host.
MemoryNeed estimate_solve_memory(const SolveShape& shape);

/// Memory the default execution space can still allocate on this rank: the CUDA device's free
/// memory, or the host's available memory for host backends.
double device_available_bytes();
/// True when the default execution space allocates host memory (OpenMP, Serial).
bool device_memory_is_host();

/// Collective: estimate_solve_memory against what is available; a collective InputError naming
/// both figures and what to change.
void check_solve_memory(const SolveShape& shape, MPI_Comm comm);

}  // namespace tensormg
