#pragma once
/// @file
/// Sums formed on the way through a sweep over vectors' entries: dot products, CG's residual
/// update with ‖r‖² (core/fused_cg.hpp). A sweep reads (and may write) a few vectors at entry i
/// and adds one term per entry; the sum is a double whatever the vectors' precision.
///
/// On a GPU a sweep is bound by the loads it has in flight. Kokkos 3.4's range reduction there
/// launches at most 256 blocks of 256 threads (a quarter of an H200's warp slots) with one entry
/// per thread and step: CG's residual update over 2e7 doubles ran at 1.9 TB/s, where a plain
/// parallel_for over vectors ran at 3.9 (Nsight Compute, perf/README.md "CEED bake-off operators").
/// So here every thread loads `values_per_thread` entries of each vector (32 bytes) before it uses
/// the first, and from `teams_from` entries on, the sweep runs as one team of 256 threads per
/// chunk of 256 · values_per_thread entries (any number of blocks, all warp slots), each team
/// storing its partial sum, and a second, small reduction adds the partial sums: dot and residual
/// update 3.1 and 3.3 TB/s at 2^24 doubles, 4.2 and 3.9 at 2^28, Kokkos Kernels' dot 1.8 and 2.1
/// (perf/results/h200-2026-12-04-vector-sweeps/call1/ceilings.json). Kokkos' own team reduction
/// was measured no faster than its range reduction.
///
/// On the host a sweep runs over blocks of 8 consecutive entries with 4 partial sums each: the
/// dot product at 69 GB/s on the 2-core VM, Kokkos Kernels' at 53, the GPU form of the range path
/// at 9.4 (its strided indices defeat the host compiler; perf/results/cpu-2026-12-0{3,4}-vector-sweeps).
///
/// Every path sums in an order that depends on n (and on the host on the thread count) only: the
/// same sweep gives the same bits, run after run.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <limits>

#include "core/device_traits.hpp"

namespace tensormg {

/// How a sweep over Number entries runs on ExecSpace.
template <class Number, class ExecSpace>
struct SweepShape {
  /// Entries of each vector a thread loads before using the first (32 bytes' worth on a GPU).
  static constexpr int values_per_thread =
      runs_on_host<ExecSpace>() ? 1 : (sizeof(Number) >= 32 ? 1 : int(32 / sizeof(Number)));
  /// Consecutive entries per index of the host path (4 partial sums each).
  static constexpr int host_block = 8;
  /// Threads of a team in the team path.
  static constexpr int team_size = 256;
  /// From this many entries on, the team path (never on the host). Below it the range path's one
  /// launch is cheaper: at 1e6 doubles 16.4 µs against 19.0 µs on the H200.
  static constexpr std::size_t teams_from =
      runs_on_host<ExecSpace>() ? std::numeric_limits<std::size_t>::max() : (std::size_t(1) << 22);
};

namespace detail {

/// The team path's partial sums: one buffer per memory space for the whole program, grown to the
/// largest count asked for and released by Kokkos::finalize (a View allocated per call would cost a
/// device allocation and a synchronizing free per dot product). Host code only, one thread.
template <class MemorySpace>
Kokkos::View<double*, MemorySpace> sweep_partials(std::size_t count) {
  using Buffer = Kokkos::View<double*, MemorySpace>;
  static Buffer* buffer = nullptr;
  if (buffer == nullptr) {
    buffer = new Buffer();
    Kokkos::push_finalize_hook([] {
      delete buffer;
      buffer = nullptr;
    });
  }
  if (buffer->extent(0) < count) {
    *buffer = Buffer();  // the old allocation goes first
    *buffer = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::sweep_partials"), count);
  }
  return *buffer;
}

/// The sweep over blocks of B consecutive entries, 4 partial sums per block (the host path; it
/// runs on any execution space).
template <int B, class Sweep>
struct BlockedSum {
  Sweep sweep;
  std::size_t n, full;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, double& s) const {
    double acc[4] = {0, 0, 0, 0};
    const std::size_t first = j * B;
    if (j < full) {
      for (int k = 0; k < B; ++k) acc[k % 4] += sweep.finish(first + k, sweep.load(first + k));
    } else {
      for (std::size_t i = first; i < n; ++i) acc[0] += sweep.finish(i, sweep.load(i));
    }
    s += (acc[0] + acc[1]) + (acc[2] + acc[3]);
  }
};

template <int B, class ExecSpace, class Sweep>
double blocked_sweep_sum(const char* label, std::size_t n, const Sweep& sweep) {
  static_assert(B % 4 == 0, "blocks of a multiple of 4 entries");
  const std::size_t full = n / B;
  double sum = 0;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace>(0, full + (n % B != 0 ? 1 : 0)),
                          BlockedSum<B, Sweep>{sweep, n, full}, sum);
  return sum;
}

