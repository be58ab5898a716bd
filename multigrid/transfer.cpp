#include "multigrid/transfer.hpp"

#include "core/allreduce.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "core/kernel_table.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

std::vector<double> interpolation_matrix_1d(int degree) {
  const auto basis = LagrangeBasis1D::gauss_lobatto(degree);
  const int nc = degree + 1, nf = 2 * degree + 1;
  std::vector<double> p(nf * nc);
  for (int f = 0; f < nf; ++f) {
    const int child = f < degree ? 0 : (f == degree ? 0 : 1);
    const int local = f - child * degree;
    const double x = 0.5 * (child + basis.nodes()[local]);
    for (int c = 0; c < nc; ++c) p[f * nc + c] = basis.value(c, x);
  }
  return p;
}

namespace {

/// Q1 by node: the 1D interpolation from the coarse nodes to the fine ones is 1 at even fine
/// nodes (coarse node i/2) and 1/2, 1/2 at odd ones (coarse nodes (i−1)/2, (i+1)/2); prolongation
/// takes the tensor product of these (≤ 2^d terms per fine node), restriction, its transpose, sums
/// the fine nodes 2j−1, 2j, 2j+1 with weights 1/2, 1, 1/2 per direction (≤ 3^d terms per coarse
/// node). Each thread writes its own output: no scratch, no barriers, no atomics.
///
/// Several ranks: fine local node i lies over coarse local node offset + i/2 (offset 0 where the
/// boxes nest, the fine box's place in the whole coarse level where that is replicated).
/// Prolongation writes every local fine node, ghosts included, from the coarse nodes (with their
/// ghosts); restriction sums only the fine nodes this rank owns into every local coarse node, and
/// the caller adds the ranks' shares (compress_add into the owners, or the sum over the ranks).
template <class Number, class ExecSpace>
struct TransferByNodeQ1 {
  Kokkos::View<const Number*, typename ExecSpace::memory_space> in;
  Kokkos::View<Number*, typename ExecSpace::memory_space> out;
  NodeBox coarse, fine;
  local_index offset[3] = {0, 0, 0};  ///< coarse coordinate of fine node 0 (fine coordinate / 2)
  int mode = 0;  // 0 assign, 1 add, 2 transpose

  KOKKOS_INLINE_FUNCTION void operator()(local_index node) const {
    const NodeBox& o = mode == 2 ? coarse : fine;  // the box of the outputs
    const local_index i[3] = {node % o.n[0], (node / o.n[0]) % o.n[1], node / (o.n[0] * o.n[1])};
    // Per direction: the input nodes and their weights.
    local_index at[3][3];
    Number w[3][3];
    int count[3];
    for (int d = 0; d < 3; ++d) {
      count[d] = 0;
      if (d >= fine.dim) {
        at[d][0] = 0;
        w[d][0] = 1;
        count[d] = 1;
      } else if (mode == 2) {  // fine neighbours 2j−1, 2j, 2j+1 of coarse node j, those owned here
        for (int s = -1; s <= 1; ++s) {
          const local_index f = 2 * (i[d] - offset[d]) + s;
          if (f < 0 || f >= fine.o[d]) continue;
          at[d][count[d]] = f;
          w[d][count[d]++] = s == 0 ? Number(1) : Number(0.5);
        }
      } else if (i[d] % 2 == 0) {
        at[d][0] = offset[d] + i[d] / 2;
        w[d][0] = 1;
        count[d] = 1;
      } else {
        at[d][0] = offset[d] + (i[d] - 1) / 2;
        at[d][1] = offset[d] + (i[d] + 1) / 2;
        w[d][0] = w[d][1] = Number(0.5);
        count[d] = 2;
      }
    }
    const NodeBox& src = mode == 2 ? fine : coarse;
    Number v = 0;
    for (int c = 0; c < count[2]; ++c)
      for (int b = 0; b < count[1]; ++b) {
        Number row = 0;
        for (int a = 0; a < count[0]; ++a) row += w[0][a] * in(src.index(at[0][a], at[1][b], at[2][c]));
        v += w[2][c] * w[1][b] * row;
      }
    const local_index idx = o.index(i[0], i[1], i[2]);
    if (mode == 1) out(idx) += v;
    else out(idx) = v;
  }
};

}  // namespace

