#include "multigrid/transfer.hpp"

#include "core/error.hpp"
#include "core/profiling.hpp"
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

/// One team per parent cell: three (2D: two) 1D contractions between the parent's (k+1)^d nodes
/// and the children's (2k+1)^d nodes in scratch memory; one thread per output point.
template <class Number, class ExecSpace>
struct TransferByParentCell {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  Kokkos::View<const Number*, typename ExecSpace::memory_space> in;
  Kokkos::View<Number*, typename ExecSpace::memory_space> out;
  Kokkos::View<const Number*, typename ExecSpace::memory_space> matrix;  // nf × nc
  NodeBox coarse, fine;
  int dim = 2, nc = 2, nf = 3, k = 1;
  int mode = 0;  // 0 assign, 1 add, 2 transpose
  int level = 0;

  KOKKOS_INLINE_FUNCTION static std::size_t buffer_entries(int dim, int nf) { return dim == 2 ? nf * nf : nf * nf * nf; }

  int cells_per_team = 1;
  local_index n_parents = 0;

  /// Coordinates of parent cell c.
  KOKKOS_INLINE_FUNCTION void parent(local_index c, local_index cc[3]) const {
    cc[0] = c % coarse.cells[0];
    cc[1] = (c / coarse.cells[0]) % coarse.cells[1];
    cc[2] = c / (coarse.cells[0] * coarse.cells[1]);
  }

  /// One 1D contraction along d on the boxes of all the team's cells (cell buffers `entries`
  /// apart): prolongation grows direction d from nc to nf, restriction shrinks it.
  KOKKOS_INLINE_FUNCTION void contract(const Member& team, int cells, int d, const int ext_in[3], const Number* src,
                                       Number* dst, bool transpose_step, int entries) const {
    int ext_out[3] = {ext_in[0], ext_in[1], ext_in[2]};
    ext_out[d] = transpose_step ? nc : nf;
    const int size = ext_out[0] * ext_out[1] * ext_out[2];
    const int stride_in = d == 0 ? 1 : (d == 1 ? ext_in[0] : ext_in[0] * ext_in[1]);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, cells * size), [&](int w) {
      const int cell = w / size, e = w % size;
      int i[3] = {e % ext_out[0], (e / ext_out[0]) % ext_out[1], e / (ext_out[0] * ext_out[1])};
      const int row = i[d];
      i[d] = 0;
      const Number* p = src + cell * entries + i[0] + ext_in[0] * (i[1] + ext_in[1] * i[2]);
      Number v = 0;
      if (transpose_step)
        for (int m = 0; m < nf; ++m) v += matrix(m * nc + row) * p[m * stride_in];
      else
        for (int m = 0; m < nc; ++m) v += matrix(row * nc + m) * p[m * stride_in];
      dst[cell * entries + e] = v;
    });
    team.team_barrier();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int entries = static_cast<int>(buffer_entries(dim, nf));
    Number* a = static_cast<Number*>(team.team_scratch(level).get_shmem(2 * entries * cells_per_team * sizeof(Number)));
    Number* b = a + entries * cells_per_team;
    const local_index first = team.league_rank() * cells_per_team;
    const int cells = n_parents - first < cells_per_team ? int(n_parents - first) : cells_per_team;
    const bool transpose = mode == 2;
    const int n_in = transpose ? nf : nc;
    int ext[3] = {n_in, n_in, dim == 3 ? n_in : 1};
    const int in_size = ext[0] * ext[1] * ext[2];
    // Gather: the parent's nodes, or (transpose) the children's nodes this parent owns.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, cells * in_size), [&](int w) {
      const int cell = w / in_size, e = w % in_size;
      local_index cc[3];
      parent(first + cell, cc);
      const int i[3] = {e % ext[0], (e / ext[0]) % ext[1], e / (ext[0] * ext[1])};
      Number v = 0;
      if (transpose) {
        bool owned = true;
        for (int d = 0; d < dim; ++d) owned = owned && (i[d] < 2 * k || cc[d] == coarse.cells[d] - 1);
        if (owned) v = in(fine.index(2 * cc[0] * k + i[0], 2 * cc[1] * k + i[1], dim == 3 ? 2 * cc[2] * k + i[2] : 0));
      } else {
        v = in(coarse.index(cc[0] * k + i[0], cc[1] * k + i[1], dim == 3 ? cc[2] * k + i[2] : 0));
      }
      a[cell * entries + e] = v;
    });
    team.team_barrier();
    Number* src = a;
    Number* dst = b;
    for (int d = 0; d < dim; ++d) {
      contract(team, cells, d, ext, src, dst, transpose, entries);
      ext[d] = transpose ? nc : nf;
      Number* t = src;
      src = dst;
      dst = t;
    }
    const int out_size = ext[0] * ext[1] * ext[2];
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, cells * out_size), [&](int w) {
      const int cell = w / out_size, e = w % out_size;
      local_index cc[3];
      parent(first + cell, cc);
      const int i[3] = {e % ext[0], (e / ext[0]) % ext[1], e / (ext[0] * ext[1])};
      const Number value = src[cell * entries + e];
      if (transpose) {
        Kokkos::atomic_add(&out(coarse.index(cc[0] * k + i[0], cc[1] * k + i[1], dim == 3 ? cc[2] * k + i[2] : 0)), value);
      } else {
        for (int d = 0; d < dim; ++d)
          if (i[d] == 2 * k && cc[d] != coarse.cells[d] - 1) return;  // written by the next parent
        const local_index idx = fine.index(2 * cc[0] * k + i[0], 2 * cc[1] * k + i[1], dim == 3 ? 2 * cc[2] * k + i[2] : 0);
        if (mode == 1) out(idx) += value;
        else out(idx) = value;
      }
    });
  }
};

