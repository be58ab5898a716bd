#include "discretization/poisson_problem.hpp"

#include <cmath>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "discretization/node_functions.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

namespace {
constexpr EnumName<ProblemKind> problem_names[] = {
    {ProblemKind::sine, "sine"}, {ProblemKind::exponential, "exponential"}, {ProblemKind::one, "one"}};
}  // namespace

std::string to_string(ProblemKind kind) { return enum_name(problem_names, kind); }

std::vector<std::string> poisson_problem_names() {
  std::vector<std::string> names;
  for (const auto& row : problem_names) names.emplace_back(row.name);
  return names;
}

ProblemKind parse_problem_kind(const std::string& name) {
  for (const auto& row : problem_names)
    if (name == row.name) return row.value;
  throw InputError("problem '" + name + "' is not known; use " + enum_choices(problem_names));
}

PoissonProblem make_poisson_problem(const std::string& name, int dim) {
  PoissonProblem p;
  p.kind = parse_problem_kind(name);
  p.dim = dim;
  return p;
}

namespace {
struct RhsOf {
  PoissonProblem problem;
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const { return problem.rhs(x, y, z); }
};
struct SolutionOf {
  PoissonProblem problem;
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const { return problem.solution(x, y, z); }
};
}  // namespace

template <class Number, class ExecSpace>
void assemble_rhs(const LaplaceOperator<Number, ExecSpace>& laplace, const PoissonProblem& problem,
                  DistributedVector<Number, ExecSpace>& rhs) {
  const auto& layout = laplace.layout();
  LaplaceOptions mass_options = laplace.options();
  mass_options.laplace_coefficient = 0;
  mass_options.mass_coefficient = 1;
  const LaplaceOperator<Number, ExecSpace> mass(laplace.layout_ptr(), mass_options);
  auto f = laplace.make_vector("rhs_f"), g = laplace.make_vector("rhs_g"), lifted = laplace.make_vector("rhs_lift");
  interpolate_on_device(layout, f, RhsOf{problem});
  mass.vmult_unconstrained(rhs, f);  // b = M f_I (all rows)
  const auto& nodes = layout.constrained_nodes();
  if (problem.known_solution()) {
    interpolate_on_device(layout, lifted, SolutionOf{problem});  // u_I everywhere ...
    copy_entries(nodes, g, lifted);                  // ... g_I: its Dirichlet values, zero inside
    laplace.vmult_unconstrained(lifted, g);          // A_full g_I
    rhs.add(Number(-1), lifted);
  }
  // Dirichlet rows: b = g (zero when u is unknown).
  copy_entries(nodes, rhs, g);
}

namespace {
/// ‖e‖² and |e|²_{H1} of one or more cells.
struct ErrorSums {
  double l2 = 0, h1 = 0;
  KOKKOS_INLINE_FUNCTION ErrorSums& operator+=(const ErrorSums& o) {
    l2 += o.l2;
    h1 += o.h1;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile ErrorSums& o) volatile {
    l2 += o.l2;
    h1 += o.h1;
  }
};
}  // namespace
}  // namespace tensormg

namespace Kokkos {
template <>
struct reduction_identity<tensormg::ErrorSums> {
  KOKKOS_FORCEINLINE_FUNCTION static tensormg::ErrorSums sum() { return {}; }
};
}  // namespace Kokkos

