#pragma once
/// @file
/// A HexMesh's connectivity and points as arrays of an execution space, for the set-up kernels of
/// the refinement (hex_refinement.cpp) and the layout (hex_layout.cpp). On a GPU the refinement
/// makes the fine mesh there and hands these arrays to the fine level's layout and to the next
/// refinement, so a hierarchy's meshes cross to the device once instead of once per reader.

#include <Kokkos_Core.hpp>

#include "core/host_vector_arrays.hpp"
#include "discretization/hex_mesh.hpp"

namespace tensormg {

template <class ExecSpace>
struct DeviceHexMesh {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const global_index*, memory_space> cells;  ///< [cell][8]
  Kokkos::View<const double*, memory_space> points;       ///< [vertex][3]

  DeviceHexMesh() = default;
  /// The mesh's own vectors where memory_space is the host's, else device copies.
  explicit DeviceHexMesh(const HexMesh& mesh)
      : cells(device_input<global_index, memory_space>(mesh.cells, "tensormg::device_hex_mesh::cells")),
        points(device_input<double, memory_space>(mesh.points, "tensormg::device_hex_mesh::points")) {}

  /// `*given` where it holds a device copy of this mesh's arrays (the same sizes; memory_space not
  /// the host's), else DeviceHexMesh(mesh): on the host the vectors themselves are read, never
  /// arrays kept from elsewhere.
  static DeviceHexMesh of(const HexMesh& mesh, const DeviceHexMesh* given) {
    if constexpr (!host_accessible<memory_space>) {
      if (given && given->cells.extent(0) == mesh.cells.size() && given->points.extent(0) == mesh.points.size())
        return *given;
    }
    return DeviceHexMesh(mesh);
  }
};

}  // namespace tensormg
