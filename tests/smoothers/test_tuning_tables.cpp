// The tuning tables of the kernels (smoothers/vertex_patch_tuning.hpp,
// discretization/laplace_tuning.hpp): every (dim, k) the kernels are compiled for has a row for
// each target, every row keeps the invariants the kernels and the host glue rely on, and every
// row names its reason and a record under perf/results/ that exists.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "core/kernel_table.hpp"
#include "discretization/bake_off_tuning.hpp"
#include "discretization/dg_laplace_tuning.hpp"
#include "smoothers/dg_vertex_patch_kernel_table.hpp"
#include "smoothers/dg_vertex_patch_tuning.hpp"
#include "discretization/laplace_tuning.hpp"
#include "smoothers/vertex_patch_tuning.hpp"

namespace {

using tensormg::TuningTarget;

void expect_record(const char* reason, const char* record, const std::string& where) {
  EXPECT_GT(std::string(reason).size(), 5u) << where << ": a row says why";
  const std::filesystem::path path = std::filesystem::path(TENSORMG_SOURCE_DIR) / "perf" / "results" / record;
  EXPECT_TRUE(std::string(record).size() > 0 && std::filesystem::exists(path)) << where << ": record " << path;
}

/// Registers per thread the launch bounds leave (64 K registers per SM on every NVIDIA GPU since sm_50).
int register_cap(int max_team_size, int min_teams) { return 65536 / (max_team_size * min_teams); }

TEST(TuningTables, VertexPatchRows) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= tensormg::max_degree(dim); ++k)
      for (TuningTarget target : {TuningTarget::host, TuningTarget::device}) {
        const auto r = tensormg::patch_tuning(dim, k, target);
        const std::string where = std::to_string(dim) + "D k=" + std::to_string(k) +
                                  (target == TuningTarget::device ? " device" : " host");
        ASSERT_EQ(r.dim, dim) << where << ": no row";
        ASSERT_EQ(r.k, k) << where;
        const int ni = 2 * k - 1;
        EXPECT_TRUE(r.columns_per_thread == 1 || r.columns_per_thread == 2) << where;
        EXPECT_GE(r.x_columns, r.columns_per_thread) << where;
        EXPECT_LE(r.x_columns, 3) << where;
        EXPECT_EQ(r.max_team_size % 32, 0) << where << ": teams in whole warps";
        EXPECT_LE(r.max_team_size, 1024) << where;
        EXPECT_GE(r.min_teams_per_sm, 1) << where;
        EXPECT_GE(register_cap(r.max_team_size, r.min_teams_per_sm), 64) << where << ": too few registers to hold a column";
        EXPECT_LE(register_cap(r.max_team_size, r.min_teams_per_sm), 255) << where << ": the bound would not bind";
        if (r.float_min_teams_per_sm != 0) {
          // A float column needs half the registers of a double one.
          EXPECT_GE(register_cap(r.max_team_size, r.float_min_teams_per_sm), 48) << where << ": float bound";
          EXPECT_LE(register_cap(r.max_team_size, r.float_min_teams_per_sm), 255) << where << ": float bound";
        }
        EXPECT_GE(r.unroll_interior, 1) << where;
        EXPECT_LE(r.unroll_interior, ni) << where;
        EXPECT_GE(r.float_unroll_pairs, 0) << where;
        EXPECT_LE(r.float_unroll_pairs, ni / 2) << where << ": more than the output pairs";
        EXPECT_EQ(r.column_in_place, dim == 3) << where << ": the column kernel keeps 3D boxes in place";
        if (r.y_rounds) {
          EXPECT_EQ(dim, 3) << where;
          EXPECT_LE(ni, 32) << where << ": a y-rounds group needs 2k - 1 lanes of a warp";
        }
        if (r.prefetch_b) EXPECT_EQ(dim, 3) << where;
        // The even-odd forms need at least one output pair (2k − 1 >= 3 interior points).
        if (r.even_odd) EXPECT_GE(k, 2) << where;
        if (r.even_odd_residual) EXPECT_GE(k, 2) << where;
        if (r.float_direct_solve) EXPECT_TRUE(r.even_odd) << where << ": float keeps direct what FP64 splits";
        // A thread per patch solves one unknown: Q1 patches only (vertex_patch_q1.hpp).
        if (r.per_patch) EXPECT_EQ(k, 1) << where;
        // Per line is the per-patch kernel's two-colour pass.
        if (r.per_line) EXPECT_TRUE(r.per_patch) << where;
        // Patches in SIMD lanes: a host kernel for patches of several unknowns.
        if (r.lanes) {
          EXPECT_EQ(target, TuningTarget::host) << where;
          EXPECT_GE(k, 2) << where;
        }
        if (r.interior_threads) {
          EXPECT_EQ(dim, 3) << where;
          EXPECT_LE((ni * ni + r.columns_per_thread - 1) / r.columns_per_thread, r.max_team_size)
              << where << ": one patch's interior columns fit a team";
        }
        EXPECT_GE(r.team_threads, 32) << where;
        EXPECT_GE(r.point_team_threads, 32) << where;
        if (r.float_team_threads != 0) {
          // A float target gives at least one whole patch its interior columns.
          const int columns = dim == 2 ? ni : (ni * ni + r.columns_per_thread - 1) / r.columns_per_thread;
          EXPECT_GE(r.float_team_threads, columns) << where << ": the float target is below one patch";
          EXPECT_LE(r.float_team_threads, 64 * columns) << where << ": more than 64 patches per team";
        }
        if (target == TuningTarget::host) {
          EXPECT_EQ(r.x_columns, r.columns_per_thread) << where << ": GPU-only choice on the host";
          EXPECT_FALSE(r.y_rounds) << where << ": the host has no warps";
          EXPECT_FALSE(r.prefetch_b) << where;
          EXPECT_FALSE(r.interior_threads) << where;
        }
        expect_record(r.reason, r.record, where);
      }
  EXPECT_EQ(tensormg::patch_tuning(3, 9, TuningTarget::device).dim, 0) << "no row for an unsupported degree";
}

