#pragma once
/// @file
/// The brick [a, b]^d cut into n_x × n_y (× n_z) coarse cells refined L times uniformly (cells may
/// be anisotropic), and its partition over MPI ranks as a Cartesian process grid of cell boxes.

#include <mpi.h>

#include <array>
#include <string>

#include "core/types.hpp"

namespace tensormg {

/// Geometry and refinement of a brick mesh (the user's input).
struct BrickDescription {
  int dim = 2;
  std::array<double, 3> lower{0, 0, 0};
  std::array<double, 3> upper{1, 1, 1};
  std::array<int, 3> coarse_cells{1, 1, 1};
  int refinements = 0;
};

/// A Cartesian mesh of the brick, with this rank's box of cells [cell_begin, cell_end).
/// The box of rank (p_0, p_1, p_2) of the process grid covers a contiguous range of cells in each
/// direction; ranges are balanced in units of `granularity` cells (so a coarser level nests), and
/// a rank may own no cells at all.
class CartesianMesh {
 public:
  /// Collective. rank_grid: {0,0,0} picks the grid that minimises the largest box surface;
  /// otherwise its first dim entries must multiply to the communicator size.
  /// Invalid input throws a collective InputError that names what is allowed.
  CartesianMesh(const BrickDescription& brick, MPI_Comm comm, std::array<int, 3> rank_grid = {0, 0, 0},
                int granularity = 1);

  int dim() const { return brick_.dim; }
  const BrickDescription& brick() const { return brick_; }
  MPI_Comm comm() const { return comm_; }
  /// Cells per direction on the whole mesh (coarse cells × 2^L).
  const std::array<global_index, 3>& n_cells() const { return n_cells_; }
  global_index n_global_cells() const;
  /// Cell size per direction.
  const std::array<double, 3>& h() const { return h_; }
  const std::array<int, 3>& rank_grid() const { return rank_grid_; }
  const std::array<int, 3>& rank_coordinates() const { return rank_coords_; }
  /// This rank's cells per direction: [cell_begin, cell_end).
  const std::array<global_index, 3>& cell_begin() const { return cell_begin_; }
  const std::array<global_index, 3>& cell_end() const { return cell_end_; }
  /// Cells of direction d's range owned by process-grid coordinate p.
  std::array<global_index, 2> cell_range(int d, int p) const;
  /// This rank's cell count (0 is possible).
  global_index n_local_cells() const;
  /// MPI rank of process-grid coordinates (row-major with the first direction fastest).
  int rank_of(const std::array<int, 3>& coords) const;

 private:
  BrickDescription brick_;
  MPI_Comm comm_;
  int granularity_;
  std::array<global_index, 3> n_cells_{1, 1, 1};
  std::array<double, 3> h_{1, 1, 1};
  std::array<int, 3> rank_grid_{1, 1, 1};
  std::array<int, 3> rank_coords_{0, 0, 0};
  std::array<global_index, 3> cell_begin_{0, 0, 0};
  std::array<global_index, 3> cell_end_{1, 1, 1};
};

/// The process grid (first dim entries) for `ranks` ranks that minimises the largest box surface
/// for the given cell counts.
std::array<int, 3> choose_rank_grid(int dim, int ranks, const std::array<global_index, 3>& n_cells);

}  // namespace tensormg
