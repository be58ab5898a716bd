#pragma once
/// @file
/// The halo box of the vertex-patch smoothers on several ranks (paper 002 §5, ghost patches): a
/// rank's part of a structured grid (nodes of continuous Q_k, cells of DG) grown by the points the
/// patches around its box need, stored lexicographically (x fastest, `per_point` values per point)
/// so that the patch kernels index it as a box of their own. The points of the box owned by other
/// ranks are refreshed from their owners (HaloExchange); the owned points are copied in from and
/// out to the layout's vector (its owned entries: the owned box, lexicographic, per_point values
/// each).

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <functional>
#include <vector>

#include "backends/device_traits.hpp"
#include "core/halo_exchange.hpp"
#include "core/timer.hpp"
#include "core/types.hpp"
#include "smoothers/patch_window.hpp"

namespace tensormg {

/// How many ranks of comm on this node run on device `device_id` (1 for the host, -1). Collective.
inline int ranks_sharing_device(MPI_Comm comm, int device_id) {
  MPI_Comm node;
  int me = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  int n = 1;
  MPI_Comm_size(node, &n);
  std::vector<int> ids(std::size_t(n), 0);
  MPI_Allgather(&device_id, 1, MPI_INT, ids.data(), 1, MPI_INT, node);
  MPI_Comm_free(&node);
  return device_id < 0 ? 1 : int(std::count(ids.begin(), ids.end(), device_id));
}

/// Per direction, a half-open range of global grid coordinates.
struct GridRange {
  global_index lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  bool empty(int dim) const {
    for (int d = 0; d < dim; ++d)
      if (hi[d] <= lo[d]) return true;
    return false;
  }
  GridRange intersect(const GridRange& o) const {
    GridRange r;
    for (int d = 0; d < 3; ++d) {
      r.lo[d] = std::max(lo[d], o.lo[d]);
      r.hi[d] = std::min(hi[d], o.hi[d]);
    }
    return r;
  }
};

/// The owned points and the halo box of one rank (empty ranges for a rank without cells; the
/// directions from dim on are [0, 1)).
using RankRanges = std::function<void(int rank, GridRange& owned, GridRange& box)>;

namespace detail {
template <class View>
struct OwnedPointsCopy {
  View vector, box_data;
  local_index o0, o1, n0, n1, a0, a1, a2, q;
  bool to_box;
  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const {
    const local_index p = i / q, v = i - p * q;
    const local_index ix = p % o0, iy = (p / o0) % o1, iz = p / (o0 * o1);
    const local_index j = ((ix + a0) + n0 * ((iy + a1) + n1 * (iz + a2))) * q + v;
    if (to_box) box_data(j) = vector(i);
    else vector(i) = box_data(j);
  }
};
}  // namespace detail

/// Copies between the owned entries of a layout vector and the same points of a halo box.
template <class Number, class ExecSpace>
void copy_owned_points(const Kokkos::View<Number*, typename ExecSpace::memory_space>& vector,
                       const Kokkos::View<Number*, typename ExecSpace::memory_space>& box_data, const local_index owned[3],
                       const local_index box[3], const local_index at[3], int per_point, bool to_box) {
  const local_index n = owned[0] * owned[1] * owned[2] * per_point;
  if (n == 0) return;
  using View = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  Kokkos::parallel_for(to_box ? "tensormg::smoother::halo_box::copy_in" : "tensormg::smoother::halo_box::copy_out",
                       Kokkos::RangePolicy<ExecSpace>(0, n),
                       detail::OwnedPointsCopy<View>{vector, box_data, owned[0], owned[1], box[0], box[1], at[0], at[1],
                                                     at[2], local_index(per_point), to_box});
}

/// The smoothers' halo work (copies into and out of the box, refreshes) run through it: fenced
/// and timed while enabled (Smoother::time_exchanges), run as is otherwise.
template <class ExecSpace>
class ExchangeTimer {
 public:
  void enable(bool on) { on_ = on; }
  double seconds() const { return seconds_; }
  void reset() { seconds_ = 0; }
  template <class F>
  void operator()(F&& f) {
    if (!on_) return f();
    ExecSpace().fence();
    Timer t;
    t.start();
    f();
    ExecSpace().fence();
    seconds_ += t.stop();
  }

 private:
  bool on_ = false;
  double seconds_ = 0;
};

template <class ExecSpace>
class HaloBox {
  using Exchange = HaloExchange<ExecSpace, typename DeviceTraits<ExecSpace>::halo_staging>;

