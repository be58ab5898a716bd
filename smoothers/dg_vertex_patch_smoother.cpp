#include "smoothers/dg_vertex_patch_smoother.hpp"

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
DgVertexPatchSmoother<Number, ExecSpace>::DgVertexPatchSmoother(
    std::shared_ptr<const DgLaplaceOperator<Number, ExecSpace>> op, DgLocalSolver solver)
    : op_(std::move(op)), solver_(solver) {
  const auto& layout = op_->layout();
  int ranks = 1;
  MPI_Comm_size(layout.mesh().comm(), &ranks);
  TENSORMG_CHECK_COLLECTIVE(layout.mesh().comm(), ranks == 1,
                            "the DG vertex-patch smoother runs on one MPI rank for now (given " << ranks << ")");
  const int dim = layout.dim(), k = layout.degree(), n = k + 1, N = 2 * n;
  kernels_ = dg_patch_kernels<Number, ExecSpace>(dim, k);
  scratch_level_ = kernels_.scratch_bytes() <= Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0) ? 0 : 1;
  // [direction][position]: L of the local residual and M of the patch, S (in the patch's values)
  // and λ of the local solver padded to 2n (zero columns, λ = 1, beyond the local space).
  const int block = 3 * N * N + N;
  std::vector<Number> host(std::size_t(dim) * 4 * block, Number(0));
  const double gamma = op_->options().penalty_factor;
  for (int d = 0; d < dim; ++d)
    for (int position = 0; position < 4; ++position) {
      const double h = layout.mesh().h()[d];
      const bool lower = position & 1, upper = position & 2;
      const auto full = dg_patch_matrices_1d(k, h, gamma, lower, upper, DgLocalSolver::full);
      const auto local = solver == DgLocalSolver::full ? full : dg_patch_matrices_1d(k, h, gamma, lower, upper, solver);
      Number* b = host.data() + (std::size_t(d) * 4 + position) * block;
      for (int i = 0; i < N * N; ++i) {
        b[i] = static_cast<Number>(local.residual_laplace[i]);  // the local residual's (dirichlet only)
        b[N * N + i] = static_cast<Number>(full.mass[i]);
      }
      local_size_[d][position] = local.size;
      const auto S = local.padded_patch_eigenvectors();
      const auto lambda = local.padded_eigenvalues();
      for (int i = 0; i < N * N; ++i) b[2 * N * N + i] = static_cast<Number>(S[i]);
      for (int i = 0; i < N; ++i) b[3 * N * N + i] = static_cast<Number>(lambda[i]);
    }
  data_ = Kokkos::View<Number*, typename ExecSpace::memory_space>("tensormg::smoother::dg_patch_data", host.size());
  Kokkos::deep_copy(data_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
  host_data_ = std::move(host);
  if (solver_ == DgLocalSolver::full) residual_ = op_->make_vector("dg_patch_residual");
}

template <class Number, class ExecSpace>
void DgVertexPatchSmoother<Number, ExecSpace>::smooth_color(vector_type& x, const vector_type& b, int color) const {
  const CellBox& box = op_->layout().box();
  DgPatchArgs<Number, ExecSpace> args;
  args.x = x.view();
  args.data = data_;
  args.host_data = host_data_.data();
  args.box = box;
  args.color = color;
  args.laplace = static_cast<Number>(op_->options().laplace_coefficient);
  args.mass = static_cast<Number>(op_->options().mass_coefficient);
  args.scratch_level = scratch_level_;
  for (int d = 0; d < 3; ++d)
    for (int position = 0; position < 4; ++position) args.local_size[d][position] = local_size_[d][position];
  for (int d = 0; d < 3; ++d) {
    const int parity = (color >> d) & 1;
    args.patches[d] = d < box.dim ? std::max<local_index>(0, (box.cells[d] - parity) / 2) : 1;
  }
  if (solver_ == DgLocalSolver::full) {
    op_->vmult(residual_, x);
    residual_.axpby(Number(1), b, Number(-1));  // r = b − A x
    args.b = residual_.view();
    args.local_residual = false;
  } else {
    args.b = b.view();
    args.local_residual = true;
  }
  kernels_.launch(args);
}

template <class Number, class ExecSpace>
void DgVertexPatchSmoother<Number, ExecSpace>::smooth(vector_type& x, const vector_type& b, SweepOrder order) const {
  ScopedRegion region("tensormg::smoother::dg_vertex_patch");
  const int colors = 1 << op_->layout().dim();
  for (int c = 0; c < colors; ++c) smooth_color(x, b, order == SweepOrder::forward ? c : colors - 1 - c);
}

template <class Number, class ExecSpace>
std::string DgVertexPatchSmoother<Number, ExecSpace>::description() const {
  return "dg-vertex-patch " + to_string(solver_) + " fast-diagonalization";
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class DgVertexPatchSmoother<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