/// The sweep's entries i = j + k · stride, k < U, for j < stride = ⌈n / U⌉, by a range reduction.
template <int U, class Sweep>
struct StridedSum {
  Sweep sweep;
  std::size_t n, stride;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, double& s) const {
    typename Sweep::values v[U] = {};
    TENSORMG_UNROLL_ALL
    for (int k = 0; k < U; ++k) {
      const std::size_t i = j + std::size_t(k) * stride;
      if (i < n) v[k] = sweep.load(i);
    }
    TENSORMG_UNROLL_ALL
    for (int k = 0; k < U; ++k) {
      const std::size_t i = j + std::size_t(k) * stride;
      if (i < n) s += sweep.finish(i, v[k]);
    }
  }
};

template <int U, class ExecSpace, class Sweep>
double range_sweep_sum(const char* label, std::size_t n, const Sweep& sweep) {
  const std::size_t stride = (n + U - 1) / U;
  double sum = 0;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace>(0, stride), StridedSum<U, Sweep>{sweep, n, stride}, sum);
  return sum;
}

/// The sweep by teams of team_size threads over chunks of team_size · U consecutive entries
/// (thread t of team c: entries c · chunk + k · team_size + t, coalesced), each team's sum stored
/// in `partials`, then a range reduction over those. team_size must be a team size ExecSpace
/// can run (256 on a GPU; the host tests take what their backend allows).
template <int U, class ExecSpace, class Sweep>
struct TeamPartialSums {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Sweep sweep;
  std::size_t n, team, chunk;
  Kokkos::View<double*, typename ExecSpace::memory_space> partials;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const std::size_t first = std::size_t(m.league_rank()) * chunk + std::size_t(m.team_rank());
    typename Sweep::values v[U] = {};
    TENSORMG_UNROLL_ALL
    for (int k = 0; k < U; ++k) {
      const std::size_t i = first + std::size_t(k) * team;
      if (i < n) v[k] = sweep.load(i);
    }
    double s = 0;
    TENSORMG_UNROLL_ALL
    for (int k = 0; k < U; ++k) {
      const std::size_t i = first + std::size_t(k) * team;
      if (i < n) s += sweep.finish(i, v[k]);
    }
    m.team_reduce(Kokkos::Sum<double>(s));
    if (m.team_rank() == 0) partials(m.league_rank()) = s;
  }
};

template <class View>
struct SumOfEntries {
  View values;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t c, double& s) const { s += values(c); }
};

template <int U, class ExecSpace, class Sweep>
double team_sweep_sum(const char* label, std::size_t n, const Sweep& sweep, int team_size) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const std::size_t team = std::size_t(team_size), chunk = team * U;
  const std::size_t teams = (n + chunk - 1) / chunk;
  const auto partials = sweep_partials<typename ExecSpace::memory_space>(teams);
  Kokkos::parallel_for(label, Policy(int(teams), team_size),
                       TeamPartialSums<U, ExecSpace, Sweep>{sweep, n, team, chunk, partials});
  double sum = 0;
  Kokkos::parallel_reduce("tensormg::sweep_partials_sum", Kokkos::RangePolicy<ExecSpace>(0, teams),
                          SumOfEntries<decltype(partials)>{partials}, sum);
  return sum;
}

/// A sweep whose terms are not summed (it stores): on a GPU the team path's entries (chunks of
/// 256 · U, each thread's U entries coalesced and loaded before the first is used) by a range
/// kernel, no reduction and so no wait for a result; on the host blocks of B entries.
template <int B, class Sweep>
struct BlockedStores {
  Sweep sweep;
  std::size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j) const {
    const std::size_t last = j * B + B < n ? j * B + B : n;
    for (std::size_t i = j * B; i < last; ++i) sweep.finish(i, sweep.load(i));
  }
};

