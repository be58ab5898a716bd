// core/block_contraction.hpp and its tensor-core specialisation: every direction, one and two
// terms, plain and transposed matrices, assign and add, against a host loop on random data, on
// every execution space, in the trait's own layout and in the plain one; on CUDA the tensor-core
// kernels (FP64: N = 8, 16, and 9..15 padded to 16) also against the portable kernel on the
// device (≤ 1e-13 relative). On the host: the XOR-swizzled layout leaves the tensor-core
// fragments' shared-memory accesses free of bank conflicts, which the plain layout does not. FP16
// products (portable emulation, tensor cores on CUDA; N = 8, 16 and padded 10..14): error-corrected
// as accurate as FP32, uncorrected measurably worse.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "backends/block_contraction.hpp"
#include "backends/cuda_mma/mma_fragments.hpp"
#include "tests/test_spaces.hpp"

namespace {

using namespace tensormg::testing;
namespace block = tensormg::block;
using block::Write;

template <class T>
class BlockContractionTest : public ::testing::Test {};
TYPED_TEST_SUITE(BlockContractionTest, ExecSpaces, ExecSpaceName);

/// One case: `blocks` random blocks x, y, o (old out) and two random matrices A, B per block.
struct Setting {
  int d = 0, terms = 1;
  bool transposed = false;
  Write write = Write::assign;
  double scale = 0.75;
};

/// out = scale · (A_d x [+ B_d y]) (+ o), blocks in lexicographic order, on the host.
template <int dim, int N>
std::vector<double> reference(const Setting& s, int blocks, const std::vector<double>& x, const std::vector<double>& y,
                              const std::vector<double>& o, const std::vector<double>& A, const std::vector<double>& B) {
  constexpr int size = block::block_size<dim, N>;
  std::vector<double> out(o.size());
  for (int b = 0; b < blocks; ++b)
    for (int z = 0; z < (dim == 3 ? N : 1); ++z)
      for (int yy = 0; yy < N; ++yy)
        for (int xx = 0; xx < N; ++xx) {
          const int c[3] = {xx, yy, z};
          double sum = 0;
          for (int j = 0; j < N; ++j) {
            int cj[3] = {xx, yy, z};
            cj[s.d] = j;
            const int at = b * size + cj[0] + N * (cj[1] + N * cj[2]);
            const int row = c[s.d];
            const int e = s.transposed ? j * N + row : row * N + j;
            sum += A[b * N * N + e] * x[at];
            if (s.terms == 2) sum += B[b * N * N + e] * y[at];
          }
          const int at = b * size + xx + N * (yy + N * z);
          out[at] = s.scale * sum + (s.write == Write::add ? o[at] : 0.0);
        }
  return out;
}

/// Copies each block into team scratch in layout L, runs Contraction::apply, copies back. A
/// trait that stores its blocks padded (stored_n > N) gets blocks of stored_n^dim with the padding
/// zero, as its callers must hand them in.
template <class ExecSpace, class Contraction, class L, int dim, int N, class Number>
struct ContractionKernel {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using View = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  static constexpr int size = block::block_size<dim, N>;
  static constexpr int S = Contraction::stored_n;
  static constexpr int stored = (block::block_size<dim, S> + 1) / 2 * 2;  // 16-byte aligned blocks
  View x, y, o, A, B;
  Setting s;

  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const int b = team.league_rank();
    Number* const sx = static_cast<Number*>(team.team_scratch(0).get_shmem_aligned(3 * stored * sizeof(Number), 16));
    Number* const sy = sx + stored;
    Number* const so = sy + stored;
    for (int e = team.team_rank(); e < 3 * stored; e += team.team_size()) sx[e] = Number(0);
    team.team_barrier();
    for (int e = team.team_rank(); e < size; e += team.team_size()) {
      const int at = L::at(e % N, (e / N) % N, dim == 3 ? e / (N * N) : 0);
      sx[at] = x(b * size + e);
      sy[at] = y(b * size + e);
      so[at] = o(b * size + e);
    }
    team.team_barrier();
    const block::Term<Number> two[2] = {{A.data() + b * N * N, sx, s.transposed}, {B.data() + b * N * N, sy, s.transposed}};
    if (s.terms == 1) {
      const block::Term<Number> one[1] = {two[0]};
      Contraction::template apply<L>(team, s.d, one, Number(s.scale), s.write, so);
    } else {
      Contraction::template apply<L>(team, s.d, two, Number(s.scale), s.write, so);
    }
    team.team_barrier();
    for (int e = team.team_rank(); e < size; e += team.team_size())
      o(b * size + e) = so[L::at(e % N, (e / N) % N, dim == 3 ? e / (N * N) : 0)];
  }
};