namespace tensormg {

template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const ContinuousDofLayout<ExecSpace>& layout,
                                    const DistributedVector<Number, ExecSpace>& uh, const PoissonProblem& problem) {
  TENSORMG_CHECK(problem.known_solution(), "errors need a known solution; problem '" << problem.name() << "' has none");
  using Memory = typename ExecSpace::memory_space;
  const NodeBox box = layout.box();
  const int dim = box.dim, k = box.degree, n = k + 1, nq = k + 2;
  // Tables [q][i] of the basis values and derivatives at the Gauss points, then points and weights.
  const auto basis = LagrangeBasis1D::gauss_lobatto(k);
  const auto quad = gauss_quadrature(nq);
  Kokkos::View<double*, Memory> tables("tensormg::errors::tables", 2 * nq * n + 2 * nq);
  {
    const auto t = Kokkos::create_mirror_view(tables);
    for (int q = 0; q < nq; ++q) {
      for (int i = 0; i < n; ++i) {
        t(q * n + i) = basis.value(i, quad.points[q]);
        t(nq * n + q * n + i) = basis.derivative(i, quad.points[q]);
      }
      t(2 * nq * n + q) = quad.points[q];
      t(2 * nq * n + nq + q) = quad.weights[q];
    }
    Kokkos::deep_copy(tables, t);
  }
  uh.update_ghosts();
  const auto u = uh.view();
  const NodeCoordinates coordinates = layout.node_coordinates();
  const int nz = dim == 3 ? n : 1, qz = dim == 3 ? nq : 1;
  const int nodes = n * n * nz, points = nq * nq * qz;
  const local_index cells = box.n[0] > 0 ? box.cells[0] * box.cells[1] * box.cells[2] : 0;
  using Scratch = Kokkos::View<double*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Policy policy = host ? Policy(cells, 1) : Policy(cells, 64);
  const int scratch_values = nodes + int(tables.extent(0));
  ErrorSums total;
  // One team per cell: its nodal values and the tables in scratch, a thread per Gauss point.
  Kokkos::parallel_reduce(
      "tensormg::errors", policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(scratch_values))),
      KOKKOS_LAMBDA(const typename Policy::member_type& team, ErrorSums& sum) {
        const local_index c = team.league_rank();
        const local_index cx = c % box.cells[0], cy = (c / box.cells[0]) % box.cells[1],
                          cz = c / (box.cells[0] * box.cells[1]);
        Scratch ue(team.team_scratch(0), scratch_values);
        double* const t = ue.data() + nodes;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, int(tables.extent(0))), [&](int i) { t[i] = tables(i); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nodes), [&](int node) {
          const int i = node % n, j = (node / n) % n, l = node / (n * n);
          ue(node) = double(u(box.index(cx * k + i, cy * k + j, dim == 3 ? cz * k + l : 0)));
        });
        team.team_barrier();
        const double* val = t;
        const double* der = t + nq * n;
        const double* qpoint = t + 2 * nq * n;
        const double* qweight = qpoint + nq;
        ErrorSums cell;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, points),
            [&](int point, ErrorSums& s) {
              const int p = point % nq, q = (point / nq) % nq, r = point / (nq * nq);
              double v = 0, g[3] = {0, 0, 0};
              for (int l = 0; l < nz; ++l) {
                const double wz = dim == 3 ? val[r * n + l] : 1.0, dz = dim == 3 ? der[r * n + l] : 0.0;
                for (int j = 0; j < n; ++j) {
                  double sv = 0, sd = 0;  // the x contraction of row (j, l)
                  for (int i = 0; i < n; ++i) {
                    const double nodal = ue(i + n * (j + n * l));
                    sv += nodal * val[p * n + i];
                    sd += nodal * der[p * n + i];
                  }
                  v += sv * val[q * n + j] * wz;
                  g[0] += sd * val[q * n + j] * wz;
                  g[1] += sv * der[q * n + j] * wz;
                  g[2] += sv * val[q * n + j] * dz;
                }
              }
              // The points and their weights on the rank's cell (cx, cy, cz).
              const local_index cell_index[3] = {cx, cy, cz};
              const int qi[3] = {p, q, r};
              double x[3] = {0, 0, 0}, w = 1;
              for (int d = 0; d < dim; ++d) {
                const double h = coordinates.h[d];
                const global_index gc = coordinates.offset[d] / k + cell_index[d];
                x[d] = coordinates.lower[d] + h * (double(gc) + qpoint[qi[d]]);
                w *= qweight[qi[d]] * h;
                g[d] /= h;
              }
              const double e = problem.solution(x[0], x[1], x[2]) - v;
              double ge[3];
              problem.gradient(x[0], x[1], x[2], ge);
              s.l2 += w * e * e;
              for (int d = 0; d < dim; ++d) s.h1 += w * (ge[d] - g[d]) * (ge[d] - g[d]);
            },
            Kokkos::Sum<ErrorSums>(cell));
        Kokkos::single(Kokkos::PerTeam(team), [&] { sum += cell; });
      },
      Kokkos::Sum<ErrorSums>(total));
  double local[2] = {total.l2, total.h1}, sums[2] = {0, 0};
  MPI_Allreduce(local, sums, 2, MPI_DOUBLE, MPI_SUM, layout.mesh().comm());
  return {std::sqrt(sums[0]), std::sqrt(sums[1])};
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                  \
  template void assemble_rhs<Number, Exec>(const LaplaceOperator<Number, Exec>&, const PoissonProblem&,     \
                                           DistributedVector<Number, Exec>&);                               \
  template DiscretizationErrors compute_errors<Number, Exec>(const ContinuousDofLayout<Exec>&,              \
                                                             const DistributedVector<Number, Exec>&, const PoissonProblem&);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
