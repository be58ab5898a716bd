#pragma once
/// @file
/// Deformed hexahedral meshes for the CEED bake-off operators (paper 003): the brick's cells mapped
/// by a smooth deformation or by a random perturbation of its vertices, the geometry held as Q_k
/// coordinates per cell (isoparametric: the mapping's values at the cell's Gauss–Lobatto nodes),
/// and the per-quadrature-point geometric factors the operators read:
///   w·det J                       (the mass term, BP1.0 and the λ term of BP3.x), and
///   G = w·det J · J^{-1} J^{-T}   (6 symmetric entries: the stiffness term of BP3.x),
/// where J = ∂x/∂ξ on the reference cell [0, 1]³ and w is the tensor-product quadrature weight.
/// Everything is computed on the device; a cell with det J ≤ 0 at a quadrature point is reported
/// with its index.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "discretization/continuous_dof_layout.hpp"
#include "discretization/trilinear.hpp"

namespace tensormg {

/// How the brick is deformed.
enum class Deformation {
  none,   ///< the Cartesian brick (affine cells)
  sine,   ///< x + ε L Π_i sin(π t_i) in every component (t: position in the brick scaled to [0, 1]³)
  random  ///< interior vertices moved by up to ε h per direction, cells trilinear
};
std::string to_string(Deformation d);
Deformation parse_deformation(const std::string& text);

struct DeformationOptions {
  Deformation kind = Deformation::sine;
  /// ε: sine, relative to the brick's extent per direction; random, relative to the cell size.
  double amplitude = 0.05;
  std::uint64_t seed = 1;  ///< random: the perturbation is a hash of (seed, global vertex index)
};

/// Quadrature of the bake-off operators: the n = k + 1 Gauss–Lobatto points (collocated with the
/// nodes: BP3.5) or the k + 2 Gauss–Legendre points (BP1.0, BP3.0).
enum class BakeOffQuadrature { gauss_lobatto, gauss };

/// 1D tables of degree k on [0, 1], row-major: the q points and weights of the rule, the nodal
/// (Gauss–Lobatto) basis φ_i and its derivative at the points (q × n), and the derivative of the
/// Lagrange basis of the points at the points (q × q, paper 003's D̃ for BP3.0; for Gauss–Lobatto
/// points it equals the derivative table).
struct BakeOffTables1D {
  int n = 0, q = 0;
  std::vector<double> points, weights;
  std::vector<double> interpolation;            ///< [a][i] = φ_i(ξ_a)
  std::vector<double> derivative;               ///< [a][i] = φ_i'(ξ_a)
  std::vector<double> collocation_derivative;   ///< [a][b] = l_b'(ξ_a), l_b the Lagrange basis of the points
};
BakeOffTables1D bake_off_tables_1d(int degree, BakeOffQuadrature rule);

/// Number of quadrature points per direction of a rule at degree k.
constexpr int quadrature_points_1d(int degree, BakeOffQuadrature rule) {
  return rule == BakeOffQuadrature::gauss_lobatto ? degree + 1 : degree + 2;
}

/// The deformation as kernels evaluate it: the physical point of reference point ξ ∈ [0, 1]³ of
/// the global cell (c_0, c_1, c_2). Trivially copyable.
struct DeformationMap {
  Deformation kind = Deformation::none;
  double amplitude = 0;
  std::uint64_t seed = 1;
  double lower[3] = {0, 0, 0};
  double extent[3] = {1, 1, 1};
  double h[3] = {1, 1, 1};
  global_index n_cells[3] = {1, 1, 1};

  /// Uniform value in [-1, 1) from (seed, vertex, component): the same on every rank.
  KOKKOS_INLINE_FUNCTION double hash(global_index vertex, int component) const {
    std::uint64_t x = static_cast<std::uint64_t>(vertex) * 0x9E3779B97F4A7C15ull + (seed * 3 + component + 1) * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    return double(x >> 11) / double(1ull << 53) * 2.0 - 1.0;
  }

  /// Vertex (v_0, v_1, v_2) of the brick's vertex grid after the random perturbation (vertices on
  /// the brick's boundary stay).
  KOKKOS_INLINE_FUNCTION void vertex(const global_index v[3], double x[3]) const {
    bool interior = true;
    for (int d = 0; d < 3; ++d) interior = interior && v[d] > 0 && v[d] < n_cells[d];
    const global_index id = v[0] + (n_cells[0] + 1) * (v[1] + (n_cells[1] + 1) * v[2]);
    for (int d = 0; d < 3; ++d)
      x[d] = lower[d] + h[d] * double(v[d]) + (interior ? amplitude * h[d] * hash(id, d) : 0.0);
  }