/// The continuous (laplace_tuning.hpp) and the DG (dg_laplace_tuning.hpp) cell kernels' tables.
/// `gathers`: the table has gathering rows (the continuous operator's).
void check_cell_kernel_rows(tensormg::LaplaceTuning (*table)(int, int, TuningTarget), const std::string& name,
                            bool gathers) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= tensormg::max_degree(dim); ++k)
      for (TuningTarget target : {TuningTarget::host, TuningTarget::device}) {
        const auto r = table(dim, k, target);
        const std::string where = name + " " + std::to_string(dim) + "D k=" + std::to_string(k) +
                                  (target == TuningTarget::device ? " device" : " host");
        ASSERT_EQ(r.dim, dim) << where << ": no row";
        ASSERT_EQ(r.k, k) << where;
        const int n = k + 1, lines = dim == 2 ? n : n * n;
        EXPECT_EQ(r.max_team_size % 32, 0) << where;
        EXPECT_GE(r.min_teams_per_sm, 1) << where;
        EXPECT_GE(register_cap(r.max_team_size, r.min_teams_per_sm), 64) << where;
        EXPECT_LE(register_cap(r.max_team_size, r.min_teams_per_sm), 255) << where;
        EXPECT_TRUE(r.unroll_outputs == 1 || r.unroll_outputs == n) << where << ": all outputs or none";
        EXPECT_GE(r.gather_z_nodes, 0) << where;
        if (gathers && k >= 2) {
          // The gathering operator by tiles (laplace_gather.hpp): a GPU thread per output column
          // within the launch bound, whole batches of z planes, scratch within the 40 KiB
          // Kokkos grants a CUDA team at level 0 (h200-2026-12-02-gather/call2: 43304 bytes refused).
          const int nx = r.gather_tile_x * k, ny = dim == 3 ? r.gather_tile_y * k : 1;
          EXPECT_GE(r.gather_tile_x, 1) << where;
          EXPECT_GE(r.gather_tile_y, 1) << where;
          EXPECT_LE(nx * ny, r.max_team_size) << where << ": a team has a thread per column";
          ASSERT_GE(r.gather_planes, 1) << where;
          EXPECT_EQ(k % r.gather_planes, 0) << where << ": a z cell's planes come in whole batches";
          const int inx = (r.gather_tile_x + 1) * k + 1, iny = dim == 3 ? (r.gather_tile_y + 1) * k + 1 : 1;
          const int per_plane = inx * iny + (dim == 3 ? 2 * iny * nx : 0) + 2 * ny * nx;
          EXPECT_LE(r.gather_planes * per_plane * 8, 40 * 1024) << where;
        } else {
          // The gathered stencil is the continuous Q1 operator's (laplace_q1_gather.hpp).
          if (r.gather) EXPECT_TRUE(gathers && k == 1) << where;
        }
        // The continuous cell kernel's scratch strides (laplace_kernels.hpp; the kernel's
        // static_assert checks the same at compile time): lines, planes and cells do not overlap;
        // two buffers of the default team's cells fit the 40 KiB of a CUDA team at level 0. The DG
        // kernels have no use for them.
        if (!gathers) {
          EXPECT_EQ(r.scratch_double.x + r.scratch_double.xy + r.scratch_double.cell, 0) << where;
          EXPECT_EQ(r.scratch_float.x + r.scratch_float.xy + r.scratch_float.cell, 0) << where;
        }
        const int team_cells = target == TuningTarget::device ? tensormg::cells_per_team_of(r, lines) : 1;
        for (const auto& [s, bytes] : {std::pair{r.scratch_double, 8}, std::pair{r.scratch_float, 4}}) {
          const auto [x, xy, cell] = s.resolved(dim, n);
          const int extent = dim == 2 ? n * x : n * xy;
          EXPECT_GE(x, n) << where;
          if (dim == 3) EXPECT_GE(xy, n * x) << where;
          EXPECT_GE(cell, extent) << where;
          EXPECT_LE(2 * cell * team_cells * bytes, 40 * 1024) << where << ": " << bytes << "-byte scratch";
          if (dim == 2) EXPECT_EQ(s.xy, 0) << where << ": 2D has no planes";
        }
        // Cells in SIMD lanes (laplace_simd.hpp): the continuous operator's, host rows only, in
        // place of the row's gathering.
        if (r.simd) {
          EXPECT_TRUE(gathers) << where << ": the SIMD kernel is the continuous operator's";
          EXPECT_EQ(target, TuningTarget::host) << where << ": the SIMD kernel runs on the host only";
          EXPECT_FALSE(r.gather) << where << ": one automatic choice";
        }
        if (target == TuningTarget::device) {
          // The launch uses cells_per_team × lines threads without clamping (laplace_kernels.hpp).
          const int cells = tensormg::cells_per_team_of(r, lines);
          EXPECT_LE(cells * lines, r.max_team_size) << where << ": the default team exceeds the launch bound";
        } else {
          EXPECT_EQ(r.team_threads, 1) << where;
        }
        expect_record(r.reason, r.record, where);
      }
  EXPECT_EQ(table(2, 11, TuningTarget::host).dim, 0) << name;
}

