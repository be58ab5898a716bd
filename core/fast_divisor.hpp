#pragma once
/// @file
/// Division of non-negative 31-bit integers by a divisor known only at run time, as one wide
/// multiply and a shift (Granlund & Montgomery, "Division by invariant integers using
/// multiplication", 1994). A GPU has no integer divide unit: `x / d` with a run-time d is a
/// ~20-instruction sequence, which the cell and patch kernels paid per thread to turn a running
/// number into grid coordinates.
///
/// With N = 31, l = ceil(log2 d), p = N + l and m = ceil(2^p / d): 2^p <= m d < 2^p + 2^l, which
/// gives floor(x / d) = floor(x m / 2^p) for every 0 <= x < 2^31; m < 2^32.

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "core/error.hpp"

namespace tensormg {

class FastDivisor {
 public:
  FastDivisor() = default;
  /// d >= 1 and d < 2^31.
  explicit FastDivisor(std::int32_t d) : d_(d) {
    TENSORMG_CHECK(d >= 1, "FastDivisor needs a positive divisor, given " << d);
    int l = 0;
    while ((std::uint64_t(1) << l) < std::uint64_t(d)) ++l;
    shift_ = 31 + l;
    const std::uint64_t two_p = std::uint64_t(1) << shift_;
    magic_ = (two_p + std::uint64_t(d) - 1) / std::uint64_t(d);
  }
  KOKKOS_INLINE_FUNCTION std::int32_t divisor() const { return d_; }
  /// floor(x / d) for 0 <= x < 2^31.
  KOKKOS_INLINE_FUNCTION std::int32_t div(std::int32_t x) const {
    return std::int32_t((std::uint64_t(std::uint32_t(x)) * magic_) >> shift_);
  }
  /// x mod d and floor(x / d) together.
  KOKKOS_INLINE_FUNCTION std::int32_t divmod(std::int32_t x, std::int32_t& remainder) const {
    const std::int32_t q = div(x);
    remainder = x - q * d_;
    return q;
  }

 private:
  std::int32_t d_ = 1;
  std::uint64_t magic_ = std::uint64_t(1) << 31;
  int shift_ = 31;
};

}  // namespace tensormg
