#pragma once
/// @file
/// The multiplicative vertex-patch smoother of the DG (SIPG) discretization (paper 002 §3.1,
/// Algorithm 1): one patch per interior vertex of the mesh, the 2^d cells around it, 2^d colours
/// by vertex parity (patches of one colour share no cell), visited one colour after the other.
/// Local solvers (dg_patch_matrices.hpp), inverted by fast diagonalization:
///   - dirichlet: the patch values without those on the patch boundary inside the domain, with the
///     residual of the patch cells only (the paper's inconsistent residual, exact for iterates
///     without jumps across the patch boundary; one kernel per colour);
///   - full: all patch values, with the global residual b − A x recomputed before each colour by the
///     matrix-free operator (the paper's global residual update).
/// On several ranks (paper 002 §5, ghost patches): as the continuous smoother, each rank smooths
/// every patch around a vertex of its cells on its halo box (its cells and one more per side; a
/// patch reads only its own cells), refreshing the halo after each colour: the result does not
/// depend on the rank count.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "discretization/dg_laplace_operator.hpp"
#include "smoothers/dg_patch_matrices.hpp"
#include "smoothers/dg_vertex_patch_kernel_table.hpp"
#include "smoothers/halo_box.hpp"
#include "smoothers/patch_window.hpp"
#include "smoothers/smoother.hpp"

namespace tensormg {

template <class Number, class ExecSpace = DefaultExec>
class DgVertexPatchSmoother final : public Smoother<Number, ExecSpace> {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;

  /// Collective.
  DgVertexPatchSmoother(std::shared_ptr<const DgLaplaceOperator<Number, ExecSpace>> op, DgLocalSolver solver,
                        DgPatchKernelOptions kernel = {});

  /// x ← S(x, b): every colour once, 0..2^d − 1 (forward) or backwards.
  void smooth(vector_type& x, const vector_type& b, SweepOrder order) const override;
  std::string description() const override;
  void time_exchanges(bool on) const override { exchange_.enable(on); }
  double exchange_seconds() const override { return exchange_.seconds(); }
  void reset_exchange_seconds() const override { exchange_.reset(); }
  DgLocalSolver local_solver() const { return solver_; }
  /// The kernel's options, DgPatchInversion::automatic resolved, and DgPatchContraction::automatic
  /// where the float kernel takes FP16 tensor cores (DgPatchTuning::f16ec_fp32).
  const DgPatchKernelOptions& kernel_options() const { return kernel_; }
  /// Whether this rank overlaps the halo exchange with interior patches (its box has some).
  bool overlaps_exchange() const { return split_.overlap; }
  /// Neighbours whose halo boxes this rank's refreshes write into device to device (HaloTransport).
  int halo_peer_sends() const { return distributed_ ? halo_.n_peer_sends() : 0; }

 private:
  using view_type = Kokkos::View<Number*, typename ExecSpace::memory_space>;
  void smooth_color(vector_type& x, const vector_type& b, int color) const;
  /// One colour's kernel on values over `box` (b: the right-hand side, or the residual of full).
  void launch_color(const view_type& x, const view_type& b, const CellBox& box, int color,
                    const PatchWindow& window = {}) const;
  /// The dense inverses of the local problems, one per combination of boundary positions present.
  void build_dense_inverse(const std::array<std::array<DgPatchMatrices1D, 4>, 3>& locals);
  std::shared_ptr<const DgLaplaceOperator<Number, ExecSpace>> op_;
  DgLocalSolver solver_;
  DgPatchKernelOptions kernel_;
  DgPatchKernelTable<Number, ExecSpace> kernels_;
  Kokkos::View<Number*, typename ExecSpace::memory_space> data_;
  std::vector<Number> host_data_;
  view_type inverse_;            ///< dense-inverse local solve (DgPatchArgs::inverse)
  int inverse_slot_[3][4] = {};
  int local_size_[3][4] = {};  ///< the local solver's unknowns per direction and boundary position
  mutable vector_type residual_;  ///< full: b − A x
  // Several ranks: the halo box of cells and its values.
  bool distributed_ = false;
  HaloBox<ExecSpace> halo_;
  CellBox halo_box_;
  OverlapSplit split_;  ///< the patches next to the rank boundary and the others (kernel_options().overlap)
  mutable view_type x_box_, b_box_;
  mutable ExchangeTimer<ExecSpace> exchange_;
};

}  // namespace tensormg
