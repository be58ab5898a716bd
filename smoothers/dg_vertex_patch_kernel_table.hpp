#pragma once
/// @file
/// What the DG vertex-patch smoother's host glue (dg_vertex_patch_smoother.cpp) needs to launch the
/// patch kernels (dg_vertex_patch_launch.hpp) without seeing their bodies: the launch arguments
/// and the per-(dim, k) launcher, declared here and instantiated only in the units
/// smoothers/CMakeLists.txt generates (a unit that saw the bodies would compile every kernel again).

#include <Kokkos_Core.hpp>

#include <string>

#include "core/halo_exchange.hpp"
#include "core/kernel_table.hpp"
#include "discretization/dg_dof_layout.hpp"
#include "smoothers/patch_window.hpp"

namespace tensormg {

/// The layout of the DG patch kernel's scratch buffers (paper 002 §4.3, Table 3). Threads own
/// patch lines; along x each reads a row of its own, so with rows of N = 2(k + 1) doubles the
/// threads of a half-warp fall on 16 / gcd(N, 16) bank pairs (k = 3: 8-way, k = 7: 16-way).
enum class DgPatchLayout {
  padded,  ///< rows of N + 1 values (odd): the x-line accesses are conflict-free (the default)
  plain    ///< rows of N values: the paper's "basic" layout, for the bank-conflict study
};
std::string to_string(DgPatchLayout l);
DgPatchLayout parse_dg_patch_layout(const std::string& text);

/// Throws InputError unless `patches_per_team` is 0 (tuned), 1, or, where the tuning row puts
/// several patches in a team (2D, 3D k = 1), up to 128 threads per team (one per patch line).
void check_dg_patches_per_team(int dim, int k, int patches_per_team);

/// The largest patch (values per patch, (2(k + 1))^d) whose local problems the smoother stores as
/// dense inverses: 3D k <= 4 and every 2D degree. One inverse per combination of boundary positions
/// (up to 3^d per level) of P² values each: 3D k = 4 stores 27 × 8 MB per level in FP64.
constexpr int dg_dense_inverse_max_values = 1000;
/// Throws InputError unless (dim, k) has a DG patch small enough for the dense inverse.
void check_dg_dense_inverse(int dim, int k);

/// How the DG patch's local problem is inverted (paper 000 Fig. 3; paper 002 eqs. 10–12).
enum class DgPatchInversion {
  automatic,             ///< the tuning row's choice (dg_vertex_patch_tuning.hpp): the dense inverse on a
                         ///< device where it measured faster (2D k <= 2), else fast diagonalization
  fast_diagonalization,  ///< (S ⊗ S ⊗ S) diag(1 / (a Σλ + b)) (S ⊗ S ⊗ S)ᵀ from 1D eigenproblems
  inverse                ///< multiplication by the stored dense inverse of the local operator
};
std::string to_string(DgPatchInversion i);
/// Parses "auto", "fast-diagonalization" or "inverse"; throws InputError naming them.
DgPatchInversion parse_dg_patch_inversion(const std::string& text);

/// Whether `inversion` stores dense inverses for (dim, k) on a device (on_device) or the host: the
/// one rule the smoother and the memory estimate apply.
bool uses_dg_dense_inverse(DgPatchInversion inversion, int dim, int k, bool on_device);

/// How the DG patch kernel contracts its 1D matrices (paper 001): one thread per patch line with
/// its own dot products (the tuned CUDA-core kernel), or whole-patch block contractions through
/// the backend's BlockContraction trait (core/block_contraction.hpp), which runs on tensor cores
/// where the backend has them (CUDA, FP64, 2(k + 1) = 8 and, on sm_90, 10..16: k = 3..7) and is the
/// portable block contraction elsewhere. The dense-inverse local solve keeps the line kernel. Float
/// smoothers of k = 3..7 also take FP16 products (paper 001 §6): tensor cores on CUDA, emulated
/// elsewhere.
enum class DgPatchContraction {
  automatic,  ///< blocks where the trait has tensor cores for the kernel's number and size, else lines
  lines,      ///< one thread per line
  blocks,     ///< block contractions through the trait
  f16,        ///< block contractions with FP16 operands, FP32 sums (block::Products::f16)
  f16ec       ///< the same with error correction (block::Products::f16_corrected)
};
std::string to_string(DgPatchContraction c);
/// Parses "auto", "lines", "blocks", "f16" or "f16ec"; throws InputError naming them.
DgPatchContraction parse_dg_patch_contraction(const std::string& text);
/// The degrees whose patches take FP16 products: 2(k + 1) = 8 (one tensor-core shape) to 16
/// (k = 4..6 padded to 16), k = 3..7.
constexpr bool dg_patch_has_f16(int k) { return k >= 3 && k <= 7; }
/// Throws InputError where `contraction` has FP16 products (f16, f16ec) and the smoother is not a
/// float one of a degree with FP16 kernels (dg_patch_has_f16) with the fast-diagonalization solve;
/// every other contraction passes.
void check_dg_patch_contraction(DgPatchContraction contraction, int dim, int k, bool float_numbers,
                                bool dense_inverse);

/// How much shared memory a team of the line kernel may take on a device whose backend has an
/// opt-in (CUDA: up to 227 KB per block on Hopper, DeviceTraits::large_scratch_bytes): its two
/// buffers need more than a block's 48 KB from 3D FP64 k = 7 on (70–99 KB per team), which
/// otherwise go to global-memory scratch. Fewer teams fit an SM with the opt-in.
enum class DgPatchSharedMemory {
  automatic,  ///< the tuning row's choice (dg_vertex_patch_tuning.hpp)
  block,      ///< the shared memory every block has (48 KB); global-memory scratch beyond
  opt_in      ///< the opt-in shared memory where the buffers need more than a block has
};
std::string to_string(DgPatchSharedMemory m);
/// Parses "auto", "block" or "opt-in"; throws InputError naming them.
DgPatchSharedMemory parse_dg_patch_shared_memory(const std::string& text);

/// How a device kernel addresses its level-0 team buffers. Kokkos hands scratch out as a generic
/// pointer, whose loads and stores wait like global ones; the fast kernel rebuilds it in the
/// shared window (DeviceTraits::fast_scratch), a kernel of its own. Global-memory scratch and the
/// host always take the generic kernel.
enum class DgPatchScratchPointer {
  automatic,  ///< the block path fast; the line kernel as its tuning row says (fast_lines_fp64/32)
  fast,       ///< shared-memory loads (and, on the block path, stores) where the buffers are in shared memory
  generic     ///< Kokkos' generic pointer (the kernels before 2026-12-06)
};
std::string to_string(DgPatchScratchPointer p);
/// Parses "auto", "fast" or "generic"; throws InputError naming them.
DgPatchScratchPointer parse_dg_patch_scratch_pointer(const std::string& text);

/// The run-time variants of the DG patch kernel.
struct DgPatchKernelOptions {
  DgPatchLayout layout = DgPatchLayout::padded;
  /// Patches per team on a device; 0: the tuning row's (check_dg_patches_per_team says what is allowed).
  int patches_per_team = 0;
  /// How the local problem is inverted: the dense inverse is stored in the patch's values, built
  /// from the 1D eigenproblems once per level.
  DgPatchInversion inversion = DgPatchInversion::automatic;
  /// Several ranks: overlap each colour's halo exchange with its interior patches
  /// (VertexPatchOptions::overlap).
  HaloOverlap overlap = HaloOverlap::automatic;
  /// Several ranks: device-to-device or host-staged halo refreshes (VertexPatchOptions::transport).
  HaloTransport transport = HaloTransport::automatic;
  /// Line or block contractions (tensor cores), DgPatchContraction.
  DgPatchContraction contraction = DgPatchContraction::automatic;
  /// The line kernel's shared memory per team, DgPatchSharedMemory.
  DgPatchSharedMemory shared_memory = DgPatchSharedMemory::automatic;
  /// Fast or generic scratch pointers in the device kernels, DgPatchScratchPointer.
  DgPatchScratchPointer scratch_pointer = DgPatchScratchPointer::automatic;
};

template <class Number, class ExecSpace>
struct DgPatchArgs {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<Number*, memory_space> x;
  Kokkos::View<const Number*, memory_space> b;  ///< right-hand side (local residual) or residual (global)
  /// Per direction and boundary position (4): L, M, S (2n × 2n each, row-major) and λ (2n).
  Kokkos::View<const Number*, memory_space> data;
  const Number* host_data = nullptr;  ///< the same on the host (the interior patches' data go into the functor)
  CellBox box;
  int color = 0;
  bool local_residual = true;
  Number laplace = 1, mass = 0;
  local_index patches[3] = {1, 1, 1};  ///< patches of this colour per direction (in the window)
  /// The first of them per direction: patch t is the colour's patch first + t (patch_window.hpp).
  local_index first[3] = {0, 0, 0};
  int scratch_level = 0;  ///< set by the launcher: 0 where the team's buffers fit fast scratch
  /// Unknowns of the local solver per direction and boundary position (the nonzero columns of S):
  /// the eigen-space transforms stop there (2k of 2(k+1) for Dirichlet, 2k − 2 for clamped).
  int local_size[3][4] = {};
  DgPatchLayout layout = DgPatchLayout::padded;
  int patches_per_team = 0;  ///< 0: the tuning row's (dg_vertex_patch_tuning.hpp)
  /// The dense-inverse local solve (DgPatchKernelOptions::inversion): per combination of the
  /// directions' boundary positions a P × P block (P = (2n)^d values of the patch), entry (j, e)
  /// at j·P + e = D[e][j] with e the patch value in memory order (coalesced over the threads) and j
  /// lexicographic; combination = Σ_d inverse_slot[d][position_d] (the positions present only).
  bool use_inverse = false;
  /// The patch-wise evaluation of the operator (DgLaplaceOptions::evaluation, paper 001 §2.1):
  /// dst += A_P x on every patch of the colour, A_P the Kronecker sum of the split 1D matrices in
  /// `data` (L, M; sipg_patch_split); b and the local solve unused.
  bool apply = false;
  Kokkos::View<Number*, memory_space> dst;
  /// Line or block contractions; the launcher resolves `automatic` for its number and size (and
  /// takes lines with use_inverse).
  DgPatchContraction contraction = DgPatchContraction::automatic;
  /// The line kernel's team buffers may take the opt-in shared memory (DgPatchSharedMemory).
  bool opt_in_shared = false;
  /// Which kernel a device launch at level 0 takes (DgPatchScratchPointer; the launcher resolves
  /// `automatic` by its path and tuning row).
  DgPatchScratchPointer scratch_pointer = DgPatchScratchPointer::automatic;
  Kokkos::View<const Number*, memory_space> inverse;
  int inverse_slot[3][4] = {};
};

template <class Number, class ExecSpace>
struct DgPatchKernelTable {
  void (*launch)(const DgPatchArgs<Number, ExecSpace>&) = nullptr;
};

template <int dim, int k, class Number, class ExecSpace>
DgPatchKernelTable<Number, ExecSpace> dg_patch_kernels_of();

template <class Number, class ExecSpace>
DgPatchKernelTable<Number, ExecSpace> dg_patch_kernels(int dim, int degree) {
  return kernel_table<DgPatchKernelTable<Number, ExecSpace>>(dim, degree, [](auto d, auto k) {
    return dg_patch_kernels_of<decltype(d)::value, decltype(k)::value, Number, ExecSpace>();
  });
}

}  // namespace tensormg