template <class Number, class ExecSpace>
Transfer<Number, ExecSpace>::Transfer(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> coarse,
                                      std::shared_ptr<const ContinuousDofLayout<ExecSpace>> fine, TransferKernel kernel)
    : coarse_(std::move(coarse)), fine_(std::move(fine)), kernel_(kernel) {
  TENSORMG_CHECK(coarse_->degree() == fine_->degree() && coarse_->dim() == fine_->dim(),
                 "transfer needs levels of equal degree and dimension");
  for (int d = 0; d < coarse_->dim(); ++d)
    TENSORMG_CHECK(2 * coarse_->mesh().n_cells()[d] == fine_->mesh().n_cells()[d],
                   "the fine level must refine the coarse level once in every direction");
  const MPI_Comm comm = fine_->mesh().comm();
  int ranks = 1, coarse_ranks = 1;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_size(coarse_->mesh().comm(), &coarse_ranks);
  replicated_coarse_ = ranks > 1 && coarse_ranks == 1;
  // The parents of the fine box: the same box on the same rank (nested), or the fine box's place
  // in the whole coarse mesh (replicated).
  const auto& fm = fine_->mesh();
  const auto& cm = coarse_->mesh();
  bool nested = true;
  const bool has = fm.n_local_cells() > 0;
  for (int d = 0; d < 3; ++d) {
    parents_[d] = d >= fine_->dim() ? 1 : has ? local_index((fm.cell_end()[d] - fm.cell_begin()[d]) / 2) : 0;
    parent_begin_[d] = replicated_coarse_ && has && d < fine_->dim() ? local_index(fm.cell_begin()[d] / 2) : 0;
    if (d >= fine_->dim() || !has) continue;
    if (replicated_coarse_) nested = nested && fm.cell_begin()[d] % 2 == 0 && fm.cell_end()[d] % 2 == 0;
    else nested = nested && cm.cell_begin()[d] * 2 == fm.cell_begin()[d] && cm.cell_end()[d] * 2 == fm.cell_end()[d];
  }
  TENSORMG_CHECK_COLLECTIVE(comm, nested,
                            "multigrid transfer: the fine level's rank boxes must refine the coarse level's (or the "
                            "coarse level must be replicated on every rank); build the levels with LevelHierarchy");
  TENSORMG_CHECK(kernel_ != TransferKernel::by_node || coarse_->degree() == 1,
                 "the by-node transfer is for Q1 only (degree " << coarse_->degree() << ")");
  if (kernel_ == TransferKernel::automatic)
    kernel_ = coarse_->degree() == 1 ? TransferKernel::by_node : TransferKernel::by_parent_cell;
  const auto p = interpolation_matrix_1d(coarse_->degree());
  matrix_.assign(p.begin(), p.end());
  launch_ = kernel_table<TransferKernelTable<Number, ExecSpace>>(coarse_->dim(), coarse_->degree(), [](auto d, auto k) {
              return transfer_kernels_of<decltype(d)::value, decltype(k)::value, Number, ExecSpace>();
            }).launch;
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::apply_by_node(Mode mode, vector_type& out, const vector_type& in) const {
  TransferByNodeQ1<Number, ExecSpace> kernel;
  kernel.in = in.view();
  kernel.out = out.view();
  kernel.coarse = coarse_->box();
  kernel.fine = fine_->box();
  kernel.mode = mode == Mode::assign ? 0 : mode == Mode::add ? 1 : 2;
  for (int d = 0; d < 3; ++d) kernel.offset[d] = parent_begin_[d];
  const NodeBox& o = mode == Mode::transpose ? kernel.coarse : kernel.fine;
  Kokkos::parallel_for(mode == Mode::transpose ? "tensormg::transfer::restrict_q1" : "tensormg::transfer::prolongate_q1",
                       Kokkos::RangePolicy<ExecSpace>(0, o.n[0] * o.n[1] * o.n[2]), kernel);
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::apply(Mode mode, vector_type& out, const vector_type& in) const {
  // Prolongation reads the parents' closure: the coarse ghosts (upper faces of the rank box).
  if (mode != Mode::transpose && !replicated_coarse_) in.update_ghosts();
  if (kernel_ == TransferKernel::by_node) {
    apply_by_node(mode, out, in);  // assigns every local output node: no zero fill first
  } else {
    if (mode == Mode::transpose) out.fill(Number(0));
    launch_parent_cells(mode, out, in);
  }
  if (mode != Mode::transpose) return;
  // Each rank has added its fine nodes' share: into the owners (nested), or summed over all ranks
  // (replicated coarse level).
  if (replicated_coarse_) allreduce_sum_in_place(out.view(), fine_->mesh().comm());
  else out.compress_add();
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::launch_parent_cells(Mode mode, vector_type& out, const vector_type& in) const {
  TransferArgs<Number, ExecSpace> args;
  args.in = in.view();
  args.out = out.view();
  args.coarse = coarse_->box();
  args.fine = fine_->box();
  args.mode = mode == Mode::assign ? 0 : mode == Mode::add ? 1 : 2;
  args.host_matrix = matrix_.data();
  for (int d = 0; d < 3; ++d) {
    args.parent_begin[d] = parent_begin_[d];
    args.parents[d] = parents_[d];
  }
  launch_(args);
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::prolongate(vector_type& fine, const vector_type& coarse) const {
  apply(Mode::assign, fine, coarse);
}
template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::prolongate_add(vector_type& fine, const vector_type& coarse) const {
  apply(Mode::add, fine, coarse);
}
template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::restrict_to(vector_type& coarse, const vector_type& fine) const {
  apply(Mode::transpose, coarse, fine);
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class Transfer<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
