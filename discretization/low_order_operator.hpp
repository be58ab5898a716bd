#pragma once
/// @file
/// Matrix-free Q1 operators on unstructured hexahedral meshes (paper 004, eqs. 5–6 and Algorithm 2):
/// the Laplacian −∇·(κ∇u) with a per-cell coefficient and isotropic linear elasticity
/// −∇·(λ tr ε(u) I + 2μ ε(u)) with per-cell (λ, μ). One thread per cell (or, with the lanes
/// evaluation, 1–8 threads of a warp per cell, each at its share of the 8 points): it reads its 8 vertices'
/// coordinates and values, forms the Jacobian of the trilinear map at each of the 2×2×2 Gauss points
/// (or reads it, stored, as a variant), applies the quadrature-point operator and adds its 8 (24)
/// results into the destination: by atomic additions, colour by colour without atomics, or
/// summed first per block of consecutive cells in scratch (one team per block, one atomic per
/// distinct vertex of the block).
/// Dirichlet rows are identity (the layout's constrained DoFs), the columns of Dirichlet DoFs zero.

#include <cstdint>
#include <string>

#include "core/device_traits.hpp"
#include "core/distributed_vector.hpp"
#include "discretization/hex_layout.hpp"

namespace tensormg {

enum class LowOrderProblem { laplace, elasticity };
inline constexpr LowOrderProblem all_low_order_problems[] = {LowOrderProblem::laplace, LowOrderProblem::elasticity};
/// Unknowns per vertex: the potential (Laplace) or the three displacements (elasticity).
constexpr int n_components(LowOrderProblem p) { return p == LowOrderProblem::laplace ? 1 : 3; }
/// How the kernel gets J⁻¹ and w det J: computed from the vertex coordinates at every application
/// (nothing stored: 24 coordinates per cell read) or read from per-quadrature-point arrays
/// (10 values per point: 80 per cell).
enum class LowOrderGeometry { on_the_fly, stored };
/// How cells add into shared vertices: atomic additions; one launch per colour of cells that
/// share no vertex, plain additions; or block: a team of threads takes a block of consecutive
/// (Morton-ordered, so compact) cells, puts its cells' results into scratch, sums them per
/// distinct vertex of the block and adds each sum atomically: with blocks of 128 cells about
/// 1.8 instead of 8 atomic additions per cell and component, in the order of the vertex numbers.
enum class LowOrderScatter { atomic, coloured, block };
/// How J and ∇_ξ u reach the Gauss points and the result the vertices: point by point, sums over
/// the 8 vertices (paper 004 Algorithm 2); factorized: edge differences interpolated along the
/// other two directions (the tensor structure of Q1; 2.5× fewer flops), a thread per cell; or
/// lanes: the same tensor steps with the cell's 8 vertices / Gauss points spread over
/// `lanes_per_cell` threads of a warp (1, 2, 4, 8), which exchange the values of the other end of
/// each edge (a shuffle between threads, a register move within one), each thread working on its
/// own points only: fewer registers per thread and more threads per cell than `factorized`, for
/// about twice its flops on the fields (every point's values, not the 4 distinct ones); or
/// automatic: low_order_evaluation's choice for the execution space and scatter.
enum class LowOrderEvaluation { pointwise, factorized, lanes, automatic };

std::string to_string(LowOrderProblem p);
std::string to_string(LowOrderGeometry g);
std::string to_string(LowOrderScatter s);
std::string to_string(LowOrderEvaluation e);
/// Parse the names above; an unknown one throws InputError "<what> '<text>' is not supported; use
/// ..." (what: the option's name in a program, e.g. "--geometry").
LowOrderProblem parse_low_order_problem(const std::string& text, const char* what = "problem");
LowOrderGeometry parse_low_order_geometry(const std::string& text, const char* what = "geometry");
LowOrderScatter parse_low_order_scatter(const std::string& text, const char* what = "scatter");
LowOrderEvaluation parse_low_order_evaluation(const std::string& text, const char* what = "evaluation");

struct LowOrderOptions {
  LowOrderProblem problem = LowOrderProblem::laplace;
  LowOrderGeometry geometry = LowOrderGeometry::on_the_fly;
  LowOrderScatter scatter = LowOrderScatter::atomic;
  LowOrderEvaluation evaluation = LowOrderEvaluation::automatic;
  /// Block scatter: cells per block, 1..256 (a GPU team has one thread per cell; its scratch
  /// holds 8 results per cell and component).
  int block_cells = 128;
  /// Lanes evaluation: threads per cell, 1, 2, 4 or 8 (more than 1 only on a backend with warps,
  /// DeviceTraits::has_warps); 0: low_order_lanes_per_cell's choice for the execution space.
  int lanes_per_cell = 0;
};

/// What LowOrderEvaluation::automatic stands for: on the host lanes (one thread per cell, its 8
/// points side by side: 1.1-1.3x factorized on this project's CPU), on a GPU factorized (the
/// lanes' exchanges saturate the shared-memory pipe: 0.55-0.93x); factorized with the block scatter.
/// Decided by perf/README.md, "Low-order Q1 operators".
LowOrderEvaluation low_order_evaluation(TuningTarget target, LowOrderScatter scatter);

/// The lanes evaluation's threads per cell when LowOrderOptions::lanes_per_cell is 0: 1 on the
/// host (the 8 points of a cell in one thread); on a GPU the fastest count of its benchmark, 1
/// for Laplace, 4 for elasticity.
int low_order_lanes_per_cell(TuningTarget target, LowOrderProblem problem);

/// Refuses (InputError) lanes per cell other than 0 (automatic), 1, 2, 4, 8, and more than 1 where
/// the execution space has no warps (`warps`: DeviceTraits::has_warps). `name` heads the message:
/// "lanes per cell" for the operator, the option's name ("--lanes") in a program.
void check_lanes_per_cell(int lanes, bool warps, const std::string& name = "lanes per cell");

/// Floating-point operations of one cell's product (the kernel's count, per variant; not for
/// automatic, which names no kernel: ask the operator's options()).
double low_order_flops_per_cell(LowOrderProblem problem, LowOrderGeometry geometry,
                                LowOrderEvaluation evaluation = LowOrderEvaluation::factorized);

/// The block scatter's vertex lists, built once by the operator: block b's distinct
/// non-Dirichlet vertices are vertices(i) for i in [offsets(b), offsets(b + 1)), ascending; vertex
/// i sums the scratch entries incidence(j) = (cell in block) · 8 + corner for j in
/// [incidence_offsets(i), incidence_offsets(i + 1)).
template <class ExecSpace>
struct LowOrderScatterBlocks {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<local_index*, memory_space> offsets, vertices, incidence_offsets;
  Kokkos::View<std::uint16_t*, memory_space> incidence;
  int block_cells = 1;
};

template <class ExecSpace = DefaultExec>
class LowOrderOperator {
 public:
  using vector_type = DistributedVector<double, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;

