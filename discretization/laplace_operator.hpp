#pragma once
/// @file
/// Matrix-free continuous Q_k operator a·(−Δ) + b·(mass) with homogeneous Dirichlet rows
/// eliminated: vmult reads Dirichlet entries of src as zero and returns them unchanged in dst
/// (identity rows), so the operator is symmetric positive definite on the whole vector.
/// Host-built data (1D matrices, NodeBox) + device functor (laplace_kernels.hpp); (dim, k)
/// dispatched at run time from one table (laplace_instantiate_*.cpp).

#include <memory>
#include <string>
#include <vector>

#include "core/device_traits.hpp"
#include "core/distributed_vector.hpp"
#include "core/error.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "discretization/laplace_kernel_table.hpp"
#include "discretization/q1_stencil.hpp"

namespace tensormg {

/// How cell contributions are summed into the global vector.
enum class ScatterMode {
  automatic,       ///< the tuning row's: simd (host rows where it wins), gather where the row says, else store_interior
  atomic,          ///< all cells in one launch, atomic adds
  store_interior,  ///< all cells in one launch, plain stores at the nodes inside a cell (k >= 3), atomic adds elsewhere
  coloring,        ///< 2^d launches over cells of equal parity, plain adds
  gather,          ///< every node sums its cells' contributions itself: k = 1 the stencil (laplace_q1_gather.hpp),
                   ///< k >= 2 the Kronecker sum of banded 1D matrices by tiles (laplace_gather.hpp)
  simd             ///< host only: cells in the lanes of a vector register, rows of cells per thread in
                   ///< parity colours, plain adds (laplace_simd.hpp)
};
std::string to_string(ScatterMode m);
ScatterMode parse_scatter_mode(const std::string& text);

/// Refuses, by a local InputError, a scatter mode ExecSpace does not run (simd on a GPU); the
/// operator checks it collectively, programs with their options.
template <class ExecSpace>
void check_scatter_mode(ScatterMode m) {
  TENSORMG_CHECK(m != ScatterMode::simd || runs_on_host<ExecSpace>(),
                 "scatter mode simd (cells in the lanes of CPU vector registers) runs on the host only; on "
                     << ExecSpace::name() << " choose auto, atomic, store-interior, coloring or gather");
}

struct LaplaceOptions {
  double laplace_coefficient = 1;  ///< a
  double mass_coefficient = 0;     ///< b
  ScatterMode scatter = ScatterMode::automatic;  ///< resolved by the constructor
  int cells_per_team = 0;          ///< 0: chosen per (dim, k) and backend
  /// ScatterMode::gather: k = 1 in 3D nodes of a z column per thread (1: a thread per node); k >= 2
  /// z nodes per team (2D: y nodes), rounded up to whole cells. 0: the tuning row's; at least the
  /// column's length: the whole column.
  int gather_z_nodes = 0;
  /// ScatterMode::gather at k >= 2: segments of k nodes per team in x and y (3D) (0: the tuning
  /// row's); a GPU team has a thread per output column of the tile.
  int gather_tile_x = 0, gather_tile_y = 0;
};

/// The tile of the gathering operator at k >= 2 (laplace_gather.hpp) that `options` ask for in
/// (dim, k) on ExecSpace (their values, else the tuning row's); throws a local InputError naming
/// the limit a tile breaks (threads of a GPU team, team scratch). The constructor calls it; a
/// program checks its options with it before building anything.
template <class Number, class ExecSpace = DefaultExec>
GatherTile gather_tile_of(int dim, int k, const LaplaceOptions& options);

template <class Number, class ExecSpace = DefaultExec>
class LaplaceOperator {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using value_type = Number;

  LaplaceOperator(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout, LaplaceOptions options = {});

  /// dst = A src with Dirichlet rows as identity. Updates src's ghosts.
  void vmult(vector_type& dst, const vector_type& src) const;
  /// dst = A_full src without any boundary treatment (for lifting inhomogeneous Dirichlet data).
  void vmult_unconstrained(vector_type& dst, const vector_type& src) const;
  /// r = b − A x, A with Dirichlet rows as identity (r = b − x there): the multigrid cycle's
  /// residual. The Q1 gathering kernel forms it as it stores each node (one pass: b read, r
  /// written); the other kernels form A x, then b − A x.
  void residual(vector_type& r, const vector_type& x, const vector_type& b) const;
  /// The diagonal of the constrained operator (1 on Dirichlet rows), owned entries.
  void compute_diagonal(vector_type& diag) const;

  const ContinuousDofLayout<ExecSpace>& layout() const { return *layout_; }
  const std::shared_ptr<const ContinuousDofLayout<ExecSpace>>& layout_ptr() const { return layout_; }
  const LaplaceOptions& options() const { return options_; }
  int cells_per_team() const { return cells_per_team_; }
  /// Nodes of a z column per thread of the gathered 3D Q1 operator, z nodes per team of the
  /// gathered k >= 2 operator (0: the whole column; not gathered: 0).
  int gather_z_nodes() const { return gather_z_nodes_; }
  /// The tile of the gathered k >= 2 operator (z_cells clamped at launch to the box's).
  const GatherTile& gather_tile() const { return gather_tile_; }
  /// Vector with this operator's layout, zero.
  vector_type make_vector(const std::string& name = "vector") const {
    return vector_type(layout_->partitioner(), name);
  }
  /// Floating-point operations of one vmult on this rank, by the sum-factorization count
  /// (2 flops per multiply-add; gather/scatter not counted).
  double flops_per_vmult() const;
  /// The 1D matrices as the kernel uses them: [direction][mass, stiffness][i][j] (host copy).
  std::vector<double> matrices_1d() const;

 private:
  /// dst = A src, or with rhs dst = rhs − A src (rhs: owned entries).
  void apply(vector_type& dst, const vector_type& src, bool constrained, const vector_type* rhs = nullptr) const;
  std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout_;
  LaplaceOptions options_;
  LaplaceKernelTable<Number, ExecSpace> kernels_;  // launchers of this (dim, k), looked up once
  int cells_per_team_ = 1;
  int gather_z_nodes_ = 0;
  GatherTile gather_tile_;
  Kokkos::View<Number*, typename ExecSpace::memory_space> matrices_;
  std::vector<Number> host_matrices_;
  Kokkos::View<local_index*, typename ExecSpace::memory_space> boundary_owned_;  // owned Dirichlet nodes
  Q1Direction<Number> q1_[3];  // ScatterMode::gather: the 1D cell matrices per direction
};

/// Sets dst(i) = src(i) on the owned Dirichlet nodes listed in `nodes`.
template <class Number, class ExecSpace>
void copy_entries(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& nodes,
                  DistributedVector<Number, ExecSpace>& dst, const DistributedVector<Number, ExecSpace>& src);

/// Sets v(i) = value on the owned Dirichlet nodes listed in `nodes`.
template <class Number, class ExecSpace>
void set_entries(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& nodes,
                 DistributedVector<Number, ExecSpace>& v, Number value);

/// Owned local indices of the Dirichlet nodes of a layout.
template <class ExecSpace>
Kokkos::View<local_index*, typename ExecSpace::memory_space> owned_boundary_nodes(const NodeBox& box);

}  // namespace tensormg
