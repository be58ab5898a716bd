#include "multigrid/dg_transfer.hpp"

#include "core/allreduce.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
DgTransfer<Number, ExecSpace>::DgTransfer(std::shared_ptr<const DgDofLayout<ExecSpace>> coarse,
                                          std::shared_ptr<const DgDofLayout<ExecSpace>> fine)
    : coarse_(std::move(coarse)), fine_(std::move(fine)) {
  const CellBox &c = coarse_->box(), &f = fine_->box();
  const int dim = c.dim, k = c.degree, n = k + 1;
  int ranks = 1, coarse_ranks = 1;
  MPI_Comm_size(fine_->mesh().comm(), &ranks);
  MPI_Comm_size(coarse_->mesh().comm(), &coarse_ranks);
  // Nested rank boxes, or a coarse level replicated on every rank (LevelHierarchy) whose part
  // under the fine box is restricted here and summed over the ranks.
  replicated_coarse_ = ranks > 1 && coarse_ranks == 1;
  bool nested = f.dim == dim && f.degree == k;
  for (int d = 0; d < 3; ++d) {
    parent_begin_[d] = 0;
    parents_[d] = d < dim ? f.cells[d] / 2 : 1;
  }
  for (int d = 0; d < dim && nested; ++d) {
    nested = f.global_cells[d] == 2 * c.global_cells[d];
    if (replicated_coarse_) {
      nested = nested && f.offset[d] % 2 == 0 && f.cells[d] % 2 == 0;
      parent_begin_[d] = local_index(f.offset[d] / 2);
    } else {
      nested = nested && f.offset[d] == 2 * c.offset[d] && f.cells[d] == 2 * c.cells[d];
    }
  }
  if (f.n_owned_cells == 0)
    for (int d = 0; d < 3; ++d) parents_[d] = 0;
  TENSORMG_CHECK_COLLECTIVE(fine_->mesh().comm(), nested,
                            "DG transfer: the fine level must be the coarse one refined once, with the same degree and "
                            "rank boxes that nest (or a coarse level replicated on every rank): build the levels "
                            "with LevelHierarchy");
  kernels_ = dg_transfer_kernels<Number, ExecSpace>(dim, k);
  const auto basis = LagrangeBasis1D::gauss_lobatto(k);
  const auto& points = basis.nodes();
  p_.resize(2 * n * n);
  for (int child = 0; child < 2; ++child)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) p_[(child * n + i) * n + j] = basis.value(j, 0.5 * (child + points[i]));
}

template <class Number, class ExecSpace>
void DgTransfer<Number, ExecSpace>::launch(vector_type& out, const vector_type& in, bool prolongate, bool add) const {
  DgTransferArgs<Number, ExecSpace> args;
  args.in = in.view();
  args.out = out.view();
  args.coarse = coarse_->box();
  args.fine = fine_->box();
  args.prolongate = prolongate;
  args.add = add;
  args.host_matrices = p_.data();
  for (int d = 0; d < 3; ++d) {
    args.parent_begin[d] = parent_begin_[d];
    args.parents[d] = parents_[d];
  }
  if (!prolongate && replicated_coarse_) out.fill(Number(0));
  kernels_.launch(args);
  // Each coarse cell was written by the one rank that owns its children: the sum is exact.
  if (!prolongate && replicated_coarse_) allreduce_sum_in_place(out.view(), fine_->mesh().comm());
}

template <class Number, class ExecSpace>
void DgTransfer<Number, ExecSpace>::prolongate(vector_type& fine, const vector_type& coarse) const {
  ScopedRegion region("tensormg::dg_transfer::prolongate");
  launch(fine, coarse, true, false);
}

template <class Number, class ExecSpace>
void DgTransfer<Number, ExecSpace>::prolongate_add(vector_type& fine, const vector_type& coarse) const {
  ScopedRegion region("tensormg::dg_transfer::prolongate_add");
  launch(fine, coarse, true, true);
}

template <class Number, class ExecSpace>
void DgTransfer<Number, ExecSpace>::restrict_to(vector_type& coarse, const vector_type& fine) const {
  ScopedRegion region("tensormg::dg_transfer::restrict");
  launch(coarse, fine, false, false);
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class DgTransfer<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
