#include "discretization/dg_poisson.hpp"

#include <cmath>
#include <vector>

#include "discretization/cell_errors.hpp"

namespace tensormg {

namespace {
struct DgRhsOf {
  PoissonProblem problem;
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const { return problem.rhs(x, y, z); }
};

/// The 1D data the boundary-data kernel needs, by value (degree ≤ 10).
struct BoundaryData1D {
  static constexpr int max_n = 11;
  double mass[3][max_n][max_n];
  double data[3][2][max_n];  ///< σ_b δ − ∂ₙφ_i on the lower / upper face
};

template <class Number, class Memory>
struct DgCellValues {
  CellBox box;
  Kokkos::View<const Number*, Memory> u;
  KOKKOS_INLINE_FUNCTION void cell(local_index c, local_index cc[3], global_index g[3]) const {
    box.coordinates(c, cc);
    for (int d = 0; d < 3; ++d) g[d] = box.offset[d] + cc[d];
  }
  KOKKOS_INLINE_FUNCTION double value(local_index c, const local_index*, int i, int j, int l) const {
    const int n = box.degree + 1;
    return double(u(c * box.cell_dofs + i + n * (j + n * l)));
  }
};
}  // namespace

template <class Number, class ExecSpace>
void assemble_rhs(const DgLaplaceOperator<Number, ExecSpace>& laplace, const PoissonProblem& problem,
                  DistributedVector<Number, ExecSpace>& rhs) {
  const auto& layout = laplace.layout();
  DgLaplaceOptions mass_options = laplace.options();
  mass_options.laplace_coefficient = 0;
  mass_options.mass_coefficient = 1;
  const DgLaplaceOperator<Number, ExecSpace> mass(laplace.layout_ptr(), mass_options);
  auto f = laplace.make_vector("rhs_f");
  interpolate_on_device(layout, f, DgRhsOf{problem});
  mass.vmult(rhs, f);  // b = M f_I
  if (!problem.known_solution()) return;

  // Nitsche data: for node i of a cell with face (d, side) on the boundary,
  // b_i += data_d[side][i_d] · Σ_{j⊥} Π_{e≠d} M_e[i_e][j_e] g(face node j⊥).
  BoundaryData1D m{};
  const int dim = layout.dim(), k = layout.degree(), n = k + 1;
  for (int d = 0; d < dim; ++d) {
    const SipgMatrices1D& s = laplace.lines()[d];
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) m.mass[d][i][j] = s.m(i, j);
      m.data[d][0][i] = s.boundary_data[0][i];
      m.data[d][1][i] = s.boundary_data[1][i];
    }
  }
  const CellBox box = layout.box();
  const NodeCoordinates coords = layout.node_coordinates();
  const auto b = rhs.view();
  const double a = laplace.options().laplace_coefficient;
  Kokkos::parallel_for(
      "tensormg::dg::rhs_boundary", Kokkos::RangePolicy<ExecSpace>(0, box.n_owned_cells * box.cell_dofs),
      KOKKOS_LAMBDA(local_index l) {
        const local_index cell = l / box.cell_dofs;
        const int node = l - cell * box.cell_dofs;
        local_index cc[3];
        box.coordinates(cell, cc);
        const int i[3] = {node % n, (node / n) % n, node / (n * n)};
        double sum = 0;
        for (int d = 0; d < dim; ++d)
          for (int side = 0; side < 2; ++side) {
            if (!box.on_boundary(cc, d, side)) continue;
            const double weight = m.data[d][side][i[d]];
            if (weight == 0) continue;
            // Tangential directions t0 (< t1); in 2D only t0.
            const int t0 = d == 0 ? 1 : 0, t1 = d == 2 ? 1 : 2;
            const int n1 = dim == 3 ? n : 1;
            double face = 0;
            for (int q = 0; q < n1; ++q)
              for (int p = 0; p < n; ++p) {
                double x[3] = {0, 0, 0};
                x[d] = coords.global(d, (box.offset[d] + cc[d] + side) * k);
                x[t0] = coords.global(t0, (box.offset[t0] + cc[t0]) * k + p);
                if (dim == 3) x[t1] = coords.global(t1, (box.offset[t1] + cc[t1]) * k + q);
                double w = m.mass[t0][i[t0]][p];
                if (dim == 3) w *= m.mass[t1][i[t1]][q];
                face += w * problem.solution(x[0], x[1], x[2]);
              }
            sum += weight * face;
          }
        if (sum != 0) b(l) += static_cast<Number>(a * sum);
      });
}