TEST(TuningTables, LaplaceRows) { check_cell_kernel_rows(&tensormg::laplace_tuning, "continuous", true); }

TEST(TuningTables, DgLaplaceRows) { check_cell_kernel_rows(&tensormg::dg_laplace_tuning, "DG", false); }

TEST(TuningTables, BakeOffRows) {
  for (int k = 1; k <= tensormg::max_degree(3); ++k)
    for (TuningTarget target : {TuningTarget::host, TuningTarget::device}) {
      const auto r = tensormg::bake_off_tuning(k, target);
      const std::string where = "bake-off k=" + std::to_string(k) + (target == TuningTarget::device ? " device" : " host");
      ASSERT_EQ(r.k, k) << where << ": no row";
      EXPECT_EQ(r.max_team_size % 32, 0) << where;
      EXPECT_GE(r.min_teams_per_sm, 1) << where;
      EXPECT_GE(register_cap(r.max_team_size, r.min_teams_per_sm), 64) << where;
      EXPECT_LE(register_cap(r.max_team_size, r.min_teams_per_sm), 255) << where;
      // One cell's largest step has (k + 2)² lines, a thread each: a team must hold them.
      EXPECT_GE(r.max_team_size, (k + 2) * (k + 2)) << where;
      // Cells per team of a row (0: by team_threads): their threads within the launch bound.
      for (int p = 0; p < 3; ++p) {
        const int lines = p == 1 ? (k + 1) * (k + 1) : (k + 2) * (k + 2);  // BP3.5 at the nodes, else the Gauss points
        EXPECT_GE(r.cells_per_team[p], 0) << where;
        EXPECT_LE(r.cells_per_team[p] * lines, r.max_team_size) << where << " problem " << p;
      }
      if (target == TuningTarget::host) {
        EXPECT_EQ(r.team_threads, 1) << where;
        for (bool p : r.prefetch) EXPECT_FALSE(p) << where << ": the host has no prefetch";
        for (bool f : r.staged_fused) EXPECT_FALSE(f) << where << ": the host gathers along lines";
      }
      expect_record(r.reason, r.record, where);
    }
  EXPECT_EQ(tensormg::bake_off_tuning(9, TuningTarget::device).k, 0);
}