  KOKKOS_INLINE_FUNCTION void point(const global_index cell[3], const double xi[3], double x[3]) const {
    if (kind == Deformation::random) {
      for (int d = 0; d < 3; ++d) x[d] = 0;
      for (int corner = 0; corner < 8; ++corner) {
        const global_index v[3] = {cell[0] + (corner & 1), cell[1] + ((corner >> 1) & 1), cell[2] + ((corner >> 2) & 1)};
        double w = 1, y[3];
        for (int d = 0; d < 3; ++d) w *= ((corner >> d) & 1) ? xi[d] : 1.0 - xi[d];
        vertex(v, y);
        for (int d = 0; d < 3; ++d) x[d] += w * y[d];
      }
      return;
    }
    double s = 1;
    for (int d = 0; d < 3; ++d) {
      x[d] = lower[d] + h[d] * (double(cell[d]) + xi[d]);
      s *= Kokkos::Experimental::sin(3.14159265358979323846 * (x[d] - lower[d]) / extent[d]);
    }
    if (kind == Deformation::sine)
      for (int d = 0; d < 3; ++d) x[d] += amplitude * extent[d] * s;
  }
};

/// The factors at one point from J[i][d] = ∂x_i/∂ξ_d and the point's weight w: w det J, and
/// G = w det J J⁻¹ J⁻ᵀ = w adj(J) adj(J)ᵀ / det J as its 6 entries (00, 01, 02, 11, 12, 22).
/// The geometry kernel (stored factors) and the bake-off kernels' trilinear geometry (computed at
/// every application) both form them here.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real stiffness_factors(const Real (&J)[3][3], Real w, Real (&G)[6]) {
  Real A[3][3];  // adj(J): A J = det J · I
  A[0][0] = J[1][1] * J[2][2] - J[1][2] * J[2][1];
  A[0][1] = J[0][2] * J[2][1] - J[0][1] * J[2][2];
  A[0][2] = J[0][1] * J[1][2] - J[0][2] * J[1][1];
  A[1][0] = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  A[1][1] = J[0][0] * J[2][2] - J[0][2] * J[2][0];
  A[1][2] = J[0][2] * J[1][0] - J[0][0] * J[1][2];
  A[2][0] = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  A[2][1] = J[0][1] * J[2][0] - J[0][0] * J[2][1];
  A[2][2] = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  const Real det = J[0][0] * A[0][0] + J[0][1] * A[1][0] + J[0][2] * A[2][0];
  const Real scale = w / det;
  G[0] = scale * (A[0][0] * A[0][0] + A[0][1] * A[0][1] + A[0][2] * A[0][2]);
  G[1] = scale * (A[0][0] * A[1][0] + A[0][1] * A[1][1] + A[0][2] * A[1][2]);
  G[2] = scale * (A[0][0] * A[2][0] + A[0][1] * A[2][1] + A[0][2] * A[2][2]);
  G[3] = scale * (A[1][0] * A[1][0] + A[1][1] * A[1][1] + A[1][2] * A[1][2]);
  G[4] = scale * (A[1][0] * A[2][0] + A[1][1] * A[2][1] + A[1][2] * A[2][2]);
  G[5] = scale * (A[2][0] * A[2][0] + A[2][1] * A[2][1] + A[2][2] * A[2][2]);
  return w * det;
}

/// Floating-point operations of stiffness_factors (2 per multiply-add): adjugate 9 × 3, det 5,
/// scale 1, G 6 × 6, w det 1.
inline constexpr double stiffness_factor_flops = 27 + 5 + 1 + 36 + 1;

/// Geometric factors of one quadrature rule on the rank's cells, [cell][component][point] with
/// points lexicographic (x fastest) and cells lexicographic in the rank's box.
template <class Number, class ExecSpace>
struct GeometricFactors {
  /// Components: 1 (w det J) for the mass operator; 7 (G_00, G_01, G_02, G_11, G_12, G_22, w det J)
  /// for the stiffness operators.
  int components = 0;
  int points = 0;  ///< quadrature points per cell, q³
  BakeOffQuadrature rule = BakeOffQuadrature::gauss;
  Kokkos::View<Number*, typename ExecSpace::memory_space> data;
};

/// The deformed mesh on a continuous layout's cells (3D only).
template <class ExecSpace>
class DeformedGeometry {
 public:
  /// Collective. Refuses a 2D layout and amplitudes that are negative or not finite.
  DeformedGeometry(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout, DeformationOptions options);

  const ContinuousDofLayout<ExecSpace>& layout() const { return *layout_; }
  const DeformationOptions& options() const { return options_; }
  const DeformationMap& map() const { return map_; }

  /// The factors at the quadrature points of `rule`, computed on the device from the Q_k
  /// coordinates of every cell. Collective: throws InputError on every rank when a cell of any rank
  /// has det J ≤ 0 at a point (inverted or degenerate), naming the first such cell.
  template <class Number>
  GeometricFactors<Number, ExecSpace> factors(BakeOffQuadrature rule, bool stiffness) const;

  /// Physical coordinates of the quadrature points, [cell][3][point] (for right-hand sides and
  /// errors).
  Kokkos::View<double*, typename ExecSpace::memory_space> quadrature_points(BakeOffQuadrature rule) const;

  /// Whether every cell is trilinear (the map of its 8 vertices): Deformation::none and random.
  bool trilinear() const { return options_.kind != Deformation::sine; }
  /// The vertices of the rank's cells, [vertex][3] with vertices lexicographic on the rank's vertex
  /// grid (box.cells + 1 per direction): what the kernels with trilinear geometry read instead of
  /// stored factors (3 values per cell instead of 7 per point). Collective: refuses a mesh that is
  /// not trilinear, and, as factors() does, a cell with det J ≤ 0 at a point of `rule`.
  Kokkos::View<double*, typename ExecSpace::memory_space> vertices(BakeOffQuadrature rule) const;

 private:
  /// Collective: throws InputError on every rank naming the first inverted cell when some rank
  /// found one (first_bad: its index in the rank's box, or the maximum of global_index for none).
  void report_inverted_cells(global_index first_bad) const;
  /// Runs the geometry kernel; factors in double (empty view: skipped), coordinates (empty: skipped).
  void compute(BakeOffQuadrature rule, int components, Kokkos::View<double*, typename ExecSpace::memory_space> factors,
               Kokkos::View<double*, typename ExecSpace::memory_space> coordinates) const;
  std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout_;
  DeformationOptions options_;
  DeformationMap map_;
};

}  // namespace tensormg
