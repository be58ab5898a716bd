#pragma once
/// @file
/// The CEED bake-off operators (paper 003) on a deformed mesh: per element on element vectors
/// (E-vectors, [cell][n³], the kernels paper 003 times) and as the full BP operator on the
/// continuous vector (L-vector) with homogeneous Dirichlet rows as identity, the gather/scatter
/// between the two fused into the kernel or run as separate kernels (`BakeOffGather`).
/// Host glue; the device bodies are in bake_off_kernels.hpp.

#include <memory>
#include <string>

#include "core/distributed_vector.hpp"
#include "discretization/bake_off_kernel_table.hpp"
#include "discretization/deformed_geometry.hpp"

namespace tensormg {

/// How the full BP operator moves between the L-vector and the element kernels.
enum class BakeOffGather {
  fused,    ///< the kernel gathers from and adds atomically to the L-vector (one launch)
  separate  ///< gather into an E-vector, element kernel, scatter-add (three launches, two E-vectors)
};
std::string to_string(BakeOffGather g);
BakeOffGather parse_bake_off_gather(const std::string& text);

/// How the kernels read and write their input and output (E-vectors, or the continuous vector
/// in the fused operator).
enum class BakeOffElementIo {
  automatic,  ///< the tuning row's choice (bake_off_tuning.hpp)
  lines,      ///< the first and last steps read and write their lines directly
  staged      ///< the team's cells copied through scratch by consecutive threads on consecutive nodes
};
std::string to_string(BakeOffElementIo io);
BakeOffElementIo parse_bake_off_element_io(const std::string& text);

enum class BakeOffPrefetch { automatic, on, off };
std::string to_string(BakeOffPrefetch p);
BakeOffPrefetch parse_bake_off_prefetch(const std::string& text);

/// BakeOffGeometry (bake_off_kernel_table.hpp): "stored", "trilinear".
std::string to_string(BakeOffGeometry g);
BakeOffGeometry parse_bake_off_geometry(const std::string& text);

struct BakeOffOptions {
  BakeOff problem = BakeOff::bp3_5;
  double lambda = 1;  ///< λ of BP3.x's S + λM (BP1.0 ignores it)
  BakeOffGather gather = BakeOffGather::fused;
  int cells_per_team = 0;  ///< 0: from the tuning table
  BakeOffElementIo element_io = BakeOffElementIo::automatic;
  /// Prefetch each team's geometric factors into L2 at the kernel's start: on, off or automatic
  /// (the tuning row); a no-op where the backend has no prefetch (host).
  BakeOffPrefetch prefetch = BakeOffPrefetch::automatic;
  /// Fused gather: add to a cell's interior nodes atomically too, instead of storing (no other
  /// cell touches them). Off by default; the baseline the stores were measured against.
  bool atomic_interior = false;
  /// The geometric factors read per point (stored) or formed at every application from the cell's
  /// 8 vertices (trilinear: meshes of trilinear cells only, Deformation::none and random; no
  /// factors held, 3 values per cell read instead of 7 per point).
  BakeOffGeometry geometry = BakeOffGeometry::stored;
  /// vmult_dot forms src·dst inside the fused kernel; off (the default): vmult and a dot product.
  /// The kernel's dot saves the pass over two vectors but measured 0.90-0.95x of CG with the pass
  /// on the H200 (h200-2026-12-03-bp-occupancy/call1: BP1.0 and BP3.5 k = 3, 5, 7), the kernel
  /// slower by more than the pass costs. The separate gather always takes the pass.
  bool kernel_dot = false;
};

template <class Number, class ExecSpace = DefaultExec>
class BakeOffOperator {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  using value_type = Number;
  using element_vector = Kokkos::View<Number*, typename ExecSpace::memory_space>;

  /// Collective: computes the problem's geometric factors, or with the trilinear geometry the
  /// vertices (refusing inverted cells and, for trilinear, meshes that are not), and checks the
  /// options (λ finite and >= 0, cells per team).
  BakeOffOperator(std::shared_ptr<const DeformedGeometry<ExecSpace>> geometry, BakeOffOptions options = {});