TEST(TuningTables, DgPatchRows) {
  // One row per (dim, k) the smoother instantiates, none besides.
  std::set<std::pair<int, int>> keys;
  for (const auto& row : tensormg::detail::dg_patch_rows) {
    EXPECT_TRUE(keys.insert({row.dim, row.k}).second) << "two DG patch rows for " << row.dim << "D k=" << row.k;
    EXPECT_TRUE((row.dim == 2 || row.dim == 3) && row.k >= 1 && row.k <= tensormg::max_degree(row.dim))
        << "DG patch row " << row.dim << "D k=" << row.k << " outside the instantiated degrees";
  }
  EXPECT_EQ(tensormg::dg_patch_tuning(3, 99).dim, 0) << "no row: dim 0";
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= tensormg::max_degree(dim); ++k) {
      const auto r = tensormg::dg_patch_tuning(dim, k);
      const std::string where = "DG patch " + std::to_string(dim) + "D k=" + std::to_string(k);
      EXPECT_EQ(r.dim, dim) << where;
      EXPECT_EQ(r.k, k) << where;
      expect_record(r.reason, r.record, where);
      // A launch bound must leave room for its blocks' scratch (two padded patch buffers) in the
      // H100's 228 KB of shared memory per SM, or Kokkos refuses the team size (3D k = 5 with 8);
      // buffers beyond a block's 48 KB live in global memory and bound nothing.
      const double N = 2.0 * (k + 1), values = 2 * (N + 1) * std::pow(N, dim - 1);
      // Several patches per team: at most 128 threads (check_dg_patches_per_team's rule, the
      // launch bounds' block size), and the team's buffers within a block's 48 KB.
      const int lines = dim == 2 ? int(N) : int(N * N);
      EXPECT_GE(r.patches_per_team, 1) << where;
      if (r.patches_per_team > 1) {
        EXPECT_LE(r.patches_per_team * lines, 128) << where;
        EXPECT_LE(r.patches_per_team * values * 8, 47.0 * 1024) << where;
        EXPECT_NO_THROW(tensormg::check_dg_patches_per_team(dim, k, r.patches_per_team)) << where;
      }
      // The automatic dense inverse only where the inverses can be stored (check_dg_dense_inverse),
      // and only on a device.
      if (r.dense_inverse_on_device) EXPECT_NO_THROW(tensormg::check_dg_dense_inverse(dim, k)) << where;
      // The opt-in shared memory only where a team's two FP64 buffers exceed a block's 48 KB.
      if (r.opt_in_shared) EXPECT_GT(values * 8, 48.0 * 1024) << where;
      // Tensor cores by default only where the backend has them: FP64 blocks of 2(k + 1) = 8
      // (m8n8k4) and 9..16 (m16n8k16 on blocks of 16, sm_90), measured in 3D.
      if (r.tensor_cores) EXPECT_TRUE(dim == 3 && (k == 3 || (k >= 4 && k <= 7))) << where;
      // Fast-scratch lines only where the line kernel's buffers of the row's patches per team sit
      // in shared memory (a block's 48 KB, or the opt-in in FP64 where the row takes it): global-
      // memory scratch has no fast kernel, so the flag would be a claim about nothing. (On a row
      // whose FP64 default is tensor cores the FP64 flag applies where lines run: `--dg-contractions
      // lines`, or a backend without the shape.)
      const double team_values = values * r.patches_per_team;
      if (r.fast_lines_fp64) EXPECT_TRUE(team_values * 8 <= 47.0 * 1024 || r.opt_in_shared) << where;
      if (r.fast_lines_fp32) EXPECT_LE(team_values * 4, 47.0 * 1024) << where;
      // FP16 tensor cores for the float kernel by default only where its blocks are blocks of 16
      // (3D k = 5..7: what dg_patch_auto_f16ec asks the backend about).
      if (r.f16ec_fp32) EXPECT_TRUE(dim == 3 && k >= 5 && k <= 7) << where;
      EXPECT_EQ(tensormg::uses_dg_dense_inverse(tensormg::DgPatchInversion::automatic, dim, k, true),
                r.dense_inverse_on_device) << where;
      EXPECT_FALSE(tensormg::uses_dg_dense_inverse(tensormg::DgPatchInversion::automatic, dim, k, false)) << where;
      for (const auto& [blocks, bytes] : {std::pair{r.min_blocks_fp64, 8 * values}, std::pair{r.min_blocks_fp32, 4 * values}}) {
        EXPECT_GE(blocks, 0) << where;
        if (bytes <= 48.0 * 1024) EXPECT_LE(blocks * bytes, 228.0 * 1024) << where << ", " << bytes << " bytes per block";
      }
    }
}

}  // namespace
