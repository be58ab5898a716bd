#pragma once
/// @file
/// One pattern of point-to-point exchange between neighbouring ranks: per neighbour, the local
/// entries this rank sends and the local entries it receives into (deal.II's
/// Utilities::MPI::Partitioner import/export, as index lists). Pack and unpack are device kernels
/// into device buffers; the buffers go to MPI as device pointers when the build says MPI is
/// GPU-aware (CMake TENSORMG_MPI_GPU_AWARE), otherwise through host staging buffers. Used by
/// Partitioner (owned → ghost entries of a distributed vector) and by the vertex-patch smoother's
/// halo box (smoothers/vertex_patch_smoother.cpp).

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/device_traits.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "core/types.hpp"

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

/// True when buffers in ExecSpace's memory go to MPI directly.
template <class ExecSpace>
constexpr bool mpi_takes_memory_of() {
#ifdef TENSORMG_MPI_GPU_AWARE
  return true;
#else
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
#endif
}

/// Staging: where and how values are staged through the host when MPI does not take device
/// memory: `staging_space` (the buffers' memory) and `side_instance` (get(): an execution space
/// instance whose copies may run beside the default instance's kernels). HostStaging in core
/// (pageable memory, the default instance); smoothers/halo_box.hpp passes
/// DeviceTraits<ExecSpace>::halo_staging, which the CUDA backend specialises (page-locked memory,
/// a stream of its own).
template <class ExecSpace, class Staging = HostStaging<ExecSpace>>
class HaloExchange {
 public:
  using MemorySpace = typename ExecSpace::memory_space;
  /// The entries exchanged with one neighbour (local indices of the data the exchange acts on).
  struct Lists {
    int rank = 0;
    std::vector<local_index> send, recv;
  };

  HaloExchange() = default;
  /// Neighbours with empty lists are dropped. Not collective (the pattern must match on both sides).
  HaloExchange(MPI_Comm comm, const std::vector<Lists>& lists, int tag = 23) : comm_(comm), tag_(tag) {
    std::vector<local_index> send, recv;
    for (const auto& l : lists) {
      if (l.send.empty() && l.recv.empty()) continue;
      Neighbor nb{l.rank, local_index(send.size()), local_index(l.send.size()), local_index(recv.size()),
                  local_index(l.recv.size())};
      send.insert(send.end(), l.send.begin(), l.send.end());
      recv.insert(recv.end(), l.recv.begin(), l.recv.end());
      neighbors_.push_back(nb);
    }
    send_indices_ = Kokkos::View<local_index*, MemorySpace>("tensormg::halo::send_indices", send.size());
    recv_indices_ = Kokkos::View<local_index*, MemorySpace>("tensormg::halo::recv_indices", recv.size());
    Kokkos::deep_copy(send_indices_, Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(send.data(), send.size()));
    Kokkos::deep_copy(recv_indices_, Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(recv.data(), recv.size()));
    const std::size_t widest = std::max(send.size(), recv.size());
    for (int i = 0; i < 2; ++i) {
      device_buffers_[i] = Kokkos::View<double*, MemorySpace>("tensormg::halo::buffer", widest);
      if constexpr (!mpi_takes_memory_of<ExecSpace>())
        host_buffers_[i] = Kokkos::View<double*, typename Staging::staging_space>("tensormg::halo::staging", widest);
    }
    if constexpr (!mpi_takes_memory_of<ExecSpace>())
      if (!neighbors_.empty()) side_ = std::make_shared<typename Staging::side_instance>();
  }

  int n_neighbors() const { return static_cast<int>(neighbors_.size()); }
  /// Entries sent in one forward exchange.
  local_index n_send() const { return local_index(send_indices_.extent(0)); }
  local_index n_recv() const { return local_index(recv_indices_.extent(0)); }

  /// data(recv) = the neighbours' data(send).
  template <class Number>
  void forward(const Kokkos::View<Number*, MemorySpace>& data) const { exchange(data, true); }
  /// data(send) += the neighbours' data(recv), one neighbour after another (bitwise reproducible).
  template <class Number>
  void reverse_add(const Kokkos::View<Number*, MemorySpace>& data) const { exchange(data, false); }

  /// The first half of forward(): pack the entries sent and post the messages. Until
  /// finish_forward(data) the caller may launch work that writes none of the entries sent and
  /// reads none of those received (the vertex-patch smoothers' interior patches): the messages
  /// travel meanwhile. One exchange of this pattern in flight at a time.
  template <class Number>
  void start_forward(const Kokkos::View<Number*, MemorySpace>& data) const { post(data, true); }
  /// The second half: wait for the messages, unpack the entries received.
  template <class Number>
  void finish_forward(const Kokkos::View<Number*, MemorySpace>& data) const { complete(data, true); }

  /// (public only because nvcc does not accept device lambdas in private member functions)
  template <class Number>
  void exchange(const Kokkos::View<Number*, MemorySpace>& data, bool forward) const {
    post(data, forward);
    complete(data, forward);
  }

