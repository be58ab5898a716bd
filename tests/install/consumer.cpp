// Builds against the installed tensormg and applies its Laplacian once.
#include <cstdio>

#include "core/environment.hpp"
#include "discretization/laplace_operator.hpp"
#include "discretization/node_functions.hpp"

int main(int argc, char** argv) {
  return tensormg::run_main(argc, argv, [](tensormg::Environment& env) {
    tensormg::BrickDescription brick;
    brick.dim = 2;
    brick.refinements = 2;
    auto mesh = std::make_shared<tensormg::CartesianMesh>(brick, env.comm());
    auto layout = std::make_shared<tensormg::ContinuousDofLayout<tensormg::DefaultExec>>(mesh, 2);
    tensormg::LaplaceOperator<double> op(layout);
    auto x = op.make_vector(), y = op.make_vector();
    // x = 1 on the Dirichlet nodes, 0 inside: the constrained operator reads Dirichlet entries as
    // zero and returns them unchanged, so ‖A x‖² = number of boundary nodes (9 x 9 grid: 32).
    tensormg::interpolate(*layout, x, [](const std::array<double, 3>& p) {
      const bool boundary = p[0] == 0.0 || p[0] == 1.0 || p[1] == 0.0 || p[1] == 1.0;
      return boundary ? 1.0 : 0.0;
    });
    op.vmult(y, x);
    const double n2 = y.dot(y);
    std::printf("consumer: |A 1|^2 = %g\n", n2);
    return n2 == 32.0 ? 0 : 1;
  });
}
