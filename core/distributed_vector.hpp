#pragma once
/// @file
/// A vector distributed over MPI ranks: owned entries [0, n_owned) followed by ghost entries,
/// one Kokkos View in the execution space's memory. BLAS-1 on the owned range: the sweeps of
/// core/vector_sweeps.hpp (more loads in flight on a GPU), sums reduced over the ranks by MPI
/// (the max norm through Kokkos Kernels); with one rank the same code runs without messages.

#include <KokkosBlas1_nrminf.hpp>

#include <cmath>
#include <memory>

#include "core/error.hpp"
#include "core/partitioner.hpp"
#include "core/vector_sweeps.hpp"

namespace tensormg {

template <class Number, class ExecSpace = DefaultExec>
class DistributedVector {
 public:
  using value_type = Number;
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;
  using view_type = Kokkos::View<Number*, memory_space>;
  using partitioner_type = Partitioner<ExecSpace>;

  DistributedVector() = default;
  explicit DistributedVector(std::shared_ptr<const partitioner_type> partitioner, const std::string& name = "vector") {
    reinit(std::move(partitioner), name);
  }
  /// (Re)allocates for the given layout; all entries zero (set by the fill sweep, not by Kokkos'
  /// View initialization: see FillSweep).
  void reinit(std::shared_ptr<const partitioner_type> partitioner, const std::string& name = "vector") {
    partitioner_ = std::move(partitioner);
    data_ = view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tensormg::" + name), partitioner_->n_local());
    fill(Number(0));
  }
  /// Same layout as other, entries zero.
  template <class OtherNumber>
  void reinit_like(const DistributedVector<OtherNumber, ExecSpace>& other, const std::string& name = "vector") {
    reinit(other.partitioner(), name);
  }

  const std::shared_ptr<const partitioner_type>& partitioner() const { return partitioner_; }
  /// All local entries, owned then ghost.
  const view_type& view() const { return data_; }
  /// The owned entries.
  auto owned() const { return Kokkos::subview(data_, Kokkos::make_pair(local_index(0), n_owned())); }
  local_index n_owned() const { return partitioner_->n_owned(); }
  local_index n_local() const { return partitioner_->n_local(); }
  global_index size() const { return partitioner_->n_global(); }
  MPI_Comm comm() const { return partitioner_->comm(); }

  /// Ghost entries get the owners' values (the data View is shared, so this is const).
  void update_ghosts() const { partitioner_->update_ghosts(data_); }
  /// Ghost contributions are added to their owners, then ghosts are zero.
  void compress_add() { partitioner_->compress_add(data_); }
  void zero_ghosts() {
    Kokkos::deep_copy(ExecSpace(), Kokkos::subview(data_, Kokkos::make_pair(n_owned(), n_local())), Number(0));
  }

  /// Sets all entries, ghosts included.
  void fill(Number value) {
    sweep_for<Number, ExecSpace>("tensormg::vector::fill", data_.extent(0), FillSweep<view_type>{data_, value});
  }
  void copy_from(const DistributedVector& other) { Kokkos::deep_copy(ExecSpace(), data_, other.data_); }
  /// Copies owned entries of a vector of the same layout and another precision.
  template <class OtherNumber>
  void copy_converted_from(const DistributedVector<OtherNumber, ExecSpace>& other) {
    copy_scaled_converted_from(OtherNumber(1), other);
  }

  /// this_i = a x_i, formed in x's precision and rounded once to Number (owned entries): the
  /// scaled residual a lower-precision multigrid cycle takes.
  template <class OtherNumber>
  void copy_scaled_converted_from(OtherNumber a, const DistributedVector<OtherNumber, ExecSpace>& x) {
    using Other = typename DistributedVector<OtherNumber, ExecSpace>::view_type;
    sweep_for<Number, ExecSpace>("tensormg::vector::convert", std::size_t(n_owned()),
                                 ScaledConvertSweep<view_type, Other>{a, data_, x.view()});
  }
  /// this_i += a x_i with x in another precision, converted to Number first (owned entries).
  template <class OtherNumber>
  void add_converted(Number a, const DistributedVector<OtherNumber, ExecSpace>& x) {
    using Other = typename DistributedVector<OtherNumber, ExecSpace>::view_type;
    sweep_sum<Number, ExecSpace>("tensormg::vector::add_converted", std::size_t(n_owned()),
                                 AddConvertedSweep<view_type, Other>{a, data_, x.view()});
  }
  /// this_i = y_i − z_i, formed in y's precision and rounded once to Number (owned entries), and
  /// ‖y − z‖₂ over all ranks in y's precision: one sweep.
  template <class OtherNumber>
  OtherNumber assign_converted_difference(const DistributedVector<OtherNumber, ExecSpace>& y,
                                          const DistributedVector<OtherNumber, ExecSpace>& z) {
    using Other = typename DistributedVector<OtherNumber, ExecSpace>::view_type;
    const double local = sweep_sum<OtherNumber, ExecSpace>("tensormg::vector::assign_converted_difference",
                                                            std::size_t(n_owned()),
                                                            ConvertedDifferenceSweep<Other, view_type>{z.view(), y.view(), data_});
    return OtherNumber(std::sqrt(sum_over_ranks(local)));
  }