template <class ExecSpace, class Contraction, class L, int dim, int N, class Number>
std::vector<double> run(const Setting& s, int blocks, const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<double>& o, const std::vector<double>& A, const std::vector<double>& B) {
  using Kernel = ContractionKernel<ExecSpace, Contraction, L, dim, N, Number>;
  const auto to_device = [](const std::vector<double>& v) {
    typename Kernel::View d("tensormg::test::block", v.size());
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = Number(v[i]);
    Kokkos::deep_copy(d, h);
    return d;
  };
  Kernel k{to_device(x), to_device(y), to_device(o), to_device(A), to_device(B), s};
  // At most 256 threads (N = 16 wants 1024: more registers than a block of them has without a
  // launch bound); the contractions take any whole number of warps.
  const int team = tensormg::runs_on_host<ExecSpace>() ? 1 : std::min(Contraction::threads_per_block, 256);
  const std::size_t bytes = 3 * Kernel::stored * sizeof(Number) + 16;  // stored 16 FP64: 96 KB (the opt-in)
  Kokkos::parallel_for("tensormg::test::block_contraction",
                       typename Kernel::Policy(blocks, team).set_scratch_size(0, Kokkos::PerTeam(bytes)), k);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.o);
  std::vector<double> out(h.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = double(h(i));
  return out;
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    norm = std::max(norm, std::abs(b[i]));
  }
  return diff / norm;
}

/// Every setting for one (dim, N, Number) on ExecSpace: the trait in its layout and in the plain
/// one against the host loop; where the trait is not the portable kernel, also against it.
template <class ExecSpace, int dim, int N, class Number>
void check_all(double tolerance) {
  using Trait = block::BlockContraction<ExecSpace, Number, dim, N>;
  using Portable = block::PortableBlockContraction<dim, N, Number>;
  constexpr int size = block::block_size<dim, N>;
  const int blocks = 5;
  std::mt19937 gen(1234 + 17 * dim + N);
  std::uniform_real_distribution<double> dist(-1, 1);
  const auto random = [&](int n) {
    std::vector<double> v(n);
    for (auto& e : v) e = Number(dist(gen));  // representable in Number: the reference sees the same inputs
    return v;
  };
  const auto x = random(blocks * size), y = random(blocks * size), o = random(blocks * size);
  const auto A = random(blocks * N * N), B = random(blocks * N * N);
  for (int d = 0; d < dim; ++d)
    for (int terms = 1; terms <= 2; ++terms)
      for (bool transposed : {false, true})
        for (Write write : {Write::assign, Write::add}) {
          const Setting s{d, terms, transposed, write, 0.75};
          SCOPED_TRACE(::testing::Message() << Trait::name << " dim " << dim << " N " << N << " d " << d << " terms "
                                            << terms << (transposed ? " transposed" : "")
                                            << (write == Write::add ? " add" : " assign"));
          const auto ref = reference<dim, N>(s, blocks, x, y, o, A, B);
          const auto own = run<ExecSpace, Trait, typename Trait::Layout, dim, N, Number>(s, blocks, x, y, o, A, B);
          EXPECT_LE(relative_difference(own, ref), tolerance) << "in " << Trait::Layout::name;
          using Plain = block::PlainLayout<Trait::stored_n>;
          const auto plain = run<ExecSpace, Trait, Plain, dim, N, Number>(s, blocks, x, y, o, A, B);
          EXPECT_LE(relative_difference(plain, ref), tolerance) << "in the plain layout";
          if constexpr (Trait::tensor_cores) {
            const auto portable = run<ExecSpace, Portable, block::PlainLayout<N>, dim, N, Number>(s, blocks, x, y, o, A, B);
            EXPECT_LE(relative_difference(own, portable), 1e-13) << "tensor cores against the portable kernel";
          }
        }
}

double max_error(const std::vector<double>& a, const std::vector<double>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - ref[i]));
    norm = std::max(norm, std::abs(ref[i]));
  }
  return diff / norm;
}

