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
#include <array>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/device_traits.hpp"
#include "core/enum_names.hpp"
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

/// out_i = data(index_i): the pack kernel.
template <class Out, class Data, class Index>
struct GatherEntries {
  Out out;
  Data data;
  Index index;
  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const { out(i) = data(index(i)); }
};

/// data(index(first + i)) = in(first + i), or += with `add`: the unpack kernels.
template <class Data, class In, class Index, bool add>
struct ScatterEntries {
  Data data;
  In in;
  Index index;
  local_index first;
  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const {
    if constexpr (add) data(index(first + i)) += in(first + i);
    else data(index(first + i)) = in(first + i);
  }
};
}  // namespace detail

/// How a forward exchange moves values between two ranks whose devices can reach each other's
/// memory (Staging::peer_memory: CUDA IPC on one node; GPUs over NVLink, or one GPU shared):
/// `automatic` copies the packed values straight into the receiver's device buffer and sends MPI
/// only zero-byte signals (forward and reverse exchanges alike); `staged` always goes device →
/// host → MPI → host → device. Other pairs
/// (other nodes, host backends, MPI that takes device memory) use MPI as they would anyway.
enum class HaloTransport { automatic, staged };
inline constexpr EnumName<HaloTransport> halo_transport_names[] = {{HaloTransport::automatic, "auto"},
                                                                  {HaloTransport::staged, "staged"}};
