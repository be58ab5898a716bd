#include "multigrid/transfer.hpp"

#include <algorithm>
#include <cstdint>

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
/// node). Each thread writes its own output: no scratch, no barriers, no atomics. A thread reads a
/// fixed 2^d (prolongation) or 3^d (restriction) inputs, missing ones at a clamped coordinate
/// with weight zero, and indexes the owned box directly where its inputs are owned (the form of
/// the Q1 stencil kernels, discretization/q1_stencil.hpp: the guarded loads and NodeBox::index
/// calls of the first form cost more instructions than the loads).
///
/// Several ranks: fine local node i lies over coarse local node offset + i/2 (offset 0 where the
/// boxes nest, the fine box's place in the whole coarse level where that is replicated).
/// Prolongation writes every local fine node, ghosts included, from the coarse nodes (with their
/// ghosts); restriction sums only the fine nodes this rank owns into every local coarse node, and
/// the caller adds the ranks' shares (compress_add into the owners, or the sum over the ranks).
///
/// 3D with z_nodes > 1: a thread per segment of z_nodes outputs of an (x, y) column, which forms
/// each input plane's x-y sum once: prolongation, the 2 × 2 sum of coarse plane j serves fine
/// planes 2j − 1, 2j and 2j + 1 (4 loads for two fine nodes instead of 16); restriction, the 3 × 3
/// sum of fine plane 2j + 1 serves coarse nodes j and j + 1 (18 loads a coarse node instead of 27).
/// A thread per node issued about as many instructions as a node has loads: in float the
/// prolongation ran 1.14x and the restriction 1.23x the double one (H100, FMG Q1 at 1.35e8 DoFs,
/// kernel timer, perf/results/h100-2026-12-06-outer-loop/g14), bandwidth would give 2x.
template <int dim, int mode, class Number, class ExecSpace>  // mode: 0 assign, 1 add, 2 transpose
struct TransferByNodeQ1 {
  static constexpr int taps = mode == 2 ? 3 : 2;  ///< inputs per direction
  Kokkos::View<const Number*, typename ExecSpace::memory_space> in;
  Kokkos::View<Number*, typename ExecSpace::memory_space> out;
  NodeBox coarse, fine;
  local_index offset[3] = {0, 0, 0};  ///< coarse coordinate of fine node 0 (fine coordinate / 2)
  local_index z_nodes = 1;            ///< 3D: outputs of a column per thread (1: a thread per node)

  /// Per direction d of output coordinate i: the inputs' coordinates and weights. Restriction: the
  /// fine neighbours 2j − 1, 2j, 2j + 1 of coarse node j, those owned here (false where this rank
  /// owns no fine node in direction d: the outputs are zero); prolongation: the coarse parents of
  /// fine node i, one (even i, the second at weight zero) or two (odd).
  KOKKOS_FORCEINLINE_FUNCTION bool taps_of(int d, local_index i, local_index (&at)[taps], Number (&w)[taps]) const {
    if constexpr (mode == 2) {
      if (fine.o[d] == 0) return false;
      for (int s = 0; s < 3; ++s) {
        const local_index f = 2 * (i - offset[d]) + s - 1;
        const bool owned = f >= 0 && f < fine.o[d];
        at[s] = owned ? f : (f < 0 ? 0 : fine.o[d] - 1);
        w[s] = owned ? (s == 1 ? Number(1) : Number(0.5)) : Number(0);
      }
    } else {
      const bool odd = i % 2 != 0;
      at[0] = offset[d] + i / 2;
      at[1] = offset[d] + (i + 1) / 2;
      w[0] = odd ? Number(0.5) : Number(1);
      w[1] = odd ? Number(0.5) : Number(0);
    }
    return true;
  }

  /// The x-y weighted sum of input plane z.
  KOKKOS_FORCEINLINE_FUNCTION Number plane(const NodeBox& src, bool fast, const local_index (&ax)[taps],
                                           const local_index (&ay)[taps], const Number (&wx)[taps],
                                           const Number (&wy)[taps], local_index z) const {
    Number v = 0;
    for (int b = 0; b < taps; ++b) {
      Number row = 0;
      for (int a = 0; a < taps; ++a) row += wx[a] * in(index(src, fast, ax[a], ay[b], z));
      v += wy[b] * row;
    }
    return v;
  }