/// Q1 by node: the 1D interpolation from the coarse nodes to the fine ones is 1 at even fine
/// nodes (coarse node i/2) and 1/2, 1/2 at odd ones (coarse nodes (i−1)/2, (i+1)/2); prolongation
/// takes the tensor product of these (≤ 2^d terms per fine node), restriction, its transpose, sums
/// the fine nodes 2j−1, 2j, 2j+1 with weights 1/2, 1, 1/2 per direction (≤ 3^d terms per coarse
/// node). Each thread writes its own output: no scratch, no barriers, no atomics.
template <class Number, class ExecSpace>
struct TransferByNodeQ1 {
  Kokkos::View<const Number*, typename ExecSpace::memory_space> in;
  Kokkos::View<Number*, typename ExecSpace::memory_space> out;
  NodeBox coarse, fine;
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
      } else if (mode == 2) {  // fine neighbours 2j−1, 2j, 2j+1 of coarse node j
        for (int s = -1; s <= 1; ++s) {
          const local_index f = 2 * i[d] + s;
          if (f < 0 || f >= fine.n[d]) continue;
          at[d][count[d]] = f;
          w[d][count[d]++] = s == 0 ? Number(1) : Number(0.5);
        }
      } else if (i[d] % 2 == 0) {
        at[d][0] = i[d] / 2;
        w[d][0] = 1;
        count[d] = 1;
      } else {
        at[d][0] = (i[d] - 1) / 2;
        at[d][1] = (i[d] + 1) / 2;
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
  int ranks = 1;
  MPI_Comm_size(coarse_->mesh().comm(), &ranks);
  TENSORMG_CHECK_COLLECTIVE(coarse_->mesh().comm(), ranks == 1,
                            "multigrid transfer runs on one MPI rank in this version (given " << ranks << ")");
  TENSORMG_CHECK(kernel_ != TransferKernel::by_node || coarse_->degree() == 1,
                 "the by-node transfer is for Q1 only (degree " << coarse_->degree() << ")");
  if (kernel_ == TransferKernel::automatic)
    kernel_ = coarse_->degree() == 1 ? TransferKernel::by_node : TransferKernel::by_parent_cell;
  const auto p = interpolation_matrix_1d(coarse_->degree());
  std::vector<Number> pn(p.begin(), p.end());
  matrix_ = decltype(matrix_)("tensormg::transfer::matrix", pn.size());
  Kokkos::deep_copy(matrix_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(pn.data(), pn.size()));
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::apply_by_node(Mode mode, vector_type& out, const vector_type& in) const {
  TransferByNodeQ1<Number, ExecSpace> kernel;
  kernel.in = in.view();
  kernel.out = out.view();
  kernel.coarse = coarse_->box();
  kernel.fine = fine_->box();
  kernel.mode = mode == Mode::assign ? 0 : mode == Mode::add ? 1 : 2;
  const NodeBox& o = mode == Mode::transpose ? kernel.coarse : kernel.fine;
  Kokkos::parallel_for(mode == Mode::transpose ? "tensormg::transfer::restrict_q1" : "tensormg::transfer::prolongate_q1",
                       Kokkos::RangePolicy<ExecSpace>(0, o.n[0] * o.n[1] * o.n[2]), kernel);
}

template <class Number, class ExecSpace>
void Transfer<Number, ExecSpace>::apply(Mode mode, vector_type& out, const vector_type& in) const {
  if (kernel_ == TransferKernel::by_node) return apply_by_node(mode, out, in);
  using Kernel = TransferByParentCell<Number, ExecSpace>;
  Kernel kernel;
  kernel.in = in.view();
  kernel.out = out.view();
  kernel.matrix = matrix_;
  kernel.coarse = coarse_->box();
  kernel.fine = fine_->box();
  kernel.dim = coarse_->dim();
  kernel.k = coarse_->degree();
  kernel.nc = kernel.k + 1;
  kernel.nf = 2 * kernel.k + 1;
  kernel.mode = mode == Mode::assign ? 0 : mode == Mode::add ? 1 : 2;
  const local_index parents = kernel.coarse.cells[0] * kernel.coarse.cells[1] * (kernel.dim == 3 ? kernel.coarse.cells[2] : 1);
  if (mode == Mode::transpose) out.fill(Number(0));
  if (parents == 0) return;
  // Several parent cells per team at low degree, so a team has ~256 points to work on (at k = 1
  // one cell per team of 128 threads left most of them idle: the transfer took half of a 3D Q1
  // V-cycle on the H100).
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const int points = static_cast<int>(Kernel::buffer_entries(kernel.dim, kernel.nf));
  kernel.cells_per_team = std::max(1, 256 / points);
  kernel.n_parents = parents;
  const std::size_t bytes = 2 * std::size_t(points) * kernel.cells_per_team * sizeof(Number) + 64;
  kernel.level = bytes <= std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0)) ? 0 : 1;
  const int team = host ? 1 : std::min(256, (kernel.cells_per_team * points + 31) / 32 * 32);
  typename Kernel::Policy policy((parents + kernel.cells_per_team - 1) / kernel.cells_per_team, team);
  policy.set_scratch_size(kernel.level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(mode == Mode::transpose ? "tensormg::transfer::restrict" : "tensormg::transfer::prolongate",
                       policy, kernel);
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
