#pragma once
/// @file
/// What the multi-rank multigrid tests share (test_multigrid_ranks.cpp, test_halo_exchange_ranks.cpp):
/// the comparison with the same computation on one rank (every rank holds the reference on
/// MPI_COMM_SELF, where local and global indices agree) and bitwise comparisons across ranks.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "discretization/continuous_dof_layout.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "tests/test_utils.hpp"

namespace tensormg::testing {

/// max |v(global g) − reference(g)| / max |reference| over the owned nodes of all ranks; the
/// reference lives on MPI_COMM_SELF, where local and global (lexicographic) indices agree.
template <class Number, class ExecSpace>
double difference_to_reference(const ContinuousDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& v,
                               const DistributedVector<Number, ExecSpace>& reference) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), reference.view());
  double local[2] = {0, 0}, global[2] = {0, 0};
  for_each_owned_node(layout, [&](local_index l, global_index g, const std::array<double, 3>&) {
    local[0] = std::max(local[0], std::abs(double(h(l)) - double(r(local_index(g)))));
  });
  for (local_index i = 0; i < reference.n_owned(); ++i) local[1] = std::max(local[1], std::abs(double(r(i))));
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

inline int max_over_ranks(int v) {
  int m = v;
  MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

/// DG: max |v(global value g) − reference(g)| / max |reference|; values are numbered cell-wise,
/// (k+1)^d per cell, cells lexicographic (the reference on MPI_COMM_SELF in global order).
template <class Number, class ExecSpace>
double dg_difference_to_reference(const DgDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& v,
                                  const DistributedVector<Number, ExecSpace>& reference) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), reference.view());
  const CellBox& b = layout.box();
  double local[2] = {0, 0}, global[2] = {0, 0};
  local_index c = 0;
  for (local_index z = 0; z < b.cells[2]; ++z)
    for (local_index y = 0; y < b.cells[1]; ++y)
      for (local_index x = 0; x < b.cells[0]; ++x, ++c) {
        const global_index g = (b.offset[0] + x) + b.global_cells[0] * ((b.offset[1] + y) + b.global_cells[1] * (b.offset[2] + z));
        for (int i = 0; i < b.cell_dofs; ++i)
          local[0] = std::max(local[0], std::abs(double(h(c * b.cell_dofs + i)) - double(r(local_index(g * b.cell_dofs + i)))));
      }
  for (local_index i = 0; i < reference.n_owned(); ++i) local[1] = std::max(local[1], std::abs(double(r(i))));
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

template <class Number, class ExecSpace>
void dg_fill(const DgDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v, std::uint64_t seed) {
  fill_by_global_index(layout, v, [seed](global_index g) { return random_value(g, seed); });
}

/// Entries (owned) where a and b differ bitwise, the most of any rank.
template <class Number, class ExecSpace>
int bitwise_differences(const DistributedVector<Number, ExecSpace>& a, const DistributedVector<Number, ExecSpace>& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  int differ = 0;
  for (local_index i = 0; i < a.n_owned(); ++i) differ += ha(i) != hb(i);
  return max_over_ranks(differ);
}

}  // namespace tensormg::testing