template <int U, class Sweep>
struct ChunkStores {
  static constexpr std::size_t team = 256;
  Sweep sweep;
  std::size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j) const {
    const std::size_t first = (j / team) * team * U + j % team;
    typename Sweep::values v[U] = {};
    TENSORMG_UNROLL_ALL
    for (int k = 0; k < U; ++k) {
      const std::size_t i = first + std::size_t(k) * team;
      if (i < n) v[k] = sweep.load(i);
    }
    TENSORMG_UNROLL_ALL
    for (int k = 0; k < U; ++k) {
      const std::size_t i = first + std::size_t(k) * team;
      if (i < n) sweep.finish(i, v[k]);
    }
  }
};

template <int U, int B, class ExecSpace, class Sweep>
void sweep_for(const char* label, std::size_t n, const Sweep& sweep) {
  if constexpr (runs_on_host<ExecSpace>()) {
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, (n + B - 1) / B), BlockedStores<B, Sweep>{sweep, n});
  } else {
    constexpr std::size_t team = ChunkStores<U, Sweep>::team;
    const std::size_t chunks = (n + team * U - 1) / (team * U);  // every chunk with all its threads
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, chunks * team), ChunkStores<U, Sweep>{sweep, n});
  }
}

}  // namespace detail

/// The sweep's stores over entries [0, n) on ExecSpace, its terms dropped: BLAS-1 updates at the
/// loads in flight of the sums below, without their reduction (no wait for a result).
template <class Number, class ExecSpace, class Sweep>
void sweep_for(const char* label, std::size_t n, const Sweep& sweep) {
  using Shape = SweepShape<Number, ExecSpace>;
  if (n == 0) return;
  detail::sweep_for<Shape::values_per_thread, Shape::host_block, ExecSpace>(label, n, sweep);
}

/// Σ_{i < n} of the sweep's terms on ExecSpace (this rank's; the caller reduces over ranks).
/// Sweep: a copyable functor with a type `values` (what entry i's term needs from memory) and
///   `KOKKOS_FUNCTION values load(std::size_t i) const` (only loads) and
///   `KOKKOS_FUNCTION double finish(std::size_t i, const values&) const` (the term; it may store
///   to entry i). A thread issues all its loads before its first finish.
/// The team path keeps its partial sums (n / 1024 doubles for double entries) in a buffer that
/// lives until Kokkos::finalize (detail::sweep_partials).
template <class Number, class ExecSpace, class Sweep>
double sweep_sum(const char* label, std::size_t n, const Sweep& sweep) {
  using Shape = SweepShape<Number, ExecSpace>;
  if (n == 0) return 0;
  if constexpr (runs_on_host<ExecSpace>()) {
    return detail::blocked_sweep_sum<Shape::host_block, ExecSpace>(label, n, sweep);
  } else {
    if (n >= Shape::teams_from)
      return detail::team_sweep_sum<Shape::values_per_thread, ExecSpace>(label, n, sweep, Shape::team_size);
    return detail::range_sweep_sum<Shape::values_per_thread, ExecSpace>(label, n, sweep);
  }
}