/// FP16 products (block::Products) on float blocks of N values per direction against the exact
/// result of the same float inputs: with error correction (paper 001 Algorithm 1) within 4× of the
/// FP32 contraction's error, without it at least 20× worse than the corrected one; in the trait's
/// layout and the plain one. Where the trait runs on tensor cores, also against the portable
/// emulation (the same roundings of the operands; only the FP32 sums' order differs).
template <class ExecSpace, int dim, int N>
void check_f16() {
  constexpr int size = block::block_size<dim, N>;
  using F32 = block::BlockContraction<ExecSpace, float, dim, N>;
  using H = block::BlockContraction<ExecSpace, float, dim, N, block::Products::f16>;
  using EC = block::BlockContraction<ExecSpace, float, dim, N, block::Products::f16_corrected>;
  const int blocks = 5;
  std::mt19937 gen(4321 + dim + 7 * N);
  std::uniform_real_distribution<double> dist(-1, 1);
  const auto random = [&](int n) {
    std::vector<double> v(n);
    for (auto& e : v) e = float(dist(gen));
    return v;
  };
  const auto x = random(blocks * size), y = random(blocks * size), o = random(blocks * size);
  const auto A = random(blocks * N * N), B = random(blocks * N * N);
  double worst_ratio = 0;
  for (int d = 0; d < dim; ++d)
    for (int terms = 1; terms <= 2; ++terms)
      for (bool transposed : {false, true})
        for (Write write : {Write::assign, Write::add}) {
          const Setting s{d, terms, transposed, write, 0.75};
          SCOPED_TRACE(::testing::Message() << EC::name << " dim " << dim << " N " << N << " d " << d << " terms " << terms
                                            << (transposed ? " transposed" : "") << (write == Write::add ? " add" : " assign"));
          const auto ref = reference<dim, N>(s, blocks, x, y, o, A, B);
          const double e32 = max_error(run<ExecSpace, F32, typename F32::Layout, dim, N, float>(s, blocks, x, y, o, A, B), ref);
          const auto h = run<ExecSpace, H, typename H::Layout, dim, N, float>(s, blocks, x, y, o, A, B);
          const auto ec = run<ExecSpace, EC, typename EC::Layout, dim, N, float>(s, blocks, x, y, o, A, B);
          const auto ec_plain = run<ExecSpace, EC, block::PlainLayout<EC::stored_n>, dim, N, float>(s, blocks, x, y, o, A, B);
          const auto h_plain = run<ExecSpace, H, block::PlainLayout<H::stored_n>, dim, N, float>(s, blocks, x, y, o, A, B);
          const double e16 = max_error(h, ref), eec = max_error(ec, ref);
          EXPECT_LE(eec, 4 * e32) << "FP32 error " << e32;
          EXPECT_LE(max_error(ec_plain, ref), 4 * e32) << "in the plain layout";
          EXPECT_GE(e16, 20 * eec) << "FP16 without correction must be measurably worse";
          EXPECT_LE(relative_difference(h_plain, h), 1e-5) << "FP16 in the plain layout";
          worst_ratio = std::max(worst_ratio, eec / e32);
          if constexpr (EC::tensor_cores) {
            using EmulatedEC = block::PortableBlockContraction<dim, N, float, block::Products::f16_corrected>;
            using EmulatedH = block::PortableBlockContraction<dim, N, float, block::Products::f16>;
            const auto eec_emulated = run<ExecSpace, EmulatedEC, block::PlainLayout<N>, dim, N, float>(s, blocks, x, y, o, A, B);
            const auto eh_emulated = run<ExecSpace, EmulatedH, block::PlainLayout<N>, dim, N, float>(s, blocks, x, y, o, A, B);
            EXPECT_LE(relative_difference(ec, eec_emulated), 1e-5) << "tensor cores against the emulation";
            EXPECT_LE(relative_difference(h, eh_emulated), 1e-5) << "tensor cores against the emulation";
          }
        }
  std::printf("[ info ] %s %dD N = %d: FP16 error-corrected / FP32 error at most %.2f\n", EC::name, dim, N,
              worst_ratio);
}

TYPED_TEST(BlockContractionTest, FP16ProductsWithErrorCorrectionMatchFP32) {
  check_f16<TypeParam, 3, 8>();  // m16n8k8 / m16n8k16 with the correction in one product on CUDA
  check_f16<TypeParam, 2, 8>();
  check_f16<TypeParam, 3, 16>();  // m16n8k16 on CUDA
  check_f16<TypeParam, 2, 16>();
  check_f16<TypeParam, 3, 10>();  // padded to 16 on CUDA (the DG patches of k = 4..6)
  check_f16<TypeParam, 3, 14>();
  check_f16<TypeParam, 2, 12>();
}