  /// dst = A_e src for every element (E-vectors of size n_cells · n³; dst overwritten).
  void apply_elements(const element_vector& dst, const element_vector& src) const;
  /// dst = Σ_e P_eᵀ A_e P_e src on the L-vector with Dirichlet rows as identity. Updates src's ghosts.
  void vmult(vector_type& dst, const vector_type& src) const;
  /// vmult, returning src·dst over all ranks (CG's p·Ap). With the fused gather (and
  /// BakeOffOptions::kernel_dot) the kernel forms it on the way, Σ_e (P_e src)·A_e (P_e src) over
  /// the cells plus src_i² at the Dirichlet nodes (where dst_i = src_i), without a pass over the
  /// two vectors; else vmult and a dot product.
  double vmult_dot(vector_type& dst, const vector_type& src) const;
  /// E-vector of src (ghosts updated first); Dirichlet nodes read as zero.
  void gather(const element_vector& dst, const vector_type& src) const;
  /// dst = Σ_e P_eᵀ src_e on the non-Dirichlet nodes (dst zeroed first, ghosts compressed).
  void scatter(vector_type& dst, const element_vector& src) const;

  element_vector make_element_vector(const std::string& name = "element_vector") const;
  vector_type make_vector(const std::string& name = "vector") const { return vector_type(layout().partitioner(), name); }

  const ContinuousDofLayout<ExecSpace>& layout() const { return geometry_->layout(); }
  const DeformedGeometry<ExecSpace>& geometry() const { return *geometry_; }
  const BakeOffOptions& options() const { return options_; }
  /// The stored factors (empty with the trilinear geometry).
  const GeometricFactors<Number, ExecSpace>& factors() const { return factors_; }
  /// Device bytes the operator holds for the geometry: the factors, or the vertices.
  double geometry_bytes() const;
  const BakeOffTables1D& tables() const { return tables_; }
  int cells_per_team() const { return cells_per_team_; }
  /// The element I/O apply_elements uses (automatic resolved).
  BakeOffElementIo element_io() const { return staged_ ? BakeOffElementIo::staged : BakeOffElementIo::lines; }
  /// How vmult's fused gather reads and adds to the continuous vector (automatic resolved).
  BakeOffElementIo fused_io() const { return staged_fused_ ? BakeOffElementIo::staged : BakeOffElementIo::lines; }
  /// Whether the kernels prefetch the factors (automatic resolved).
  bool prefetches() const { return prefetch_; }
  local_index n_cells() const;
  int nodes_per_cell() const { return tables_.n * tables_.n * tables_.n; }
  /// Floating-point operations of one element application on this rank.
  double flops_per_apply() const;
  /// Bytes one element application must move on this rank (paper 003 Table 2 × sizeof(Number)).
  double model_bytes_per_apply() const;
  /// Bytes of scratch (shared memory) one element application loads and stores on this rank.
  double scratch_bytes_per_apply() const;

 private:
  BakeOffArgs<Number, ExecSpace> arguments() const;
  std::shared_ptr<const DeformedGeometry<ExecSpace>> geometry_;
  BakeOffOptions options_;
  BakeOffTables1D tables_;
  BakeOffKernelTable<Number, ExecSpace> kernels_;
  GeometricFactors<Number, ExecSpace> factors_;
  Kokkos::View<double*, typename ExecSpace::memory_space> vertices_;  ///< BakeOffGeometry::trilinear
  int cells_per_team_ = 1;
  bool staged_ = false, staged_fused_ = false, prefetch_ = false;
  mutable element_vector e_src_, e_dst_;  // BakeOffGather::separate, allocated at first use
  Kokkos::View<double, typename ExecSpace::memory_space> dot_;  ///< vmult_dot's sum on the device
  /// The fused vmult: zeroes dst, runs the kernel (adding to *dot where not null), Dirichlet rows.
  void vmult_fused(vector_type& dst, const vector_type& src, double* dot) const;
};

}  // namespace tensormg
