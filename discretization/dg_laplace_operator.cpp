#include "discretization/dg_laplace_operator.hpp"

#include "core/error.hpp"
#include "core/profiling.hpp"

namespace tensormg {

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
}

template <class Number, class ExecSpace>
void DgLaplaceOperator<Number, ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::operator::dg_laplace::vmult");
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
