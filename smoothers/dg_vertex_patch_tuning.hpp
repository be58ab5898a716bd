#pragma once
/// @file
/// The tuning table of the DG vertex-patch kernel (dg_vertex_patch_kernels.hpp): one row per
/// (dim, k) with its reason and the record that decided it, as the other kernels' tables. Whether
/// the interior patches take their 1D matrices from the functor (compile-time offsets when the
/// output loops are unrolled, constant-cache loads otherwise) or, like the boundary patches, from
/// the device array. Decided by the same-call A/B `results/h100-2026-11-24-dg/smoother-constants`
/// (Dirichlet solver, ratio functor / array): 2D k = 1..4 1.20–1.32, k = 5..8 0.47–0.85; 3D k = 1..3
/// 1.08–1.30, k = 4, 5 0.83 / 0.39 (spills at 2n = 10, 12 fully unrolled), k = 6..8 1.02–1.17.
/// tests/smoothers/test_tuning_tables.cpp checks every row.

namespace tensormg {

struct DgPatchTuning {
  int dim = 0, k = 0;
  bool constant_interior = false;  ///< interior patches' matrices held by the functor
  const char* reason = "";
  const char* record = "";
  /// Blocks of 128 threads per SM the compiler must allow (launch bounds: registers ≤ 65536 /
  /// (128 · min_blocks)), FP64 and FP32 kernels; 0: no bound. Without bounds nvcc gives 3D FP64
  /// k = 3, 5, 7 112, 128, 165 registers: 25%, 25%, 19% occupancy (ncu). Same-call A/B of bounds
  /// 6 / 8 for k = 3..5 and 5 / 4 for k = 7, 8 (h100-2026-11-24-dg-smoother-v2/call3, both rounds):
  /// FP64 k = 3, 4 with 6 (80 registers): 1.15–1.18×; FP64 k = 5, 7, 8: 0.89–0.95× (spills);
  /// FP32 k = 3..5: 0.90–0.99×; FP32 k = 7, 8 with 5: 1.02–1.06×. A bound of 8 cannot launch
  /// k = 5 (7 blocks' shared memory per SM): Kokkos refuses the team size.
  int min_blocks_fp64 = 0, min_blocks_fp32 = 0;
  /// Patches a team smooths side by side on a device (each with its own threads, one per line, and
  /// buffers): one team per patch leaves 2D (2(k + 1) threads) and 3D k = 1, 2 (16, 36 threads)
  /// with few threads per SM (at most 32 blocks); filled up to about 64 threads.
  int patches_per_team = 1;
  /// DgPatchInversion::automatic on a device: the dense inverse instead of fast diagonalization.
  /// Same-call A/B (h100-2026-11-24-dg-variants/inv.txt, one smoothing step, ~10M DoF, inverse /
  /// FD): 2D k = 1, 2 1.14–1.84× (FP64 and FP32, Dirichlet and full), 2D k = 3, 4 0.54–1.16×, 3D
  /// 0.07–0.91×; a 2D Q2 MG-GMRES solve of 37.7M DoF 0.248 → 0.190 s. Host: fast diagonalization
  /// (the VM measured 0.6× at 2D k = 2).
  bool dense_inverse_on_device = false;
  /// DgPatchContraction::automatic on a device whose BlockContraction has tensor cores for the
  /// kernel's number and size (CUDA FP64: 2(k + 1) = 8, m8n8k4; 2(k + 1) = 10..16 on sm_90,
  /// m16n8k16 on blocks of 16): block contractions instead of lines. Same-call A/Bs, one smoothing
  /// step, blocks / lines: 3D k = 3 (h100-2026-11-25-tensor-cores/call6-block-kernel-80-registers, 16M DoF) Dirichlet 1.19x,
  /// clamped 1.11x, full 1.07x (a 3D Q3 134M-DoF FGMRES + V-cycle solve 0.885 -> 0.838 s); 2D
  /// k = 3 Dirichlet 0.83x, clamped 0.82x, full 1.11x: blocks in 3D only. 3D, 3e7 DoF, three
  /// buffers and two teams of 384 threads per SM for blocks of 16 (h200-2026-11-28-dg-padded,
  /// call5, two rounds): k = 3 Dirichlet 1.07x, full 1.03x; k = 4 (padded 10 -> 16) 0.65x, 0.80x:
  /// lines; k = 5 (12 -> 16) 1.19x, 1.09x; k = 6 (14 -> 16) 1.69x, 1.22x; k = 7 2.16x, 1.42x
  /// (FGMRES + V-cycle solves k = 5, 6, 7: 1.16x, 1.55x, 1.84x). With the padded planes' tiles
  /// skipped (call7): k = 4 0.74x (lines), k = 5 1.28x (solve 1.25x), k = 6 1.65x. 2D not
  /// measured: lines.
  bool tensor_cores = false;
  /// DgPatchSharedMemory::automatic: the line kernel's buffers take the opt-in shared memory where
  /// they need more than a block's 48 KB, instead of global memory. Same-call A/B, one smoothing
  /// step, 3D, ~3e7 DoFs, lines, opt-in / block (h200-2026-11-28-dg-opt-in): FP64 k = 7 (68 KB,
  /// 2 teams per SM) Dirichlet 1.24x, clamped 1.26x, full 1.10x; FP64 k = 8 (96 KB) 0.88-0.91x:
  /// k = 7 only (FP32 k = 7 fits 48 KB anyway; on CUDA sm_90 FP64 k = 7 contracts on tensor
  /// cores by default, so this is the line kernel's, e.g. sm_80's or --contraction lines).
  bool opt_in_shared = false;
  /// DgPatchScratchPointer::automatic for the line kernel on a device at level 0: its buffers
  /// loaded through fast-scratch pointers (shared-memory loads) instead of Kokkos' generic ones,
  /// FP64 and FP32 (the block path always takes them: 1.02–1.27× wherever measured). The stores
  /// stay generic: with fast stores too, ptxas moved the 1D matrices' global loads above them and
  /// gave the kernel 1.6–2.3× the registers (spills under the 80-register bound, 0.14× at 3D FP64
  /// k = 4; h100-2026-12-06-fast-scratch/g2). Same-call A/B of that kernel, one smoothing step,
  /// ~3e7 DoF, lines, fast / generic, two rounds (h200-2026-12-06-fast-loads/g3): 2D k = 4..6
  /// 1.19–2.21×, 3D FP32 k = 3..6 1.06–1.53×, 3D FP64 k = 5, 6 1.00–1.11×; losses at 3D k = 1
  /// (0.54–0.88×, 178 registers instead of 80), 2D FP64 k = 1 and k = 2 (0.72–0.98×, the dense
  /// inverse) and 2D FP64 k = 3 (0.71–0.85×); within 1% at 3D k = 8 (global-memory scratch). Each row's reason gives its ratios; fast where both rounds of every
  /// local solver were ≥ 0.99× and one ≥ 1.01×, but 2D FP64 k = 7 (the H100 measured the
  /// committed rows, h100-2026-12-06-fast-loads/g4: clamped 0.93× there, 1.00× on the H200).
  bool fast_lines_fp64 = false, fast_lines_fp32 = false;
  /// DgPatchContraction::automatic for the float kernel (the float and mixed multigrid) where the
  /// backend has FP16 tensor cores: block contractions with error-corrected FP16 products (paper
  /// 001 §6) instead of FP32 lines. H100, 3D k = 7 (h100-2026-12-06-fast-loads/g5): mixed
  /// MG-FGMRES 56.6M DoF 0.347 s against 0.458–0.466 s with FP32 lines (1.33×, the same 7
  /// iterations; double MG-GMRES 0.420 s), one smoothing step 4.98 against 3.19 GDoF/s (g1, g4);
  /// at k = 3 and 5 the FP32 lines win (mixed 0.120 vs 0.107 s, 0.428 vs 0.358 s; step 4.97 vs
  /// 6.68, 2.94 vs 3.73 GDoF/s). Plain FP16 products need 3–6× the iterations: never by default.
  bool f16ec_fp32 = false;
};

namespace detail {
/// The rows (measured on the H100 and H200; the fields only a device uses are ignored on the host,
/// where a team is one thread). Columns: dim, k, constant_interior, reason, record, min_blocks_fp64,
/// min_blocks_fp32, patches_per_team, dense_inverse_on_device, tensor_cores, opt_in_shared,
/// fast_lines_fp64, fast_lines_fp32, f16ec_fp32 (false where left out). The
/// record is the newest that decided a field of the row; the reason names the others.
inline constexpr DgPatchTuning dg_patch_rows[] = {
    {2, 1, true, "functor-held interior matrices (1.20-1.32x); 16 patches per team of 2(k+1) = 4 threads (h100-2026-11-24-dg-smoother-v2/call5); dense inverse on a device (1.14-1.84x, h100-2026-11-24-dg-variants/inv.txt); line kernel with fast-scratch loads: FP64 0.96-0.98x -> generic, FP32 1.01-1.01x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 16, true, false, false, false, true},
    {2, 2, true, "functor-held interior matrices (1.20-1.32x); 10 patches per team of 2(k+1) = 6 threads (h100-2026-11-24-dg-smoother-v2/call5); dense inverse on a device (1.14-1.84x, h100-2026-11-24-dg-variants/inv.txt); line kernel with fast-scratch loads: FP64 0.79-0.84x -> generic, FP32 0.72-0.83x -> generic (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 10, true, false, false, false, false},
    {2, 3, true, "functor-held interior matrices (1.20-1.32x); 8 patches per team of 2(k+1) = 8 threads (h100-2026-11-24-dg-smoother-v2/call5); lines, not tensor cores (blocks 0.83x Dirichlet, h100-2026-11-25-tensor-cores/call6-block-kernel-80-registers); line kernel with fast-scratch loads: FP64 0.71-0.85x -> generic, FP32 1.07-1.41x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 8, false, false, false, false, true},
    {2, 4, true, "functor-held interior matrices (1.20-1.32x); 6 patches per team of 2(k+1) = 10 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 1.51-1.65x -> fast, FP32 1.73-2.21x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 6, false, false, false, true, true},
    {2, 5, false, "interior matrices from the device array (functor 0.47-0.85x); 5 patches per team of 2(k+1) = 12 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 1.25-1.52x -> fast, FP32 1.78-2.21x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 5, false, false, false, true, true},
    {2, 6, false, "interior matrices from the device array (functor 0.47-0.85x); 4 patches per team of 2(k+1) = 14 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 1.19-1.53x -> fast, FP32 1.80-2.07x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 4, false, false, false, true, true},
    {2, 7, false, "interior matrices from the device array (functor 0.47-0.85x); 4 patches per team of 2(k+1) = 16 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 1.00-1.07x on the H200 but clamped 0.93x on the H100 (h100-2026-12-06-fast-loads/g4) -> generic, FP32 1.01-1.04x -> fast (h200-2026-12-06-fast-loads/g3)", "h100-2026-12-06-fast-loads/g4", 0, 0, 4, false, false, false, false, true},
    {2, 8, false, "interior matrices from the device array (functor 0.47-0.85x); 3 patches per team of 2(k+1) = 18 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 1.00-1.01x -> generic, FP32 1.03-1.08x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 3, false, false, false, false, true},
    {2, 9, false, "interior matrices from the device array (functor 0.47-0.85x); 3 patches per team of 2(k+1) = 20 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 0.99-1.00x -> generic, FP32 1.02-1.03x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 3, false, false, false, false, true},
    {2, 10, false, "interior matrices from the device array (functor 0.47-0.85x); 2 patches per team of 2(k+1) = 22 threads (h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 1.00-1.04x -> fast, FP32 1.04-1.13x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 2, false, false, false, true, true},
    {3, 1, true, "functor-held interior matrices (3D 1.08-1.30x at k <= 3, 1.02-1.17x at k >= 6); 4 patches per team of 16 threads (5.73 vs 4.56 GDoF/s, h100-2026-11-24-dg-smoother-v2/call5); line kernel with fast-scratch loads: FP64 0.54-0.70x -> generic, FP32 0.78-0.88x -> generic (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 4, false, false, false, false, false},
    {3, 2, true, "functor-held interior matrices (3D 1.08-1.30x at k <= 3, 1.02-1.17x at k >= 6); line kernel with fast-scratch loads: FP64 1.00-1.04x -> fast, FP32 1.06-1.09x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 1, false, false, false, true, true},
    {3, 3, true, "functor-held interior matrices (3D 1.08-1.30x at k <= 3, 1.02-1.17x at k >= 6); FP64 launch bound of 6 blocks, 80 registers (1.15-1.18x, h100-2026-11-24-dg-smoother-v2/call3); FP64 m8n8k4 tensor-core blocks (Dirichlet 1.19x, h100-2026-11-25-tensor-cores/call6-block-kernel-80-registers; 1.07x on the H200, h200-2026-11-28-dg-padded/call5); line kernel with fast-scratch loads: FP64 0.99-1.02x -> fast, FP32 1.06-1.16x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 6, 0, 1, false, true, false, true, true},
    {3, 4, false, "interior matrices from the device array (functor 0.83x / 0.39x at k = 4 / 5: spills); FP64 launch bound of 6 blocks, 80 registers (1.15-1.18x, h100-2026-11-24-dg-smoother-v2/call3); lines, not blocks padded 10 -> 16 (0.65x, h200-2026-11-28-dg-padded/call5; 0.74x with skipped tiles, call7); line kernel with fast-scratch loads: FP64 1.01-1.02x -> fast, FP32 1.29-1.53x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 6, 0, 1, false, false, false, true, true},
    {3, 5, false, "interior matrices from the device array (functor 0.83x / 0.39x at k = 4 / 5: spills); no FP64 bound (6: 0.89-0.95x, spills; 8 cannot launch); FP64 m16n8k16 blocks padded 12 -> 16 (1.28x with skipped tiles, h200-2026-11-28-dg-padded/call7); line kernel with fast-scratch loads: FP64 1.00-1.12x -> fast, FP32 1.10-1.12x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 1, false, true, false, true, true},
    {3, 6, true, "functor-held interior matrices (3D 1.08-1.30x at k <= 3, 1.02-1.17x at k >= 6); FP64 m16n8k16 blocks padded 14 -> 16 (1.65x, h200-2026-11-28-dg-padded/call7); line kernel with fast-scratch loads: FP64 1.09-1.11x -> fast, FP32 1.17-1.30x -> fast (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 0, 1, false, true, false, true, true},
    {3, 7, true, "functor-held interior matrices (3D 1.08-1.30x at k <= 3, 1.02-1.17x at k >= 6); FP32 bound of 5 blocks (1.02-1.06x, h100-2026-11-24-dg-smoother-v2/call3); FP64 m16n8k16 blocks of 16 (2.16x, h200-2026-11-28-dg-padded/call5); line kernel in the opt-in shared memory (1.24x, h200-2026-11-28-dg-opt-in; k = 8 0.89x); line kernel with fast-scratch loads: FP64 0.99-1.02x -> generic, FP32 1.00-1.03x -> fast (h200-2026-12-06-fast-loads/g3); float kernel on FP16 tensor cores with error correction (mixed MG-FGMRES 1.33x, h100-2026-12-06-fast-loads/g5)", "h100-2026-12-06-fast-loads/g5", 0, 5, 1, false, true, true, false, true, true},
    {3, 8, true, "functor-held interior matrices (3D 1.08-1.30x at k <= 3, 1.02-1.17x at k >= 6); FP32 bound of 5 blocks (1.02-1.06x, h100-2026-11-24-dg-smoother-v2/call3); lines (blocks of 16 not measured at N = 18); line kernel with fast-scratch loads: FP64 1.00-1.00x -> generic, FP32 0.99-1.00x -> generic (h200-2026-12-06-fast-loads/g3)", "h200-2026-12-06-fast-loads/g3", 0, 5, 1, false, false, false, false, false},
};
}  // namespace detail

/// The row of (dim, k); dim = 0 where there is none (kernels static_assert on it).
constexpr DgPatchTuning dg_patch_tuning(int dim, int k) {
  for (const DgPatchTuning& row : detail::dg_patch_rows)
    if (row.dim == dim && row.k == k) return row;
  return DgPatchTuning{};
}

}  // namespace tensormg