TEST(BlockContractionRounding, RoundToF16MatchesBinary16) {
  using tensormg::block::round_to_f16;
  EXPECT_EQ(round_to_f16(1.0f), 1.0f);
  EXPECT_EQ(round_to_f16(1.0f + 1.0f / 2048), 1.0f);                  // tie: to even
  EXPECT_EQ(round_to_f16(1.0f + 3.0f / 2048), 1.0f + 2.0f / 1024);    // tie: to even (up)
  EXPECT_EQ(round_to_f16(1.0f + 1.5f / 2048), 1.0f + 1.0f / 1024);    // above the tie
  EXPECT_EQ(round_to_f16(-3.14159265f), -3.140625f);
  EXPECT_EQ(round_to_f16(65504.f), 65504.f);                           // the largest
  EXPECT_EQ(round_to_f16(65519.f), 65504.f);
  EXPECT_TRUE(std::isinf(round_to_f16(65520.f)) && round_to_f16(-7e4f) < 0);
  EXPECT_EQ(round_to_f16(std::ldexp(1.0f, -14)), std::ldexp(1.0f, -14));  // the smallest normal
  EXPECT_EQ(round_to_f16(std::ldexp(3.0f, -26)), std::ldexp(1.0f, -24));  // subnormal: 0.75 ulp up
  EXPECT_EQ(round_to_f16(std::ldexp(1.0f, -26)), 0.0f);                  // below half the smallest subnormal
  EXPECT_TRUE(std::isnan(round_to_f16(std::nanf(""))));
  // Against the nearest of the two FP16 neighbours in double arithmetic, over every exponent of
  // the FP16 range (normal and subnormal) and random mantissas, ties included.
  std::mt19937 gen(77);
  std::uniform_int_distribution<int> bits(0, (1 << 23) - 1), exponent(-27, 16);
  for (int i = 0; i < 200000; ++i) {
    const int e = exponent(gen);
    const double m = 1 + double(i % 7 == 0 ? (bits(gen) & ~0x1fff) | 0x1000 : bits(gen)) / (1 << 23);  // every 7th a tie
    const float v = float((i & 1 ? -1 : 1) * std::ldexp(m, e));
    const double spacing = std::ldexp(1.0, std::max(e, -14) - 10);  // FP16 spacing at v
    const double below = std::floor(double(v) / spacing) * spacing, above = below + spacing;
    const double lo = double(v) - below, hi = above - double(v);
    const bool below_even = std::fmod(below / spacing, 2.0) == 0;
    double expected = lo < hi ? below : hi < lo ? above : below_even ? below : above;
    if (std::abs(expected) > 65504) expected = std::copysign(std::numeric_limits<double>::infinity(), expected);
    ASSERT_EQ(double(round_to_f16(v)), expected) << "v = " << v;
  }
  float high, low;
  tensormg::block::split_f16(0.1f, high, low);
  EXPECT_NEAR(double(high) + double(low) / 2048, 0.1f, 1e-7);
}

TYPED_TEST(BlockContractionTest, MatchesHostLoop) {
  using Exec = TypeParam;
  check_all<Exec, 3, 8, double>(1e-13);  // the tensor-core case on CUDA
  check_all<Exec, 2, 8, double>(1e-13);
  check_all<Exec, 3, 4, double>(1e-13);
  check_all<Exec, 2, 5, double>(1e-13);
  check_all<Exec, 3, 8, float>(1e-5);
  check_all<Exec, 3, 16, double>(1e-13);  // the FP64 m16n8k16 case on CUDA (sm_90)
  check_all<Exec, 2, 16, double>(1e-13);
  // Padded to 16 on CUDA sm_90 (the DG patches of k = 4..6), and an odd size.
  check_all<Exec, 3, 10, double>(1e-13);
  check_all<Exec, 3, 12, double>(1e-13);
  check_all<Exec, 3, 14, double>(1e-13);
  check_all<Exec, 2, 14, double>(1e-13);
  check_all<Exec, 3, 9, double>(1e-13);
}

