// core/simd_pack.hpp: a pack's lanes against the same arithmetic on scalars, lane by lane, for the
// native width of double and float and for narrower packs; the native width follows the target.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/simd_pack.hpp"

namespace {

using tensormg::simd::Pack;

template <class T, int W>
void check_lanes() {
  Pack<T, W> a, b;
  for (int w = 0; w < W; ++w) {
    a.set(w, T(1.5) + T(w));
    b.set(w, T(-0.25) * T(w + 1));
  }
  const Pack<T, W> s(T(3));  // every lane 3
  const Pack<T, W> r = a * b + s * a - b;
  Pack<T, W> acc(T(0));
  acc += a;
  acc *= b;
  acc -= s;
  const Pack<T, W> neg = -a;
  for (int w = 0; w < W; ++w) {
    const T x = T(1.5) + T(w), y = T(-0.25) * T(w + 1);
    EXPECT_EQ(s[w], T(3)) << "lane " << w;
    EXPECT_EQ(r[w], x * y + T(3) * x - y) << "lane " << w;
    EXPECT_EQ(acc[w], x * y - T(3)) << "lane " << w;
    EXPECT_EQ(neg[w], -x) << "lane " << w;
  }
  // A scalar converts to a pack (a matrix entry times the lanes' values).
  const Pack<T, W> scaled = T(2) * a;
  for (int w = 0; w < W; ++w) EXPECT_EQ(scaled[w], T(2) * (T(1.5) + T(w)));
  EXPECT_EQ(sizeof(Pack<T, W>), sizeof(T) * W);
  EXPECT_EQ(alignof(Pack<T, W>), sizeof(T) * W);
}

TEST(SimdPack, LanesFollowScalarArithmetic) {
  check_lanes<double, tensormg::simd::native_width<double>>();
  check_lanes<float, tensormg::simd::native_width<float>>();
  check_lanes<double, 1>();
  check_lanes<double, 2>();
  check_lanes<float, 4>();
}

TEST(SimdPack, NativeWidthFillsTheWidestRegister) {
  EXPECT_EQ(tensormg::simd::native_width<double> * 8, tensormg::simd::native_bytes());
  EXPECT_EQ(tensormg::simd::native_width<float> * 4, tensormg::simd::native_bytes());
#if defined(__AVX512F__)
  EXPECT_EQ(tensormg::simd::native_width<double>, 8);
#elif defined(__AVX__)
  EXPECT_EQ(tensormg::simd::native_width<double>, 4);
#else
  EXPECT_EQ(tensormg::simd::native_width<double>, 2);
#endif
  // An array of packs keeps every pack aligned (the kernels' local buffers).
  Pack<double, tensormg::simd::native_width<double>> buffer[3];
  for (const auto& p : buffer)
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&p) % alignof(decltype(buffer[0])), 0u);
}

}  // namespace
