#pragma once
/// @file
/// Loops over a layout's owned nodes: interpolation of a device-callable function in the layout's
/// execution space (what setup uses), and host loops for arbitrary host functions (tests,
/// filling by global index).

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

namespace detail {
template <class View, class F>
struct NodeInterpolation {
  NodeBox box;
  NodeCoordinates c;
  View d;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(local_index l) const {
    using Number = typename View::non_const_value_type;
    const int dim = box.dim;
    const local_index ix = l % box.o[0], iy = (l / box.o[0]) % box.o[1], iz = l / (box.o[0] * box.o[1]);
    const double x = c.local(0, ix), y = dim >= 2 ? c.local(1, iy) : 0.0, z = dim == 3 ? c.local(2, iz) : 0.0;
    d(l) = static_cast<Number>(f(x, y, z));
  }
};
}  // namespace detail

/// v(node) = f(x, y, z) on owned nodes, evaluated in ExecSpace: f is a trivially copyable functor
/// with a KOKKOS_INLINE_FUNCTION double operator()(double, double, double) (z = 0 in 2D, as y
/// and z in 1D). Ghosts are left as they are. The same coordinates as interpolate().
template <class Number, class ExecSpace, class F>
void interpolate_on_device(const ContinuousDofLayout<ExecSpace>& layout, DistributedVector<Number, ExecSpace>& v,
                           const F& f) {
  const NodeBox box = layout.box();
  using View = typename DistributedVector<Number, ExecSpace>::view_type;
  // Owned nodes come first, in lexicographic order of the owned box: local index = position.
  Kokkos::parallel_for("tensormg::interpolate", Kokkos::RangePolicy<ExecSpace>(0, box.n_owned),
                       detail::NodeInterpolation<View, F>{box, layout.node_coordinates(), v.view(), f});
}

/// v(node) = f(node coordinates) on owned nodes, on the host; ghosts are left as they are.
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
