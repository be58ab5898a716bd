#include "multigrid/dense_coarse_inverse.hpp"

#include <KokkosBlas2_gemv.hpp>

#include <cmath>

#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/low_order_operator.hpp"

namespace tensormg {

namespace {
/// One Gauss–Jordan step on the dense N × N matrix a (in place, pivot k): the pivot row scaled by
/// 1/p, every other row reduced by its entry in column k (saved first), column k replaced by the
/// inverse's entries. Returns false when the pivot is not positive and finite or below 1e-12 times
/// the original diagonal entry `diagonal` (a singular matrix leaves a rounding-size pivot).
template <class ExecSpace, class Matrix, class Column>
bool gauss_jordan_step(const Matrix& a, const Column& column, local_index k, double diagonal) {
  const local_index n = local_index(a.extent(0));
  double pivot = 0;
  Kokkos::deep_copy(pivot, Kokkos::subview(a, k, k));
  if (!(pivot > 1e-12 * diagonal) || !std::isfinite(pivot)) return false;
  const double p = 1.0 / pivot;
  Kokkos::parallel_for(
      "tensormg::dense_coarse_inverse::pivot_row", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(local_index j) {
        column(j) = a(j, k);
        a(k, j) = j == k ? p : a(k, j) * p;
      });
  Kokkos::parallel_for(
      "tensormg::dense_coarse_inverse::eliminate",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({0, 0}, {n, n}), KOKKOS_LAMBDA(local_index i, local_index j) {
        if (i == k) return;
        const double f = column(i);
        a(i, j) = j == k ? -f * p : a(i, j) - f * a(k, j);
      });
  return true;
}

/// rows(i, j) = y(i) for the owned entries i (a free function: no device lambda in a constructor).
template <class ExecSpace, class Matrix, class Vector>
void copy_column(const Matrix& rows, const Vector& y, local_index j) {
  Kokkos::parallel_for(
      "tensormg::dense_coarse_inverse::column", Kokkos::RangePolicy<ExecSpace>(0, local_index(rows.extent(0))),
      KOKKOS_LAMBDA(local_index i) { rows(i, j) = y(i); });
}

template <class ExecSpace, class Matrix, class Vector>
void copy_diagonal(const Matrix& a, const Vector& d) {
  Kokkos::parallel_for(
      "tensormg::dense_coarse_inverse::diagonal", Kokkos::RangePolicy<ExecSpace>(0, local_index(d.extent(0))),
      KOKKOS_LAMBDA(local_index i) { d(i) = a(i, i); });
}
}  // namespace

template <class Operator>
DenseCoarseInverse<Operator>::DenseCoarseInverse(const Operator& op, global_index max_dofs) {
  ScopedRegion region("tensormg::dense_coarse_inverse::setup");
  vector_type e = op.make_vector("dense_coarse_unit"), y = op.make_vector("dense_coarse_column");
  comm_ = e.comm();
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm_, &ranks);
  MPI_Comm_rank(comm_, &rank);
  const int owned = int(e.n_owned());
  counts_.assign(ranks, 0);
  MPI_Allgather(&owned, 1, MPI_INT, counts_.data(), 1, MPI_INT, comm_);
  displacements_.assign(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r) displacements_[r + 1] = displacements_[r] + counts_[r];
  n_ = displacements_[ranks];
  TENSORMG_CHECK_COLLECTIVE(comm_, n_ <= max_dofs,
                            "the dense coarse solve takes at most " << max_dofs << " DoFs, the coarse level has " << n_);
  const global_index first = displacements_[rank];
  const local_index n = local_index(n_);

  // The rank's rows of A, column by column: A e_j.
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> rows("tensormg::dense_coarse_inverse::rows", owned, n);
  const auto ev = e.view();
  const auto yv = y.view();
  for (local_index j = 0; j < n; ++j) {
    const bool mine = j >= first && j < first + owned;
    if (mine) Kokkos::deep_copy(Kokkos::subview(ev, j - first), 1.0);
    op.vmult(y, e);
    if (mine) Kokkos::deep_copy(Kokkos::subview(ev, j - first), 0.0);
    copy_column<execution_space>(rows, yv, j);
  }
  // The whole matrix on every rank.
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> a("tensormg::dense_coarse_inverse::matrix", n, n);
  if (ranks == 1) {
    Kokkos::deep_copy(a, rows);
  } else {
    auto host_rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
    auto host_a = Kokkos::create_mirror_view(a);
    std::vector<int> counts(ranks), displacements(ranks);
    for (int r = 0; r < ranks; ++r) counts[r] = counts_[r] * n, displacements[r] = displacements_[r] * n;
    MPI_Allgatherv(host_rows.data(), owned * n, MPI_DOUBLE, host_a.data(), counts.data(), displacements.data(),
                   MPI_DOUBLE, comm_);
    Kokkos::deep_copy(a, host_a);
  }
  Kokkos::View<double*, memory_space> column("tensormg::dense_coarse_inverse::pivot_column", n);
  std::vector<double> diagonal(n);
  copy_diagonal<execution_space>(a, column);
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(diagonal.data(), n), column);
  bool positive = true;
  for (local_index k = 0; k < n && positive; ++k)
    positive = gauss_jordan_step<execution_space>(a, column, k, diagonal[k]);
  // Every rank eliminated the same matrix: the same outcome everywhere.
  TENSORMG_CHECK(positive, "the coarse-level matrix is not positive definite (a pivot of the dense elimination is "
                           "not positive): is the problem singular (no Dirichlet vertex on the coarse level)?");
  inverse_ = decltype(inverse_)("tensormg::dense_coarse_inverse::inverse", owned, n);
  Kokkos::deep_copy(inverse_, Kokkos::subview(a, Kokkos::make_pair(local_index(first), local_index(first + owned)),
                                              Kokkos::ALL()));
  if (ranks > 1) {
    gathered_ = Kokkos::View<double*, memory_space>("tensormg::dense_coarse_inverse::gathered", n);
    host_owned_.resize(owned);
    host_gathered_.resize(n);
  }
}

template <class Operator>
void DenseCoarseInverse<Operator>::vmult(vector_type& x, const vector_type& b) const {
  ScopedRegion region("tensormg::dense_coarse_inverse::solve");
  const auto owned = Kokkos::make_pair(local_index(0), x.n_owned());
  const auto x_owned = Kokkos::subview(x.view(), owned);
  if (counts_.size() == 1) {
    KokkosBlas::gemv("N", 1.0, inverse_, Kokkos::subview(b.view(), owned), 0.0, x_owned);
    return;
  }
  using Unmanaged = Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(Unmanaged(host_owned_.data(), host_owned_.size()), Kokkos::subview(b.view(), owned));
  MPI_Allgatherv(host_owned_.data(), int(host_owned_.size()), MPI_DOUBLE, host_gathered_.data(), counts_.data(),
                 displacements_.data(), MPI_DOUBLE, comm_);
  Kokkos::deep_copy(gathered_, Unmanaged(host_gathered_.data(), host_gathered_.size()));
  KokkosBlas::gemv("N", 1.0, inverse_, gathered_, 0.0, x_owned);
}

template class DenseCoarseInverse<LowOrderOperator<DefaultExec>>;
TENSORMG_IF_SECOND_SPACE(template class DenseCoarseInverse<LowOrderOperator<SecondaryExec>>;)

}  // namespace tensormg
