// tensormg-bench-contraction: the block contraction (core/block_contraction.hpp) on tensor cores
// against CUDA cores, and the XOR-swizzled layout against the plain one (paper 001 §4–5, Figs. 5
// and 7): per 3D block of N^3 values (the DG vertex patch of k = 3 at N = 8, of k = 7 at N = 16)
// the Kronecker sum of the patch Laplacian, v = (L_z ⊗ M_y ⊗ M_x + M_z ⊗ L_y ⊗ M_x + M_z ⊗ M_y ⊗
// L_x) u, as seven 1D contractions through three scratch buffers (the DG patch kernel's order),
// blocks read from and written to global memory (E-vectors). Double: portable (CUDA cores) and
// mma-f64 (m8n8k4 at N = 8, sm_90's m16n8k16 at N = 16); float: portable (FP32 CUDA cores), f16 and
// f16ec (FP16 tensor cores without / with error correction; emulated in builds without CUDA).
// Prints GDoF/s, GFLOP/s, % of the measured FMA and mma ceilings; every variant's result is
// compared with the first one of its precision (exit code 3 above 1e-12 relative in double, 1e-5
// for float and f16ec, 1e-2 for f16).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "backends/block_contraction.hpp"
#include "backends/device.hpp"
#include "backends/device_traits.hpp"
#include "core/enum_names.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/json.hpp"
#include "core/memory.hpp"
#include "core/output_file.hpp"
#include "core/profiling.hpp"
#include "core/provenance.hpp"
#include "drivers/command_line.hpp"
#include "multigrid/memory_estimate.hpp"
#include "perf/benchmark_support.hpp"

namespace {

using namespace tensormg;
using Exec = DefaultExec;
constexpr int dim = 3;
template <int N>
constexpr int block_values = N * N * N;
/// Flops of one block: seven contractions of 2 N flops per value.
constexpr double flops_per_block(int N) { return 7.0 * 2 * N * N * N * N; }

enum class Contraction { portable, mma_f64, f16, f16ec };
enum class Layout { plain, swizzled };
constexpr EnumName<Contraction> contraction_names[] = {{Contraction::portable, "portable"},
                                                       {Contraction::mma_f64, "mma-f64"},
                                                       {Contraction::f16, "f16"},
                                                       {Contraction::f16ec, "f16ec"}};
constexpr EnumName<Layout> layout_names[] = {{Layout::plain, "plain"}, {Layout::swizzled, "swizzled"}};

/// Whether contraction c runs in the given precision ("double" or "float").
bool runs_in(Contraction c, const std::string& precision) {
  if (c == Contraction::portable) return true;
  return (c == Contraction::mma_f64) == (precision == "double");
}

/// The 1D matrices: M_d (mass-like, diagonally dominant) and L_d (stiffness-like), d = 0..2, one
/// N × N row-major matrix each, deterministic.
template <int N, class Number>
Kokkos::View<Number*, Exec::memory_space> make_matrices() {
  Kokkos::View<Number*, Exec::memory_space> m("tensormg::bench_contraction::matrices", 6 * N * N);
  auto h = Kokkos::create_mirror_view(m);
  for (int d = 0; d < dim; ++d)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        h((2 * d) * N * N + i * N + j) = (i == j ? 2.0 : 0.0) + 0.1 * std::cos(1.0 + i + 2 * j + d);
        h((2 * d + 1) * N * N + i * N + j) = (i == j ? 4.0 : -1.0 / (1 + std::abs(i - j))) + 0.01 * d;
      }
  Kokkos::deep_copy(m, h);
  return m;
}

/// The tensor-core traits of block size N: FP64, FP16 with and without the correction.
template <int N>
using Backend = block::BlockContraction<Exec, double, dim, N>;
template <int N>
using HalfBackend = block::BlockContraction<Exec, float, dim, N, block::Products::f16_corrected>;
template <int N>
using PlainHalf = block::BlockContraction<Exec, float, dim, N, block::Products::f16>;

