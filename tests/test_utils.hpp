#pragma once
// Helpers shared by tests: meshes and layouts, reproducible random vectors.
#include <cstdint>
#include <memory>
#include <vector>

#include "discretization/continuous_dof_layout.hpp"
#include "discretization/node_functions.hpp"

namespace tensormg::testing {

/// True in a TENSORMG_SANITIZE build (cmake/TensormgSanitize.cmake): the heaviest sweeps then test
/// fewer degrees and variants of the same code (every kernel family still runs under the
/// sanitizers); the README job runs them whole.
#if defined(TENSORMG_SANITIZED)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

inline BrickDescription brick(int dim, std::array<int, 3> cells, int refinements, std::array<double, 3> upper = {1, 1, 1}) {
  BrickDescription b;
  b.dim = dim;
  b.coarse_cells = cells;
  b.refinements = refinements;
  b.upper = upper;
  return b;
}

inline std::shared_ptr<const CartesianMesh> make_mesh(int dim, std::array<int, 3> cells, int refinements,
                                                      std::array<double, 3> upper = {1, 1, 1},
                                                      std::array<int, 3> rank_grid = {0, 0, 0}) {
  return std::make_shared<CartesianMesh>(brick(dim, cells, refinements, upper), MPI_COMM_WORLD, rank_grid);
}

template <class ExecSpace>
std::shared_ptr<const ContinuousDofLayout<ExecSpace>> make_layout(std::shared_ptr<const CartesianMesh> mesh, int k) {
  return std::make_shared<ContinuousDofLayout<ExecSpace>>(std::move(mesh), k);
}

/// A hash of (global index, seed) mapped to [-1, 1): the same vector on any number of ranks.
inline double random_value(global_index g, std::uint64_t seed) {
  std::uint64_t x = static_cast<std::uint64_t>(g) * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return double(x >> 11) / double(1ull << 53) * 2.0 - 1.0;
}

template <class Number, class ExecSpace>
void fill_random(const ContinuousDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v,
                 std::uint64_t seed) {
  fill_by_global_index(layout, v, [seed](global_index g) { return random_value(g, seed); });
}

/// This rank's owned entries, as doubles on the host.
template <class Number, class ExecSpace>
std::vector<double> to_host(const DistributedVector<Number, ExecSpace>& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  std::vector<double> out(v.n_owned());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = double(h(i));
  return out;
}

/// max_i |a_i - b_i| / max_i |b_i| over owned entries of all ranks.
template <class Number, class ExecSpace>
double relative_max_difference(const DistributedVector<Number, ExecSpace>& a, const DistributedVector<Number, ExecSpace>& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  double local[2] = {0, 0}, global[2] = {0, 0};
  for (local_index i = 0; i < a.n_owned(); ++i) {
    local[0] = std::max(local[0], std::abs(double(ha(i)) - double(hb(i))));
    local[1] = std::max(local[1], std::abs(double(hb(i))));
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

}  // namespace tensormg::testing
