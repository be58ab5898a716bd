#pragma once
/// @file
/// Σ_i body(i) over an index range [0, n) on an execution space: the reduction of the vector
/// sweeps (dot products, CG's residual update with ‖r‖²).
///
/// On the host a RangePolicy reduction. On a GPU, Kokkos 3.4's RangePolicy reduction launches at
/// most as many blocks as one block has threads (256: two per SM of an H200), too few loads in
/// flight for a sweep over memory: CG's residual update (24 B per entry, a reduction) ran at 1.8
/// TB/s where the same CG's direction update (40 B, no reduction) ran at 3.9 (Nsight Compute,
/// perf/results/h200-2026-12-03-bp-scratch-rows/call2). Kokkos' TeamPolicy reduction takes up to
/// 32768 teams, so there the range is cut into one contiguous chunk per team, the team's threads
/// striding through it (coalesced). The partial sums' order depends on n only: the same range
/// gives the same sum, run after run.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include "core/device_traits.hpp"

namespace tensormg {

namespace detail {

/// The shape of the team reduction: teams of team_size threads over chunks of about
/// values_per_thread values per thread, at most max_teams teams (longer chunks beyond).
struct TeamSumShape {
  int team_size = 256;
  std::size_t values_per_thread = 8;
  std::size_t max_teams = 32768;  // Kokkos 3.4's cap on the blocks of a CUDA team reduction
};

/// Σ body(i) for i < n by teams of contiguous chunks (any execution space whose teams hold
/// shape.team_size threads; the GPU path of sum_over, and the host tests' check of it).
template <class Value, class ExecSpace, class Body>
Value team_sum(const std::string& label, std::size_t n, const Body& body, const TeamSumShape& shape = {}) {
  Value sum{};
  const std::size_t team = std::size_t(shape.team_size);
  std::size_t league = (n + team * shape.values_per_thread - 1) / (team * shape.values_per_thread);
  if (league > shape.max_teams) league = shape.max_teams;
  if (league == 0) return sum;
  // Whole multiples of the team size, so that every team's threads start aligned.
  const std::size_t chunk = ((n + league - 1) / league + team - 1) / team * team;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_reduce(
      label, Policy(int(league), shape.team_size),
      KOKKOS_LAMBDA(const typename Policy::member_type& member, Value& s) {
        const std::size_t begin = std::size_t(member.league_rank()) * chunk;
        const std::size_t end = begin + chunk < n ? begin + chunk : n;
        for (std::size_t i = begin + std::size_t(member.team_rank()); i < end; i += team) body(i, s);
      },
      sum);
  return sum;
}

}  // namespace detail

/// Σ body(i, sum) for i < n on ExecSpace (body adds its term to sum; it may also write, as CG's
/// residual update does). Value: the sum's type (its += and zero).
template <class Value, class ExecSpace, class Body>
Value sum_over(const std::string& label, std::size_t n, const Body& body) {
  if constexpr (runs_on_host<ExecSpace>()) {
    Value sum{};
    Kokkos::parallel_reduce(
        label, Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(std::size_t i, Value & s) { body(i, s); }, sum);
    return sum;
  } else {
    return detail::team_sum<Value, ExecSpace>(label, n, body);
  }
}

}  // namespace tensormg
