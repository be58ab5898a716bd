#pragma once
/// @file
/// What the host glue (bake_off_operator.cpp) needs to launch the bake-off cell kernels
/// (bake_off_kernels.hpp) without seeing their bodies: the problems, the launch arguments and the
/// per-(problem, k) table of launchers (core/kernel_table.hpp's dispatch, the Laplace operator's
/// CellKernelTable).

#include <Kokkos_Core.hpp>

#include <string>

#include "core/even_odd_contraction.hpp"
#include "discretization/deformed_geometry.hpp"
#include "discretization/laplace_kernel_table.hpp"

namespace tensormg {

/// The operators of paper 003 §4 (CEED naming: BP1 uses the mass operator, BP3 the stiffness
/// operator with full quadrature, BP5 the collocated one).
enum class BakeOff {
  bp1_0,  ///< mass, k + 2 Gauss points: 6 contractions (Algorithm 3)
  bp3_5,  ///< screened Poisson S + λM collocated at the k + 1 Gauss–Lobatto points: 6 (Algorithm 4)
  bp3_0   ///< screened Poisson with k + 2 Gauss points: 12 (Algorithm 5)
};
std::string to_string(BakeOff p);
/// Parses "bp1.0", "bp3.5", "bp3.0" (aliases "mass", "bp5", "bp3"); throws InputError naming them.
BakeOff parse_bake_off(const std::string& text);

constexpr BakeOffQuadrature quadrature_of(BakeOff p) {
  return p == BakeOff::bp3_5 ? BakeOffQuadrature::gauss_lobatto : BakeOffQuadrature::gauss;
}
constexpr bool has_stiffness(BakeOff p) { return p != BakeOff::bp1_0; }

/// Floating-point operations (2 per multiply-add) of one 1D product of a rows × cols matrix on a
/// column: rows · cols multiply-adds in the direct form; in the even-odd form
/// (core/even_odd_contraction.hpp) cols/2 additions to split the column, cols multiply-adds and
/// two additions per output pair, and for odd rows a middle row of (cols+1)/2 (centro-symmetric)
/// or cols/2 (centro-antisymmetric) multiply-adds.
constexpr double product_flops(int rows, int cols, bool even_odd, bool antisymmetric = false) {
  if (!even_odd) return 2.0 * rows * cols;
  const auto s = antisymmetric ? contraction::Reversal::antisymmetric : contraction::Reversal::symmetric;
  return 2.0 * (cols / 2) + 2.0 * contraction::even_odd_multiply_adds(rows, cols, s) + 2.0 * (rows / 2);
}

/// Where the kernels get the geometric factors at the quadrature points.
enum class BakeOffGeometry {
  stored,    ///< read, precomputed per point (1 or 7 values per point: deformed_geometry.hpp)
  trilinear  ///< formed at every application from the cell's 8 vertices (trilinear cells only)
};
/// The trilinear geometry's team scratch per cell beyond the kernel table's scratch_bytes: the
/// cell's 8 vertices, 24 doubles.
inline constexpr int bake_off_vertex_values = 24;

/// Floating-point operations of one cell at degree k (2 per multiply-add): the contractions (three
/// interpolations each way of BP1.0 and BP3.0, six derivatives of BP3.x; even-odd: as the kernel
/// forms them) plus the pointwise work (w det J: 1 per point; G and the mass term: 18 per point),
/// plus with the trilinear geometry the factors themselves (per z-line of points TrilinearLine,
/// per point its Jacobian and w det J or stiffness_factors).
constexpr double bake_off_flops_per_cell(BakeOff p, int k, bool even_odd = false,
                                         BakeOffGeometry geometry = BakeOffGeometry::stored) {
  const int n = k + 1, q = p == BakeOff::bp3_5 ? n : n + 1;
  const double lines = double(n) * n + double(q) * n + double(q) * q;  // of each interpolation way
  const double interpolation = lines * (product_flops(q, n, even_odd) + product_flops(n, q, even_odd));
  const double derivatives = 6.0 * q * q * product_flops(q, q, even_odd, true);
  const double points = double(q) * q * q;
  const double factors = geometry == BakeOffGeometry::stored
                             ? 0.0
                             : double(q) * q * trilinear_line_flops +
                                   points * (trilinear_point_flops + (has_stiffness(p) ? stiffness_factor_flops : trilinear_det_flops));
  if (p == BakeOff::bp1_0) return interpolation + points + factors;
  if (p == BakeOff::bp3_5) return derivatives + 18 * points + factors;
  return interpolation + derivatives + 18 * points + factors;
}

/// Values an element application must move at least (paper 003 Table 2), per cell: BP1.0 reads u
/// and w det J and writes v (2 n³ + q³); BP3.5 reads u and 7 factors per node and writes v (9 n³);
/// BP3.0 2 n³ + 7 q³. With the trilinear geometry u, v and the cell's share of the vertex grid
/// (3 coordinates of one vertex): 2 n³ + 3.
constexpr double bake_off_values_per_cell(BakeOff p, int k, BakeOffGeometry geometry = BakeOffGeometry::stored) {
  const double n = k + 1, q = p == BakeOff::bp3_5 ? n : n + 1;
  if (geometry == BakeOffGeometry::trilinear) return 2 * n * n * n + 3;
  if (p == BakeOff::bp1_0) return 2 * n * n * n + q * q * q;
  if (p == BakeOff::bp3_5) return 9 * n * n * n;
  return 2 * n * n * n + 7 * q * q * q;
}

/// Scratch (shared-memory) values the kernels of bake_off_kernels.hpp load and store per cell, step
/// by step, with the input and output along lines: the interpolation steps of BP1.0 and BP3.0 move
/// 4 q n (n + q) values in all (every intermediate array is stored once and loaded once); the
/// collocated part of BP3.5 15 of its points' values (u and ∂_r u stored by the x-lines that read
/// u; u loaded and ∂_s u stored; u, r, s loaded by the z-lines, which form ∂_t u in registers,
/// and r, s and the z-sum stored; the y-sum loaded, added and stored; r and the sum loaded), of
/// BP3.0 16 (u at the points stored by the last interpolation step, loaded for ∂_r u as well).
constexpr double bake_off_scratch_values_per_cell(BakeOff p, int k) {
  const double n = k + 1, q = p == BakeOff::bp3_5 ? n : n + 1;
  if (p == BakeOff::bp1_0) return 4 * q * n * (n + q);
  if (p == BakeOff::bp3_5) return 15 * n * n * n;
  return 16 * q * q * q + 4 * q * n * (n + q);
}

/// Everything a launch needs besides the problem, n = k + 1, Number and ExecSpace.
template <class Number, class ExecSpace>
struct BakeOffArgs {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<const Number*, memory_space> src;
  Kokkos::View<Number*, memory_space> dst;
  /// Geometric factors, [cell][component][point] (deformed_geometry.hpp); empty with `trilinear`.
  Kokkos::View<const Number*, memory_space> factors;
  /// The trilinear geometry (BakeOffGeometry::trilinear): the factors formed at every point from
  /// the cell's 8 vertices, read from `vertices` ([vertex][3] on the rank's vertex grid,
  /// DeformedGeometry::vertices) with the rule's points and weights on [0, 1].
  bool trilinear = false;
  Kokkos::View<const double*, memory_space> vertices;
  const double* points = nullptr;   ///< q (host; copied into the functor at launch)
  const double* weights = nullptr;  ///< q
  /// Host 1D tables (bake_off_tables_1d of the problem's rule), copied into the functor at launch.
  const double* interpolation = nullptr;           ///< q × n
  const double* collocation_derivative = nullptr;  ///< q × q
  NodeBox box;
  Number lambda = 0;  ///< the mass term's coefficient of BP3.x
  /// false: src and dst are element vectors [cell][n³] (E-vectors), dst overwritten; true: they are
  /// the continuous vector (L-vector), gathered through the box and added to dst (which the caller
  /// zeroes): atomically at the nodes a cell shares, stored at its interior nodes.
  bool gathered = false;
  bool constrained = true;  ///< gathered: Dirichlet nodes read as zero and receive nothing
  /// gathered: a cell's interior nodes added atomically as well (the measured baseline of the
  /// plain stores, BakeOffOptions::atomic_interior).
  bool atomic_interior = false;
  /// Input and output staged through scratch by consecutive threads on consecutive nodes
  /// (coalesced for E-vectors; short runs of a row for the continuous vector), not read and written
  /// along the first and last step's lines (BakeOffElementIo).
  bool staged = false;
  /// Each team asks the cache for its cells' geometric factors first (the stiffness operators
  /// read them only after two barriers), where the backend has an L2 prefetch.
  bool prefetch = false;
  int cells_per_team = 1;
  /// gathered: where not null, the kernel adds Σ over its cells of (P_e src)·A_e (P_e src) (the
  /// non-Dirichlet nodes' share of src·dst, in double) to *dot, one atomic add per team: CG's
  /// p·Ap without a pass over the two vectors (BakeOffOperator::vmult_dot).
  double* dot = nullptr;
};

template <class Number, class ExecSpace>
using BakeOffKernelTable = CellKernelTable<BakeOffArgs<Number, ExecSpace>>;

/// The kernels of one (problem, k). Declared here, defined in bake_off_kernels.hpp and instantiated
/// in the translation units discretization/CMakeLists.txt generates.
template <BakeOff problem, int k, class Number, class ExecSpace>
BakeOffKernelTable<Number, ExecSpace> bake_off_kernels_of();

/// The kernels of (problem, degree) in 3D; throws InputError for unsupported degrees.
template <class Number, class ExecSpace>
BakeOffKernelTable<Number, ExecSpace> bake_off_kernels(BakeOff problem, int degree) {
  return kernel_table<BakeOffKernelTable<Number, ExecSpace>>(3, degree, [problem](auto d, auto k) {
    constexpr int degree_k = decltype(k)::value;
    if constexpr (decltype(d)::value != 3) return BakeOffKernelTable<Number, ExecSpace>{};  // 3D only
    else {
    switch (problem) {
      case BakeOff::bp1_0: return bake_off_kernels_of<BakeOff::bp1_0, degree_k, Number, ExecSpace>();
      case BakeOff::bp3_5: return bake_off_kernels_of<BakeOff::bp3_5, degree_k, Number, ExecSpace>();
      case BakeOff::bp3_0: break;
    }
    return bake_off_kernels_of<BakeOff::bp3_0, degree_k, Number, ExecSpace>();
    }
  });
}

}  // namespace tensormg
