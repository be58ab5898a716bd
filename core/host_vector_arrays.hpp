#pragma once
/// @file
/// Host std::vectors as the arrays of kernels on an execution space, without a copy where its
/// memory is the host's: the set-up steps that read a host mesh and fill host vectors
/// (discretization/hex_refinement.cpp, hex_layout.cpp) run the same kernels on the host backends
/// (in place) and on a GPU (through device copies).

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "core/types.hpp"

namespace tensormg {

template <class MemorySpace>
constexpr bool host_accessible = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

/// The vector as a read-only array in MemorySpace: the vector itself where MemorySpace is the
/// host's, else a device copy named `name`.
template <class T, class MemorySpace>
Kokkos::View<const T*, MemorySpace> device_input(const std::vector<T>& host, const std::string& name) {
  if constexpr (host_accessible<MemorySpace>) {
    return Kokkos::View<const T*, MemorySpace>(host.data(), host.size());
  } else {
    Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, name), host.size());
    Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
    return d;
  }
}

/// An array of n entries that kernels fill and device_output_done hands to `host`: where
/// MemorySpace is the host's the vector's own storage (sized here), else a device array (not
/// initialised: every entry must be written) copied into the vector then.
template <class T, class MemorySpace>
Kokkos::View<T*, MemorySpace> device_output(std::vector<T>& host, global_index n, const std::string& name) {
  if constexpr (host_accessible<MemorySpace>) {
    host.resize(std::size_t(n));
    return Kokkos::View<T*, MemorySpace>(host.data(), host.size());
  } else {
    return Kokkos::View<T*, MemorySpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, name), n);
  }
}
template <class T, class MemorySpace>
void device_output_done(std::vector<T>& host, const Kokkos::View<T*, MemorySpace>& device) {
  if constexpr (!host_accessible<MemorySpace>) {
    host.resize(device.extent(0));
    Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()), device);
  }
}

}  // namespace tensormg
