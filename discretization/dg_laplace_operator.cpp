#include "discretization/dg_laplace_operator.hpp"

#include <algorithm>
#include <cmath>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
constexpr EnumName<DgEvaluation> dg_evaluation_names[] = {{DgEvaluation::cell, "cell"}, {DgEvaluation::patch, "patch"}};
}  // namespace

std::string to_string(DgEvaluation e) { return enum_name(dg_evaluation_names, e); }
DgEvaluation parse_dg_evaluation(const std::string& text) {
  return parse_enum(dg_evaluation_names, text, "DG operator evaluation");
}

template <class Number, class ExecSpace>
DgLaplaceOperator<Number, ExecSpace>::DgLaplaceOperator(std::shared_ptr<const DgDofLayout<ExecSpace>> layout,
                                                        DgLaplaceOptions options)
    : layout_(std::move(layout)), options_(options) {
  const int dim = layout_->dim(), k = layout_->degree();
  kernels_ = dg_laplace_kernels<Number, ExecSpace>(dim, k);
  const auto& table = kernels_;
  collectively(layout_->mesh().comm(), [&] {
    TENSORMG_CHECK(options.penalty_factor > 0 && options.penalty_factor < 1e6,
                   "the penalty factor must be in (0, 1e6), given " << options.penalty_factor);
    cells_per_team_ = choose_cells_per_team<ExecSpace>(table, options.cells_per_team,
                                                       "DG Q" + std::to_string(k) + " in " + std::to_string(dim) + "D");
  });
  for (int d = 0; d < dim; ++d) lines_.push_back(sipg_matrices_1d(k, layout_->mesh().h()[d], options_.penalty_factor));
  if (options_.evaluation != DgEvaluation::patch) return;
  const auto& mesh = layout_->mesh();
  collectively(mesh.comm(), [&] {
    int ranks = 1;
    MPI_Comm_size(mesh.comm(), &ranks);
    TENSORMG_CHECK(ranks == 1, "the patch-wise DG evaluation runs on one rank (given " << ranks << "); use cell");
    for (int d = 0; d < dim; ++d)
      TENSORMG_CHECK(mesh.n_cells()[d] >= 2, "the patch-wise DG evaluation needs at least 2 cells per direction (a vertex "
                                             "patch), given " << mesh.n_cells()[d] << "; use cell");
  });
  patch_kernels_ = dg_patch_kernels<Number, ExecSpace>(dim, k);
  // [direction][position] in DgPatchData's layout: the split L and M (S and λ unused).
  const int N = 2 * (k + 1), block = 3 * N * N + N;
  host_patch_data_.assign(std::size_t(dim) * 4 * block, Number(0));
  for (int d = 0; d < dim; ++d)
    for (int position = 0; position < 4; ++position) {
      std::vector<double> laplace, mass;
      sipg_patch_split(lines_[d], position & 1, position & 2, laplace, mass);
      Number* b = host_patch_data_.data() + (std::size_t(d) * 4 + position) * block;
      for (int i = 0; i < N * N; ++i) {
        b[i] = static_cast<Number>(laplace[i]);
        b[N * N + i] = static_cast<Number>(mass[i]);
      }
    }
  patch_data_ = decltype(patch_data_)("tensormg::operator::dg_patch_data", host_patch_data_.size());
  Kokkos::deep_copy(patch_data_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                     host_patch_data_.data(), host_patch_data_.size()));
}

template <class Number, class ExecSpace>
void DgLaplaceOperator<Number, ExecSpace>::vmult_patchwise(vector_type& dst, const vector_type& src) const {
  dst.fill(Number(0));
  DgPatchArgs<Number, ExecSpace> args;
  args.x = src.view();
  args.dst = dst.view();
  args.apply = true;
  args.contraction = options_.patch_contraction;
  args.data = patch_data_;
  args.host_data = host_patch_data_.data();
  args.box = layout_->box();
  args.laplace = static_cast<Number>(options_.laplace_coefficient);
  args.mass = static_cast<Number>(options_.mass_coefficient);
  const int dim = layout_->dim(), N = 2 * (layout_->degree() + 1);
  for (int d = 0; d < 3; ++d)
    for (int position = 0; position < 4; ++position) args.local_size[d][position] = N;
  // 2^d colours of patches by vertex parity: the patches of one colour share no cell.
  for (int color = 0; color < (1 << dim); ++color) {
    args.color = color;
    for (int d = 0; d < 3; ++d)
      args.patches[d] = d < dim ? std::max<local_index>(0, (args.box.cells[d] - ((color >> d) & 1)) / 2) : 1;
    patch_kernels_.launch(args);
  }
}

template <class Number, class ExecSpace>
void DgLaplaceOperator<Number, ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::operator::dg_laplace::vmult");
  if (options_.evaluation == DgEvaluation::patch) {
    vmult_patchwise(dst, src);
    return;
  }
  src.update_ghosts();
  DgKernelArgs<Number, ExecSpace> args;
  args.src = src.view();
  args.dst = dst.view();
  args.lines = lines_.data();
  args.box = layout_->box();
  args.laplace = static_cast<Number>(options_.laplace_coefficient);
  args.mass = static_cast<Number>(options_.mass_coefficient);
  args.cells_per_team = cells_per_team_;
  kernels_.apply(args);
}

template <class Number, class ExecSpace>
void DgLaplaceOperator<Number, ExecSpace>::compute_diagonal(vector_type& diag) const {
  DgKernelArgs<Number, ExecSpace> args;
  args.dst = diag.view();
  args.lines = lines_.data();
  args.box = layout_->box();
  args.laplace = static_cast<Number>(options_.laplace_coefficient);
  args.mass = static_cast<Number>(options_.mass_coefficient);
  kernels_.diagonal(args);
}

template <class Number, class ExecSpace>
double DgLaplaceOperator<Number, ExecSpace>::flops_per_vmult() const {
  const int dim = layout_->dim();
  const double n = layout_->degree() + 1;
  if (options_.evaluation == DgEvaluation::patch) {
    // Per patch of (2n)^d values the smoother's residual contractions (2D 4, 3D 7 of (2n)^(d+1)
    // multiply-adds) and 3 per value for the coefficients and the addition.
    double patches = 1;
    for (int d = 0; d < dim; ++d) patches *= double(layout_->mesh().n_cells()[d] - 1);
    const double N = 2 * n, values = std::pow(N, dim);
    return patches * ((dim == 2 ? 4 : 7) * 2 * N * values + 3 * values);
  }
  const double lines = dim == 2 ? n : n * n, cell = lines * n;
  // Cell part as the continuous kernel (2D 4, 3D 7 contractions + a t1 + b t0); per line 2(d−1)+2
  // face-data derivatives (n each) and 4 coupling terms per output in each direction; the masses
  // applied to the face data (2D: 4n per line, 3D: 4n (y) + 4n(n+1) (z)).
  const double contractions = dim == 2 ? 4 : 7;
  const double face_data = 2.0 * dim * n * lines;
  const double couplings = 4.0 * dim * cell;
  const double face_masses = dim == 2 ? 4 * n * lines : (4 * n + 4 * n * (n + 1)) * lines;
  const double per_cell = contractions * 2 * n * cell + 3 * cell + 2 * (face_data + couplings + face_masses);
  return per_cell * double(layout_->box().n_owned_cells);
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class DgLaplaceOperator<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
