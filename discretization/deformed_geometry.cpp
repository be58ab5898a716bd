#include "discretization/deformed_geometry.hpp"

#include <cmath>
#include <limits>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/polynomials_1d.hpp"
#include "discretization/trilinear.hpp"

namespace tensormg {

namespace {
constexpr EnumName<Deformation> deformation_names[] = {
    {Deformation::none, "none"}, {Deformation::sine, "sine"}, {Deformation::random, "random"}};

/// The 1D tables a geometry kernel needs, by value (k ≤ 8: n ≤ 9 nodes, q ≤ 10 points).
struct GeometryTables {
  static constexpr int max = 11;
  int n = 0, q = 0;
  double nodes[max] = {};
  double weights[max] = {};
  double interpolation[max][max] = {};  // [a][i] = φ_i(ξ_a)
  double derivative[max][max] = {};     // [a][i] = φ_i'(ξ_a)
};

/// One team per cell: the cell's Q_k node coordinates into scratch (thread per node), then per
/// quadrature point (thread per point) the Jacobian of their interpolant, its determinant and the
/// factors, and the physical point.
template <class ExecSpace>
struct DeformedGeometryKernel {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using memory_space = typename ExecSpace::memory_space;
  DeformationMap map;
  GeometryTables t;
  global_index begin[3] = {0, 0, 0};
  local_index cells[3] = {1, 1, 1};
  int components = 0;
  Kokkos::View<double*, memory_space> factors;      // [cell][component][point] or empty
  Kokkos::View<double*, memory_space> coordinates;  // [cell][3][point] or empty

