// Tensor-core throughput loops for the ceilings program. Each warp issues `chains` independent
// mma.sync instructions per iteration (independent accumulators hide the instruction latency).
#include <cuda_fp16.h>

#include <chrono>
#include <cstdint>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/profiling.hpp"

namespace tensormg::cuda_mma {

namespace {

enum class Shape { f64_m8n8k4, f64_m16n8k16, f16_m16n8k16 };

constexpr int chains = 4;

template <Shape S>
struct MmaLoop {
  Kokkos::View<double*, Kokkos::CudaSpace> out;
  int iterations;

  KOKKOS_INLINE_FUNCTION void operator()(const Kokkos::TeamPolicy<Kokkos::Cuda>::member_type& team) const {
    const int lane = team.team_rank() % 32;
    double sum = 0;
#if defined(__CUDA_ARCH__)
    if constexpr (S == Shape::f64_m8n8k4) {
      const double a = 1e-3 * (lane + 1), b = 1e-3 * (32 - lane);
      double c[chains][2] = {};
      for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int k = 0; k < chains; ++k)
          asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                       : "+d"(c[k][0]), "+d"(c[k][1])
                       : "d"(a), "d"(b));
      }
#pragma unroll
      for (int k = 0; k < chains; ++k) sum += c[k][0] + c[k][1];
    } else if constexpr (S == Shape::f64_m16n8k16) {
#if __CUDA_ARCH__ >= 900
      double a[8], b[4];
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = 1e-3 * (lane + i);
#pragma unroll
      for (int i = 0; i < 4; ++i) b[i] = 1e-3 * (32 - lane + i);
      double c[chains][4] = {};
      for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int k = 0; k < chains; ++k)
          asm volatile(
              "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
              "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
              : "+d"(c[k][0]), "+d"(c[k][1]), "+d"(c[k][2]), "+d"(c[k][3])
              : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
      }
#pragma unroll
      for (int k = 0; k < chains; ++k) sum += c[k][0] + c[k][1] + c[k][2] + c[k][3];
#endif
    } else {
      const __half2 ha = __floats2half2_rn(1e-2f * (lane % 7), 1e-2f);
      const __half2 hb = __floats2half2_rn(1e-2f, 1e-2f * (lane % 5));
      const std::uint32_t a = *reinterpret_cast<const std::uint32_t*>(&ha);
      const std::uint32_t b = *reinterpret_cast<const std::uint32_t*>(&hb);
      float c[chains][4] = {};
      for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int k = 0; k < chains; ++k)
          asm volatile(
              "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, "
              "{%0,%1,%2,%3};\n"
              : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
              : "r"(a), "r"(b));
      }
#pragma unroll
      for (int k = 0; k < chains; ++k) sum += double(c[k][0]) + c[k][1] + c[k][2] + c[k][3];
    }
#endif
    out(team.league_rank() * team.team_size() + team.team_rank()) = sum;
  }
};

template <Shape S>
MmaRate run(const char* name, double flops_per_mma, int multiprocessors) {
  MmaRate r;
  r.shape = name;
#if !defined(KOKKOS_ARCH_HOPPER90)
  if (S == Shape::f64_m16n8k16) return r;  // the f64 m16n8k16 shape needs sm_90
#endif
  r.available = true;
  const int team_size = 256;  // 8 warps per block
  static_assert(256 % 32 == 0, "mma needs whole warps");
  const int league = multiprocessors * 8;
  const int iterations = 1 << 14;
  Kokkos::View<double*, Kokkos::CudaSpace> out("tensormg::ceilings::mma_out", league * team_size);
  MmaLoop<S> loop{out, iterations};
  Kokkos::TeamPolicy<Kokkos::Cuda> policy(league, team_size, 1);
  const std::string kname = kernel_name({"ceilings", "mma", name});
  Kokkos::parallel_for(kname, policy, loop);  // warm-up
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(kname, policy, loop);
  Kokkos::fence();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double warps = double(league) * team_size / 32;
  r.flops_per_second = warps * iterations * chains * flops_per_mma / r.seconds;
  double checksum = 0;
  Kokkos::parallel_reduce(
      kernel_name({"ceilings", "mma", "checksum"}), Kokkos::RangePolicy<Kokkos::Cuda>(0, out.extent(0)),
      KOKKOS_LAMBDA(int i, double& s) { s += out(i); }, checksum);
  r.checksum = checksum;
  return r;
}

}  // namespace

std::vector<MmaRate> measure_mma_rates() {
  const int sms = device_properties().multiprocessors;
  return {run<Shape::f64_m8n8k4>("f64.m8n8k4", 2.0 * 8 * 8 * 4, sms),
          run<Shape::f64_m16n8k16>("f64.m16n8k16", 2.0 * 16 * 8 * 16, sms),
          run<Shape::f16_m16n8k16>("f16.m16n8k16.f32acc", 2.0 * 16 * 8 * 16, sms)};
}

}  // namespace tensormg::cuda_mma
