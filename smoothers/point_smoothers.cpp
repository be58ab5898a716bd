#include "smoothers/point_smoothers.hpp"

#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/low_order_operator.hpp"
#include "discretization/node_functions.hpp"

namespace tensormg {

namespace {
template <class Operator>
auto inverse_diagonal(const Operator& op) {
  auto d = op.make_vector("inverse_diagonal");
  op.compute_diagonal(d);
  d.invert_entries();
  return d;
}

/// r = D^{-1} (b − A x); `product` is scratch.
template <class Operator, class Number, class ExecSpace>
void preconditioned_residual(const Operator& op, const DistributedVector<Number, ExecSpace>& dinv,
                             const DistributedVector<Number, ExecSpace>& x, const DistributedVector<Number, ExecSpace>& b,
                             DistributedVector<Number, ExecSpace>& r) {
  op.vmult(r, x);
  r.axpby(Number(1), b, Number(-1));
  r.pointwise_multiply(r, dinv);
}
}  // namespace

template <class Number, class ExecSpace, class Operator>
JacobiSmoother<Number, ExecSpace, Operator>::JacobiSmoother(std::shared_ptr<const Operator> op,
                                                   PointSmootherOptions options)
    : op_(std::move(op)), damping_(Number(options.jacobi_damping > 0 ? options.jacobi_damping : 2.0 / 3.0)) {
  collectively(op_->layout().mesh().comm(), [&] {
    TENSORMG_CHECK(options.jacobi_damping >= 0 && options.jacobi_damping < 2,
                   "the Jacobi damping must be in (0, 2) (0 = 2/3), given " << options.jacobi_damping);
  });
  inverse_diagonal_ = inverse_diagonal(*op_);
  residual_ = op_->make_vector("jacobi_residual");
}

template <class Number, class ExecSpace, class Operator>
void JacobiSmoother<Number, ExecSpace, Operator>::smooth(vector_type& x, const vector_type& b, SweepOrder) const {
  ScopedRegion region("smoother::jacobi");
  preconditioned_residual(*op_, inverse_diagonal_, x, b, residual_);
  x.add(damping_, residual_);
}

template <class Number, class ExecSpace, class Operator>
std::string JacobiSmoother<Number, ExecSpace, Operator>::description() const {
  std::ostringstream s;
  s << "jacobi damping=" << damping_;
  return s.str();
}

template <class Number, class ExecSpace, class Operator>
ChebyshevSmoother<Number, ExecSpace, Operator>::ChebyshevSmoother(std::shared_ptr<const Operator> op,
                                                         PointSmootherOptions options)
    : op_(std::move(op)), options_(options) {
  residual_ = op_->make_vector("chebyshev_residual");
  direction_ = op_->make_vector("chebyshev_direction");
  collectively(residual_.comm(), [&] {  // the same options on every rank: one message
    TENSORMG_CHECK(options.chebyshev_degree >= 1 && options.chebyshev_degree <= 20,
                   "the Chebyshev degree must be in 1..20, given " << options.chebyshev_degree);
    TENSORMG_CHECK(options.chebyshev_range > 1, "the Chebyshev range must be > 1, given " << options.chebyshev_range);
    TENSORMG_CHECK(options.eigenvalue_iterations >= 1, "the power iteration needs >= 1 step");
  });
  inverse_diagonal_ = inverse_diagonal(*op_);
  // Power iteration on D^{-1} A from a fixed pseudo-random start.
  auto v = op_->make_vector("power_iterate");
  fill_by_global_index(op_->layout(), v, [](global_index g) {
    std::uint64_t s = static_cast<std::uint64_t>(g) * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    s ^= s >> 29;
    return 0.5 + double(s % 1000003) / 1000003.0;
  });
  double lambda = 0;
  for (int it = 0; it < options.eigenvalue_iterations; ++it) {
    const double norm = double(v.l2_norm());
    TENSORMG_CHECK(norm > 0 && std::isfinite(norm), "power iteration for the Chebyshev smoother broke down");
    v.scale(Number(1.0 / norm));
    op_->vmult(residual_, v);
    residual_.pointwise_multiply(residual_, inverse_diagonal_);
    lambda = double(v.dot(residual_));  // Rayleigh-like quotient with ‖v‖ = 1
    v.copy_from(residual_);
  }
  lambda_max_ = lambda;
}

template <class Number, class ExecSpace, class Operator>
void ChebyshevSmoother<Number, ExecSpace, Operator>::smooth(vector_type& x, const vector_type& b, SweepOrder) const {
  iterate(x, b, false);
}

template <class Number, class ExecSpace, class Operator>
void ChebyshevSmoother<Number, ExecSpace, Operator>::smooth_from_zero(vector_type& x, const vector_type& b) const {
  iterate(x, b, true);
}

template <class Number, class ExecSpace, class Operator>
void ChebyshevSmoother<Number, ExecSpace, Operator>::iterate(vector_type& x, const vector_type& b,
                                                              bool zero_start) const {
  ScopedRegion region("smoother::chebyshev");
  const double upper = 1.1 * lambda_max_, lower = upper / options_.chebyshev_range;
  const double theta = 0.5 * (upper + lower), delta = 0.5 * (upper - lower);
  if (zero_start) {
    residual_.pointwise_multiply(b, inverse_diagonal_);  // D^{-1} (b − A 0): no operator application
    direction_.copy_from(residual_);
    direction_.scale(Number(1.0 / theta));
    x.copy_from(direction_);
  } else {
    preconditioned_residual(*op_, inverse_diagonal_, x, b, residual_);
    direction_.copy_from(residual_);
    direction_.scale(Number(1.0 / theta));
    x.add(Number(1), direction_);
  }
  const double sigma = theta / delta;
  double rho_old = 1.0 / sigma;
  for (int i = 1; i < options_.chebyshev_degree; ++i) {
    preconditioned_residual(*op_, inverse_diagonal_, x, b, residual_);
    const double rho = 1.0 / (2.0 * sigma - rho_old);
    direction_.axpby(Number(2.0 * rho / delta), residual_, Number(rho * rho_old));
    x.add(Number(1), direction_);
    rho_old = rho;
  }
}

template <class Number, class ExecSpace, class Operator>
std::string ChebyshevSmoother<Number, ExecSpace, Operator>::description() const {
  std::ostringstream s;
  s << "chebyshev degree=" << options_.chebyshev_degree << " range=" << options_.chebyshev_range
    << " lambda_max=" << lambda_max_;
  return s.str();
}

template <class Number, class ExecSpace>
GaussSeidelSmoother<Number, ExecSpace>::GaussSeidelSmoother(std::shared_ptr<const LaplaceOperator<Number, ExecSpace>> op) {
  const auto& layout = op->layout();
  auto host_layout = std::make_shared<ContinuousDofLayout<HostExec>>(layout.mesh_ptr(), layout.degree());
  matrix_ = std::make_shared<AssembledLaplace<Number, HostExec>>(host_layout, op->options().laplace_coefficient,
                                                                  op->options().mass_coefficient);
  const NodeBox& box = layout.box();
  dirichlet_.assign(box.n_owned, 0);
  for (local_index iz = 0; iz < box.o[2]; ++iz)
    for (local_index iy = 0; iy < box.o[1]; ++iy)
      for (local_index ix = 0; ix < box.o[0]; ++ix)
        if (box.on_boundary(ix, iy, iz)) dirichlet_[box.index(ix, iy, iz)] = 1;
  int ranks = 1;
  MPI_Comm_size(layout.mesh().comm(), &ranks);
  TENSORMG_CHECK_COLLECTIVE(layout.mesh().comm(), ranks == 1,
                            "the Gauss-Seidel smoother is a sequential host reference; it runs on one MPI rank (given "
                                << ranks << ")");
}

template <class Number, class ExecSpace>
void GaussSeidelSmoother<Number, ExecSpace>::smooth(vector_type& x, const vector_type& b, SweepOrder order) const {
  ScopedRegion region("smoother::gauss_seidel");
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view());
  const auto& A = matrix_->matrix();
  const auto rows = A.graph.row_map;
  const auto cols = A.graph.entries;
  const auto vals = A.values;
  const local_index n = x.n_owned();
  const auto relax = [&](local_index i) {
    if (dirichlet_[i]) return;
    double sum = double(hb(i)), diag = 0;
    for (auto e = rows(i); e < rows(i + 1); ++e) {
      if (cols(e) == i) diag = double(vals(e));
      else sum -= double(vals(e)) * double(hx(cols(e)));
    }
    if (diag != 0) hx(i) = Number(sum / diag);
  };
  if (order == SweepOrder::forward)
    for (local_index i = 0; i < n; ++i) relax(i);
  else
    for (local_index i = n - 1; i >= 0; --i) relax(i);
  Kokkos::deep_copy(x.view(), hx);
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                  \
  template class JacobiSmoother<Number, Exec>;                              \
  template class ChebyshevSmoother<Number, Exec>;                           \
  template class JacobiSmoother<Number, Exec, DgLaplaceOperator<Number, Exec>>;    \
  template class ChebyshevSmoother<Number, Exec, DgLaplaceOperator<Number, Exec>>; \
  template class GaussSeidelSmoother<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE
// The low-order Q1 operators on unstructured hexahedra (double only).
template class ChebyshevSmoother<double, DefaultExec, LowOrderOperator<DefaultExec>>;
TENSORMG_IF_SECOND_SPACE(template class ChebyshevSmoother<double, SecondaryExec, LowOrderOperator<SecondaryExec>>;)

}  // namespace tensormg
