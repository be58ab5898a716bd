#pragma once
/// @file
/// The colored multiplicative vertex-patch smoother of paper 000 (Algorithm 2.3): one patch per
/// interior vertex, 2^d colors of non-overlapping patches visited one after another (in the order
/// of `patch_color`), the patches of a color in parallel; local residual from the closure (eq.
/// 2.8), exact local solve by fast diagonalization (eq. 2.13/2.14) or by a stored inverse. Kernel variant (Table 4), thread
/// structure (Fig. 5) and patches per team (Fig. 7) are run-time options.
///
/// On several ranks (paper 002 §5's ghost patches): each rank works on its cells grown by one
/// cell on every side (the halo box) and smooths every patch around a vertex of its cells, so the
/// patches on a rank boundary are smoothed by both ranks, identically; after each colour the halo
/// box's nodes owned by other ranks are refreshed from their owners. Same colours, same order,
/// same arithmetic per patch as on one rank: the result does not depend on the rank count.

#include <array>
#include <memory>

#include "discretization/laplace_operator.hpp"
#include "discretization/q1_stencil.hpp"
#include "smoothers/halo_box.hpp"
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
  /// Global kernel variant). Collective.
  VertexPatchSmoother(std::shared_ptr<const operator_type> op, VertexPatchOptions options = {});

  void smooth(vector_type& x, const vector_type& b, SweepOrder order) const override;
  /// One color only (tests, benchmarks).
  void smooth_color(vector_type& x, const vector_type& b, int color) const;
  std::string description() const override;
  void time_exchanges(bool on) const override { exchange_.enable(on); }
  double exchange_seconds() const override { return exchange_.seconds(); }
  void reset_exchange_seconds() const override { exchange_.reset(); }

  int n_colors() const { return 1 << op_->layout().dim(); }
  int patches_per_team() const { return options_.patches_per_team; }
  int threads_per_patch() const { return options_.threads_per_patch; }
  const VertexPatchOptions& options() const { return options_; }
  /// Interior vertices (patches) of the mesh.
  global_index n_patches() const;
  /// Halo entries received per colour on this rank (0 on one rank).
  local_index halo_entries() const { return distributed_ ? halo_.n_recv() : 0; }
  /// Whether this rank overlaps the halo exchange with interior patches (its box has some).
  bool overlaps_exchange() const { return split_.overlap; }
  /// Neighbours whose halo boxes this rank's refreshes write into device to device (HaloTransport).
  int halo_peer_sends() const { return distributed_ ? halo_.n_peer_sends() : 0; }
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
  // The per-patch (k = 1) kernel's 1D cell matrices and 1 / A_vv (vertex_patch_q1.hpp).
  Q1Direction<Number> q1_[3];
  Number q1_inverse_diagonal_ = 1;
  mutable vector_type residual_, product_;

  // Several ranks: the halo box (this rank's cells and one more on every side, as far as the mesh
  // goes) in lexicographic order, its place in the layout, and the refresh of its nodes owned by
  // other ranks.
  using view_type = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  void build_halo_box();
  void smooth_distributed(vector_type& x, const vector_type& b, SweepOrder order) const;
  /// One colour's patch kernel(s) on data over `box` (r: the residual of the global variant, or
  /// the separate variant's buffer); `pair`: with a thread per patch, this colour and the next of
  /// the sweep (`patch_color`) in one launch (one rank, the whole box).
  void launch_color(const view_type& x, const view_type& b, const view_type& r, const NodeBox& box, int color,
                    const PatchWindow& window = {}, bool pair = false) const;
  bool distributed_ = false;
  HaloBox<ExecSpace> halo_;
  NodeBox halo_box_;  ///< the halo box as the patch kernels see it (all of it "owned")
  OverlapSplit split_;  ///< the patches next to the rank boundary and the others (options().overlap)
  mutable view_type x_box_, b_box_, r_box_;
  mutable ExchangeTimer<ExecSpace> exchange_;
  /// Runs f (copies into or out of the halo box, halo exchanges), timed when asked.
};

}  // namespace tensormg
