#pragma once
/// @file
/// Subsets of a colour's vertex patches, for overlapping the halo exchange with work on several
/// ranks (issue 14; paper 002 §5): the patches whose updates other ranks need are smoothed first,
/// the exchange of their values is posted, the patches away from the rank boundary are smoothed
/// while the messages travel, then the exchange is finished. Both vertex-patch smoothers (continuous
/// nodes, DG cells) index their patches by box-local cell vertices v = 1 .. cells − 1 per
/// direction, colour by colour as v = 1 + parity + 2 t; a window restricts v.

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace tensormg {

/// Whether the smoothers overlap each colour's halo exchange with their interior patches.
enum class HaloOverlap { automatic, on, off };
std::string to_string(HaloOverlap o);
/// Throws InputError for other names than auto, on and off.
HaloOverlap parse_halo_overlap(const std::string& text);

/// The one rule of `automatic` (smoothers/smoother.cpp says what measured it): overlap on a
/// device at degree >= 2 where two ranks share the GPU; not with a GPU to each rank, nor with
/// more ranks per GPU, nor on the host, where the interior patches run on the thread that would
/// progress the messages.
bool overlaps_halo_exchange(HaloOverlap mode, bool on_device, int degree, int ranks_sharing_device);

/// Box-local vertices lo[d] <= v < hi[d] per direction (the default: every vertex).
struct PatchWindow {
  local_index lo[3] = {0, 0, 0};
  local_index hi[3] = {std::numeric_limits<local_index>::max(), std::numeric_limits<local_index>::max(),
                       std::numeric_limits<local_index>::max()};
};

/// The colour's patches t = first .. first + count − 1 in one direction that lie in the window,
/// of the `extent` patches with v = 1 + parity + 2 t.
inline void window_patches(const PatchWindow& w, int d, int parity, local_index extent, local_index& first,
                           local_index& count) {
  // v >= lo  <=>  t >= ceil((lo − 1 − parity) / 2);  v < hi  <=>  t < ceil((hi − 1 − parity) / 2).
  const auto ceil_half = [](local_index a) { return a <= 0 ? local_index(0) : a / 2 + a % 2; };
  const local_index lo = w.lo[d], hi = w.hi[d];
  first = std::min(extent, ceil_half(lo - 1 - parity));
  const local_index end = hi == std::numeric_limits<local_index>::max() ? extent : std::min(extent, ceil_half(hi - 1 - parity));
  count = std::max<local_index>(0, end - first);
}

/// A colour's patches split for overlap: `boundary` (disjoint windows, up to 2·dim) holds every
/// patch that writes a value some other rank receives, `interior` the rest.
struct OverlapSplit {
  bool any_interior = false;
  bool overlap = false;  ///< this rank overlaps (the mode resolved, some interior patches; HaloBox::overlap_split)
  PatchWindow interior;
  std::vector<PatchWindow> boundary;
};

/// The split of a halo box of `cells[d]` cells per direction whose first (last) cell layer is halo
/// where halo_low[d] (halo_high[d]): the layer next to the halo is what a neighbour receives
/// (HaloBox: owned ∩ the neighbour's box, one cell deep), and a patch around vertex v writes inside
/// cells v − 1 and v, so the patches with 3 <= v <= cells − 3 on the sides with halo write nothing
/// sent. Without interior patches, one window of every patch.
inline OverlapSplit split_for_overlap(int dim, const local_index cells[3], const bool halo_low[3], const bool halo_high[3]) {
  OverlapSplit s;
  const PatchWindow all;
  s.any_interior = true;
  for (int d = 0; d < dim; ++d) {
    s.interior.lo[d] = halo_low[d] ? 3 : 1;
    s.interior.hi[d] = halo_high[d] ? cells[d] - 2 : cells[d];
    s.any_interior = s.any_interior && s.interior.lo[d] < s.interior.hi[d];
  }
  if (!s.any_interior) {
    s.interior = PatchWindow{};
    s.boundary.push_back(all);
    return s;
  }
  // Slab d: outside the interior in direction d, inside it in the directions before d, anything in
  // those after: disjoint, and together with the interior every vertex.
  for (int d = 0; d < dim; ++d) {
    for (int side = 0; side < 2; ++side) {
      if (side == 0 ? !halo_low[d] : !halo_high[d]) continue;
      PatchWindow w;
      for (int e = 0; e < d; ++e) w.lo[e] = s.interior.lo[e], w.hi[e] = s.interior.hi[e];
      if (side == 0) w.hi[d] = s.interior.lo[d];
      else w.lo[d] = s.interior.hi[d];
      s.boundary.push_back(w);
    }
  }
  return s;
}

}  // namespace tensormg
