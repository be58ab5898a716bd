// tensormg-bench-contraction: the block contraction (core/block_contraction.hpp) on tensor cores
// against CUDA cores, and the XOR-swizzled layout against the plain one (paper 001 §4, Fig. 5):
// per 3D block of 8^3 values (the DG vertex patch of k = 3) the Kronecker sum of the patch
// Laplacian, v = (L_z ⊗ M_y ⊗ M_x + M_z ⊗ L_y ⊗ M_x + M_z ⊗ M_y ⊗ L_x) u, as seven 1D
// contractions through scratch, blocks read from and written to global memory (E-vectors).
// Prints GDoF/s, GFLOP/s, % of the measured FP64 FMA and mma ceilings; every variant's result is
// compared with the first one's (exit code 3 above 1e-12 relative).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "backends/block_contraction.hpp"
#include "backends/device.hpp"
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
constexpr int dim = 3, N = 8, block_values = N * N * N;
/// Flops of one block: seven contractions of 2 N flops per value.
constexpr double flops_per_block = 7.0 * 2 * N * block_values;

enum class Contraction { portable, backend };
enum class Layout { plain, swizzled };
constexpr EnumName<Contraction> contraction_names[] = {{Contraction::portable, "portable"},
                                                       {Contraction::backend, "mma-f64"}};
constexpr EnumName<Layout> layout_names[] = {{Layout::plain, "plain"}, {Layout::swizzled, "swizzled"}};

/// The 1D matrices: M_d (mass-like, diagonally dominant) and L_d (stiffness-like), d = 0..2, one
/// 8 × 8 row-major matrix each, deterministic.
Kokkos::View<double*, Exec::memory_space> make_matrices() {
  Kokkos::View<double*, Exec::memory_space> m("tensormg::bench_contraction::matrices", 6 * N * N);
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

/// One team per block; buffers u, a, b, e in scratch:
///   a = M_x u, b = L_x u;  u ← M_y a, e = L_y a + M_y b;  a ← L_z u + M_z e;  v = a.
template <class C, class L>
struct PatchLaplacianKernel {
  using Policy = Kokkos::TeamPolicy<Exec>;
  Kokkos::View<const double*, Exec::memory_space> matrices, x;
  Kokkos::View<double*, Exec::memory_space> y;

  static std::size_t scratch_bytes() { return 4 * block_values * sizeof(double) + 16; }

  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    using block::Term;
    using block::Write;
    const std::size_t first = std::size_t(team.league_rank()) * block_values;
    double* const u = static_cast<double*>(team.team_scratch(0).get_shmem_aligned(4 * block_values * sizeof(double), 16));
    double* const a = u + block_values;
    double* const b = a + block_values;
    double* const e = b + block_values;
    for (int i = team.team_rank(); i < block_values; i += team.team_size())
      u[L::at(i % N, (i / N) % N, i / (N * N))] = x(first + i);
    team.team_barrier();
    const double* const M[3] = {matrices.data(), matrices.data() + 2 * N * N, matrices.data() + 4 * N * N};
    const double* const S[3] = {M[0] + N * N, M[1] + N * N, M[2] + N * N};
    {
      const Term<double> mx[1] = {{M[0], u}}, lx[1] = {{S[0], u}};
      C::template apply<L>(team, 0, mx, 1.0, Write::assign, a);
      C::template apply<L>(team, 0, lx, 1.0, Write::assign, b);
    }
    team.team_barrier();
    {
      const Term<double> my[1] = {{M[1], a}}, sum[2] = {{S[1], a}, {M[1], b}};
      C::template apply<L>(team, 1, my, 1.0, Write::assign, u);
      C::template apply<L>(team, 1, sum, 1.0, Write::assign, e);
    }
    team.team_barrier();
    {
      const Term<double> sum[2] = {{S[2], u}, {M[2], e}};
      C::template apply<L>(team, 2, sum, 1.0, Write::assign, a);
    }
    team.team_barrier();
    for (int i = team.team_rank(); i < block_values; i += team.team_size())
      y(first + i) = a[L::at(i % N, (i / N) % N, i / (N * N))];
  }
};

struct Result {
  double seconds = 0, gdofs = 0, gflops = 0;
  int team_size = 0;
};

