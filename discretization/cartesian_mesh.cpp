#include "discretization/cartesian_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace tensormg {

std::array<int, 3> choose_rank_grid(int dim, int ranks, const std::array<global_index, 3>& n_cells) {
  std::array<int, 3> best{ranks, 1, 1};
  double best_cost = std::numeric_limits<double>::max();
  for (int p0 = 1; p0 <= ranks; ++p0) {
    if (ranks % p0) continue;
    for (int p1 = 1; p1 <= ranks / p0; ++p1) {
      if ((ranks / p0) % p1) continue;
      const int p2 = ranks / p0 / p1;
      if (dim == 2 && p2 != 1) continue;
      const std::array<int, 3> p{p0, p1, dim == 3 ? p2 : 1};
      // Largest box extents; cost = its surface (communication), then its volume (balance).
      std::array<double, 3> e{1, 1, 1};
      for (int d = 0; d < dim; ++d) e[d] = std::ceil(double(n_cells[d]) / p[d]);
      const double surface = dim == 2 ? e[0] + e[1] : e[0] * e[1] + e[1] * e[2] + e[0] * e[2];
      double volume = 1;
      for (int d = 0; d < dim; ++d) volume *= e[d];
      const double cost = surface + 1e-9 * volume;
      if (cost < best_cost) {
        best_cost = cost;
        best = p;
      }
    }
  }
  return best;
}

CartesianMesh::CartesianMesh(const BrickDescription& brick, MPI_Comm comm, std::array<int, 3> rank_grid,
                             int granularity)
    : brick_(brick), comm_(comm), granularity_(granularity) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  collectively(comm, [&] {
    TENSORMG_CHECK(brick.dim == 2 || brick.dim == 3, "dimension " << brick.dim << " is not supported; use 2 or 3");
    for (int d = 0; d < brick.dim; ++d) {
      TENSORMG_CHECK(brick.coarse_cells[d] >= 1, "coarse cells in direction " << d << " must be at least 1 (given "
                                                                              << brick.coarse_cells[d] << ")");
      TENSORMG_CHECK(brick.upper[d] > brick.lower[d], "domain upper bound " << brick.upper[d]
                                                          << " must exceed lower bound " << brick.lower[d]
                                                          << " in direction " << d);
    }
    TENSORMG_CHECK(brick.refinements >= 0 && brick.refinements <= 24,
                   "refinements must be in 0..24 (given " << brick.refinements << ")");
    TENSORMG_CHECK(granularity >= 1, "partition granularity must be at least 1");
  });
  for (int d = 0; d < 3; ++d) {
    n_cells_[d] = d < brick.dim ? global_index(brick.coarse_cells[d]) << brick.refinements : 1;
    h_[d] = d < brick.dim ? (brick.upper[d] - brick.lower[d]) / double(n_cells_[d]) : 1.0;
  }
  double total_cells = 1;
  for (int d = 0; d < brick.dim; ++d) total_cells *= double(n_cells_[d]);
  TENSORMG_CHECK_COLLECTIVE(comm, total_cells < 0x1p62,
                            "the mesh would have " << total_cells
                                                   << " cells, more than 2^62: use fewer coarse cells or refinements");
  collectively(comm, [&] {
    for (int d = 0; d < brick.dim; ++d)
      TENSORMG_CHECK(n_cells_[d] % granularity == 0, "partition granularity " << granularity
                                                                                << " does not divide the "
                                                                                << n_cells_[d] << " cells of direction " << d);
    if (rank_grid[0] == 0) {
      rank_grid = choose_rank_grid(brick.dim, size, n_cells_);
    } else {
      long product = 1;
      for (int d = 0; d < brick.dim; ++d) {
        TENSORMG_CHECK(rank_grid[d] >= 1, "rank grid entries must be positive");
        product *= rank_grid[d];
      }
      TENSORMG_CHECK(product == size, "rank grid " << rank_grid[0] << "x" << rank_grid[1]
                                                   << (brick.dim == 3 ? "x" + std::to_string(rank_grid[2]) : "")
                                                   << " has " << product << " ranks but the communicator has " << size
                                                   << "; give a grid whose product is " << size << ", or none");
    }
  });
  for (int d = brick.dim; d < 3; ++d) rank_grid[d] = 1;
  rank_grid_ = rank_grid;
  rank_coords_ = {rank % rank_grid_[0], (rank / rank_grid_[0]) % rank_grid_[1], rank / (rank_grid_[0] * rank_grid_[1])};
  for (int d = 0; d < 3; ++d) {
    const auto r = cell_range(d, rank_coords_[d]);
    cell_begin_[d] = r[0];
    cell_end_[d] = r[1];
  }
}

std::array<global_index, 2> CartesianMesh::cell_range(int d, int p) const {
  if (d >= brick_.dim) return {0, 1};
  const global_index blocks = n_cells_[d] / granularity_;
  const global_index parts = rank_grid_[d];
  return {blocks * p / parts * granularity_, blocks * (p + 1) / parts * granularity_};
}

global_index CartesianMesh::n_global_cells() const { return n_cells_[0] * n_cells_[1] * n_cells_[2]; }

global_index CartesianMesh::n_local_cells() const {
  global_index n = 1;
  for (int d = 0; d < 3; ++d) n *= cell_end_[d] - cell_begin_[d];
  return n;
}

int CartesianMesh::rank_of(const std::array<int, 3>& c) const { return c[0] + rank_grid_[0] * (c[1] + rank_grid_[1] * c[2]); }

}  // namespace tensormg
