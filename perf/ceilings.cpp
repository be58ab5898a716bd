// tensormg-ceilings: measures the hardware ceilings every later benchmark reports against.
//   DRAM copy bandwidth (bytes read + written), FP64 and FP32 FMA rate, and on a GPU the
//   shared-memory load bandwidth and the tensor-core mma rates (FP64 m8n8k4, FP64 m16n8k16 on
//   sm_90, FP16 m16n8k16 with FP32 accumulation).
//   Beside them, what the solvers' vector reductions reach of the copy bandwidth: the dot product
//   and CG's residual update of core/vector_sweeps.hpp, and Kokkos Kernels' dot for comparison.
// Writes a JSON record (device, clocks, git hash, date, method) to --output.
#include <CLI/CLI.hpp>
#include <KokkosBlas1_dot.hpp>

#include <cstdio>
#include <iostream>
#include <type_traits>

#include "backends/device.hpp"
#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/fused_cg.hpp"
#include "core/json.hpp"
#include "core/memory.hpp"
#include "core/output_file.hpp"
#include "core/profiling.hpp"
#include "core/provenance.hpp"
#include "core/types.hpp"
#include "core/vector_sweeps.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/memory_estimate.hpp"
#include "perf/benchmark_support.hpp"

namespace {

using namespace tensormg;
using Exec = Kokkos::DefaultExecutionSpace;
constexpr bool on_gpu = !std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>;

/// Best of three ways to copy one array into another: a 64-bit-indexed kernel, a 32-bit-indexed
/// kernel with two elements per work item, and Kokkos::deep_copy (cudaMemcpy on a GPU). Returns
/// bytes read + written per second, and the winning variant's name.
std::pair<double, std::string> copy_bandwidth(MPI_Comm comm, std::size_t bytes_per_array, int repeats, Json& variants) {
  const std::size_t n = bytes_per_array / sizeof(double) / 2 * 2;
  Kokkos::View<double*, Exec> a("tensormg::ceilings::copy_a", n), b("tensormg::ceilings::copy_b", n);
  Kokkos::parallel_for(kernel_name({"ceilings", "copy_init"}), Kokkos::RangePolicy<Exec>(0, n),
                       KOKKOS_LAMBDA(std::size_t i) { a(i) = 1.0 + 1e-9 * double(i); });
  std::pair<double, std::string> best{0.0, ""};
  const auto record = [&](const std::string& name, double seconds) {
    const double rate = 2.0 * n * sizeof(double) / seconds;
    variants[name] = rate / 1e9;
    if (rate > best.first) best = {rate, name};
  };
  record("kernel_size_t", perf::median_seconds(comm, repeats, [&] {
           Kokkos::parallel_for(kernel_name({"ceilings", "copy", "size_t"}), Kokkos::RangePolicy<Exec>(0, n),
                                KOKKOS_LAMBDA(std::size_t i) { b(i) = a(i); });
         }));
  if (n / 2 < std::size_t(1) << 31) {
    const int half = static_cast<int>(n / 2);
    record("kernel_int_x2", perf::median_seconds(comm, repeats, [&] {
             Kokkos::parallel_for(kernel_name({"ceilings", "copy", "int_x2"}), Kokkos::RangePolicy<Exec>(0, half),
                                  KOKKOS_LAMBDA(int i) {
                                    b(i) = a(i);
                                    b(i + half) = a(i + half);
                                  });
           }));
  }
  record("deep_copy", perf::median_seconds(comm, repeats, [&] { Kokkos::deep_copy(Exec(), b, a); }));
  return best;
}

/// The solvers' reductions over two arrays of n doubles, in GB/s (bytes read + written): the dot
/// product of core/vector_sweeps.hpp (DistributedVector::dot's sweep), Kokkos Kernels' dot (what
/// DistributedVector::dot was before), and CG's residual update r −= α ap with ‖r‖²
/// (core/fused_cg.hpp; α = 0 keeps the data unchanged). Each includes its result's copy to the host.
void vector_sweeps(MPI_Comm comm, std::size_t n, int repeats, double copy_GBps, Json& out) {
  using View = Kokkos::View<double*, Exec>;
  View a("tensormg::ceilings::sweep_a", n), b("tensormg::ceilings::sweep_b", n);
  Kokkos::parallel_for(kernel_name({"ceilings", "sweep_init"}), Kokkos::RangePolicy<Exec>(0, n),
                       KOKKOS_LAMBDA(std::size_t i) {
                         a(i) = 1.0 + 1e-9 * double(i);
                         b(i) = 2.0 - 1e-9 * double(i);
                       });
  volatile double keep = 0;
  const double gb = double(n) * sizeof(double) / 1e9;
  out["entries"] = double(n);
  const double dot = 2 * gb / perf::median_seconds(comm, repeats, [&] {
    keep = keep + sweep_sum<double, Exec>("tensormg::ceilings::sweep_dot", n, DotSweep<View>{a, b});
  });
  out["dot"] = dot;
  out["dot_percent_of_copy"] = 100 * dot / copy_GBps;
  out["dot_kokkos_kernels"] =
      2 * gb / perf::median_seconds(comm, repeats, [&] { keep = keep + double(KokkosBlas::dot(a, b)); });
  const double residual = 3 * gb / perf::median_seconds(comm, repeats, [&] {
    keep = keep + sweep_sum<double, Exec>("tensormg::ceilings::sweep_residual", n,
                                          detail::CgResidualSweep<View>{0.0, a, b});
  });
  out["cg_residual_update"] = residual;
  out["cg_residual_update_percent_of_copy"] = 100 * residual / copy_GBps;
}

/// Each work item runs `lanes` independent FMA chains (the inner loop vectorizes on the CPU and
/// gives independent instructions to each GPU thread).
template <class Number>
double fma_rate(MPI_Comm comm, int repeats) {
  constexpr int lanes = on_gpu ? 16 : 64;  // the CPU needs more chains to cover add+mul latency
  const int iterations = on_gpu ? 4096 : 1 << 16;
  const std::size_t items = on_gpu ? std::size_t(1) << 20 : std::size_t(Exec().concurrency()) * 64;
  Kokkos::View<Number*, Exec> out("tensormg::ceilings::fma_out", items);
  const Number a = Number(0.999999), c = Number(1e-7);
  const double t = perf::median_seconds(comm, repeats, [&] {
    Kokkos::parallel_for(
        kernel_name({"ceilings", "fma", number_name<Number>()}), Kokkos::RangePolicy<Exec>(0, items),
        KOKKOS_LAMBDA(std::size_t i) {
          Number x[lanes];
          for (int l = 0; l < lanes; ++l) x[l] = Number(1e-3) * Number(l + (i & 7));
          for (int it = 0; it < iterations; ++it)
            for (int l = 0; l < lanes; ++l) x[l] = x[l] * a + c;
          Number s = 0;
          for (int l = 0; l < lanes; ++l) s += x[l];
          out(i) = s;
        });
  });
  return 2.0 * double(items) * iterations * lanes / t;
}

/// Shared-memory load bandwidth: every thread of a 256-thread team reads 15 doubles from team
/// scratch per iteration, consecutive threads at consecutive addresses (conflict-free).
double shared_bandwidth(MPI_Comm comm, int multiprocessors, int repeats) {
  constexpr int team_size = 256, buffer = 4096, loads = 15;
  const int iterations = 1 << 12;
  const int league = multiprocessors * 8;
  using Policy = Kokkos::TeamPolicy<Exec>;
  using Member = Policy::member_type;
  using Scratch = Kokkos::View<double*, Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<double*, Exec> out("tensormg::ceilings::shared_out", std::size_t(league) * team_size);
  const auto policy =
      Policy(league, team_size, 1).set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(buffer)));
  const double t = perf::median_seconds(comm, repeats, [&] {
    Kokkos::parallel_for(
        kernel_name({"ceilings", "shared_load"}), policy, KOKKOS_LAMBDA(const Member& team) {
          Scratch s(team.team_scratch(0), buffer);
          const int r = team.team_rank();
          for (int i = r; i < buffer; i += team_size) s(i) = 1e-6 * i;
          team.team_barrier();
          volatile double* p = s.data();
          double acc[3] = {0, 0, 0};
          for (int it = 0; it < iterations; ++it) {
            const int base = (it & 7) * 32 + r;
#pragma unroll
            for (int j = 0; j < loads; ++j) acc[j % 3] += p[base + j * team_size];
          }
          out(std::size_t(team.league_rank()) * team_size + r) = acc[0] + acc[1] + acc[2];
        });
  });
  return double(league) * team_size * iterations * loads * sizeof(double) / t;
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    CLI::App app{"tensormg-ceilings: measured hardware ceilings (copy, FMA, shared memory, mma)"};
    std::string output = "ceilings.json";
    double copy_mib = on_gpu ? 2048 : 512;
    int repeats = 7;
    bool overwrite = false;
    app.add_option("-o,--output", output, "JSON record to write");
    app.add_option("--copy-mib", copy_mib, "size of each array of the copy test in MiB, 1..65536");
    app.add_option("--repeats", repeats, "timed repetitions (the median is reported), 1..1000");
    app.add_flag("--overwrite", overwrite, "replace an existing output file");
    perf::add_warmup_option(app);
    if (auto code = parse_command_line(app, env)) return *code;
    collectively(env.comm(), [&] {
      perf::check_warmup_option();
      // Ranges are checked here, not with CLI::Range: a CLI11 validator changes the option's type
      // name, and parse_command_line then leaves out its decimal / finite-number check ("0x3", "nan").
      TENSORMG_CHECK(copy_mib >= 1 && copy_mib <= 65536, "--copy-mib must be in 1..65536, given " << copy_mib);
      TENSORMG_CHECK(repeats >= 1 && repeats <= 1000, "--repeats must be in 1..1000, given " << repeats);
    });
    // Before measuring: the record can be written, and the copy test's two arrays fit (per rank).
    check_output_writable({output}, overwrite, env.comm());
    MemoryNeed need;
    need.device_bytes = 2 * copy_mib * (1 << 20) + 64.0 * (1 << 20);
    check_memory(need, device_available_bytes(), device_memory_is_host(), env.comm(), "the copy test",
                 "use a smaller --copy-mib");

    Json record = Json::object();
    record["kind"] = "tensormg-ceilings";
    record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
    Json& dev = record["device"];
    dev["backend"] = backend_name();
    dev["name"] = device_name();
    dev["concurrency"] = Exec().concurrency();
    int multiprocessors = 0;
    if constexpr (cuda_mma::enabled) {
      const auto p = cuda_mma::device_properties();
      multiprocessors = p.multiprocessors;
      dev["compute_capability"] = std::to_string(p.compute_capability_major) + "." +
                                  std::to_string(p.compute_capability_minor);
      dev["multiprocessors"] = p.multiprocessors;
      dev["sm_clock_mhz"] = p.sm_clock_khz / 1000.0;
      dev["memory_clock_mhz"] = p.memory_clock_khz / 1000.0;
      dev["memory_bus_bits"] = p.memory_bus_bits;
      dev["global_memory_gib"] = double(p.global_memory_bytes) / (1 << 30);
      dev["l2_mib"] = p.l2_bytes / double(1 << 20);
      dev["shared_memory_per_sm_kib"] = p.shared_memory_per_sm_bytes / 1024.0;
    }

    Json& c = record["ceilings"];
    Json& method = record["method"];
    // With several ranks each measures its own device (or its share of the host) at the same time;
    // a repetition's time is the slowest rank's.
    method["timing"] = "median of " + std::to_string(repeats) + " fenced repetitions after a 0.3 s warm-up; " +
                       std::to_string(env.size()) + " MPI rank(s) measure together, each repetition timed by the slowest";
    method["copy"] = "b(i) = a(i) over two arrays of " + std::to_string(int(copy_mib)) +
                     " MiB, best of three variants (copy_variants_GBps); bytes = read + written";
    method["fma"] = std::string(on_gpu ? "16" : "64") + " independent x = x*a + c chains per work item; 2 flops per FMA";

    const auto [copy, copy_variant] = copy_bandwidth(env.comm(), std::size_t(copy_mib * (1 << 20)), repeats, record["copy_variants_GBps"]);
    c["dram_copy_GBps"] = copy / 1e9;
    method["copy_best_variant"] = copy_variant;
    // The vector reductions at the copy test's size and at 1/16 and 1/256 of it, within the same memory.
    method["vector_sweeps"] = "GB/s (bytes read + written, result copied to the host) of the dot product and CG's residual "
                              "update of core/vector_sweeps.hpp and of Kokkos Kernels' dot, over two arrays of doubles";
    Json& sweeps = record["vector_sweeps_GBps"];
    sweeps = Json::array();
    for (const std::size_t fraction : {std::size_t(1), std::size_t(16), std::size_t(256)}) {
      Json row = Json::object();
      vector_sweeps(env.comm(), std::size_t(copy_mib * (1 << 20)) / sizeof(double) / fraction, repeats, copy / 1e9, row);
      sweeps.push_back(row);
    }
    const double f64 = fma_rate<double>(env.comm(), repeats);
    c["fp64_fma_GFLOPs"] = f64 / 1e9;
    const double f32 = fma_rate<float>(env.comm(), repeats);
    c["fp32_fma_GFLOPs"] = f32 / 1e9;
    if constexpr (on_gpu) {
      method["shared"] = "256-thread teams, 15 conflict-free 8-byte scratch loads per thread and iteration";
      c["shared_load_GBps"] = shared_bandwidth(env.comm(), multiprocessors > 0 ? multiprocessors : 132, repeats) / 1e9;
    } else {
      c["shared_load_GBps"] = nullptr;
    }
    if constexpr (cuda_mma::enabled) {
      method["mma"] = "8 warps per block, 8 blocks per SM, 4 independent mma.sync accumulators per warp";
      for (const auto& r : cuda_mma::measure_mma_rates()) {
        const std::string key = "mma_" + r.shape + "_GFLOPs";
        if (r.available) c[key] = r.flops_per_second / 1e9;
        else c[key] = nullptr;
      }
    }

    // Rank 0 writes; a failure there is everyone's error (one message, exit code 2).
    const std::string text = record.dump(2) + "\n";
    collectively(env.comm(), [&] {
      if (env.rank() == 0) write_text_file_atomically(output, text);
    });
    if (env.rank() == 0) std::cout << text;
    return 0;
  });
}
