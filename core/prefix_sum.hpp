#pragma once
/// @file
/// The exclusive prefix sum on an execution space that the set-up's count-then-fill passes share
/// (discretization/hex_refinement.cpp, multigrid/hex_transfer.cpp): a count per item, then the
/// offset of each item's entries.

#include <Kokkos_Core.hpp>

#include "core/types.hpp"

namespace tensormg {

namespace detail {
template <class Counts, class Offsets>
struct ExclusiveScan {
  using offset_type = typename Offsets::non_const_value_type;
  global_index n;
  Counts counts;
  Offsets offsets;
  KOKKOS_INLINE_FUNCTION void operator()(global_index i, global_index& update, const bool final) const {
    const global_index value = i < n ? global_index(counts(i)) : 0;
    if (final) offsets(i) = offset_type(update);
    update += value;
  }
};
}  // namespace detail

/// offsets(i) = Σ_{j<i} counts(j) for i = 0 .. n (offsets(n): the total, also returned); counts has
/// n entries, offsets n + 1, of any integer types (offsets' must hold the total).
template <class ExecSpace, class Counts, class Offsets>
global_index exclusive_prefix_sum(const char* name, global_index n, const Counts& counts, const Offsets& offsets) {
  global_index total = 0;
  Kokkos::parallel_scan(name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<global_index>>(0, n + 1),
                        detail::ExclusiveScan<Counts, Offsets>{n, counts, offsets}, total);
  return total;
}

}  // namespace tensormg
