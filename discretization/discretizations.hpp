#pragma once
/// @file
/// The two discretizations of the Laplacian as tags: each names its layout, its matrix-free
/// operator and the operator's options, so that multigrid (multigrid/multigrid.hpp), the level
/// hierarchy and the drivers are written once for both.
///   - ContinuousQk: continuous Q_k, Dirichlet values as constrained (identity) rows (paper 000);
///   - DgSipg: discontinuous Q_k with the symmetric interior penalty method, Dirichlet data
///     imposed weakly (Nitsche), no constrained values (paper 002).

#include "discretization/dg_laplace_operator.hpp"
#include "discretization/laplace_operator.hpp"

namespace tensormg {

struct ContinuousQk {
  template <class ExecSpace>
  using Layout = ContinuousDofLayout<ExecSpace>;
  template <class Number, class ExecSpace>
  using Operator = LaplaceOperator<Number, ExecSpace>;
  using OperatorOptions = LaplaceOptions;
  static constexpr const char* name = "cg";
};

struct DgSipg {
  template <class ExecSpace>
  using Layout = DgDofLayout<ExecSpace>;
  template <class Number, class ExecSpace>
  using Operator = DgLaplaceOperator<Number, ExecSpace>;
  using OperatorOptions = DgLaplaceOptions;
  static constexpr const char* name = "dg";
};

}  // namespace tensormg