  /// Outputs [z0, z1) of column (ix, iy), 3D.
  KOKKOS_INLINE_FUNCTION void column(local_index ix, local_index iy, local_index z0, local_index z1) const {
    const NodeBox& o = mode == 2 ? coarse : fine;
    const NodeBox& src = mode == 2 ? fine : coarse;
    local_index ax[taps] = {}, ay[taps] = {};
    Number wx[taps] = {}, wy[taps] = {};
    const bool fast_xy_out = ix < o.o[0] && iy < o.o[1];
    if (!taps_of(0, ix, ax, wx) || !taps_of(1, iy, ay, wy) || (mode == 2 && fine.o[2] == 0)) {
      for (local_index iz = z0; iz < z1; ++iz) out(index(o, fast_xy_out && iz < o.o[2], ix, iy, iz)) = Number(0);
      return;
    }
    if constexpr (mode == 2) {
      // Coarse node j sums fine planes 2j' − 1, 2j', 2j' + 1 (j' = j − offset), those owned here.
      const local_index last = fine.o[2] - 1;
      const auto clamp = [&](local_index f) { return f < 0 ? local_index(0) : (f > last ? last : f); };
      const auto owned = [&](local_index f) { return f >= 0 && f <= last; };
      local_index f = 2 * (z0 - offset[2]) - 1;
      Number below = plane(src, true, ax, ay, wx, wy, clamp(f));
      for (local_index iz = z0; iz < z1; ++iz, f += 2) {
        const Number mid = plane(src, true, ax, ay, wx, wy, clamp(f + 1));
        const Number above = plane(src, true, ax, ay, wx, wy, clamp(f + 2));
        const Number v = (owned(f) ? Number(0.5) : Number(0)) * below + (owned(f + 1) ? Number(1) : Number(0)) * mid +
                         (owned(f + 2) ? Number(0.5) : Number(0)) * above;
        out(index(o, fast_xy_out && iz < o.o[2], ix, iy, iz)) = v;
        below = above;
      }
    } else {
      // Fine node i lies on coarse plane j = offset + i/2 (even i) or between j and j + 1 (odd).
      const bool fast = ax[1] < src.o[0] && ay[1] < src.o[1] && offset[2] + z1 / 2 < src.o[2];
      local_index j = offset[2] + z0 / 2;
      Number lower = fast ? plane(src, true, ax, ay, wx, wy, j) : plane(src, false, ax, ay, wx, wy, j);
      for (local_index iz = z0; iz < z1; ++iz) {
        Number v = lower;
        if (iz % 2 != 0) {
          ++j;
          const Number upper = fast ? plane(src, true, ax, ay, wx, wy, j) : plane(src, false, ax, ay, wx, wy, j);
          v = Number(0.5) * (lower + upper);
          lower = upper;
        }
        const local_index idx = index(o, fast_xy_out && iz < o.o[2], ix, iy, iz);
        if constexpr (mode == 1) out(idx) += v;
        else out(idx) = v;
      }
    }
  }

  /// Index of a node of a box; fast: owned, lexicographic in the owned box (NodeBox).
  KOKKOS_FORCEINLINE_FUNCTION static local_index index(const NodeBox& b, bool fast, local_index x, local_index y,
                                                       local_index z) {
    return fast ? x + b.o[0] * (y + b.o[1] * z) : b.index(x, y, z);
  }