/// Threads per team and the launch bound of contraction C: the tensor-core blocks of 16 as the DG
/// patch kernel runs them (FP64 two teams of 384 threads an SM, FP16 four of 256:
/// dg_vertex_patch_kernels.hpp, h200-2026-11-29-fp16-n16/call2), the others C's own threads.
template <class C, class Number>
struct TeamShape {
  static constexpr bool wide = C::tensor_cores && C::stored_n == 16;
  static constexpr int threads = !wide ? C::threads_per_block : sizeof(Number) == 8 ? 384 : 256;
  using Bounds = std::conditional_t<wide, Kokkos::LaunchBounds<threads, (sizeof(Number) == 8 ? 2 : 4)>, Kokkos::LaunchBounds<>>;
};

/// One team per block; `buffers` scratch buffers:
///   four:  a = M_x u, b = L_x u;  u ← M_y a, e = L_y a + M_y b;  a ← L_z u + M_z e;  v = a;
///   three (the DG patch kernel's order, a barrier more):  a = M_x u, b = L_x u;  u ← L_y a + M_y b,
///          b ← M_y a;  a ← L_z b + M_z u;  v = a.
template <int N, int buffers, int level, class C, class L, class Number>
struct PatchLaplacianKernel {
  static_assert(buffers == 3 || buffers == 4, "three or four buffers");
  using Policy = Kokkos::TeamPolicy<Exec, typename TeamShape<C, Number>::Bounds>;
  static constexpr int values = block_values<N>;
  /// Each buffer aligned to 16 bytes (the tensor cores' stores).
  static constexpr int stride = (values + 3) / 4 * 4;
  Kokkos::View<const Number*, Exec::memory_space> matrices, x;
  Kokkos::View<Number*, Exec::memory_space> y;

  static std::size_t scratch_bytes() { return buffers * stride * sizeof(Number) + 16; }

  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    using block::Term;
    using block::Write;
    const std::size_t first = std::size_t(team.league_rank()) * values;
    Number* const u =
        static_cast<Number*>(team.team_scratch(level).get_shmem_aligned(buffers * stride * sizeof(Number), 16));
    Number* const a = u + stride;
    Number* const b = a + stride;
    for (int i = team.team_rank(); i < values; i += team.team_size())
      u[L::at(i % N, (i / N) % N, i / (N * N))] = x(first + i);
    team.team_barrier();
    const Number* const M[3] = {matrices.data(), matrices.data() + 2 * N * N, matrices.data() + 4 * N * N};
    const Number* const S[3] = {M[0] + N * N, M[1] + N * N, M[2] + N * N};
    const Number one = 1;
    {
      const Term<Number> mx[1] = {{M[0], u}}, lx[1] = {{S[0], u}};
      C::template apply<L>(team, 0, mx, one, Write::assign, a);
      C::template apply<L>(team, 0, lx, one, Write::assign, b);
    }
    team.team_barrier();
    if constexpr (buffers == 4) {
      Number* const e = b + stride;
      {
        const Term<Number> my[1] = {{M[1], a}}, sum[2] = {{S[1], a}, {M[1], b}};
        C::template apply<L>(team, 1, my, one, Write::assign, u);
        C::template apply<L>(team, 1, sum, one, Write::assign, e);
      }
      team.team_barrier();
      const Term<Number> sum[2] = {{S[2], u}, {M[2], e}};
      C::template apply<L>(team, 2, sum, one, Write::assign, a);
    } else {
      {
        const Term<Number> sum[2] = {{S[1], a}, {M[1], b}}, my[1] = {{M[1], a}};
        C::template apply<L>(team, 1, sum, one, Write::assign, u);
        team.team_barrier();
        C::template apply<L>(team, 1, my, one, Write::assign, b);
      }
      team.team_barrier();
      const Term<Number> sum[2] = {{S[2], b}, {M[2], u}};
      C::template apply<L>(team, 2, sum, one, Write::assign, a);
    }
    team.team_barrier();
    for (int i = team.team_rank(); i < values; i += team.team_size())
      y(first + i) = a[L::at(i % N, (i / N) % N, i / (N * N))];
  }
};

struct Result {
  double seconds = 0, gdofs = 0, gflops = 0;
  int team_size = 0, scratch_level = 0, buffers = 0;
};

template <class Number>
using DeviceView = Kokkos::View<Number*, Exec::memory_space>;

