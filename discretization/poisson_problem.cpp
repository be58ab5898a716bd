#include "discretization/poisson_problem.hpp"

#include <cmath>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "discretization/cell_errors.hpp"
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
/// The values of the continuous layout's cell (cx, cy, cz) and its global cell coordinates.
template <class Number, class Memory>
struct ContinuousCellValues {
  NodeBox box;
  Kokkos::View<const Number*, Memory> u;
  KOKKOS_INLINE_FUNCTION void cell(local_index c, local_index cc[3], global_index g[3]) const {
    cc[0] = c % box.cells[0];
    cc[1] = (c / box.cells[0]) % box.cells[1];
    cc[2] = c / (box.cells[0] * box.cells[1]);
    for (int d = 0; d < 3; ++d) g[d] = box.offset[d] / box.degree + cc[d];
  }
  KOKKOS_INLINE_FUNCTION double value(local_index, const local_index cc[3], int i, int j, int l) const {
    const int k = box.degree;
    return double(u(box.index(cc[0] * k + i, cc[1] * k + j, box.dim == 3 ? cc[2] * k + l : 0)));
  }
};
}  // namespace

template <class Number, class ExecSpace>
DiscretizationErrors compute_errors(const ContinuousDofLayout<ExecSpace>& layout,
                                    const DistributedVector<Number, ExecSpace>& uh, const PoissonProblem& problem) {
  uh.update_ghosts();
  const NodeBox box = layout.box();
  const local_index cells = box.n[0] > 0 ? box.cells[0] * box.cells[1] * box.cells[2] : 0;
  return cell_errors<ExecSpace>(layout.mesh().comm(), box.dim, box.degree, cells, layout.node_coordinates(),
                                ContinuousCellValues<Number, typename ExecSpace::memory_space>{box, uh.view()}, problem);
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                  \
  template void assemble_rhs<Number, Exec>(const LaplaceOperator<Number, Exec>&, const PoissonProblem&,     \
                                           DistributedVector<Number, Exec>&);                               \
  template DiscretizationErrors compute_errors<Number, Exec>(const ContinuousDofLayout<Exec>&,              \
                                                             const DistributedVector<Number, Exec>&, const PoissonProblem&);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
