#pragma once
// Implementation of Partitioner (templated on execution space and number type).
#include "core/partitioner.hpp"
#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {


template <class ExecSpace>
template <class Staging>
struct Partitioner<ExecSpace>::ExchangeOf final : Partitioner<ExecSpace>::Exchange {
  using Halo = HaloExchange<ExecSpace, Staging>;
  ExchangeOf(MPI_Comm comm, const std::vector<typename Halo::Lists>& lists, HaloTransport transport)
      : halo(comm, lists, 23, transport) {}
  int n_neighbors() const override { return halo.n_neighbors(); }
  int n_peer_sends() const override { return halo.n_peer_sends(); }
  int n_reverse_peer_sends() const override { return halo.n_reverse_peer_sends(); }
  void forward(const Kokkos::View<double*, MemorySpace>& data) const override { halo.forward(data); }
  void forward(const Kokkos::View<float*, MemorySpace>& data) const override { halo.forward(data); }
  void reverse_add(const Kokkos::View<double*, MemorySpace>& data) const override { halo.reverse_add(data); }
  void reverse_add(const Kokkos::View<float*, MemorySpace>& data) const override { halo.reverse_add(data); }
  Halo halo;
};

template <class ExecSpace>
template <class OwnedLocal, class Staging>
Partitioner<ExecSpace>::Partitioner(MPI_Comm comm, local_index n_owned, const std::vector<global_index>& ghost_ids,
                                      const std::vector<int>& ghost_owner, OwnedLocal&& owned_local,
                                      HaloTransport transport, Staging)
    : comm_(comm), n_owned_(n_owned), n_ghost_(static_cast<local_index>(ghost_ids.size())) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  global_index owned = n_owned;
  MPI_Allreduce(&owned, &n_global_, 1, MPI_INT64_T, MPI_SUM, comm);

  // Ghosts grouped by owner, in ghost order (ghosts of one owner are contiguous in structured
  // layouts but need not be).
  std::map<int, std::vector<local_index>> recv_by_rank;
  std::map<int, std::vector<global_index>> request_by_rank;
  for (local_index g = 0; g < n_ghost_; ++g) {
    TENSORMG_ASSERT(ghost_owner[g] != rank && ghost_owner[g] >= 0 && ghost_owner[g] < size, "bad ghost owner");
    recv_by_rank[ghost_owner[g]].push_back(n_owned_ + g);
    request_by_rank[ghost_owner[g]].push_back(ghost_ids[g]);
  }
  std::vector<int> request_counts(size, 0), incoming_counts(size, 0);
  for (const auto& [r, ids] : request_by_rank) request_counts[r] = static_cast<int>(ids.size());
  MPI_Alltoall(request_counts.data(), 1, MPI_INT, incoming_counts.data(), 1, MPI_INT, comm);

  std::vector<MPI_Request> requests;
  std::map<int, std::vector<global_index>> incoming;
  for (int r = 0; r < size; ++r)
    if (incoming_counts[r] > 0) {
      auto& buf = incoming[r];
      buf.resize(incoming_counts[r]);
      requests.emplace_back();
      MPI_Irecv(buf.data(), incoming_counts[r], MPI_INT64_T, r, 17, comm, &requests.back());
    }
  for (auto& [r, ids] : request_by_rank) {
    requests.emplace_back();
    MPI_Isend(ids.data(), static_cast<int>(ids.size()), MPI_INT64_T, r, 17, comm, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);

  std::vector<int> neighbor_ranks;
  for (const auto& e : recv_by_rank) neighbor_ranks.push_back(e.first);
  for (const auto& e : incoming) neighbor_ranks.push_back(e.first);
  std::sort(neighbor_ranks.begin(), neighbor_ranks.end());
  neighbor_ranks.erase(std::unique(neighbor_ranks.begin(), neighbor_ranks.end()), neighbor_ranks.end());

  using Lists = typename HaloExchange<ExecSpace, Staging>::Lists;
  std::vector<Lists> lists;
  for (const int r : neighbor_ranks) {
    Lists l;
    l.rank = r;
    if (auto it = incoming.find(r); it != incoming.end())
      for (const global_index id : it->second) {
        const local_index loc = owned_local(id);
        TENSORMG_ASSERT(loc >= 0 && loc < n_owned_, "rank " << r << " asked for " << id << ", not owned here");
        l.send.push_back(loc);
      }
    if (auto it = recv_by_rank.find(r); it != recv_by_rank.end()) l.recv = it->second;
    lists.push_back(std::move(l));
  }
  exchange_ = std::make_shared<const ExchangeOf<Staging>>(comm, lists, transport);
}

template <class ExecSpace>
template <class Number>
void Partitioner<ExecSpace>::update_ghosts(const Kokkos::View<Number*, MemorySpace>& data) const {
  if (exchange_->n_neighbors() == 0) return;
  ScopedRegion region("tensormg::vector::update_ghosts");
  exchange_->forward(data);
}

/// Ghosts send their values to the owners, which add them (one neighbour after another, so results
/// are bitwise reproducible); then the ghosts are zero.
template <class ExecSpace>
template <class Number>
void Partitioner<ExecSpace>::compress_add(const Kokkos::View<Number*, MemorySpace>& data) const {
  if (exchange_->n_neighbors() > 0) {
    ScopedRegion region("tensormg::vector::compress_add");
    exchange_->reverse_add(data);
  }
  if (n_ghost_ > 0) Kokkos::deep_copy(ExecSpace(), Kokkos::subview(data, Kokkos::make_pair(n_owned_, n_owned_ + n_ghost_)), Number(0));
}

}  // namespace tensormg