  KOKKOS_INLINE_FUNCTION void operator()(local_index node) const {
    const NodeBox& o = mode == 2 ? coarse : fine;  // the box of the outputs
    const NodeBox& src = mode == 2 ? fine : coarse;
    if constexpr (dim == 3) {
      if (z_nodes > 1) {
        const local_index ix = node % o.n[0], rest = node / o.n[0];
        const local_index z0 = (rest / o.n[1]) * z_nodes;
        column(ix, rest % o.n[1], z0, z0 + z_nodes < o.n[2] ? z0 + z_nodes : o.n[2]);
        return;
      }
    }
    const local_index i[3] = {node % o.n[0], (node / o.n[0]) % o.n[1], node / (o.n[0] * o.n[1])};
    // Per direction a fixed number of inputs: coordinates clamped into the owned range where an
    // input does not exist (a fine node another rank owns, the even node's second parent) and
    // its weight zero, so that every load is unconditional and the loops have constant trip counts.
    local_index at[3][taps] = {};
    Number w[3][taps] = {};
    bool fast = true;
    for (int d = 0; d < dim; ++d) {
      if (!taps_of(d, i[d], at[d], w[d])) {  // this rank owns no fine node: its share is zero
        out(o.index(i[0], i[1], i[2])) = Number(0);
        return;
      }
      fast = fast && at[d][taps - 1] < src.o[d];
    }
    if constexpr (dim == 2) w[2][0] = Number(1);
    Number v = 0;
    for (int c = 0; c < (dim == 3 ? taps : 1); ++c)
      for (int b = 0; b < taps; ++b) {
        Number row = 0;
        for (int a = 0; a < taps; ++a) row += w[0][a] * in(index(src, fast, at[0][a], at[1][b], at[2][c]));
        v += w[2][c] * w[1][b] * row;
      }
    const bool fast_out = i[0] < o.o[0] && i[1] < o.o[1] && i[2] < o.o[2];
    const local_index idx = index(o, fast_out, i[0], i[1], i[2]);
    if constexpr (mode == 1) out(idx) += v;
    else out(idx) = v;
  }
};

}  // namespace

template <class Number, class ExecSpace>
Transfer<Number, ExecSpace>::Transfer(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> coarse,
                                      std::shared_ptr<const ContinuousDofLayout<ExecSpace>> fine, TransferKernel kernel,
                                      int column_nodes)
    : coarse_(std::move(coarse)), fine_(std::move(fine)), kernel_(kernel), z_nodes_(column_nodes) {
  TENSORMG_CHECK(column_nodes >= 0, "transfer column nodes must be >= 0 (0: automatic), given " << column_nodes);
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
local_index Transfer<Number, ExecSpace>::column_nodes(const NodeBox& o) const {
  if (o.n[2] == 0) return 1;
  if (z_nodes_ > 0) return std::min<local_index>(z_nodes_, o.n[2]);
  // Automatic: a node per thread on the host (its threads walk the nodes in memory order); a GPU
  // keeps about 2^21 threads or more, columns cut into segments of at most 16 outputs.
  if (runs_on_host<ExecSpace>()) return 1;
  const std::int64_t nodes = std::int64_t(o.n[0]) * o.n[1] * o.n[2];
  return local_index(std::clamp<std::int64_t>(nodes >> 21, 1, std::min<std::int64_t>(16, o.n[2])));
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::apply_by_node(Mode mode, vector_type& out, const vector_type& in) const {
  const auto run = [&](auto kernel) {
    kernel.in = in.view();
    kernel.out = out.view();
    kernel.coarse = coarse_->box();
    kernel.fine = fine_->box();
    for (int d = 0; d < 3; ++d) kernel.offset[d] = parent_begin_[d];
    const NodeBox& o = mode == Mode::transpose ? kernel.coarse : kernel.fine;
    kernel.z_nodes = o.dim == 3 ? column_nodes(o) : 1;
    const local_index segments = o.dim == 3 ? (o.n[2] + kernel.z_nodes - 1) / kernel.z_nodes : 1;
    Kokkos::parallel_for(mode == Mode::transpose ? "tensormg::transfer::restrict_q1" : "tensormg::transfer::prolongate_q1",
                         Kokkos::RangePolicy<ExecSpace>(0, o.n[0] * o.n[1] * segments), kernel);
  };
  const bool three = coarse_->dim() == 3;
  switch (mode) {
    case Mode::assign:
      return three ? run(TransferByNodeQ1<3, 0, Number, ExecSpace>{}) : run(TransferByNodeQ1<2, 0, Number, ExecSpace>{});
    case Mode::add:
      return three ? run(TransferByNodeQ1<3, 1, Number, ExecSpace>{}) : run(TransferByNodeQ1<2, 1, Number, ExecSpace>{});
    case Mode::transpose:
      return three ? run(TransferByNodeQ1<3, 2, Number, ExecSpace>{}) : run(TransferByNodeQ1<2, 2, Number, ExecSpace>{});
  }
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