  /// The layout's components must match the problem (1 for Laplace, 3 for elasticity).
  LowOrderOperator(std::shared_ptr<const HexLayout<ExecSpace>> layout, const LowOrderOptions& options);

  /// dst = A src (Dirichlet rows identity). src's ghosts are updated, dst is compressed.
  void vmult(vector_type& dst, const vector_type& src) const;
  /// The diagonal of A (Dirichlet entries 1), for Jacobi: computed by the same quadrature.
  void compute_diagonal(vector_type& diagonal) const;
  void initialize_dof_vector(vector_type& v, const std::string& name = "low_order_vector") const {
    v.reinit(layout_->partitioner(), name);
  }
  vector_type make_vector(const std::string& name = "low_order_vector") const {
    return vector_type(layout_->partitioner(), name);
  }

  const HexLayout<ExecSpace>& layout() const { return *layout_; }
  /// The options, with an automatic evaluation and lanes per cell replaced by what they stand for.
  const LowOrderOptions& options() const { return options_; }
  /// Flops of one vmult on this rank (cells × flops per cell).
  double flops() const;
  /// Device bytes the operator holds beyond the layout (the stored geometry, the block scatter's
  /// vertex lists, the coloured scatter's cell order).
  double device_bytes() const;

 private:
  std::shared_ptr<const HexLayout<ExecSpace>> layout_;
  LowOrderOptions options_;
  /// Stored variant: [point * 10 + (J⁻¹ row-major 0..8, w det J 9)][cell], cells contiguous.
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> geometry_;
  LowOrderScatterBlocks<ExecSpace> blocks_;  ///< empty unless the scatter is block
  HexColouring<ExecSpace> colouring_;       ///< empty unless the scatter is coloured
};

}  // namespace tensormg