  /// Pack (a device kernel on the default instance) and post the receives. Where MPI takes device
  /// memory, post the sends too; otherwise start the copy of the packed values to the staging
  /// buffer on the side instance (Staging::side_instance), which runs beside whatever the default
  /// instance is given next, and leave the sends to complete().
  template <class Number>
  void post(const Kokkos::View<Number*, MemorySpace>& data, bool forward) const {
    static_assert(sizeof(Number) <= sizeof(double), "buffers are sized for double");
    if (neighbors_.empty()) return;
    TENSORMG_ASSERT(pending_.empty() && !sends_waiting_, "an exchange of this pattern is already in flight");
    const auto out_idx = forward ? send_indices_ : recv_indices_;
    const std::size_t n_out = out_idx.extent(0);
    const auto out_buf = buffer<Number>(0, n_out);
    Kokkos::parallel_for(
        "tensormg::halo::pack", Kokkos::RangePolicy<ExecSpace>(0, n_out),
        KOKKOS_LAMBDA(local_index i) { out_buf(i) = data(out_idx(i)); });
    ExecSpace().fence();  // the packed values (and the work before them) are complete
    Number* in_ptr = buffer<Number>(1, 0).data();
    if constexpr (!mpi_takes_memory_of<ExecSpace>()) {
      Kokkos::View<Number*, typename Staging::staging_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> out_host(
          reinterpret_cast<Number*>(host_buffers_[0].data()), n_out);
      Kokkos::deep_copy(side_->get(), out_host, out_buf);
      in_ptr = reinterpret_cast<Number*>(host_buffers_[1].data());
    }
    pending_.reserve(2 * neighbors_.size());
    for (const auto& nb : neighbors_) {
      const local_index off = forward ? nb.recv_offset : nb.send_offset, cnt = forward ? nb.recv_count : nb.send_count;
      if (cnt == 0) continue;
      pending_.emplace_back();
      MPI_Irecv(in_ptr + off, cnt, detail::mpi_type<Number>(), nb.rank, tag_, comm_, &pending_.back());
    }
    if constexpr (mpi_takes_memory_of<ExecSpace>()) post_sends<Number>(out_buf.data(), forward);
    else sends_waiting_ = true;
  }

  /// Wait for post()'s messages (posting the sends once the staged values are on the host), copy
  /// the received entries to the device (side instance), unpack (forward) or add (reverse) on the
  /// default instance, after the work given to it since post().
  template <class Number>
  void complete(const Kokkos::View<Number*, MemorySpace>& data, bool forward) const {
    if (neighbors_.empty()) return;
    const auto in_idx = forward ? recv_indices_ : send_indices_;
    const std::size_t n_in = in_idx.extent(0);
    const auto in_buf = buffer<Number>(1, n_in);
    if constexpr (!mpi_takes_memory_of<ExecSpace>()) {
      side_->get().fence();  // the staged values are on the host
      post_sends<Number>(reinterpret_cast<Number*>(host_buffers_[0].data()), forward);
      sends_waiting_ = false;
      MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE);
      pending_.clear();
      Kokkos::View<Number*, typename Staging::staging_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> in_host(
          reinterpret_cast<Number*>(host_buffers_[1].data()), n_in);
      Kokkos::deep_copy(side_->get(), in_buf, in_host);
      side_->get().fence();
    } else {
      MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE);
      pending_.clear();
    }
    if (forward) {
      Kokkos::parallel_for(
          "tensormg::halo::unpack", Kokkos::RangePolicy<ExecSpace>(0, n_in),
          KOKKOS_LAMBDA(local_index i) { data(in_idx(i)) = in_buf(i); });
    } else {
      // One neighbour at a time: an entry may be received from several neighbours, and adding in
      // a fixed order keeps results bitwise reproducible.
      for (const auto& nb : neighbors_) {
        const local_index off = nb.send_offset;
        Kokkos::parallel_for(
            "tensormg::halo::unpack_add", Kokkos::RangePolicy<ExecSpace>(0, nb.send_count),
            KOKKOS_LAMBDA(local_index i) { data(in_idx(off + i)) += in_buf(off + i); });
      }
    }
  }

 private:
  template <class Number>
  void post_sends(Number* out_ptr, bool forward) const {
    for (const auto& nb : neighbors_) {
      const local_index off = forward ? nb.send_offset : nb.recv_offset, cnt = forward ? nb.send_count : nb.recv_count;
      if (cnt == 0) continue;
      pending_.emplace_back();
      MPI_Isend(out_ptr + off, cnt, detail::mpi_type<Number>(), nb.rank, tag_, comm_, &pending_.back());
    }
  }

  /// Device buffer i (0: outgoing, 1: incoming) viewed as n entries of Number.
  template <class Number>
  Kokkos::View<Number*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> buffer(int i, std::size_t n) const {
    return Kokkos::View<Number*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        reinterpret_cast<Number*>(device_buffers_[i].data()), n);
  }

  struct Neighbor {
    int rank;
    local_index send_offset, send_count;
    local_index recv_offset, recv_count;
  };
  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 23;
  std::vector<Neighbor> neighbors_;
  Kokkos::View<local_index*, MemorySpace> send_indices_, recv_indices_;
  // [0]: outgoing, [1]: incoming; sized for double, viewed as any Number up to that width.
  Kokkos::View<double*, MemorySpace> device_buffers_[2];
  Kokkos::View<double*, typename Staging::staging_space> host_buffers_[2];
  std::shared_ptr<typename Staging::side_instance> side_;  ///< with staging buffers only
  mutable std::vector<MPI_Request> pending_;  ///< the messages of the exchange in flight
  mutable bool sends_waiting_ = false;        ///< post() staged, complete() sends
};

}  // namespace tensormg