 public:
  HaloBox() = default;
  /// Collective in effect (every rank builds the same pattern from `ranges`, no messages).
  HaloBox(MPI_Comm comm, int dim, int per_point, const RankRanges& ranges, int tag,
          HaloTransport transport = HaloTransport::automatic)
      : dim_(dim), per_point_(per_point) {
    int ranks = 1, me = 0;
    MPI_Comm_size(comm, &ranks);
    MPI_Comm_rank(comm, &me);
    ranges(me, owned_, box_);
    const bool has = !box_.empty(dim);
    for (int d = 0; d < 3; ++d) {
      extent_[d] = has ? local_index(box_.hi[d] - box_.lo[d]) : 0;
      owned_extent_[d] = has ? local_index(owned_.hi[d] - owned_.lo[d]) : 0;
      owned_at_[d] = has ? local_index(owned_.lo[d] - box_.lo[d]) : 0;
    }
    std::vector<typename Exchange::Lists> lists;
    for (int q = 0; q < ranks; ++q) {
      if (q == me) continue;
      GridRange q_owned, q_box;
      ranges(q, q_owned, q_box);
      typename Exchange::Lists l;
      l.rank = q;
      if (has && !q_box.empty(dim)) {
        const GridRange send = owned_.intersect(q_box), recv = q_owned.intersect(box_);
        if (!send.empty(dim)) append(send, l.send);
        if (!recv.empty(dim)) append(recv, l.recv);
      }
      lists.push_back(std::move(l));
    }
    halo_ = Exchange(comm, lists, tag, transport);
  }

  /// Global grid coordinates of the box's first point and its extent (0 without cells).
  global_index lower(int d) const { return box_.lo[d]; }
  local_index extent(int d) const { return extent_[d]; }
  /// Values in the box.
  local_index size() const { return extent_[0] * extent_[1] * extent_[2] * per_point_; }
  /// Values received per refresh.
  local_index n_recv() const { return halo_.n_recv(); }
  /// Neighbours whose boxes a refresh writes into directly, and that write into this one
  /// (HaloTransport; none on the host backends).
  int n_peer_sends() const { return halo_.n_peer_sends(); }
  int n_peer_recvs() const { return halo_.n_peer_recvs(); }

  /// The layout vector's owned values into the box (the halo points keep what they hold).
  template <class Number>
  void copy_in(const Kokkos::View<Number*, typename ExecSpace::memory_space>& vector,
               const Kokkos::View<Number*, typename ExecSpace::memory_space>& box) const {
    copy_owned_points<Number, ExecSpace>(vector, box, owned_extent_, extent_, owned_at_, per_point_, true);
  }
  /// The box's owned values back into the layout vector.
  template <class Number>
  void copy_out(const Kokkos::View<Number*, typename ExecSpace::memory_space>& vector,
                const Kokkos::View<Number*, typename ExecSpace::memory_space>& box) const {
    copy_owned_points<Number, ExecSpace>(vector, box, owned_extent_, extent_, owned_at_, per_point_, false);
  }
  /// The box's points owned by other ranks from their boxes.
  template <class Number>
  void refresh(const Kokkos::View<Number*, typename ExecSpace::memory_space>& box) const {
    halo_.forward(box);
  }
  /// refresh() in two halves (HaloExchange::start_forward): between them, work that writes no
  /// point a neighbour receives.
  template <class Number>
  void start_refresh(const Kokkos::View<Number*, typename ExecSpace::memory_space>& box) const {
    halo_.start_forward(box);
  }
  template <class Number>
  void finish_refresh(const Kokkos::View<Number*, typename ExecSpace::memory_space>& box) const {
    halo_.finish_forward(box);
  }
  /// Whether the box's first (last) layer in direction d is halo, held by another rank.
  bool halo_below(int d) const { return owned_at_[d] > 0; }
  bool halo_above(int d) const { return owned_at_[d] + owned_extent_[d] < extent_[d]; }
  /// The patches of a box of cells[d] cells per direction split for overlapping the refresh
  /// (split_for_overlap), with `overlap` set where `mode` resolves to it for `degree`
  /// (overlaps_halo_exchange) and interior patches exist. Collective over comm (the node's ranks
  /// per device).
  OverlapSplit overlap_split(const local_index cells[3], HaloOverlap mode, int degree, MPI_Comm comm) const {
    bool below[3] = {false, false, false}, above[3] = {false, false, false};
    for (int d = 0; d < dim_; ++d) below[d] = halo_below(d), above[d] = halo_above(d);
    OverlapSplit s = split_for_overlap(dim_, cells, below, above);
    s.overlap = overlaps_halo_exchange(mode, !runs_on_host<ExecSpace>(), degree,
                                       ranks_sharing_device(comm, DeviceTraits<ExecSpace>::device_id())) &&
                s.any_interior;
    return s;
  }

 private:
  /// Box indices of the values of the points of `part` (global coordinates), lexicographic.
  void append(const GridRange& part, std::vector<local_index>& out) const {
    for (global_index z = part.lo[2]; z < part.hi[2]; ++z)
      for (global_index y = part.lo[1]; y < part.hi[1]; ++y)
        for (global_index x = part.lo[0]; x < part.hi[0]; ++x) {
          const local_index p = local_index(x - box_.lo[0]) +
                                extent_[0] * (local_index(y - box_.lo[1]) + extent_[1] * local_index(z - box_.lo[2]));
          for (int v = 0; v < per_point_; ++v) out.push_back(p * per_point_ + v);
        }
  }
  int dim_ = 2, per_point_ = 1;
  GridRange owned_, box_;
  local_index extent_[3] = {0, 0, 0}, owned_extent_[3] = {0, 0, 0}, owned_at_[3] = {0, 0, 0};
  Exchange halo_;
};

}  // namespace tensormg