/// Shared-memory wavefronts of one warp-wide access of `bytes` per lane to the element offsets
/// (elements of `element` bytes): 4-byte accesses go as one phase, 8-byte ones as two half warps,
/// 16-byte ones as four quarter warps; a phase needs as many wavefronts as its most used bank
/// (32 banks of 4 bytes; lanes that read the same address share it).
int wavefronts(const int (&offset)[32], int bytes, int element = 8) {
  const int lanes = 128 / bytes;  // lanes per phase
  int total = 0;
  for (int phase = 0; phase < 32 / lanes; ++phase) {
    std::set<int> words[32];
    for (int l = phase * lanes; l < (phase + 1) * lanes; ++l)
      for (int w = 0; w < bytes / 4; ++w) {
        const int word = offset[l] * (element / 4) + w;
        words[word % 32].insert(word);
      }
    std::size_t most = 1;
    for (const auto& w : words) most = std::max(most, w.size());
    total += int(most);
  }
  return total;
}

/// The same for the FP16 contraction of float blocks (MmaF16N8) in layout L: d = 0 loads a pair
/// along x (8 bytes), d = 1, 2 one value per k-slot (4 bytes); results stored as 8-byte pairs.
template <class L>
int worst_excess_f16(int dim) {
  using F = tensormg::cuda_mma::MmaF16N8;
  int worst = 0;
  for (int d = 0; d < dim; ++d)
    for (int tile = 0; tile < F::tiles(dim); ++tile) {
      for (int i = 0; i < (d == 0 ? 1 : 2); ++i) {
        int offset[32];
        for (int lane = 0; lane < 32; ++lane) {
          int c[3];
          F::data_position(d, lane, i, tile, c);
          offset[lane] = L::at(c[0], c[1], c[2]);
          if (d == 0) {
            int c1[3];
            F::data_position(d, lane, 1, tile, c1);
            EXPECT_EQ(L::at(c1[0], c1[1], c1[2]), offset[lane] + 1) << "a d = 0 operand pair must be adjacent";
            EXPECT_EQ(offset[lane] % 2, 0) << "a d = 0 operand pair must be 8-byte aligned";
          }
        }
        worst = std::max(worst, d == 0 ? wavefronts(offset, 8, 4) - 2 : wavefronts(offset, 4, 4) - 1);
      }
      int offset[32];
      for (int lane = 0; lane < 32; ++lane) {
        int c[3];
        F::result_position(d, lane, tile, c);
        offset[lane] = L::at(c[0], c[1], c[2]);
        EXPECT_EQ(offset[lane] % 2, 0) << "a result pair must be 8-byte aligned";
        EXPECT_EQ(L::at(c[0] + 1, c[1], c[2]), offset[lane] + 1) << "a result pair must be adjacent";
      }
      worst = std::max(worst, wavefronts(offset, 8, 4) - 2);
    }
  return worst;
}

/// The most wavefronts above the conflict-free count of any access of the N = 8 tensor-core
/// contraction (operand loads of every k-step and tile, 16-byte result stores) in layout L.
template <class L>
int worst_excess(int dim) {
  using F = tensormg::cuda_mma::MmaF64N8;
  int worst = 0;
  for (int d = 0; d < dim; ++d)
    for (int tile = 0; tile < F::tiles(dim); ++tile) {
      for (int s = 0; s < 2; ++s) {
        int offset[32];
        for (int lane = 0; lane < 32; ++lane) {
          int c[3];
          F::data_position(d, lane, s, tile, c);
          offset[lane] = L::at(c[0], c[1], c[2]);
        }
        worst = std::max(worst, wavefronts(offset, 8) - 2);
      }
      int offset[32];
      for (int lane = 0; lane < 32; ++lane) {
        int c[3];
        F::result_position(d, lane, tile, c);
        offset[lane] = L::at(c[0], c[1], c[2]);
        EXPECT_EQ(offset[lane] % 2, 0) << "a result pair must be 16-byte aligned";
        EXPECT_EQ(L::at(c[0] + 1, c[1], c[2]), offset[lane] + 1) << "a result pair must be adjacent";
      }
      worst = std::max(worst, wavefronts(offset, 16) - 4);
    }
  return worst;
}

