#pragma once
/// @file
/// The communication pattern of a distributed vector: which owned entries each neighbour ghosts,
/// and which ghost entries each neighbour owns (deal.II's Utilities::MPI::Partitioner, for
/// structured layouts). Built once on the host; the index lists live in the execution space.
///
/// The exchanges are a HaloExchange (core/halo_exchange.hpp) whose Staging the constructor's
/// caller names: HostStaging (pageable memory, no peers) by default; the layouts pass the device
/// trait's (DeviceTraits<ExecSpace>::halo_staging: on CUDA page-locked memory, a copy stream of
/// its own, and device-to-device copies between GPUs that reach each other's memory). The
/// partitioner holds it behind a small interface, so its type is the same in every translation
/// unit whichever backend specialisations that unit sees (core includes no backend).

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <memory>
#include <vector>

#include "core/halo_exchange.hpp"
#include "core/types.hpp"

namespace tensormg {

/// ExecSpace runs the pack/unpack kernels; index lists and data live in its memory space.
template <class ExecSpace>
class Partitioner {
 public:
  using MemorySpace = typename ExecSpace::memory_space;

  /// owned entries are local indices [0, n_owned), ghosts [n_owned, n_owned + ghost_ids.size()).
  /// ghost_ids[i] is the global index of ghost i and ghost_owner[i] the rank that owns it;
  /// owned_local(global) maps a global index this rank owns to its local index. `transport` and
  /// `Staging`: how the values travel (HaloExchange). Collective over comm.
  template <class OwnedLocal, class Staging = HostStaging<ExecSpace>>
  Partitioner(MPI_Comm comm, local_index n_owned, const std::vector<global_index>& ghost_ids,
              const std::vector<int>& ghost_owner, OwnedLocal&& owned_local,
              HaloTransport transport = HaloTransport::automatic, Staging staging = {});

  MPI_Comm comm() const { return comm_; }
  local_index n_owned() const { return n_owned_; }
  local_index n_ghost() const { return n_ghost_; }
  local_index n_local() const { return n_owned_ + n_ghost_; }
  global_index n_global() const { return n_global_; }
  int n_neighbors() const { return exchange_->n_neighbors(); }
  /// Neighbours whose ghosts update_ghosts() writes device to device, and owners compress_add()
  /// writes so (peer memory, HaloTransport::automatic with a staging that has it).
  int n_peer_sends() const { return exchange_->n_peer_sends(); }
  int n_reverse_peer_sends() const { return exchange_->n_reverse_peer_sends(); }

  /// Copies owned values into the neighbours' ghost entries of data (size n_local).
  template <class Number>
  void update_ghosts(const Kokkos::View<Number*, MemorySpace>& data) const;
  /// Adds ghost values into their owners' entries and sets the ghosts to zero.
  template <class Number>
  void compress_add(const Kokkos::View<Number*, MemorySpace>& data) const;

 private:
  /// The exchange behind the partitioner: forward (owned → ghosts) and reverse add (ghosts →
  /// owners) for the vectors' number types.
  struct Exchange {
    virtual ~Exchange() = default;
    virtual int n_neighbors() const = 0;
    virtual int n_peer_sends() const = 0;
    virtual int n_reverse_peer_sends() const = 0;
    virtual void forward(const Kokkos::View<double*, MemorySpace>& data) const = 0;
    virtual void forward(const Kokkos::View<float*, MemorySpace>& data) const = 0;
    virtual void reverse_add(const Kokkos::View<double*, MemorySpace>& data) const = 0;
    virtual void reverse_add(const Kokkos::View<float*, MemorySpace>& data) const = 0;
  };
  template <class Staging>
  struct ExchangeOf;

  MPI_Comm comm_;
  local_index n_owned_ = 0, n_ghost_ = 0;
  global_index n_global_ = 0;
  std::shared_ptr<const Exchange> exchange_;  ///< send: owned entries the neighbours ghost; recv: our ghosts
};

}  // namespace tensormg

#include "core/partitioner_impl.hpp"