/// x · y over entries [0, n) of two Views (the sweep of a dot product).
template <class View>
struct DotSweep {
  using Number = typename View::non_const_value_type;
  struct values {
    Number x, y;
  };
  View x, y;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {x(i), y(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t, const values& v) const { return double(v.x) * double(v.y); }
};

/// ‖y − x‖² over entries [0, n) of two Views; with `store`, x_i ← y_i − x_i on the way (the
/// multigrid iteration's residual b − A x with A x in x: its norm alone, or the residual formed in
/// place, in one sweep either way).
template <class View, bool store = false>
struct DifferenceSweep {
  using Number = typename View::non_const_value_type;
  struct values {
    Number x, y;
  };
  View x, y;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {x(i), y(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    const Number d = v.y - v.x;
    if constexpr (store) x(i) = d;
    return double(d) * double(d);
  }
};

/// ‖y − x‖² over entries [0, n), the difference formed in the Views' precision and stored rounded
/// into `out` of another precision (the mixed-precision multigrid iteration's b − A x handed to a
/// float cycle: one sweep instead of forming it, then converting it).
template <class View, class OutView>
struct ConvertedDifferenceSweep {
  using Number = typename View::non_const_value_type;
  using Out = typename OutView::non_const_value_type;
  struct values {
    Number x, y;
  };
  View x, y;
  OutView out;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {x(i), y(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    const Number d = v.y - v.x;
    out(i) = static_cast<Out>(d);
    return double(d) * double(d);
  }
};

/// y_i ← a x_i + b y_i (b = 0: y is not read, as BLAS leaves NaN there alone); the sum is 0.
template <class View, bool read_y = true>
struct AxpbySweep {
  using Number = typename View::non_const_value_type;
  struct values {
    Number x, y;
  };
  Number a, b;
  View x, y;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {x(i), read_y ? y(i) : Number(0)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    y(i) = read_y ? a * v.x + b * v.y : a * v.x;
    return 0.0;
  }
};

/// x_i ← value (nothing loaded); the sum is 0. A vector's fill: a plain range kernel of one entry
/// per thread (Kokkos 3.4's deep_copy of a value, and its View initialization) took 1.28 ms for
/// 1.35e8 entries on the H100, floats and doubles alike (0.42 and 0.84 TB/s;
/// perf/results/h100-2026-12-06-outer-loop/g15, kernel timer), where a sweep's thread stores 32
/// bytes.
template <class View>
struct FillSweep {
  using Number = typename View::non_const_value_type;
  struct values {};
  View x;
  Number value;
  KOKKOS_INLINE_FUNCTION values load(std::size_t) const { return {}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values&) const {
    x(i) = value;
    return 0.0;
  }
};

/// x_i = y_i z_i; the sum is 0.
template <class View>
struct ProductSweep {
  using Number = typename View::non_const_value_type;
  struct values {
    Number y, z;
  };
  View x, y, z;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {y(i), z(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    x(i) = v.y * v.z;
    return 0.0;
  }
};

/// x_i = 1 / x_i where x_i != 0 (zeros stay zero); the sum is 0.
template <class View>
struct ReciprocalSweep {
  using Number = typename View::non_const_value_type;
  struct values {
    Number x;
  };
  View x;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {x(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    x(i) = v.x != Number(0) ? Number(1) / v.x : Number(0);
    return 0.0;
  }
};

/// x_i = a e_i formed in e's precision and rounded once into x's (another precision); the sum is
/// 0 (a sweep for its loads in flight, as AddConvertedSweep). A functor, not an extended lambda:
/// the lambda this replaced (in DistributedVector::copy_scaled_converted_from, a member function
/// template) called a null host function pointer inside nvcc's __nv_hdl_wrapper_t on the H100 when
/// tensormg-poisson's mixed FMG start made the first such conversion (g++ 12 had cloned the caller
/// as copy_scaled_converted_from<double>.constprop.0; perf/results/h100-2026-12-07-time-to-solution/g27).
template <class View, class OtherView>
struct ScaledConvertSweep {
  using Number = typename View::non_const_value_type;
  using Other = typename OtherView::non_const_value_type;
  struct values {
    Other e;
  };
  Other a;
  View x;
  OtherView e;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {e(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    x(i) = static_cast<Number>(a * v.e);
    return 0.0;
  }
};

/// x_i += a e_i with e of another precision, converted first; the sum is 0 (a sweep for its loads
/// in flight: a plain range kernel over doubles ran at 2.1 TB/s on the H100, where the sweeps
/// reach the copy bandwidth, perf/results/h100-2026-12-06-outer-loop/g14).
template <class View, class OtherView>
struct AddConvertedSweep {
  using Number = typename View::non_const_value_type;
  using Other = typename OtherView::non_const_value_type;
  struct values {
    Number x;
    Other e;
  };
  Number a;
  View x;
  OtherView e;
  KOKKOS_INLINE_FUNCTION values load(std::size_t i) const { return {x(i), e(i)}; }
  KOKKOS_INLINE_FUNCTION double finish(std::size_t i, const values& v) const {
    x(i) = v.x + a * static_cast<Number>(v.e);
    return 0.0;
  }
};

}  // namespace tensormg
