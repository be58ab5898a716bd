#pragma once
/// @file
/// The colored multiplicative vertex-patch smoother of paper 000 (Algorithm 2.3): one patch per
/// interior vertex, 2^d colors of non-overlapping patches visited one after another, the patches
/// of a color in parallel; local residual from the closure (eq. 2.8), exact local solve by fast
/// diagonalization (eq. 2.13/2.14) or by a stored inverse. Kernel variant (Table 4), thread
/// structure (Fig. 5) and patches per team (Fig. 7) are run-time options.
///
/// Single MPI rank (multi-rank smoothing is a later capability): the constructor refuses a
/// communicator with more than one rank.

#include <array>
#include <memory>

#include "discretization/laplace_operator.hpp"
#include "smoothers/patch_matrices.hpp"
#include "smoothers/smoother.hpp"
#include "smoothers/vertex_patch_launch.hpp"

namespace tensormg {

template <class Number, class ExecSpace = DefaultExec>
class VertexPatchSmoother final : public Smoother<Number, ExecSpace> {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using operator_type = LaplaceOperator<Number, ExecSpace>;

  /// The operator supplies mesh, degree and the coefficients a, b (and the global residual of the
  /// Global kernel variant). Collective; throws InputError on more than one rank.
  VertexPatchSmoother(std::shared_ptr<const operator_type> op, VertexPatchOptions options = {});

  void smooth(vector_type& x, const vector_type& b, SweepOrder order) const override;
  /// One color only (tests, benchmarks).
  void smooth_color(vector_type& x, const vector_type& b, int color) const;
  std::string description() const override;

  int n_colors() const { return 1 << op_->layout().dim(); }
  int patches_per_team() const { return options_.patches_per_team; }
  int threads_per_patch() const { return options_.threads_per_patch; }
  const VertexPatchOptions& options() const { return options_; }
  /// Interior vertices (patches) of the mesh.
  global_index n_patches() const;
  /// Floating-point operations of one smoothing step (all colors) by the sum-factorization count
  /// of the fused kernel (2 flops per multiply-add).
  double flops_per_step() const;
  const std::array<PatchMatrices1D, 3>& patch_matrices() const { return matrices_1d_; }

 private:
  std::shared_ptr<const operator_type> op_;
  VertexPatchOptions options_;
  PatchKernelTable<Number, ExecSpace> kernels_;
  std::array<PatchMatrices1D, 3> matrices_1d_;
  Kokkos::View<Number*, typename ExecSpace::memory_space> matrices_;
  Kokkos::View<Number*, typename ExecSpace::memory_space> inverse_;
  Kokkos::View<Number*, typename ExecSpace::memory_space> inverse_diagonal_;
  std::vector<Number> reference_;  ///< reference patch matrices (cell length 1), layout of one direction
  double alpha_[3] = {1, 1, 1}, gamma_ = 0, volume_ = 1;
  mutable vector_type residual_, product_;
};

}  // namespace tensormg