  /// Called on the device too: a host-only function there would make nvcc drop the whole body.
  KOKKOS_INLINE_FUNCTION std::size_t scratch_bytes() const { return sizeof(double) * 3 * t.n * t.n * t.n; }
  std::size_t team_shmem_size(int) const { return scratch_bytes(); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const local_index c = team.league_rank();
    const global_index cell[3] = {begin[0] + c % cells[0], begin[1] + (c / cells[0]) % cells[1],
                                  begin[2] + c / (cells[0] * cells[1])};
    const int n = t.n, q = t.q, nn = n * n * n, qq = q * q * q;
    double* X = static_cast<double*>(team.team_scratch(0).get_shmem(scratch_bytes()));
    for (int node = team.team_rank(); node < nn; node += team.team_size()) {
      const double xi[3] = {t.nodes[node % n], t.nodes[(node / n) % n], t.nodes[node / (n * n)]};
      double x[3];
      map.point(cell, xi, x);
      for (int d = 0; d < 3; ++d) X[d * nn + node] = x[d];
    }
    team.team_barrier();
    for (int p = team.team_rank(); p < qq; p += team.team_size()) {
      const int a = p % q, b = (p / q) % q, e = p / (q * q);
      double J[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, x[3] = {0, 0, 0};
      for (int l = 0; l < n; ++l) {
        const double bz = t.interpolation[e][l], dz = t.derivative[e][l];
        for (int j = 0; j < n; ++j) {
          const double by = t.interpolation[b][j], dy = t.derivative[b][j];
          for (int i = 0; i < n; ++i) {
            const double bx = t.interpolation[a][i], dx = t.derivative[a][i];
            const double w0 = dx * by * bz, w1 = bx * dy * bz, w2 = bx * by * dz, w = bx * by * bz;
            const int node = i + n * (j + n * l);
            for (int comp = 0; comp < 3; ++comp) {
              const double v = X[comp * nn + node];
              J[comp][0] += w0 * v;
              J[comp][1] += w1 * v;
              J[comp][2] += w2 * v;
              x[comp] += w * v;
            }
          }
        }
      }
      if (coordinates.extent(0) > 0)
        for (int comp = 0; comp < 3; ++comp) coordinates((std::size_t(c) * 3 + comp) * qq + p) = x[comp];
      if (components == 0) continue;
      double G[6];
      const double wdet = stiffness_factors(J, t.weights[a] * t.weights[b] * t.weights[e], G);
      const std::size_t base = std::size_t(c) * components * qq + p;
      factors(base + std::size_t(components - 1) * qq) = wdet;
      if (components == 1) continue;
      for (int g = 0; g < 6; ++g) factors(base + std::size_t(g) * qq) = G[g];
    }
  }
};
}  // namespace

std::string to_string(Deformation d) { return enum_name(deformation_names, d); }
Deformation parse_deformation(const std::string& text) { return parse_enum(deformation_names, text, "deformation"); }

BakeOffTables1D bake_off_tables_1d(int degree, BakeOffQuadrature rule) {
  BakeOffTables1D t;
  t.n = degree + 1;
  t.q = quadrature_points_1d(degree, rule);
  const Quadrature1D quad = rule == BakeOffQuadrature::gauss_lobatto ? gauss_lobatto_quadrature(t.q) : gauss_quadrature(t.q);
  t.points = quad.points;
  t.weights = quad.weights;
  const LagrangeBasis1D basis = LagrangeBasis1D::gauss_lobatto(degree);
  const LagrangeBasis1D at_points(quad.points);
  t.interpolation.resize(t.q * t.n);
  t.derivative.resize(t.q * t.n);
  t.collocation_derivative.resize(t.q * t.q);
  for (int a = 0; a < t.q; ++a) {
    for (int i = 0; i < t.n; ++i) {
      t.interpolation[a * t.n + i] = basis.value(i, t.points[a]);
      t.derivative[a * t.n + i] = basis.derivative(i, t.points[a]);
    }
    for (int b = 0; b < t.q; ++b) t.collocation_derivative[a * t.q + b] = at_points.derivative(b, t.points[a]);
  }
  return t;
}

template <class ExecSpace>
DeformedGeometry<ExecSpace>::DeformedGeometry(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout,
                                              DeformationOptions options)
    : layout_(std::move(layout)), options_(options) {
  const CartesianMesh& mesh = layout_->mesh();
  collectively(mesh.comm(), [&] {
    TENSORMG_CHECK(mesh.dim() == 3, "the deformed meshes of the bake-off operators are 3D; given dim " << mesh.dim());
    TENSORMG_CHECK(std::isfinite(options.amplitude) && options.amplitude >= 0,
                   "the deformation amplitude must be a finite number >= 0, given " << options.amplitude);
  });
  map_.kind = options.kind;
  map_.amplitude = options.amplitude;
  map_.seed = options.seed;
  for (int d = 0; d < 3; ++d) {
    map_.lower[d] = mesh.brick().lower[d];
    map_.extent[d] = mesh.brick().upper[d] - mesh.brick().lower[d];
    map_.h[d] = mesh.h()[d];
    map_.n_cells[d] = mesh.n_cells()[d];
  }
}

template <class ExecSpace>
void DeformedGeometry<ExecSpace>::compute(BakeOffQuadrature rule, int components,
                                          Kokkos::View<double*, typename ExecSpace::memory_space> factors,
                                          Kokkos::View<double*, typename ExecSpace::memory_space> coordinates) const {
  const NodeBox& box = layout_->box();
  const local_index n_cells = box.cells[0] * box.cells[1] * box.cells[2];
  if (n_cells == 0) return;
  const BakeOffTables1D tables = bake_off_tables_1d(box.degree, rule);
  DeformedGeometryKernel<ExecSpace> kernel;
  kernel.map = map_;
  kernel.t.n = tables.n;
  kernel.t.q = tables.q;
  const auto nodes = LagrangeBasis1D::gauss_lobatto(box.degree).nodes();
  for (int i = 0; i < tables.n; ++i) kernel.t.nodes[i] = nodes[i];
  for (int a = 0; a < tables.q; ++a) {
    kernel.t.weights[a] = tables.weights[a];
    for (int i = 0; i < tables.n; ++i) {
      kernel.t.interpolation[a][i] = tables.interpolation[a * tables.n + i];
      kernel.t.derivative[a][i] = tables.derivative[a * tables.n + i];
    }
  }
  for (int d = 0; d < 3; ++d) {
    kernel.begin[d] = layout_->mesh().cell_begin()[d];
    kernel.cells[d] = box.cells[d];
  }
  kernel.components = components;
  kernel.factors = factors;
  kernel.coordinates = coordinates;
  const int team = runs_on_host<ExecSpace>() ? 1 : 128;
  Kokkos::parallel_for("tensormg::bake_off::geometry", typename DeformedGeometryKernel<ExecSpace>::Policy(n_cells, team), kernel);
}

template <class ExecSpace>
template <class Number>
GeometricFactors<Number, ExecSpace> DeformedGeometry<ExecSpace>::factors(BakeOffQuadrature rule, bool stiffness) const {
  ScopedRegion region("tensormg::bake_off::geometry");
  const NodeBox& box = layout_->box();
  const std::size_t n_cells = std::size_t(box.cells[0]) * box.cells[1] * box.cells[2];
  const int q = quadrature_points_1d(box.degree, rule);
  GeometricFactors<Number, ExecSpace> f;
  f.components = stiffness ? 7 : 1;
  f.points = q * q * q;
  f.rule = rule;
  const std::size_t size = n_cells * f.components * f.points;
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<double*, memory_space> exact("tensormg::bake_off::factors_double", size);
  compute(rule, f.components, exact, {});

  // The first cell (lexicographic in the rank's box) with w det J <= 0 at some point.
  const int components = f.components, points = f.points;
  global_index first_bad = std::numeric_limits<global_index>::max();
  Kokkos::parallel_reduce(
      "tensormg::bake_off::inverted_cells", Kokkos::RangePolicy<ExecSpace>(0, n_cells * points),
      KOKKOS_LAMBDA(const std::size_t e, global_index& bad) {
        const std::size_t cell = e / points, p = e % points;
        const double wdet = exact((cell * components + components - 1) * points + p);
        if (!(wdet > 0) && global_index(cell) < bad) bad = global_index(cell);
      },
      Kokkos::Min<global_index>(first_bad));
  report_inverted_cells(first_bad);

  if constexpr (std::is_same_v<Number, double>) {
    f.data = exact;
  } else {
    f.data = Kokkos::View<Number*, memory_space>("tensormg::bake_off::factors", size);
    const auto out = f.data;
    Kokkos::parallel_for("tensormg::bake_off::factors_round", Kokkos::RangePolicy<ExecSpace>(0, size),
                         KOKKOS_LAMBDA(const std::size_t i) { out(i) = static_cast<Number>(exact(i)); });
  }
  return f;
}

template <class ExecSpace>
void DeformedGeometry<ExecSpace>::report_inverted_cells(global_index first_bad) const {
  const NodeBox& box = layout_->box();
  std::string where;
  if (first_bad != std::numeric_limits<global_index>::max()) {
    const local_index c = static_cast<local_index>(first_bad);
    const auto& begin = layout_->mesh().cell_begin();
    const global_index cc[3] = {begin[0] + c % box.cells[0], begin[1] + (c / box.cells[0]) % box.cells[1],
                                begin[2] + c / (box.cells[0] * box.cells[1])};
    const auto& nc = layout_->mesh().n_cells();
    std::ostringstream os;
    os << "the deformed mesh (" << to_string(options_.kind) << ", amplitude " << options_.amplitude
       << ") has an inverted or degenerate cell: cell " << cc[0] + nc[0] * (cc[1] + nc[1] * cc[2]) << " = ("
       << cc[0] << ", " << cc[1] << ", " << cc[2] << ") has det J <= 0 at a quadrature point; use a smaller amplitude";
    where = os.str();
  }
  check_collective(where.empty(), where, layout_->mesh().comm());
}

template <class ExecSpace>
Kokkos::View<double*, typename ExecSpace::memory_space> DeformedGeometry<ExecSpace>::vertices(BakeOffQuadrature rule) const {
  ScopedRegion region("tensormg::bake_off::vertices");
  collectively(layout_->mesh().comm(), [&] {
    TENSORMG_CHECK(trilinear(), "the trilinear geometry needs trilinear cells (deformation none or random); the "
                                    << to_string(options_.kind) << " deformation maps cells by degree-k polynomials: "
                                    << "use the stored factors");
  });
  const NodeBox& box = layout_->box();
  const local_index c0 = box.cells[0], c1 = box.cells[1], c2 = box.cells[2];
  const local_index v0 = c0 + 1, v1 = c1 + 1;
  const std::size_t n_cells = std::size_t(c0) * c1 * c2;
  using memory_space = typename ExecSpace::memory_space;
  if (n_cells == 0) {  // a rank without cells still takes part in the collective check
    report_inverted_cells(std::numeric_limits<global_index>::max());
    return {};
  }
  const std::size_t n_vertices = std::size_t(v0) * v1 * (c2 + 1);
  Kokkos::View<double*, memory_space> X("tensormg::bake_off::vertices", 3 * n_vertices);
  const DeformationMap map = map_;
  const auto& begin = layout_->mesh().cell_begin();
  const global_index b0 = begin[0], b1 = begin[1], b2 = begin[2];
  // Each vertex as a corner of a cell of the rank (the last cell of a direction for its upper
  // vertices): the map's point there, the same values the stored factors' kernel interpolates.
  Kokkos::parallel_for(
      "tensormg::bake_off::vertices", Kokkos::RangePolicy<ExecSpace>(0, n_vertices), KOKKOS_LAMBDA(const std::size_t v) {
        const local_index i[3] = {local_index(v % v0), local_index((v / v0) % v1), local_index(v / (std::size_t(v0) * v1))};
        const local_index last[3] = {c0 - 1, c1 - 1, c2 - 1};
        const global_index start[3] = {b0, b1, b2};
        global_index cell[3];
        double xi[3], x[3];
        for (int d = 0; d < 3; ++d) {
          const local_index c = i[d] < last[d] ? i[d] : last[d];
          cell[d] = start[d] + c;
          xi[d] = double(i[d] - c);
        }
        map.point(cell, xi, x);
        for (int d = 0; d < 3; ++d) X(3 * v + d) = x[d];
      });
  // The first cell with det J <= 0 at a point of the rule: a thread per cell, its vertices read
  // once, a TrilinearLine per line of points in ξ_z.
  const BakeOffTables1D t = bake_off_tables_1d(box.degree, rule);
  const int q = t.q;
  Kokkos::View<double*, memory_space> xi("tensormg::bake_off::vertices_points", q);
  Kokkos::deep_copy(xi, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(t.points.data(), q));
  global_index first_bad = std::numeric_limits<global_index>::max();
  Kokkos::parallel_reduce(
      "tensormg::bake_off::inverted_cells", Kokkos::RangePolicy<ExecSpace>(0, n_cells),
      KOKKOS_LAMBDA(const std::size_t c, global_index& bad) {
        const std::size_t cx = c % c0, cy = (c / c0) % c1, cz = c / (std::size_t(c0) * c1);
        double x[8][3];
        for (int corner = 0; corner < 8; ++corner) {
          const std::size_t v = (cx + (corner & 1)) + v0 * ((cy + ((corner >> 1) & 1)) + std::size_t(v1) * (cz + (corner >> 2)));
          for (int d = 0; d < 3; ++d) x[corner][d] = X(3 * v + d);
        }
        for (int line = 0; line < q * q; ++line) {
          const TrilinearLine jacobian(&x[0][0], xi(line % q), xi(line / q));
          for (int m = 0; m < q; ++m)
            if (!(jacobian.weighted_det(xi(m), 1.0) > 0) && global_index(c) < bad) bad = global_index(c);
        }
      },
      Kokkos::Min<global_index>(first_bad));
  report_inverted_cells(first_bad);
  return X;
}

template <class ExecSpace>
Kokkos::View<double*, typename ExecSpace::memory_space> DeformedGeometry<ExecSpace>::quadrature_points(
    BakeOffQuadrature rule) const {
  const NodeBox& box = layout_->box();
  const std::size_t n_cells = std::size_t(box.cells[0]) * box.cells[1] * box.cells[2];
  const int q = quadrature_points_1d(box.degree, rule);
  Kokkos::View<double*, typename ExecSpace::memory_space> points("tensormg::bake_off::quadrature_points",
                                                                  n_cells * 3 * q * q * q);
  compute(rule, 0, {}, points);
  return points;
}

#define TENSORMG_INSTANTIATE(Exec)                                                                              \
  template class DeformedGeometry<Exec>;                                                                        \
  template GeometricFactors<double, Exec> DeformedGeometry<Exec>::factors<double>(BakeOffQuadrature, bool) const; \
  template GeometricFactors<float, Exec> DeformedGeometry<Exec>::factors<float>(BakeOffQuadrature, bool) const;
TENSORMG_INSTANTIATE(DefaultExec)
TENSORMG_IF_SECOND_SPACE(TENSORMG_INSTANTIATE(SecondaryExec))
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