template <int N, int buffers, class C, class L, class Number>
Result run_buffers(MPI_Comm comm, int repeats, local_index blocks, const DeviceView<Number>& matrices,
                   const DeviceView<Number>& x, const DeviceView<Number>& y) {
  using Shared = PatchLaplacianKernel<N, buffers, 0, C, L, Number>;
  Result r;
  r.buffers = buffers;
  r.team_size = runs_on_host<Exec>() ? 1 : TeamShape<C, Number>::threads;
  // Shared memory where the buffers fit what a team can get (the opt-in shared memory for blocks
  // of 16 in FP64: 96 KB with three buffers), global memory otherwise; also where the launch
  // bound's teams per SM would not fit their shared memory (Kokkos refuses such a team).
  const std::size_t bytes = Shared::scratch_bytes();
  int level = bytes <= DeviceTraits<Exec>::large_scratch_bytes(r.team_size) ? 0 : 1;
  if constexpr (!runs_on_host<Exec>()) {
    if (level == 0 && bytes > DeviceTraits<Exec>::fast_scratch_bytes(r.team_size)) {
      typename Shared::Policy probe(1, 1);
      probe.set_scratch_size(0, Kokkos::PerTeam(bytes));
      if (probe.team_size_max(Shared{matrices, x, y}, Kokkos::ParallelForTag()) < r.team_size) level = 1;
    }
  }
  r.scratch_level = level;
  // The level is a template argument, as in c88b52e's kernel (literal 0): with a run-time level the
  // scratch accesses may become generic loads and stores. The run-time level's binary ran the N = 8
  // tensor-core variants with four buffers 1.2-1.4x slower than c88b52e's (H100, calls g3 and g4
  // of h100-2026-12-05-contraction-n16, two calls); this form is not measured yet.
  const auto time = [&](auto kernel) {
    using Kernel = decltype(kernel);
    const auto policy = typename Kernel::Policy(blocks, r.team_size).set_scratch_size(level, Kokkos::PerTeam(bytes));
    return perf::median_seconds(comm, repeats, [&] {
      Kokkos::parallel_for(kernel_name({"bench", "contraction", C::name, L::name}), policy, kernel);
    });
  };
  r.seconds = level == 0 ? time(Shared{matrices, x, y}) : time(PatchLaplacianKernel<N, buffers, 1, C, L, Number>{matrices, x, y});
  r.gdofs = double(blocks) * block_values<N> / r.seconds / 1e9;
  r.gflops = double(blocks) * flops_per_block(N) / r.seconds / 1e9;
  return r;
}

/// Buffers 0: the automatic count, four at N = 8 (c88b52e's kernel, whose table perf/README.md
/// shows; three measured 0.81-1.21x of four in one binary) and three at N = 16 (four FP64 buffers,
/// 128 KB, fall to global memory: 0.55-0.69x; h100-2026-12-05-contraction-n16/g4).
template <int N, class C, class L, class Number>
Result run(int buffers, MPI_Comm comm, int repeats, local_index blocks, const DeviceView<Number>& matrices,
           const DeviceView<Number>& x, const DeviceView<Number>& y) {
  if (buffers == 0) buffers = N == 8 ? 4 : 3;
  if (buffers == 4) return run_buffers<N, 4, C, L, Number>(comm, repeats, blocks, matrices, x, y);
  return run_buffers<N, 3, C, L, Number>(comm, repeats, blocks, matrices, x, y);
}

/// x(i): deterministic values in [-0.5, 0.5).
template <class Number>
void fill(const DeviceView<Number>& x) {
  Kokkos::parallel_for(
      kernel_name({"bench", "contraction", "fill"}), Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, x.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = Number(double((i * 7919) % 1000) / 1000 - 0.5); });
}

/// The contraction C in `Number` and the layout: the plain one, or the swizzled one of the
/// precision's tensor-core trait (CUDA builds; any C runs in it).
template <int N, class C, class Number>
Result run_layout(Layout layout, int buffers, MPI_Comm comm, int repeats, local_index blocks, const DeviceView<Number>& matrices,
                  const DeviceView<Number>& x, const DeviceView<Number>& y) {
  using TensorCores = std::conditional_t<std::is_same_v<Number, double>, Backend<N>, HalfBackend<N>>;
  if (layout == Layout::plain)
    return run<N, C, block::PlainLayout<N>, Number>(buffers, comm, repeats, blocks, matrices, x, y);
  if constexpr (TensorCores::tensor_cores)
    return run<N, C, typename TensorCores::Layout, Number>(buffers, comm, repeats, blocks, matrices, x, y);
  throw InputError("the swizzled layout is the tensor-core kernels' layout (CUDA builds)", true);
}