/// The same for the N = 16 FP64 m16n8k16 contraction (MmaF64N16): 8-byte operand loads of every
/// k-slot and row half, 16-byte result stores.
template <class L>
int worst_excess_n16(int dim) {
  using F = tensormg::cuda_mma::MmaF64N16;
  int worst = 0;
  for (int d = 0; d < dim; ++d)
    for (int tile = 0; tile < F::tiles(dim, d); ++tile) {
      for (int i = 0; i < 4; ++i)
        for (int r = 0; r < (d == 0 ? 2 : 1); ++r) {
          int offset[32];
          for (int lane = 0; lane < 32; ++lane) {
            int c[3];
            F::data_position(d, lane, i, r, tile, c);
            offset[lane] = L::at(c[0], c[1], c[2]);
          }
          worst = std::max(worst, wavefronts(offset, 8) - 2);
        }
      for (int r = 0; r < 2; ++r)
        for (int q = 0; q < (d == 0 ? 2 : 1); ++q) {
          int offset[32];
          for (int lane = 0; lane < 32; ++lane) {
            int c[3];
            F::result_position(d, lane, r, q, tile, c);
            offset[lane] = L::at(c[0], c[1], c[2]);
            EXPECT_EQ(offset[lane] % 2, 0) << "a result pair must be 16-byte aligned";
            EXPECT_EQ(L::at(c[0] + 1, c[1], c[2]), offset[lane] + 1) << "a result pair must be adjacent";
          }
          worst = std::max(worst, wavefronts(offset, 16) - 4);
        }
    }
  return worst;
}

/// The same for the N = 16 FP16 contraction of float blocks (MmaF16N16) in layout L: d = 0 loads
/// pairs along x (8 bytes), d = 1, 2 one value per position (4 bytes); results stored as 8-byte
/// pairs.
template <class L>
int worst_excess_f16_n16(int dim) {
  using F = tensormg::cuda_mma::MmaF16N16;
  int worst = 0;
  for (int d = 0; d < dim; ++d)
    for (int tile = 0; tile < F::tiles(dim, d); ++tile) {
      for (int i = 0; i < 4; ++i)
        for (int r = 0; r < (d == 0 ? 2 : 1); ++r) {
          if (d == 0 && (i & 1)) continue;  // the second of a pair: the same 8-byte load
          int offset[32];
          for (int lane = 0; lane < 32; ++lane) {
            int c[3];
            F::data_position(d, lane, i, r, tile, c);
            offset[lane] = L::at(c[0], c[1], c[2]);
            if (d == 0) {
              int c1[3];
              F::data_position(d, lane, i + 1, r, tile, c1);
              EXPECT_EQ(L::at(c1[0], c1[1], c1[2]), offset[lane] + 1) << "a d = 0 operand pair must be adjacent";
              EXPECT_EQ(offset[lane] % 2, 0) << "a d = 0 operand pair must be 8-byte aligned";
            }
          }
          worst = std::max(worst, d == 0 ? wavefronts(offset, 8, 4) - 2 : wavefronts(offset, 4, 4) - 1);
        }
      for (int r = 0; r < 2; ++r)
        for (int q = 0; q < (d == 0 ? 2 : 1); ++q) {
          int offset[32];
          for (int lane = 0; lane < 32; ++lane) {
            int c[3];
            F::result_position(d, lane, r, q, tile, c);
            offset[lane] = L::at(c[0], c[1], c[2]);
            EXPECT_EQ(offset[lane] % 2, 0) << "a result pair must be 8-byte aligned";
            EXPECT_EQ(L::at(c[0] + 1, c[1], c[2]), offset[lane] + 1) << "a result pair must be adjacent";
          }
          worst = std::max(worst, wavefronts(offset, 8, 4) - 2);
        }
    }
  return worst;
}

/// Every position of an N = 16 contraction (fragments F) is read once per k-slot and written
/// once: the fragments cover the block.
template <class F>
void check_n16_cover() {
  for (int dim : {2, 3})
    for (int d = 0; d < dim; ++d) {
      std::map<int, int> read, written;
      for (int tile = 0; tile < F::tiles(dim, d); ++tile)
        for (int lane = 0; lane < 32; ++lane) {
          for (int i = 0; i < 4; ++i)
            for (int r = 0; r < (d == 0 ? 2 : 1); ++r) {
              int c[3];
              F::data_position(d, lane, i, r, tile, c);
              ++read[c[0] + 16 * (c[1] + 16 * c[2])];
            }
          for (int r = 0; r < 2; ++r)
            for (int q = 0; q < (d == 0 ? 2 : 1); ++q) {
              int c[3];
              F::result_position(d, lane, r, q, tile, c);
              ++written[c[0] + 16 * (c[1] + 16 * c[2])];
              ++written[c[0] + 1 + 16 * (c[1] + 16 * c[2])];
            }
        }
      const std::size_t size = dim == 2 ? 256 : 4096;
      EXPECT_EQ(read.size(), size) << dim << "D d " << d;
      EXPECT_EQ(written.size(), size) << dim << "D d " << d;
      for (const auto& [at, n] : written) EXPECT_EQ(n, 1) << dim << "D d " << d << " offset " << at;
      for (const auto& [at, n] : read) EXPECT_EQ(n, 1) << dim << "D d " << d << " offset " << at;
    }
}