template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const DgDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& uh,
                                    const PoissonProblem& problem) {
  const CellBox box = layout.box();
  return cell_errors<ExecSpace>(layout.mesh().comm(), box.dim, box.degree, box.n_owned_cells, layout.node_coordinates(),
                                DgCellValues<Number, typename ExecSpace::memory_space>{box, uh.view()}, problem);
}

template <class Number, class ExecSpace>
double compute_energy_error(const DgLaplaceOperator<Number, ExecSpace>& op, const DistributedVector<Number, ExecSpace>& uh,
                            const PoissonProblem& problem) {
  const auto& layout = op.layout();
  const double h1 = compute_errors(layout, uh, problem).h1;
  uh.update_ghosts();  // the upper neighbours' face values
  const auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), uh.view());
  const CellBox& box = layout.box();
  const NodeCoordinates& coords = layout.node_coordinates();
  const int dim = box.dim, k = box.degree, n = k + 1;
  const auto& lines = op.lines();
  double jumps = 0;
  std::vector<double> jump(n * n);
  for (local_index cell = 0; cell < box.n_owned_cells; ++cell) {
    local_index cc[3];
    box.coordinates(cell, cc);
    for (int d = 0; d < dim; ++d)
      for (int side = 0; side < 2; ++side) {
        // Each interior face once (by its lower cell), each boundary face by its cell.
        const local_index nb = box.neighbor(cc, d, side);
        if (side == 0 && nb >= 0) continue;
        const int t0 = d == 0 ? 1 : 0, t1 = d == 2 ? 1 : 2;
        const int n1 = dim == 3 ? n : 1;
        for (int q = 0; q < n1; ++q)
          for (int p = 0; p < n; ++p) {
            int i[3] = {0, 0, 0};
            i[d] = side ? k : 0;
            i[t0] = p;
            if (dim == 3) i[t1] = q;
            const double own = double(u(cell * box.cell_dofs + i[0] + n * (i[1] + n * i[2])));
            double other;
            if (nb >= 0) {
              i[d] = 0;  // the upper neighbour's lower face
              other = double(u(nb * box.cell_dofs + i[0] + n * (i[1] + n * i[2])));
            } else {
              double x[3] = {0, 0, 0};
              for (int e = 0; e < dim; ++e) x[e] = coords.global(e, (box.offset[e] + cc[e]) * k + i[e]);
              x[d] = coords.global(d, (box.offset[d] + cc[d] + side) * k);
              other = problem.known_solution() ? problem.solution(x[0], x[1], x[2]) : 0.0;
            }
            jump[p + n * q] = own - other;
          }
        double sum = 0;  // jumpᵀ (M_t1 ⊗ M_t0) jump
        for (int q = 0; q < n1; ++q)
          for (int p = 0; p < n; ++p)
            for (int qq = 0; qq < n1; ++qq)
              for (int pp = 0; pp < n; ++pp) {
                const double m = lines[t0].m(p, pp) * (dim == 3 ? lines[t1].m(q, qq) : 1.0);
                sum += jump[p + n * q] * m * jump[pp + n * qq];
              }
        jumps += (nb >= 0 ? lines[d].sigma : lines[d].sigma_boundary) * sum;
      }
  }
  double total = 0;
  MPI_Allreduce(&jumps, &total, 1, MPI_DOUBLE, MPI_SUM, layout.mesh().comm());
  return std::sqrt(h1 * h1 + total);
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                        \
  template void assemble_rhs<Number, Exec>(const DgLaplaceOperator<Number, Exec>&, const PoissonProblem&,         \
                                           DistributedVector<Number, Exec>&);                                     \
  template DiscretizationErrors compute_errors<Number, Exec>(const DgDofLayout<Exec>&,                            \
                                                             const DistributedVector<Number, Exec>&, const PoissonProblem&); \
  template double compute_energy_error<Number, Exec>(const DgLaplaceOperator<Number, Exec>&,                      \
                                                     const DistributedVector<Number, Exec>&, const PoissonProblem&);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