template <class C, class L>
Result run(MPI_Comm comm, int repeats, local_index blocks, const Kokkos::View<double*, Exec::memory_space>& matrices,
           const Kokkos::View<double*, Exec::memory_space>& x, const Kokkos::View<double*, Exec::memory_space>& y) {
  using Kernel = PatchLaplacianKernel<C, L>;
  const Kernel kernel{matrices, x, y};
  Result r;
  r.team_size = runs_on_host<Exec>() ? 1 : C::threads_per_block;
  const auto policy = typename Kernel::Policy(blocks, r.team_size).set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes()));
  r.seconds = perf::median_seconds(comm, repeats, [&] {
    Kokkos::parallel_for(kernel_name({"bench", "contraction", C::name, L::name}), policy, kernel);
  });
  r.gdofs = double(blocks) * block_values / r.seconds / 1e9;
  r.gflops = double(blocks) * flops_per_block / r.seconds / 1e9;
  return r;
}

/// x(i): deterministic values in [-0.5, 0.5).
void fill(const Kokkos::View<double*, Exec::memory_space>& x) {
  Kokkos::parallel_for(
      kernel_name({"bench", "contraction", "fill"}), Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, x.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = double((i * 7919) % 1000) / 1000 - 0.5; });
}

using Portable = block::PortableBlockContraction<dim, N, double>;
using Backend = block::BlockContraction<Exec, double, dim, N>;

