#pragma once
/// @file
/// The tuning table of the DG vertex-patch kernel (dg_vertex_patch_kernels.hpp): per (dim, k),
/// whether the interior patches take their 1D matrices from the functor (compile-time offsets when
/// the output loops are unrolled, constant-cache loads otherwise) or, like the boundary patches,
/// from the device array. Decided by the same-call A/B `results/h100-2026-11-24-dg/smoother-constants`
/// (Dirichlet solver, ratio functor / array): 2D k = 1..4 1.20–1.32, k = 5..8 0.47–0.85; 3D k = 1..3
/// 1.08–1.30, k = 4, 5 0.83 / 0.39 (spills at 2n = 10, 12 fully unrolled), k = 6..8 1.02–1.17.
/// tests/smoothers/test_tuning_tables.cpp checks every row.

namespace tensormg {

struct DgPatchTuning {
  int dim = 0, k = 0;
  bool constant_interior = false;  ///< interior patches' matrices held by the functor
  const char* reason = "";
  const char* record = "";
};

constexpr DgPatchTuning dg_patch_tuning(int dim, int k) {
  const bool wins = dim == 2 ? k <= 4 : (k <= 3 || k >= 6);
  return {dim, k, wins,
          wins ? "functor-held interior matrices faster in the A/B" : "device-array matrices faster in the A/B",
          "h100-2026-11-24-dg/smoother-constants"};
}

}  // namespace tensormg