inline std::string to_string(HaloTransport t) { return enum_name(halo_transport_names, t); }
/// Throws InputError for other names than auto and staged.
inline HaloTransport parse_halo_transport(const std::string& text) {
  return parse_enum(halo_transport_names, text, "halo transport");
}

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
  /// Neighbours with empty lists are dropped. Not collective, but both sides of every pair must
  /// build their patterns with the same tag and transport at the same point (with peer memory, the
  /// constructor trades buffer handles with each neighbour). tag < 4096: tag + 4096 and tag + 8192
  /// carry the peer transport's signals.
  HaloExchange(MPI_Comm comm, const std::vector<Lists>& lists, int tag = 23,
               HaloTransport transport = HaloTransport::automatic)
      : comm_(comm), tag_(tag) {
    TENSORMG_ASSERT(tag >= 0 && tag < signal_tag_step, "halo exchange tags are below 4096");
    std::vector<local_index> send, recv;
    for (const auto& l : lists) {
      if (l.send.empty() && l.recv.empty()) continue;
      Neighbor nb;
      nb.rank = l.rank;
      nb.send_offset = local_index(send.size());
      nb.send_count = local_index(l.send.size());
      nb.recv_offset = local_index(recv.size());
      nb.recv_count = local_index(l.recv.size());
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
    if constexpr (!mpi_takes_memory_of<ExecSpace>()) {
      if (!neighbors_.empty()) side_ = std::make_shared<typename Staging::side_instance>();
      if constexpr (Staging::peer_memory::available)
        if (transport == HaloTransport::automatic && !neighbors_.empty()) connect_peers(widest);
    }
  }

  int n_neighbors() const { return static_cast<int>(neighbors_.size()); }
  /// Neighbours this rank's forward exchanges write into directly (peer memory), and neighbours
  /// that write into this rank's buffer so; the same for reverse exchanges.
  int n_peer_sends() const { return count_if_neighbor([](const Neighbor& nb) { return nb.writes[1]; }); }
  int n_peer_recvs() const { return count_if_neighbor([](const Neighbor& nb) { return nb.written[1]; }); }
  int n_reverse_peer_sends() const { return count_if_neighbor([](const Neighbor& nb) { return nb.writes[0]; }); }
  int n_reverse_peer_recvs() const { return count_if_neighbor([](const Neighbor& nb) { return nb.written[0]; }); }
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
  /// instance is given next, and leave the sends to complete(). Neighbours reached through peer
  /// memory get the packed values copied into their device buffer here (copy_to_peers).
  template <class Number>
  void post(const Kokkos::View<Number*, MemorySpace>& data, bool forward) const {
    static_assert(sizeof(Number) <= sizeof(double), "buffers are sized for double");
    if (neighbors_.empty()) return;
    TENSORMG_ASSERT(pending_.empty() && !sends_waiting_, "an exchange of this pattern is already in flight");
    const int dir = forward ? 1 : 0;
    const auto out_idx = forward ? send_indices_ : recv_indices_;
    const std::size_t n_out = out_idx.extent(0);
    const auto out_buf = buffer<Number>(0, n_out);
    Kokkos::parallel_for("tensormg::halo::pack", Kokkos::RangePolicy<ExecSpace>(0, n_out),
                         detail::GatherEntries<decltype(out_buf), std::decay_t<decltype(data)>, decltype(out_idx)>{
                             out_buf, data, out_idx});
    ExecSpace().fence();  // the packed values (and the work before them) are complete
    pending_.reserve(4 * neighbors_.size());
    if (has_peers_[dir]) copy_to_peers<Number>(out_buf, dir);
    Number* in_ptr = buffer<Number>(1, 0).data();
    if constexpr (!mpi_takes_memory_of<ExecSpace>()) {
      using HostView = Kokkos::View<Number*, typename Staging::staging_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
      const HostView out_host(reinterpret_cast<Number*>(host_buffers_[0].data()), n_out);
      if (has_peers_[dir]) copy_staged_segments(out_host, out_buf, dir, true);  // only what goes through MPI
      else Kokkos::deep_copy(side_->get(), out_host, out_buf);
      in_ptr = reinterpret_cast<Number*>(host_buffers_[1].data());
    }
    for (const auto& nb : neighbors_) {
      if (nb.in_count(dir) == 0 || nb.written[dir]) continue;
      pending_.emplace_back();
      MPI_Irecv(in_ptr + nb.in_offset(dir), nb.in_count(dir), detail::mpi_type<Number>(), nb.rank, tag_, comm_,
                &pending_.back());
    }
    if constexpr (mpi_takes_memory_of<ExecSpace>()) post_sends<Number>(out_buf.data(), dir);
    else sends_waiting_ = true;
  }

  /// Wait for post()'s messages (posting the sends once the staged values are on the host), copy
  /// the received entries to the device (side instance), unpack (forward) or add (reverse) on the
  /// default instance, after the work given to it since post().
  template <class Number>
  void complete(const Kokkos::View<Number*, MemorySpace>& data, bool forward) const {
    if (neighbors_.empty()) return;
    const int dir = forward ? 1 : 0;
    const auto in_idx = forward ? recv_indices_ : send_indices_;
    const std::size_t n_in = in_idx.extent(0);
    const auto in_buf = buffer<Number>(1, n_in);
    if constexpr (!mpi_takes_memory_of<ExecSpace>()) {
      side_->get().fence();  // the staged values are on the host
      post_sends<Number>(reinterpret_cast<Number*>(host_buffers_[0].data()), dir);
      sends_waiting_ = false;
      MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE);
      pending_.clear();
      Kokkos::View<Number*, typename Staging::staging_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> in_host(
          reinterpret_cast<Number*>(host_buffers_[1].data()), n_in);
      if (has_peers_[dir]) copy_staged_segments(in_buf, in_host, dir, false);  // the peers' are there already
      else Kokkos::deep_copy(side_->get(), in_buf, in_host);
      side_->get().fence();
    } else {
      MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE);
      pending_.clear();
    }
    if (forward) {
      Kokkos::parallel_for("tensormg::halo::unpack", Kokkos::RangePolicy<ExecSpace>(0, n_in),
                           detail::ScatterEntries<std::decay_t<decltype(data)>, decltype(in_buf), decltype(in_idx), false>{
                               data, in_buf, in_idx, 0});
    } else {
      // One neighbour at a time: an entry may be received from several neighbours, and adding in
      // a fixed order keeps results bitwise reproducible.
      for (const auto& nb : neighbors_) {
        const local_index off = nb.send_offset;
        Kokkos::parallel_for("tensormg::halo::unpack_add", Kokkos::RangePolicy<ExecSpace>(0, nb.send_count),
                             detail::ScatterEntries<std::decay_t<decltype(data)>, decltype(in_buf), decltype(in_idx), true>{
                                 data, in_buf, in_idx, off});
      }
    }
  }

 private:
  /// The peer half of post() in direction dir (1 forward, 0 reverse): this rank's incoming buffer
  /// is free again (the unpack of the last exchange ran before post()'s fence), so say so to the
  /// peers that write into it; wait until the peers this rank writes into say the same; copy the
  /// packed values into their buffers; once the copies are complete, signal them (complete()
  /// waits for those signals). Both directions use one incoming buffer and one pair of signal
  /// tags: every rank runs the exchanges of a pattern in the same order, and each exchange sends
  /// as many signals to a neighbour as that neighbour waits for, so the signals pair up in order.
  template <class Number>
  void copy_to_peers(const Kokkos::View<Number*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>& out_buf,
                     int dir) const {
    std::vector<MPI_Request> free_signals;
    for (const auto& nb : neighbors_) {
      if (nb.written[dir]) {
        free_signals.emplace_back();
        MPI_Isend(nullptr, 0, MPI_BYTE, nb.rank, tag_ + signal_tag_step, comm_, &free_signals.back());
      }
      if (nb.writes[dir]) {
        free_signals.emplace_back();
        MPI_Irecv(nullptr, 0, MPI_BYTE, nb.rank, tag_ + signal_tag_step, comm_, &free_signals.back());
      }
    }
    MPI_Waitall(static_cast<int>(free_signals.size()), free_signals.data(), MPI_STATUSES_IGNORE);
    using DeviceView = Kokkos::View<Number*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    for (const auto& nb : neighbors_)
      if (nb.writes[dir]) {
        const DeviceView remote(static_cast<Number*>(nb.remote.get()) + nb.remote_offset[dir], nb.out_count(dir));
        const auto range = std::make_pair(std::size_t(nb.out_offset(dir)), std::size_t(nb.out_offset(dir) + nb.out_count(dir)));
        Kokkos::deep_copy(ExecSpace(), remote, Kokkos::subview(out_buf, range));
      }
    ExecSpace().fence();  // the values are in the peers' buffers
    for (const auto& nb : neighbors_) {
      if (nb.writes[dir]) {
        pending_.emplace_back();
        MPI_Isend(nullptr, 0, MPI_BYTE, nb.rank, tag_ + 2 * signal_tag_step, comm_, &pending_.back());
      }
      if (nb.written[dir]) {
        pending_.emplace_back();
        MPI_Irecv(nullptr, 0, MPI_BYTE, nb.rank, tag_ + 2 * signal_tag_step, comm_, &pending_.back());
      }
    }
  }

  /// On the side instance, the segments of the neighbours that direction dir reaches through MPI:
  /// the outgoing ones or the incoming ones.
  template <class Dst, class Src>
  void copy_staged_segments(const Dst& dst, const Src& src, int dir, bool outgoing) const {
    for (const auto& nb : neighbors_) {
      const local_index off = outgoing ? nb.out_offset(dir) : nb.in_offset(dir);
      const local_index cnt = outgoing ? nb.out_count(dir) : nb.in_count(dir);
      if (cnt == 0 || (outgoing ? nb.writes[dir] : nb.written[dir])) continue;
      const auto range = std::make_pair(std::size_t(off), std::size_t(off + cnt));
      Kokkos::deep_copy(side_->get(), Kokkos::subview(dst, range), Kokkos::subview(src, range));
    }
  }

  /// Trades with every neighbour: host name, device, and this rank's incoming buffer (allocated as
  /// peer memory, its handle and where the neighbour's values go in it, forward and reverse); then
  /// opens the buffers of the neighbours this rank can reach and tells each in which directions it
  /// will write into its buffer.
  void connect_peers(std::size_t widest) {
    using Peer = typename Staging::peer_memory;
    struct Offer {
      char host[MPI_MAX_PROCESSOR_NAME + 1];
      int device;
      int exported;
      local_index in_offset[2];  ///< where the neighbour's values go: [0] reverse, [1] forward
      typename Peer::Handle handle;
    };
    Offer mine{};  // every member zero (Handle zeroes its bytes itself)
    int length = 0;
    MPI_Get_processor_name(mine.host, &length);
    mine.device = DeviceTraits<ExecSpace>::device_id();
    peer_buffer_ = Peer::allocate(widest * sizeof(double));
    mine.exported = peer_buffer_ && Peer::export_handle(peer_buffer_.get(), mine.handle);
    if (mine.exported) device_buffers_[1] = Kokkos::View<double*, MemorySpace>(static_cast<double*>(peer_buffer_.get()), widest);
    else peer_buffer_.reset();
    const std::size_t n = neighbors_.size();
    std::vector<Offer> out(n, mine), in(n);
    std::vector<MPI_Request> requests(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      for (int dir = 0; dir < 2; ++dir) out[i].in_offset[dir] = neighbors_[i].in_offset(dir);
      MPI_Irecv(&in[i], sizeof(Offer), MPI_BYTE, neighbors_[i].rank, tag_, comm_, &requests[2 * i]);
      MPI_Isend(&out[i], sizeof(Offer), MPI_BYTE, neighbors_[i].rank, tag_, comm_, &requests[2 * i + 1]);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    std::vector<std::array<int, 2>> writes(n, {0, 0}), written(n, {0, 0});
    for (std::size_t i = 0; i < n; ++i) {
      Neighbor& nb = neighbors_[i];
      if (!in[i].exported || std::strncmp(in[i].host, mine.host, MPI_MAX_PROCESSOR_NAME) != 0 ||
          !Peer::reachable(mine.device, in[i].device))
        continue;
      nb.remote = Peer::open(in[i].handle);
      for (int dir = 0; dir < 2; ++dir) {
        nb.writes[dir] = bool(nb.remote) && nb.out_count(dir) > 0;
        nb.remote_offset[dir] = in[i].in_offset[dir];
        writes[i][dir] = nb.writes[dir] ? 1 : 0;
      }
      if (!nb.writes[0] && !nb.writes[1]) nb.remote.reset();
    }
    for (std::size_t i = 0; i < n; ++i) {
      MPI_Irecv(written[i].data(), 2, MPI_INT, neighbors_[i].rank, tag_, comm_, &requests[2 * i]);
      MPI_Isend(writes[i].data(), 2, MPI_INT, neighbors_[i].rank, tag_, comm_, &requests[2 * i + 1]);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    for (std::size_t i = 0; i < n; ++i)
      for (int dir = 0; dir < 2; ++dir) neighbors_[i].written[dir] = written[i][dir] != 0;
    for (int dir = 0; dir < 2; ++dir)
      has_peers_[dir] = std::any_of(neighbors_.begin(), neighbors_.end(),
                                    [dir](const Neighbor& nb) { return nb.writes[dir] || nb.written[dir]; });
  }

  template <class Predicate>
  int count_if_neighbor(Predicate p) const {
    return static_cast<int>(std::count_if(neighbors_.begin(), neighbors_.end(), p));
  }

  template <class Number>
  void post_sends(Number* out_ptr, int dir) const {
    for (const auto& nb : neighbors_) {
      if (nb.out_count(dir) == 0 || nb.writes[dir]) continue;
      pending_.emplace_back();
      MPI_Isend(out_ptr + nb.out_offset(dir), nb.out_count(dir), detail::mpi_type<Number>(), nb.rank, tag_, comm_,
                &pending_.back());
    }
  }

  /// Device buffer i (0: outgoing, 1: incoming) viewed as n entries of Number.
  template <class Number>
  Kokkos::View<Number*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> buffer(int i, std::size_t n) const {
    return Kokkos::View<Number*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        reinterpret_cast<Number*>(device_buffers_[i].data()), n);
  }

  /// One neighbour's segments of the send and receive lists. A forward exchange (dir 1) sends the
  /// send segment and receives into the receive segment; a reverse one (dir 0) the other way.
  struct Neighbor {
    int rank = 0;
    local_index send_offset = 0, send_count = 0;
    local_index recv_offset = 0, recv_count = 0;
    bool writes[2] = {false, false};   ///< this rank copies its values into the neighbour's buffer
    bool written[2] = {false, false};  ///< the neighbour copies its values into this rank's buffer
    std::shared_ptr<void> remote;      ///< its incoming buffer, opened here (writes)
    local_index remote_offset[2] = {0, 0};  ///< where this rank's values go in it

    local_index out_offset(int dir) const { return dir ? send_offset : recv_offset; }
    local_index out_count(int dir) const { return dir ? send_count : recv_count; }
    local_index in_offset(int dir) const { return dir ? recv_offset : send_offset; }
    local_index in_count(int dir) const { return dir ? recv_count : send_count; }
  };
  static constexpr int signal_tag_step = 4096;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 23;
  bool has_peers_[2] = {false, false};  ///< some neighbour is reached through peer memory: [0] reverse, [1] forward
  std::shared_ptr<void> peer_buffer_;  ///< the incoming buffer as peer memory (device_buffers_[1] views it)
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
