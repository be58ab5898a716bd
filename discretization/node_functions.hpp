#pragma once
/// @file
/// Host-side loops over a layout's owned nodes: interpolation of functions and filling by
/// global index (set-up work, not on a solver's hot path).

#include <array>
#include <functional>

#include "core/distributed_vector.hpp"
#include "discretization/continuous_dof_layout.hpp"

namespace tensormg {

/// Calls f(local index, global index, node coordinates) for every owned node.
template <class ExecSpace, class F>
void for_each_owned_node(const ContinuousDofLayout<ExecSpace>& layout, F&& f) {
  const NodeBox& b = layout.box();
  for (local_index iz = 0; iz < b.o[2]; ++iz)
    for (local_index iy = 0; iy < b.o[1]; ++iy)
      for (local_index ix = 0; ix < b.o[0]; ++ix) {
        const local_index l[3] = {ix, iy, iz};
        std::array<double, 3> x{0, 0, 0};
        for (int d = 0; d < b.dim; ++d) x[d] = layout.node_coordinate(d, b.offset[d] + l[d]);
        f(b.index(ix, iy, iz), layout.global_index_of(ix, iy, iz), x);
      }
}

/// v(node) = f(node coordinates) on owned nodes; ghosts are left as they are.
template <class Number, class ExecSpace>
void interpolate(const ContinuousDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v,
                 const std::function<double(const std::array<double, 3>&)>& f) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  for_each_owned_node(layout, [&](local_index l, global_index, const std::array<double, 3>& x) {
    host(l) = static_cast<Number>(f(x));
  });
  Kokkos::deep_copy(v.view(), host);
}

/// v(node) = f(global index) on owned nodes: values independent of the rank count.
template <class Number, class ExecSpace>
void fill_by_global_index(const ContinuousDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v,
                          const std::function<double(global_index)>& f) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  for_each_owned_node(layout, [&](local_index l, global_index g, const std::array<double, 3>&) {
    host(l) = static_cast<Number>(f(g));
  });
  Kokkos::deep_copy(v.view(), host);
}

}  // namespace tensormg
