#pragma once
/// @file
/// Point smoothers the vertex-patch smoother is compared with (paper 000, Table 3): damped Jacobi
/// and Chebyshev–Jacobi on the device, and lexicographic point Gauss–Seidel as a host reference
/// (it copies the vectors to the host and sweeps an assembled CRS copy of the operator).

#include <memory>

#include "discretization/assembled_laplace.hpp"
#include "discretization/dg_laplace_operator.hpp"
#include "discretization/laplace_operator.hpp"
#include "smoothers/smoother.hpp"

namespace tensormg {

/// x ← x + ω D^{-1} (b − A x).
template <class Number, class ExecSpace = DefaultExec, class Operator = LaplaceOperator<Number, ExecSpace>>
class JacobiSmoother final : public Smoother<Number, ExecSpace> {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  JacobiSmoother(std::shared_ptr<const Operator> op, PointSmootherOptions options = {});
  void smooth(vector_type& x, const vector_type& b, SweepOrder order) const override;
  std::string description() const override;

 private:
  std::shared_ptr<const Operator> op_;
  Number damping_;
  vector_type inverse_diagonal_;
  mutable vector_type residual_;
};

/// Chebyshev iteration of the given degree on D^{-1} A over [λ_max / range, 1.1 λ_max], with
/// λ_max estimated by power iteration at set-up (Adams, Brezina, Hu, Tuminaro 2003).
template <class Number, class ExecSpace = DefaultExec, class Operator = LaplaceOperator<Number, ExecSpace>>
class ChebyshevSmoother final : public Smoother<Number, ExecSpace> {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  ChebyshevSmoother(std::shared_ptr<const Operator> op, PointSmootherOptions options = {});
  void smooth(vector_type& x, const vector_type& b, SweepOrder order) const override;
  std::string description() const override;
  /// The same step from x = 0 (x's input is ignored): saves the first operator application.
  void smooth_from_zero(vector_type& x, const vector_type& b) const;
  /// The estimate of λ_max(D^{-1} A) before the safety factor.
  double max_eigenvalue_estimate() const { return lambda_max_; }

 private:
  void iterate(vector_type& x, const vector_type& b, bool zero_start) const;
  std::shared_ptr<const Operator> op_;
  PointSmootherOptions options_;
  double lambda_max_ = 0;
  vector_type inverse_diagonal_;
  mutable vector_type residual_, direction_;
};

/// Lexicographic point Gauss–Seidel on the host (reverse order: backward sweep). Set-up
/// assembles the operator on the host.
template <class Number, class ExecSpace = DefaultExec>
class GaussSeidelSmoother final : public Smoother<Number, ExecSpace> {
 public:
  using vector_type = DistributedVector<Number, ExecSpace>;
  GaussSeidelSmoother(std::shared_ptr<const LaplaceOperator<Number, ExecSpace>> op);
  void smooth(vector_type& x, const vector_type& b, SweepOrder order) const override;
  std::string description() const override { return "gauss-seidel (host, lexicographic)"; }

 private:
  std::shared_ptr<AssembledLaplace<Number, HostExec>> matrix_;
  std::vector<char> dirichlet_;
};

}  // namespace tensormg