template <class C>
Result run_layout(Layout layout, MPI_Comm comm, int repeats, local_index blocks,
                  const Kokkos::View<double*, Exec::memory_space>& matrices, const Kokkos::View<double*, Exec::memory_space>& x,
                  const Kokkos::View<double*, Exec::memory_space>& y) {
  if (layout == Layout::plain) return run<C, block::PlainLayout<N>>(comm, repeats, blocks, matrices, x, y);
#if TENSORMG_CUDA_MMA_ENABLED
  return run<C, cuda_mma::XorSwizzle8>(comm, repeats, blocks, matrices, x, y);
#else
  throw InputError("the swizzled layout needs the CUDA backend", true);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  return tensormg::run_program(argc, argv, [](tensormg::Environment& env) {
    CLI::App app{"tensormg-bench-contraction: block contraction on tensor cores vs CUDA cores (3D, N = 8, FP64)"};
    std::vector<double> dofs{1e7};
    std::vector<std::string> contractions{"portable"}, layouts{"plain"};
    if constexpr (Backend::tensor_cores) {
      contractions.push_back("mma-f64");
      layouts.push_back("swizzled");
    }
    int repeats = 10;
    std::string ceilings_path, output;
    bool overwrite = false;
    app.add_option("--dofs", dofs, "target DoF counts (blocks of 512 values)")->delimiter(',');
    app.add_option("--contractions", contractions, "portable (CUDA cores) and/or mma-f64 (tensor cores, CUDA builds)")
        ->delimiter(',');
    app.add_option("--layouts", layouts, "scratch layouts: plain and/or swizzled (XOR, CUDA builds)")->delimiter(',');
    app.add_option("--repeats", repeats, "timed repetitions (median reported), 1..10000");
    app.add_option("--ceilings", ceilings_path, "tensormg-ceilings record for % of ceiling");
    app.add_option("-o,--output", output, "JSON results file");
    app.add_flag("--overwrite", overwrite, "replace an existing results file");
    if (auto code = parse_command_line(app, env)) return *code;
    perf::Ceilings ceil;
    std::vector<Contraction> cs;
    std::vector<Layout> ls;
    collectively(env.comm(), [&] {
      TENSORMG_CHECK(!dofs.empty() && !contractions.empty() && !layouts.empty(),
                     "--dofs, --contractions and --layouts need at least one value");
      for (double n : dofs) perf::check_dofs("--dofs", n);
      for (const auto& c : contractions) cs.push_back(parse_enum(contraction_names, c, "contraction"));
      for (const auto& l : layouts) ls.push_back(parse_enum(layout_names, l, "layout"));
      for (auto c : cs)
        TENSORMG_CHECK(c != Contraction::backend || Backend::tensor_cores,
                       "contraction 'mma-f64' needs tensor cores: this build has no CUDA backend");
      for (auto l : ls)
        TENSORMG_CHECK(l != Layout::swizzled || Backend::tensor_cores,
                       "layout 'swizzled' is the tensor-core kernels' layout: this build has no CUDA backend");
      TENSORMG_CHECK(repeats >= 1 && repeats <= 10000, "--repeats must be in 1..10000, given " << repeats);
      ceil = perf::load_ceilings(ceilings_path);
    });
    if (app.count("--output") > 0) check_output_writable({output}, overwrite, env.comm());
    // Every rank runs the whole sweep on its own device (no communication but the timing's).
    for (double n : dofs) {
      const double blocks = std::max(1.0, std::round(n / block_values));
      TENSORMG_CHECK_COLLECTIVE(env.comm(), blocks * block_values <= double(std::numeric_limits<local_index>::max()),
                                "--dofs " << n << " is more than one rank addresses with 32-bit indices");
      MemoryNeed need;
      need.device_bytes = 2 * blocks * block_values * sizeof(double) + 64.0 * (1 << 20);
      need.host_bytes = 2 * blocks * block_values * sizeof(double);  // the first result and a mirror
      check_memory(need, device_available_bytes(), device_memory_is_host(), env.comm(),
                   "the benchmark case of " + std::to_string(blocks * block_values) + " DoFs", "use smaller --dofs");
    }

    const auto matrices = make_matrices();
    Json results = Json::array();
    bool agree = true;
    if (env.rank() == 0)
      std::printf("%-9s %-9s %11s %5s %9s %9s %7s %7s %10s\n", "variant", "layout", "DoFs", "team", "GDoF/s", "GFLOP/s",
                  "%FMA", "%mma", "rel.diff");
    for (double n : dofs) {
      const local_index blocks = local_index(std::max(1.0, std::round(n / block_values)));
      const std::size_t values = std::size_t(blocks) * block_values;
      Kokkos::View<double*, Exec::memory_space> x("tensormg::bench_contraction::x", values), y("tensormg::bench_contraction::y", values);
      fill(x);
      Kokkos::View<double*, Kokkos::HostSpace> first;
      for (auto c : cs)
        for (auto l : ls) {
          Kokkos::deep_copy(y, 0.0);
          const Result r = c == Contraction::portable ? run_layout<Portable>(l, env.comm(), repeats, blocks, matrices, x, y)
                                                      : run_layout<Backend>(l, env.comm(), repeats, blocks, matrices, x, y);
          auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
          double diff = 0, norm = 0;
          if (first.extent(0) == 0) {
            first = Kokkos::View<double*, Kokkos::HostSpace>("tensormg::bench_contraction::first", values);
            Kokkos::deep_copy(first, h);  // h may be y itself (host builds)
          } else {
            for (std::size_t i = 0; i < values; ++i) {
              diff = std::max(diff, std::abs(h(i) - first(i)));
              norm = std::max(norm, std::abs(first(i)));
            }
            diff /= norm;
          }
          agree = agree && diff <= 1e-12;
          Json j;
          j["contraction"] = enum_name(contraction_names, c);
          j["kernel"] = c == Contraction::portable ? Portable::name : Backend::name;
          j["layout"] = enum_name(layout_names, l);
          j["dofs"] = double(values);
          j["team_size"] = r.team_size;
          j["seconds"] = r.seconds;
          j["GDoFps"] = r.gdofs;
          j["GFLOPs"] = r.gflops;
          j["relative_difference_to_first"] = diff;
          double pct_fma = 0, pct_mma = 0;
          if (ceil.fp64_GFLOPs > 0) j["pct_fp64_fma_ceiling"] = pct_fma = 100 * r.gflops / ceil.fp64_GFLOPs;
          if (ceil.mma_f64_m8n8k4_GFLOPs > 0) j["pct_mma_f64_m8n8k4_ceiling"] = pct_mma = 100 * r.gflops / ceil.mma_f64_m8n8k4_GFLOPs;
          if (env.rank() == 0) {
            std::printf("%-9s %-9s %11zu %5d %9.3f %9.1f %7.2f %7.2f %10.2e\n", enum_name(contraction_names, c).c_str(),
                        enum_name(layout_names, l).c_str(), values, r.team_size, r.gdofs, r.gflops, pct_fma, pct_mma, diff);
            std::fflush(stdout);
          }
          results.push_back(std::move(j));
        }
    }
    if (!output.empty())
      collectively(env.comm(), [&] {
        if (env.rank() != 0) return;
        Json record = Json::object();
        record["kind"] = "tensormg-bench-contraction";
        record["provenance"] = provenance_record(env.command_line(), env.size(), device_name());
        record["ceilings_record"] = ceilings_path;
        record["flop_model"] = "3D patch Laplacian of N = 8: seven 1D contractions of 2 N flops per value (112 per DoF)";
        record["results"] = results;
        write_text_file_atomically(output, record.dump(2) + "\n");
      });
    if (!agree) {
      if (env.rank() == 0) std::fprintf(stderr, "error: the variants' results differ by more than 1e-12 (relative)\n");
      return 3;
    }
    return 0;
  });
}
