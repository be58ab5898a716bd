#include "discretization/poisson_problem.hpp"

#include <cmath>

#include "core/error.hpp"
#include "discretization/node_functions.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

namespace {
constexpr double pi = 3.14159265358979323846;
}

std::vector<std::string> poisson_problem_names() { return {"sine", "exponential", "one"}; }

PoissonProblem make_poisson_problem(const std::string& name, int dim) {
  PoissonProblem p;
  p.name = name;
  if (name == "sine") {
    p.solution = [dim](const std::array<double, 3>& x) {
      double u = 1;
      for (int d = 0; d < dim; ++d) u *= std::sin(pi * x[d]);
      return u;
    };
    p.rhs = [dim, u = p.solution](const std::array<double, 3>& x) { return dim * pi * pi * u(x); };
    p.solution_gradient = [dim](const std::array<double, 3>& x) {
      std::array<double, 3> g{0, 0, 0};
      for (int d = 0; d < dim; ++d) {
        g[d] = pi * std::cos(pi * x[d]);
        for (int e = 0; e < dim; ++e)
          if (e != d) g[d] *= std::sin(pi * x[e]);
      }
      return g;
    };
  } else if (name == "exponential") {
    p.solution = [dim](const std::array<double, 3>& x) {
      double s = 0;
      for (int d = 0; d < dim; ++d) s += x[d];
      return std::exp(s);
    };
    p.rhs = [dim, u = p.solution](const std::array<double, 3>& x) { return -dim * u(x); };
    p.solution_gradient = [dim, u = p.solution](const std::array<double, 3>& x) {
      const double v = u(x);
      return std::array<double, 3>{v, v, dim == 3 ? v : 0.0};
    };
  } else if (name == "one") {
    p.rhs = [](const std::array<double, 3>&) { return 1.0; };
  } else {
    throw InputError("problem '" + name + "' is not known; use sine, exponential or one");
  }
  return p;
}

template <class Number, class ExecSpace>
void assemble_rhs(const LaplaceOperator<Number, ExecSpace>& laplace, const PoissonProblem& problem,
                  DistributedVector<Number, ExecSpace>& rhs) {
  const auto& layout = laplace.layout();
  LaplaceOptions mass_options = laplace.options();
  mass_options.laplace_coefficient = 0;
  mass_options.mass_coefficient = 1;
  const LaplaceOperator<Number, ExecSpace> mass(laplace.layout_ptr(), mass_options);
  auto f = laplace.make_vector("rhs_f"), g = laplace.make_vector("rhs_g"), lifted = laplace.make_vector("rhs_lift");
  interpolate(layout, f, problem.rhs);
  mass.vmult_unconstrained(rhs, f);  // b = M f_I (all rows)
  const auto& nodes = layout.constrained_nodes();
  if (problem.known_solution()) {
    interpolate(layout, lifted, problem.solution);  // u_I everywhere ...
    copy_entries(nodes, g, lifted);                  // ... g_I: its Dirichlet values, zero inside
    laplace.vmult_unconstrained(lifted, g);          // A_full g_I
    rhs.add(Number(-1), lifted);
  }
  // Dirichlet rows: b = g (zero when u is unknown).
  copy_entries(nodes, rhs, g);
}

template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const ContinuousDofLayout<ExecSpace>& layout,
                                    const DistributedVector<Number, ExecSpace>& uh, const PoissonProblem& problem) {
  TENSORMG_CHECK(problem.known_solution(), "errors need a known solution; problem '" << problem.name << "' has none");
  const NodeBox box = layout.box();
  const int dim = box.dim, k = box.degree, n = k + 1, nq = k + 2;
  const auto basis = LagrangeBasis1D::gauss_lobatto(k);
  const auto quad = gauss_quadrature(nq);
  std::vector<double> val(nq * n), der(nq * n);  // [q][i]
  for (int q = 0; q < nq; ++q)
    for (int i = 0; i < n; ++i) {
      val[q * n + i] = basis.value(i, quad.points[q]);
      der[q * n + i] = basis.derivative(i, quad.points[q]);
    }
  uh.update_ghosts();
  const auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), uh.view());
  const auto& mesh = layout.mesh();
  const std::array<double, 3> h = mesh.h();
  const int nz = dim == 3 ? n : 1, qz = dim == 3 ? nq : 1;
  const local_index cells = box.cells[0] * box.cells[1] * box.cells[2];
  double sums[2] = {0, 0};
  double l2 = 0, h1 = 0;
  Kokkos::parallel_reduce(
      "tensormg::errors", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, box.n[0] > 0 ? cells : 0),
      [&](local_index c, double& el2, double& eh1) {
        const local_index cx = c % box.cells[0], cy = (c / box.cells[0]) % box.cells[1], cz = c / (box.cells[0] * box.cells[1]);
        std::vector<double> ue(n * n * nz);
        for (int l = 0; l < nz; ++l)
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
              ue[i + n * (j + n * l)] = double(u(box.index(cx * k + i, cy * k + j, dim == 3 ? cz * k + l : 0)));
        for (int r = 0; r < qz; ++r)
          for (int q = 0; q < nq; ++q)
            for (int p = 0; p < nq; ++p) {
              double v = 0, g[3] = {0, 0, 0};
              for (int l = 0; l < nz; ++l) {
                const double wz = dim == 3 ? val[r * n + l] : 1.0, dz = dim == 3 ? der[r * n + l] : 0.0;
                for (int j = 0; j < n; ++j)
                  for (int i = 0; i < n; ++i) {
                    const double x = ue[i + n * (j + n * l)];
                    v += x * val[p * n + i] * val[q * n + j] * wz;
                    g[0] += x * der[p * n + i] / h[0] * val[q * n + j] * wz;
                    g[1] += x * val[p * n + i] * der[q * n + j] / h[1] * wz;
                    if (dim == 3) g[2] += x * val[p * n + i] * val[q * n + j] * dz / h[2];
                  }
              }
              const global_index gc[3] = {mesh.cell_begin()[0] + cx, mesh.cell_begin()[1] + cy, mesh.cell_begin()[2] + cz};
              const double qp[3] = {quad.points[p], quad.points[q], dim == 3 ? quad.points[r] : 0.0};
              std::array<double, 3> x{0, 0, 0};
              double w = quad.weights[p] * quad.weights[q] * h[0] * h[1];
              if (dim == 3) w *= quad.weights[r] * h[2];
              for (int d = 0; d < dim; ++d) x[d] = mesh.brick().lower[d] + h[d] * (double(gc[d]) + qp[d]);
              const double e = problem.solution(x) - v;
              const auto ge = problem.solution_gradient(x);
              el2 += w * e * e;
              for (int d = 0; d < dim; ++d) eh1 += w * (ge[d] - g[d]) * (ge[d] - g[d]);
            }
      },
      l2, h1);
  double local[2] = {l2, h1};
  MPI_Allreduce(local, sums, 2, MPI_DOUBLE, MPI_SUM, mesh.comm());
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
