#pragma once
/// @file
/// The exact solve of a small coarsest multigrid level: the operator assembled dense from its
/// element matrices (dense_low_order_matrix, the whole matrix on every rank), inverted once by
/// Gauss–Jordan elimination on the device (no pivoting: the operators it serves are symmetric
/// positive definite, Dirichlet rows identity; no host synchronisation between the pivots), and
/// applied as one dense matrix-vector product. Every rank keeps the rows of its owned DoFs; a solve
/// gathers the right-hand side on every rank (MPI_Allgatherv). (It assembled the matrix by applying
/// the operator to the N unit vectors before: N launches with host synchronisations, 0.6 s of
/// set-up at N = 2744 on an H200.)
///
/// Why: a Krylov coarse solve of a small but ill-conditioned level (elasticity with a 1e3 material
/// contrast: about 650 CG iterations on 3000 DoFs) is a chain of latency-bound launches and
/// reductions that costs more than the whole rest of a V-cycle on a GPU; the dense product is one
/// kernel of N² reads (72 MB at N = 3000, about 30 µs on an H100).

#include <memory>

#include "core/distributed_vector.hpp"

namespace tensormg {

template <class Operator>
class DenseCoarseInverse {
 public:
  using vector_type = typename Operator::vector_type;
  using execution_space = typename vector_type::execution_space;
  using memory_space = typename execution_space::memory_space;

  /// Collective; Operator is a LowOrderOperator (its layout and problem are assembled). The owned
  /// DoFs of each rank are the global DoFs [first, first + n_owned) in rank order (HexLayout's
  /// rank-contiguous numbering). Throws InputError when the global size exceeds
  /// max_dofs or a pivot is not positive (a singular or indefinite operator).
  DenseCoarseInverse(const Operator& op, global_index max_dofs);

  /// x = A⁻¹ b (owned entries; ghosts of x untouched).
  void vmult(vector_type& x, const vector_type& b) const;

  global_index size() const { return n_; }
  /// Device bytes: the rank's rows of the inverse and the gathered right-hand side.
  double device_bytes() const { return double(inverse_.span() + gathered_.span()) * sizeof(double); }

 private:
  MPI_Comm comm_;
  global_index n_ = 0;
  std::vector<int> counts_, displacements_;  ///< owned DoFs per rank and their first global DoF
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> inverse_;  ///< owned rows × N
  mutable Kokkos::View<double*, memory_space> gathered_;
  mutable std::vector<double> host_owned_, host_gathered_;
};

}  // namespace tensormg
