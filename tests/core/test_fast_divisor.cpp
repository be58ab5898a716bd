// FastDivisor: floor(x / d) by multiply and shift, against the integer division, on the host over
// edge cases and on every execution space.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/fast_divisor.hpp"
#include "tests/test_spaces.hpp"

namespace {

using tensormg::FastDivisor;

std::vector<std::int32_t> divisors() {
  std::vector<std::int32_t> d;
  for (std::int32_t i = 1; i <= 2000; ++i) d.push_back(i);
  for (int b = 11; b <= 30; ++b)
    for (std::int32_t delta : {-1, 0, 1}) d.push_back((std::int32_t(1) << b) + delta);
  d.push_back(2147483647);
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) d.push_back(std::int32_t(rng() % 2147483647u) + 1);
  return d;
}

/// Dividends near the quotient boundaries of d, near 2^31 and random ones.
std::vector<std::int32_t> dividends(std::int32_t d, std::mt19937& rng) {
  std::vector<std::int32_t> x{0, 1, 2, d - 1, d, 2147483647, 2147483646};
  for (std::int64_t q : {std::int64_t(1), std::int64_t(2), std::int64_t(3), std::int64_t(1000),
                         std::int64_t(2147483647) / d, std::int64_t(2147483647) / d - 1})
    for (std::int64_t delta : {-1, 0, 1}) {
      const std::int64_t v = q * d + delta;
      if (v >= 0 && v <= 2147483647) x.push_back(std::int32_t(v));
    }
  for (int i = 0; i < 64; ++i) x.push_back(std::int32_t(rng() % 2147483648u));
  return x;
}

TEST(FastDivisor, EqualsIntegerDivisionOnTheHost) {
  std::mt19937 rng(11);
  long checked = 0;
  for (std::int32_t d : divisors()) {
    const FastDivisor f(d);
    ASSERT_EQ(f.divisor(), d);
    for (std::int32_t x : dividends(d, rng)) {
      if (x < 0) continue;
      std::int32_t r = -1;
      const std::int32_t q = f.divmod(x, r);
      ASSERT_EQ(q, x / d) << "x = " << x << ", d = " << d;
      ASSERT_EQ(r, x % d) << "x = " << x << ", d = " << d;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100000);
}

TEST(FastDivisor, RefusesNonPositiveDivisors) {
  EXPECT_THROW(FastDivisor(0), tensormg::InputError);
  EXPECT_THROW(FastDivisor(-3), tensormg::InputError);
}

template <class ExecSpace>
class FastDivisorOn : public ::testing::Test {};
TYPED_TEST_SUITE(FastDivisorOn, tensormg::testing::ExecSpaces, tensormg::testing::ExecSpaceName);

template <class Exec>
long count_wrong_quotients(const FastDivisor& f, std::int32_t n, std::int32_t start) {
  long wrong = 0;
  Kokkos::parallel_reduce(
      "tensormg::test::fast_divisor", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(std::int32_t i, long& w) {
        const std::int32_t x = start + i;
        std::int32_t r;
        const std::int32_t q = f.divmod(x, r);
        if (q != x / f.divisor() || r != x % f.divisor()) ++w;
      },
      wrong);
  return wrong;
}

TYPED_TEST(FastDivisorOn, EqualsIntegerDivisionInKernels) {
  for (std::int32_t d : {1, 3, 7, 27, 64, 195, 1000, 65537, 2147483647}) {
    const FastDivisor f(d);
    EXPECT_EQ(count_wrong_quotients<TypeParam>(f, 1 << 20, 0), 0) << "d = " << d;
    EXPECT_EQ(count_wrong_quotients<TypeParam>(f, 1 << 20, 2147483647 - (1 << 20) + 1), 0) << "d = " << d;
  }
}

}  // namespace