template <int N, class Number>
Result run_contraction(Contraction c, Layout layout, int buffers, MPI_Comm comm, int repeats, local_index blocks,
                       const DeviceView<Number>& matrices, const DeviceView<Number>& x, const DeviceView<Number>& y) {
  using Portable = block::PortableBlockContraction<dim, N, Number>;
  if (c == Contraction::portable) return run_layout<N, Portable, Number>(layout, buffers, comm, repeats, blocks, matrices, x, y);
  if constexpr (std::is_same_v<Number, double>) {
    return run_layout<N, Backend<N>, double>(layout, buffers, comm, repeats, blocks, matrices, x, y);
  } else {
    if (c == Contraction::f16) return run_layout<N, PlainHalf<N>, float>(layout, buffers, comm, repeats, blocks, matrices, x, y);
    return run_layout<N, HalfBackend<N>, float>(layout, buffers, comm, repeats, blocks, matrices, x, y);
  }
}

template <int N>
const char* kernel_of(Contraction c) {
  if (c == Contraction::portable) return "portable";
  if (c == Contraction::mma_f64) return Backend<N>::name;
  return c == Contraction::f16 ? PlainHalf<N>::name : HalfBackend<N>::name;
}

/// Agreement with the first variant of the same precision.
double tolerance_of(Contraction c, const std::string& precision) {
  if (precision == "double") return 1e-12;
  return c == Contraction::f16 ? 1e-2 : 1e-5;
}

