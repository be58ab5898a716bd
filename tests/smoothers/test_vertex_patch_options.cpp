// Vertex-patch smoother options: what each thread structure and kernel refuses (a clear,
// collective InputError naming the reason), what the automatic choice picks, and option values
// out of range. The smoothing steps themselves are checked in test_vertex_patch.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "smoothers/vertex_patch_smoother.hpp"
#include "smoothers/vertex_patch_tuning.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

template <class ExecSpace>
class VertexPatchOptionsTest : public ::testing::Test {};
TYPED_TEST_SUITE(VertexPatchOptionsTest, ExecSpaces, ExecSpaceName);

/// The smoother refuses `options` on `op` with a collective InputError whose text contains `text`.
template <class ExecSpace>
void expect_refused(std::shared_ptr<const LaplaceOperator<double, ExecSpace>> op, const VertexPatchOptions& options,
                    const char* text) {
  try {
    VertexPatchSmoother<double, ExecSpace> smoother(op, options);
    ADD_FAILURE() << "accepted: " << smoother.description();
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TYPED_TEST(VertexPatchOptionsTest, PerPatchRefusesWhatItCannotDo) {
  const auto q1 = std::make_shared<LaplaceOperator<double, TypeParam>>(make_layout<TypeParam>(make_mesh(3, {2, 2, 2}, 0), 1));
  const auto q2 = std::make_shared<LaplaceOperator<double, TypeParam>>(make_layout<TypeParam>(make_mesh(3, {2, 2, 2}, 0), 2));
  VertexPatchOptions o;
  o.structure = ThreadStructure::per_patch;
  expect_refused<TypeParam>(q2, o, "Q2 needs per-column");
  o.structure = ThreadStructure::per_line;
  expect_refused<TypeParam>(q2, o, "per-line thread structure smooths Q1 patches");
  o.structure = ThreadStructure::per_patch;
  o.kernel = PatchKernel::separate;
  expect_refused<TypeParam>(q1, o, "separate smoother kernel");
  o.kernel = PatchKernel::fused;
  o.solver = LocalSolver::inverse;
  expect_refused<TypeParam>(q1, o, "fast-diagonalization local solver");
  o.solver = LocalSolver::fast_diagonalization;
  o.patches_per_team = 2;
  expect_refused<TypeParam>(q1, o, "patches per team");
  // Automatic: the team kernels wherever an option asks for them.
  using Smoother = VertexPatchSmoother<double, TypeParam>;
  const auto structure = [](auto op, const VertexPatchOptions& options) { return Smoother(op, options).options().structure; };
  VertexPatchOptions automatic;
  automatic.solver = LocalSolver::inverse;
  EXPECT_EQ(structure(q1, automatic), ThreadStructure::per_column);
  automatic = {};
  automatic.kernel = PatchKernel::global;
  EXPECT_EQ(structure(q1, automatic), ThreadStructure::per_column);
  // k >= 2: per column, or on the host patches in SIMD lanes where the row says so.
  EXPECT_EQ(structure(q2, VertexPatchOptions{}),
            patch_tuning(3, 2, tuning_target<TypeParam>()).lanes ? ThreadStructure::lanes : ThreadStructure::per_column);
}

TYPED_TEST(VertexPatchOptionsTest, LanesRefuseWhatTheyCannotDo) {
  if constexpr (runs_on_host<TypeParam>()) {
    const auto q1 = std::make_shared<LaplaceOperator<double, TypeParam>>(make_layout<TypeParam>(make_mesh(2, {2, 2, 1}, 0), 1));
    const auto q2 = std::make_shared<LaplaceOperator<double, TypeParam>>(make_layout<TypeParam>(make_mesh(2, {2, 2, 1}, 0), 2));
    VertexPatchOptions o;
    o.structure = ThreadStructure::lanes;
    expect_refused<TypeParam>(q1, o, "Q2 and above");
    o.kernel = PatchKernel::separate;
    expect_refused<TypeParam>(q2, o, "separate smoother kernel");
    o.kernel = PatchKernel::fused;
    o.solver = LocalSolver::inverse;
    expect_refused<TypeParam>(q2, o, "fast diagonalization");
    o.solver = LocalSolver::fast_diagonalization;
    o.threads_per_patch = 4;
    expect_refused<TypeParam>(q2, o, "threads per patch");
  }
}

TYPED_TEST(VertexPatchOptionsTest, InvalidOptionsAreRefused) {
  const auto layout = make_layout<TypeParam>(make_mesh(2, {2, 2, 1}, 0), 2);
  const auto op = std::make_shared<LaplaceOperator<double, TypeParam>>(layout);
  VertexPatchOptions o;
  o.patches_per_team = 65;
  EXPECT_THROW((VertexPatchSmoother<double, TypeParam>(op, o)), InputError);
  o.patches_per_team = 0;
  o.threads_per_patch = 1025;
  EXPECT_THROW((VertexPatchSmoother<double, TypeParam>(op, o)), InputError);
  o.threads_per_patch = -1;
  EXPECT_THROW((VertexPatchSmoother<double, TypeParam>(op, o)), InputError);
  o.threads_per_patch = 0;
  o.kernel = PatchKernel::global;
  o.residual = PatchResidual::boundary;
  EXPECT_THROW((VertexPatchSmoother<double, TypeParam>(op, o)), InputError) << "boundary residual with the global kernel";
  EXPECT_THROW(parse_patch_residual("half"), InputError);
  EXPECT_THROW(parse_patch_kernel("fast"), InputError);
  EXPECT_THROW(parse_local_solver("lu"), InputError);
  EXPECT_THROW(parse_thread_structure("per-warp"), InputError);
  EXPECT_THROW(parse_smoother_kind("sor"), InputError);
}

}  // namespace