  /// this_i = a_i b_i (owned entries).
  void pointwise_multiply(const DistributedVector& a, const DistributedVector& b) {
    sweep_for<Number, ExecSpace>("tensormg::vector::pointwise_multiply", std::size_t(n_owned()),
                                 ProductSweep<view_type>{data_, a.view(), b.view()});
  }
  /// this_i = 1 / this_i (owned entries); zeros stay zero.
  void invert_entries() {
    sweep_for<Number, ExecSpace>("tensormg::vector::invert", std::size_t(n_owned()), ReciprocalSweep<view_type>{data_});
  }

  /// Σ x_i y_i over all owned entries of all ranks, summed in double.
  Number dot(const DistributedVector& y) const {
    const double local = sweep_sum<Number, ExecSpace>("tensormg::vector::dot", std::size_t(n_owned()),
                                                       DotSweep<view_type>{data_, y.data_});
    return Number(sum_over_ranks(local));
  }
  Number l2_norm() const { return std::sqrt(dot(*this)); }
  /// ‖y − this‖₂ over all owned entries of all ranks, summed in double; one sweep, nothing stored.
  Number l2_distance(const DistributedVector& y) const {
    const double local = sweep_sum<Number, ExecSpace>("tensormg::vector::l2_distance", std::size_t(n_owned()),
                                                       DifferenceSweep<view_type>{data_, y.data_});
    return Number(std::sqrt(sum_over_ranks(local)));
  }
  /// this ← y − this (owned entries) and its ‖·‖₂ over all ranks, in one sweep.
  Number subtract_from(const DistributedVector& y) {
    const double local = sweep_sum<Number, ExecSpace>("tensormg::vector::subtract_from", std::size_t(n_owned()),
                                                       DifferenceSweep<view_type, true>{data_, y.data_});
    return Number(std::sqrt(sum_over_ranks(local)));
  }
  Number linf_norm() const {
    Number local = n_owned() > 0 ? Number(KokkosBlas::nrminf(owned())) : Number(0);
    Number global = 0;
    MPI_Allreduce(&local, &global, 1, detail::mpi_type<Number>(), MPI_MAX, comm());
    return global;
  }
  // The updates below are sweeps (core/vector_sweeps.hpp: on a GPU each thread's 32 bytes of
  // every vector loaded before the first is used): KokkosBlas' axpby ran at about 1.1 TB/s on the
  // H100 where the sweeps reach the copy bandwidth (perf/results/h100-2026-12-06-outer-loop/g15).
  /// this *= a (owned entries; a = 0 sets zeros, NaN included, as BLAS does)
  void scale(Number a) {
    if (a == Number(0)) {
      sweep_for<Number, ExecSpace>("tensormg::vector::fill", std::size_t(n_owned()), FillSweep<view_type>{data_, Number(0)});
      return;
    }
    sweep_for<Number, ExecSpace>("tensormg::vector::scale", std::size_t(n_owned()),
                                 AxpbySweep<view_type, false>{a, Number(0), data_, data_});
  }
  /// this += a x (owned entries)
  void add(Number a, const DistributedVector& x) { axpby(a, x, Number(1)); }
  /// this = a x + b this (owned entries; b = 0: this is not read)
  void axpby(Number a, const DistributedVector& x, Number b) {
    if (b == Number(0))
      sweep_for<Number, ExecSpace>("tensormg::vector::axpby", std::size_t(n_owned()),
                                   AxpbySweep<view_type, false>{a, b, x.data_, data_});
    else
      sweep_for<Number, ExecSpace>("tensormg::vector::axpby", std::size_t(n_owned()),
                                   AxpbySweep<view_type>{a, b, x.data_, data_});
  }

 private:
  /// A rank's partial sum of a sweep, summed over the ranks.
  double sum_over_ranks(double local) const {
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm());
    return global;
  }
  std::shared_ptr<const partitioner_type> partitioner_;
  view_type data_;
};

}  // namespace tensormg
