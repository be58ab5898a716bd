#pragma once
// Implementation of Partitioner (templated on execution space and number type).
#include "core/partitioner.hpp"
#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace detail {
template <class Number>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<Number, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<Number, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<Number, std::int64_t>) return MPI_INT64_T;
  else return MPI_INT;
}
}  // namespace detail

template <class ExecSpace>
template <class OwnedLocal>
Partitioner<ExecSpace>::Partitioner(MPI_Comm comm, local_index n_owned, const std::vector<global_index>& ghost_ids,
                                      const std::vector<int>& ghost_owner, OwnedLocal&& owned_local)
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

  std::vector<local_index> send, recv;
  for (const int r : neighbor_ranks) {
    Neighbor nb{r, static_cast<local_index>(send.size()), 0, static_cast<local_index>(recv.size()), 0};
    if (auto it = incoming.find(r); it != incoming.end())
      for (const global_index id : it->second) {
        const local_index l = owned_local(id);
        TENSORMG_ASSERT(l >= 0 && l < n_owned_, "rank " << r << " asked for " << id << ", not owned here");
        send.push_back(l);
      }
    if (auto it = recv_by_rank.find(r); it != recv_by_rank.end()) recv.insert(recv.end(), it->second.begin(), it->second.end());
    nb.send_count = static_cast<local_index>(send.size()) - nb.send_offset;
    nb.recv_count = static_cast<local_index>(recv.size()) - nb.recv_offset;
    neighbors_.push_back(nb);
  }
  send_indices_ = Kokkos::View<local_index*, MemorySpace>("tensormg::partitioner::send_indices", send.size());
  recv_indices_ = Kokkos::View<local_index*, MemorySpace>("tensormg::partitioner::recv_indices", recv.size());
  Kokkos::deep_copy(send_indices_, Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(send.data(), send.size()));
  Kokkos::deep_copy(recv_indices_, Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(recv.data(), recv.size()));
  const std::size_t widest = sizeof(double) * std::max(send.size(), recv.size());
  for (int i = 0; i < 2; ++i) {
    device_buffers_[i] = Kokkos::View<double*, MemorySpace>("tensormg::partitioner::staging", widest / sizeof(double));
    host_buffers_[i] = Kokkos::View<double*, Kokkos::HostSpace>("tensormg::partitioner::staging_host", widest / sizeof(double));
  }
}

template <class ExecSpace>
template <class Number>
void Partitioner<ExecSpace>::update_ghosts(const Kokkos::View<Number*, MemorySpace>& data) const {
  exchange(data, true);
}

template <class ExecSpace>
template <class Number>
void Partitioner<ExecSpace>::compress_add(const Kokkos::View<Number*, MemorySpace>& data) const {
  exchange(data, false);
}

/// forward (update_ghosts): owners pack send_indices, ghosts receive at recv_indices.
/// backward (compress_add): ghosts pack recv_indices, owners add at send_indices, ghosts zeroed.
/// MPI is not assumed to be GPU-aware: buffers are staged through host memory.
template <class ExecSpace>
template <class Number>
void Partitioner<ExecSpace>::exchange(const Kokkos::View<Number*, MemorySpace>& data, bool forward) const {
  using Exec = ExecSpace;
  static_assert(sizeof(Number) <= sizeof(double), "staging buffers are sized for double");
  if (neighbors_.empty()) {
    if (!forward && n_ghost_ > 0)
      Kokkos::deep_copy(Kokkos::subview(data, Kokkos::make_pair(n_owned_, n_owned_ + n_ghost_)), Number(0));
    return;
  }
  ScopedRegion region(forward ? "tensormg::vector::update_ghosts" : "tensormg::vector::compress_add");
  const auto out_idx = forward ? send_indices_ : recv_indices_;
  const auto in_idx = forward ? recv_indices_ : send_indices_;
  // Staging buffers are allocated once (for the widest Number) and viewed as Number here.
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  const std::size_t n_out = out_idx.extent(0), n_in = in_idx.extent(0);
  Kokkos::View<Number*, MemorySpace, Unmanaged> out_buf(reinterpret_cast<Number*>(device_buffers_[0].data()), n_out);
  Kokkos::View<Number*, MemorySpace, Unmanaged> in_buf(reinterpret_cast<Number*>(device_buffers_[1].data()), n_in);
  Kokkos::View<Number*, Kokkos::HostSpace, Unmanaged> out_host(reinterpret_cast<Number*>(host_buffers_[0].data()), n_out);
  Kokkos::View<Number*, Kokkos::HostSpace, Unmanaged> in_host(reinterpret_cast<Number*>(host_buffers_[1].data()), n_in);
  Kokkos::parallel_for(
      "tensormg::vector::pack", Kokkos::RangePolicy<Exec>(0, n_out),
      KOKKOS_LAMBDA(local_index i) { out_buf(i) = data(out_idx(i)); });
  Kokkos::deep_copy(out_host, out_buf);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * neighbors_.size());
  for (const auto& nb : neighbors_) {
    const local_index in_off = forward ? nb.recv_offset : nb.send_offset;
    const local_index in_cnt = forward ? nb.recv_count : nb.send_count;
    if (in_cnt > 0) {
      requests.emplace_back();
      MPI_Irecv(in_host.data() + in_off, in_cnt, detail::mpi_type<Number>(), nb.rank, 23, comm_, &requests.back());
    }
  }
  for (const auto& nb : neighbors_) {
    const local_index out_off = forward ? nb.send_offset : nb.recv_offset;
    const local_index out_cnt = forward ? nb.send_count : nb.recv_count;
    if (out_cnt > 0) {
      requests.emplace_back();
      MPI_Isend(out_host.data() + out_off, out_cnt, detail::mpi_type<Number>(), nb.rank, 23, comm_, &requests.back());
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  Kokkos::deep_copy(in_buf, in_host);
  if (forward) {
    Kokkos::parallel_for(
        "tensormg::vector::unpack", Kokkos::RangePolicy<Exec>(0, in_idx.extent(0)),
        KOKKOS_LAMBDA(local_index i) { data(in_idx(i)) = in_buf(i); });
  } else {
    // One neighbour at a time: an owned entry may be ghosted by several neighbours, and adding in
    // a fixed order keeps results bitwise reproducible.
    for (const auto& nb : neighbors_) {
      const local_index off = nb.send_offset;
      Kokkos::parallel_for(
          "tensormg::vector::unpack_add", Kokkos::RangePolicy<Exec>(0, nb.send_count),
          KOKKOS_LAMBDA(local_index i) { data(in_idx(off + i)) += in_buf(off + i); });
    }
    Kokkos::deep_copy(Kokkos::subview(data, Kokkos::make_pair(n_owned_, n_owned_ + n_ghost_)), Number(0));
  }
}

}  // namespace tensormg