/// One precision's variants at one block size and DoF count: runs, compares with the first, records.
template <int N, class Number>
void sweep(const std::string& precision, local_index blocks, const std::vector<Contraction>& cs,
           const std::vector<Layout>& ls, const std::vector<int>& bs, MPI_Comm comm, int rank, int repeats,
           const perf::Ceilings& ceil, Json& results, bool& agree) {
  const auto matrices = make_matrices<N, Number>();
  const std::size_t values = std::size_t(blocks) * block_values<N>;
  DeviceView<Number> x("tensormg::bench_contraction::x", values), y("tensormg::bench_contraction::y", values);
  fill(x);
  Kokkos::View<Number*, Kokkos::HostSpace> first;
  for (auto c : cs)
    for (auto l : ls)
      for (int buffers : bs) {
        if (!runs_in(c, precision)) continue;
        Kokkos::deep_copy(y, Number(0));
        const Result r = run_contraction<N, Number>(c, l, buffers, comm, repeats, blocks, matrices, x, y);
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
        double diff = 0, norm = 0;
        if (first.extent(0) == 0) {
          first = Kokkos::View<Number*, Kokkos::HostSpace>("tensormg::bench_contraction::first", values);
          Kokkos::deep_copy(first, h);  // h may be y itself (host builds)
        } else {
          for (std::size_t i = 0; i < values; ++i) {
            diff = std::max(diff, std::abs(double(h(i)) - double(first(i))));
            norm = std::max(norm, std::abs(double(first(i))));
          }
          diff /= norm;
        }
        agree = agree && diff <= tolerance_of(c, precision);
        const bool tc = c != Contraction::portable && TENSORMG_CUDA_MMA_ENABLED;
        const double fma = precision == "double" ? ceil.fp64_GFLOPs : ceil.fp32_GFLOPs;
        // The ceiling of the shape the kernel issues: FP64 m8n8k4 at N = 8, m16n8k16 at N = 16.
        const double mma = !tc                          ? 0
                           : c != Contraction::mma_f64 ? ceil.mma_f16_GFLOPs
                           : N == 16                   ? ceil.mma_f64_m16n8k16_GFLOPs
                                                       : ceil.mma_f64_m8n8k4_GFLOPs;
        const char* mma_key = c != Contraction::mma_f64 ? "pct_mma_f16_ceiling"
                              : N == 16                 ? "pct_mma_f64_m16n8k16_ceiling"
                                                        : "pct_mma_f64_m8n8k4_ceiling";
        Json j;
        j["precision"] = precision;
        j["block_size"] = N;
        j["contraction"] = enum_name(contraction_names, c);
        j["kernel"] = kernel_of<N>(c);
        j["layout"] = enum_name(layout_names, l);
        j["dofs"] = double(values);
        j["team_size"] = r.team_size;
        j["scratch_level"] = r.scratch_level;
        j["buffers"] = r.buffers;
        j["seconds"] = r.seconds;
        j["GDoFps"] = r.gdofs;
        j["GFLOPs"] = r.gflops;
        j["relative_difference_to_first"] = diff;
        double pct_fma = 0, pct_mma = 0;
        if (fma > 0) j[precision == "double" ? "pct_fp64_fma_ceiling" : "pct_fp32_fma_ceiling"] = pct_fma = 100 * r.gflops / fma;
        if (mma > 0) j[mma_key] = pct_mma = 100 * r.gflops / mma;
        if (rank == 0) {
          std::printf("%3d %-6s %-9s %-9s %3d %11zu %5d %9.3f %9.1f %7.2f %7.2f %10.2e\n", N, precision.c_str(),
                      enum_name(contraction_names, c).c_str(), enum_name(layout_names, l).c_str(), r.buffers, values,
                      r.team_size, r.gdofs, r.gflops, pct_fma, pct_mma, diff);
          std::fflush(stdout);
        }
        results.push_back(std::move(j));
      }
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    CLI::App app{"tensormg-bench-contraction: block contraction on tensor cores vs CUDA cores (3D, N = 8 and 16, FP64 and FP32/FP16)"};
    std::vector<double> dofs{1e7};
    std::vector<int> sizes{8}, buffers{0};
    std::vector<std::string> contractions{"portable"}, layouts{"plain"}, precisions{"double"};
    if constexpr (Backend<8>::tensor_cores) {
      contractions.push_back("mma-f64");
      layouts.push_back("swizzled");
    }
    int repeats = 10;
    std::string ceilings_path, output;
    bool overwrite = false;
    app.add_option("--dofs", dofs, "target DoF counts (blocks of N^3 values)")->delimiter(',');
    app.add_option("--block-sizes", sizes, "block sizes N: 8 (the DG patch of k = 3) and/or 16 (k = 7)")->delimiter(',');
    app.add_option("--buffers", buffers,
                   "scratch buffers per block: 0 (automatic: 4 at N = 8, 3 at N = 16), 3 (the DG patch kernel's "
                   "order) and/or 4")
        ->delimiter(',');
    app.add_option("--precisions", precisions, "double and/or float")->delimiter(',');
    app.add_option("--contractions", contractions,
                   "portable (CUDA cores, either precision), mma-f64 (double, tensor cores: CUDA builds), f16 and/or "
                   "f16ec (float: FP16 products without / with error correction; tensor cores in CUDA builds, "
                   "emulated elsewhere)")
        ->delimiter(',');
    app.add_option("--layouts", layouts, "scratch layouts: plain and/or swizzled (XOR, tensor-core kernels: CUDA builds)")
        ->delimiter(',');
    app.add_option("--repeats", repeats, "timed repetitions (median reported), 1..10000");
    app.add_option("--ceilings", ceilings_path, "tensormg-ceilings record for % of ceiling");
    app.add_option("-o,--output", output, "JSON results file");
    app.add_flag("--overwrite", overwrite, "replace an existing results file");
    perf::add_warmup_option(app);
    if (auto code = parse_command_line(app, env)) return *code;
    perf::Ceilings ceil;
    std::vector<Contraction> cs;
    std::vector<Layout> ls;
    collectively(env.comm(), [&] {
      perf::check_warmup_option();
      TENSORMG_CHECK(!dofs.empty() && !sizes.empty() && !contractions.empty() && !layouts.empty() && !precisions.empty(),
                     "--dofs, --block-sizes, --precisions, --contractions and --layouts need at least one value");
      for (int N : sizes) TENSORMG_CHECK(N == 8 || N == 16, "block size " << N << ": use 8 or 16");
      TENSORMG_CHECK(!buffers.empty(), "--buffers needs at least one value");
      for (int b : buffers) TENSORMG_CHECK(b == 0 || b == 3 || b == 4, "buffers " << b << ": use 0 (automatic), 3 or 4");
      for (double n : dofs) perf::check_dofs("--dofs", n);
      for (const auto& p : precisions)
        TENSORMG_CHECK(p == "double" || p == "float", "precision '" << p << "': use double or float");
      for (const auto& c : contractions) cs.push_back(parse_enum(contraction_names, c, "contraction"));
      for (const auto& l : layouts) ls.push_back(parse_enum(layout_names, l, "layout"));
      for (auto c : cs) {
        TENSORMG_CHECK(c != Contraction::mma_f64 || Backend<8>::tensor_cores,
                       "contraction 'mma-f64' needs tensor cores: this build has no CUDA backend");
        TENSORMG_CHECK(std::any_of(precisions.begin(), precisions.end(), [&](const std::string& p) { return runs_in(c, p); }),
                       "contraction '" << enum_name(contraction_names, c) << "' runs in "
                                       << (c == Contraction::mma_f64 ? "double" : "float")
                                       << ": add it to --precisions");
      }
      for (auto l : ls)
        TENSORMG_CHECK(l != Layout::swizzled || Backend<8>::tensor_cores,
                       "layout 'swizzled' is the tensor-core kernels' layout: this build has no CUDA backend");
      TENSORMG_CHECK(repeats >= 1 && repeats <= 10000, "--repeats must be in 1..10000, given " << repeats);
      ceil = perf::load_ceilings(ceilings_path);
    });
    if (app.count("--output") > 0) check_output_writable({output}, overwrite, env.comm());
    // Every rank runs the whole sweep on its own device (no communication but the timing's).
    const auto blocks_of = [](double n, int N) { return std::max(1.0, std::round(n / (double(N) * N * N))); };
    for (int N : sizes)
      for (double n : dofs) {
        const double values = blocks_of(n, N) * N * N * N;
        TENSORMG_CHECK_COLLECTIVE(env.comm(), values <= double(std::numeric_limits<local_index>::max()),
                                  "--dofs " << n << " is more than one rank addresses with 32-bit indices");
        MemoryNeed need;
        need.device_bytes = 2 * values * sizeof(double) + 64.0 * (1 << 20);
        need.host_bytes = 2 * values * sizeof(double);  // the first result and a mirror
        check_memory(need, device_available_bytes(), device_memory_is_host(), env.comm(),
                     "the benchmark case of " + std::to_string(values) + " DoFs", "use smaller --dofs");
      }

    Json results = Json::array();
    bool agree = true;
    if (env.rank() == 0)
      std::printf("%3s %-6s %-9s %-9s %3s %11s %5s %9s %9s %7s %7s %10s\n", "N", "prec", "variant", "layout", "buf", "DoFs", "team", "GDoF/s",
                  "GFLOP/s", "%FMA", "%mma", "rel.diff");
    for (int N : sizes)
      for (double n : dofs) {
        const local_index blocks = local_index(blocks_of(n, N));
        for (const auto& p : precisions) {
          const bool dp = p == "double";
          if (N == 8 && dp) sweep<8, double>(p, blocks, cs, ls, buffers, env.comm(), env.rank(), repeats, ceil, results, agree);
          if (N == 8 && !dp) sweep<8, float>(p, blocks, cs, ls, buffers, env.comm(), env.rank(), repeats, ceil, results, agree);
          if (N == 16 && dp) sweep<16, double>(p, blocks, cs, ls, buffers, env.comm(), env.rank(), repeats, ceil, results, agree);
          if (N == 16 && !dp) sweep<16, float>(p, blocks, cs, ls, buffers, env.comm(), env.rank(), repeats, ceil, results, agree);
        }
      }
    if (!output.empty())
      collectively(env.comm(), [&] {
        if (env.rank() != 0) return;
        Json record = Json::object();
        record["kind"] = "tensormg-bench-contraction";
        record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
        record["ceilings_record"] = ceilings_path;
        record["flop_model"] =
            "3D patch Laplacian of block size N: seven 1D contractions of 2 N flops per value (112 per DoF at N = 8, "
            "224 at N = 16); the FP16 kernels' extra tensor-core work (zero rows, the correction) not counted";
        record["results"] = results;
        write_text_file_atomically(output, record.dump(2) + "\n");
      });
    if (!agree) {
      if (env.rank() == 0)
        std::fprintf(stderr, "error: a variant's result differs from the first of its precision by more than its "
                             "tolerance (1e-12 double, 1e-5 float and f16ec, 1e-2 f16; relative)\n");
      return 3;
    }
    return 0;
  });
}