/// The FP16 N = 16 fragments cover the block, the lanes' matrix registers hold every matrix entry
/// once (per output half for d = 0), and its float layout is a permutation.
TEST(BlockContractionLayout, F16N16FragmentsCoverTheBlock) {
  using F = tensormg::cuda_mma::MmaF16N16;
  check_n16_cover<F>();
  std::map<int, int> entries;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < 4; ++r)
      for (int h = 0; h < 2; ++h) {
        ++entries[F::matrix_index(lane, r, h, false)];
        EXPECT_EQ(F::matrix_index(lane, r, h, true) % 16, F::matrix_index(lane, r, h, false) / 16) << "transposed";
      }
  EXPECT_EQ(entries.size(), 256u);
  for (const auto& [at, n] : entries) EXPECT_EQ(n, 1) << "matrix entry " << at;
  std::set<int> seen;
  for (int z = 0; z < 16; ++z)
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x) seen.insert(tensormg::cuda_mma::XorSwizzleF32N16::at(x, y, z));
  EXPECT_TRUE(seen.size() == 4096u && *seen.begin() == 0 && *seen.rbegin() == 4095) << "a permutation";
}

TEST(BlockContractionLayout, N16FragmentsCoverTheBlock) { check_n16_cover<tensormg::cuda_mma::MmaF64N16>(); }

TEST(BlockContractionLayout, SwizzleIsAPermutation) {
  std::set<int> seen;
  for (int z = 0; z < 8; ++z)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) seen.insert(tensormg::cuda_mma::XorSwizzle8::at(x, y, z));
  EXPECT_EQ(seen.size(), 512u);
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 511);
}

TEST(BlockContractionLayout, SwizzledFragmentsAreConflictFree) {
  for (int dim : {2, 3}) {
    EXPECT_EQ(worst_excess<tensormg::cuda_mma::XorSwizzle8>(dim), 0) << dim << "D";
    EXPECT_GT(worst_excess<block::PlainLayout<8>>(dim), 0) << dim << "D: the plain layout has conflicts";
    EXPECT_EQ(worst_excess_f16<tensormg::cuda_mma::XorSwizzleF32N8>(dim), 0) << dim << "D, FP16 products";
  }
  EXPECT_GT(worst_excess_f16<block::PlainLayout<8>>(3), 0) << "3D FP16 products: the plain layout has conflicts";
  for (int dim : {2, 3}) {
    EXPECT_EQ(worst_excess_n16<tensormg::cuda_mma::XorSwizzle16>(dim), 0) << dim << "D, N = 16";
    EXPECT_GT(worst_excess_n16<block::PlainLayout<16>>(dim), 0) << dim << "D, N = 16: the plain layout has conflicts";
    EXPECT_EQ(worst_excess_f16_n16<tensormg::cuda_mma::XorSwizzleF32N16>(dim), 0) << dim << "D, FP16 products, N = 16";
    EXPECT_GT(worst_excess_f16_n16<block::PlainLayout<16>>(dim), 0)
        << dim << "D, FP16 products, N = 16: the plain layout has conflicts";
  }
  std::set<int> seen16;
  for (int z = 0; z < 16; ++z)
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x) seen16.insert(tensormg::cuda_mma::XorSwizzle16::at(x, y, z));
  EXPECT_TRUE(seen16.size() == 4096u && *seen16.begin() == 0 && *seen16.rbegin() == 4095) << "a permutation";
  std::set<int> seen;
  for (int z = 0; z < 8; ++z)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) seen.insert(tensormg::cuda_mma::XorSwizzleF32N8::at(x, y, z));
  EXPECT_TRUE(seen.size() == 512u && *seen.begin() == 0 && *seen.rbegin() == 511) << "a permutation";
}

}  // namespace
