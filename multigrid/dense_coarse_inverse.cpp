#include "multigrid/dense_coarse_inverse.hpp"

#include <KokkosBlas2_gemv.hpp>

#include <cstdint>

#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/assembled_low_order.hpp"
#include "discretization/low_order_operator.hpp"

namespace tensormg {

namespace {
/// Gauss–Jordan elimination of the dense N × N matrix a in place (no pivoting), two launches per
/// pivot k and no host synchronisation: the pivot's column and row are saved, then every entry is
/// updated (row k scaled by 1/p, the other rows reduced by their entry in column k, column k
/// replaced by the inverse's entries). A pivot that is not positive and finite or below 1e-12
/// times the original diagonal entry (a singular matrix leaves a rounding-size pivot) records its
/// index + 1 (the first such pivot), returned at the end (the entries are meaningless then); 0:
/// every pivot passed. A free function: no device lambda in a constructor.
template <class ExecSpace, class Matrix>
local_index gauss_jordan(const Matrix& a) {
  using mem = typename ExecSpace::memory_space;
  const local_index n = local_index(a.extent(0));
  Kokkos::View<double*, mem> diagonal("tensormg::dense_coarse_inverse::diagonal", n),
      column("tensormg::dense_coarse_inverse::pivot_column", n), row("tensormg::dense_coarse_inverse::pivot_row", n);
  Kokkos::View<local_index, mem> failed("tensormg::dense_coarse_inverse::failed");
  Kokkos::parallel_for(
      "tensormg::dense_coarse_inverse::diagonal", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(local_index i) { diagonal(i) = a(i, i); });
  for (local_index k = 0; k < n; ++k) {
    Kokkos::parallel_for(
        "tensormg::dense_coarse_inverse::pivot", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(local_index j) {
          column(j) = a(j, k);
          row(j) = a(k, j);
          const double pivot = a(k, k);
          // NaN and inf fail too.
          if (j == k && !(pivot > 1e-12 * diagonal(k) && pivot <= 1.7976931348623157e308))
            Kokkos::atomic_compare_exchange(&failed(), local_index(0), k + 1);
        });
    // Flat over the entries, consecutive threads along a row (an MDRange over (i, j) iterates i
    // fastest on a GPU: strided accesses, 0.45 s of set-up at N = 2744 on an H200).
    Kokkos::parallel_for(
        "tensormg::dense_coarse_inverse::eliminate", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                                         0, std::int64_t(n) * n),
        KOKKOS_LAMBDA(std::int64_t e) {
          const local_index i = local_index(e / n), j = local_index(e % n);
          const double p = 1.0 / column(k);
          if (i == k)
            a(k, j) = j == k ? p : row(j) * p;
          else
            a(i, j) = j == k ? -column(i) * p : a(i, j) - column(i) * (row(j) * p);
        });
  }
  local_index first_failed = 0;
  Kokkos::deep_copy(first_failed, failed);
  return first_failed;
}
}  // namespace

template <class Operator>
DenseCoarseInverse<Operator>::DenseCoarseInverse(const Operator& op, global_index max_dofs) {
  ScopedRegion region("tensormg::dense_coarse_inverse::setup");
  const auto& layout = op.layout();
  comm_ = layout.comm();
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm_, &ranks);
  MPI_Comm_rank(comm_, &rank);
  const int owned = int(layout.n_owned_vertices() * layout.components());
  counts_.assign(ranks, 0);
  MPI_Allgather(&owned, 1, MPI_INT, counts_.data(), 1, MPI_INT, comm_);
  displacements_.assign(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r) displacements_[r + 1] = displacements_[r] + counts_[r];
  n_ = displacements_[ranks];
  // The whole matrix on every rank (n_ checked against max_dofs before it is allocated).
  const auto a = dense_low_order_matrix(layout, op.options().problem, max_dofs);
  const local_index failed = gauss_jordan<execution_space>(a);
  // Every rank eliminated the same matrix: the same outcome everywhere.
  TENSORMG_CHECK(failed == 0, "the coarse-level matrix is not positive definite (pivot "
                                  << failed - 1 << " of the dense elimination is not positive): is the problem "
                                  << "singular (no Dirichlet vertex on the coarse level)?");
  const global_index first = displacements_[rank];
  inverse_ = decltype(inverse_)("tensormg::dense_coarse_inverse::inverse", owned, n_);
  Kokkos::deep_copy(inverse_, Kokkos::subview(a, Kokkos::make_pair(local_index(first), local_index(first + owned)),
                                              Kokkos::ALL()));
  if (ranks > 1) {
    gathered_ = Kokkos::View<double*, memory_space>("tensormg::dense_coarse_inverse::gathered", n_);
    host_owned_.resize(owned);
    host_gathered_.resize(n_);
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
