#pragma once
/// @file
/// The communication pattern of a distributed vector: which owned entries each neighbour ghosts,
/// and which ghost entries each neighbour owns (deal.II's Utilities::MPI::Partitioner, for
/// structured layouts). Built once on the host; the index lists live in the execution space.

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
  /// owned_local(global) maps a global index this rank owns to its local index.
  /// Collective over comm.
  template <class OwnedLocal>
  Partitioner(MPI_Comm comm, local_index n_owned, const std::vector<global_index>& ghost_ids,
              const std::vector<int>& ghost_owner, OwnedLocal&& owned_local);

  MPI_Comm comm() const { return comm_; }
  local_index n_owned() const { return n_owned_; }
  local_index n_ghost() const { return n_ghost_; }
  local_index n_local() const { return n_owned_ + n_ghost_; }
  global_index n_global() const { return n_global_; }
  int n_neighbors() const { return halo_.n_neighbors(); }

  /// Copies owned values into the neighbours' ghost entries of data (size n_local).
  template <class Number>
  void update_ghosts(const Kokkos::View<Number*, MemorySpace>& data) const;
  /// Adds ghost values into their owners' entries and sets the ghosts to zero.
  template <class Number>
  void compress_add(const Kokkos::View<Number*, MemorySpace>& data) const;

 private:
  MPI_Comm comm_;
  local_index n_owned_ = 0, n_ghost_ = 0;
  global_index n_global_ = 0;
  HaloExchange<ExecSpace> halo_;  ///< send: owned entries the neighbours ghost; recv: our ghosts
};

}  // namespace tensormg

#include "core/partitioner_impl.hpp"
