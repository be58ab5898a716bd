#pragma once
/// @file
/// A pack of W numbers of one type, held in one CPU vector register where the compiler has one:
/// the Number of a host kernel that works on W cells at once, one per lane (deal.II's
/// VectorizedArray). Arithmetic is lane by lane; a scalar converts to a pack with every lane set
/// (a 1D matrix entry times the lanes' values).
///
/// With g++ or clang (not nvcc, which also compiles the host code of CUDA builds) the pack is a
/// GNU vector type, so every operation is one vector instruction of the width -march allows;
/// otherwise an array the compiler may vectorize. native_width<T> is the width of the widest
/// register the host target has (AVX-512: 8 doubles, AVX: 4, SSE2 / NEON: 2).

#include <Kokkos_Core.hpp>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define TENSORMG_VECTOR_EXTENSIONS 1
#else
#define TENSORMG_VECTOR_EXTENSIONS 0
#endif

namespace tensormg::simd {

/// Bytes of the widest vector register of the host target this unit is compiled for.
constexpr int native_bytes() {
#if defined(__AVX512F__)
  return 64;
#elif defined(__AVX__)
  return 32;
#else
  return 16;
#endif
}

/// Lanes of T in that register.
template <class T>
inline constexpr int native_width = native_bytes() / int(sizeof(T));

template <class T, int W>
struct alignas(sizeof(T) * W) Pack {
  static_assert(W >= 1 && (W & (W - 1)) == 0, "a pack has a power of two lanes");
  static constexpr int width = W;
  using value_type = T;
#if TENSORMG_VECTOR_EXTENSIONS
  typedef T Native __attribute__((vector_size(sizeof(T) * W)));
  Native v;
#else
  T v[W];
#endif

  Pack() = default;
  /// Every lane s.
  KOKKOS_FORCEINLINE_FUNCTION Pack(T s) {
#if TENSORMG_VECTOR_EXTENSIONS
    v = Native{} + s;
#else
    for (int w = 0; w < W; ++w) v[w] = s;
#endif
  }

  KOKKOS_FORCEINLINE_FUNCTION T operator[](int w) const { return v[w]; }
  KOKKOS_FORCEINLINE_FUNCTION void set(int w, T s) { v[w] = s; }

#if TENSORMG_VECTOR_EXTENSIONS
#define TENSORMG_PACK_ASSIGN(op) \
  KOKKOS_FORCEINLINE_FUNCTION Pack& operator op(const Pack& o) { \
    v op o.v;                                                    \
    return *this;                                                \
  }
#else
#define TENSORMG_PACK_ASSIGN(op)                                 \
  KOKKOS_FORCEINLINE_FUNCTION Pack& operator op(const Pack& o) { \
    for (int w = 0; w < W; ++w) v[w] op o.v[w];                  \
    return *this;                                                \
  }
#endif
  TENSORMG_PACK_ASSIGN(+=)
  TENSORMG_PACK_ASSIGN(-=)
  TENSORMG_PACK_ASSIGN(*=)
#undef TENSORMG_PACK_ASSIGN

  KOKKOS_FORCEINLINE_FUNCTION friend Pack operator+(Pack a, const Pack& b) { return a += b; }
  KOKKOS_FORCEINLINE_FUNCTION friend Pack operator-(Pack a, const Pack& b) { return a -= b; }
  KOKKOS_FORCEINLINE_FUNCTION friend Pack operator*(Pack a, const Pack& b) { return a *= b; }
  KOKKOS_FORCEINLINE_FUNCTION friend Pack operator-(const Pack& a) { return Pack(T(0)) - a; }
};

/// The type of one lane: T itself for a scalar.
template <class T>
struct Scalar {
  using type = T;
};
template <class T, int W>
struct Scalar<Pack<T, W>> {
  using type = T;
};
template <class T>
using scalar_t = typename Scalar<T>::type;

}  // namespace tensormg::simd
