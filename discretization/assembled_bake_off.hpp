#pragma once
/// @file
/// The bake-off operators assembled from element matrices formed by plain quadrature: basis values
/// and gradients at every quadrature point as products of 1D values, G and w det J from the
/// geometry, no sum factorization. The reference of the tests (element by element and as a
/// KokkosSparse CRS matrix of the continuous operator with Dirichlet rows as identity); its cost
/// grows as n⁶ q³ per cell, so it is meant for small meshes.

#include <KokkosSparse_CrsMatrix.hpp>

#include <vector>

#include "core/distributed_vector.hpp"
#include "discretization/bake_off_kernel_table.hpp"
#include "discretization/deformed_geometry.hpp"

namespace tensormg {

template <class ExecSpace = DefaultExec>
class AssembledBakeOff {
 public:
  using vector_type = DistributedVector<double, ExecSpace>;
  using matrix_type = KokkosSparse::CrsMatrix<double, local_index, ExecSpace, void, std::int64_t>;

  AssembledBakeOff(const DeformedGeometry<ExecSpace>& geometry, BakeOff problem, double lambda);

  /// dst = A src on the L-vector, Dirichlet rows as identity (as BakeOffOperator::vmult).
  void vmult(vector_type& dst, const vector_type& src) const;
  /// The element products on the host: E-vectors [cell][n³] as BakeOffOperator::apply_elements.
  std::vector<double> apply_elements(const std::vector<double>& src) const;
  /// Element matrix entry (i, j) of the rank's cell c.
  double element_entry(local_index c, int i, int j) const { return elements_[(std::size_t(c) * n3_ + i) * n3_ + j]; }
  int nodes_per_cell() const { return n3_; }
  std::int64_t nnz() const { return matrix_.nnz(); }

 private:
  const ContinuousDofLayout<ExecSpace>* layout_;
  int n3_ = 0;
  std::vector<double> elements_;  // [cell][i][j]
  matrix_type matrix_;
};

}  // namespace tensormg
