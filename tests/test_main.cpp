// GoogleTest main for every tensormg test program: MPI + Kokkos through tensormg::Environment,
// output from rank 0 only, and a failure on any rank fails the program on all ranks.
#include <gtest/gtest.h>

#include "core/environment.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  tensormg::Environment env(argc, argv);
  if (env.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int local = RUN_ALL_TESTS();
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, env.comm());
  if (local != 0 && env.rank() != 0)
    std::cerr << "tensormg tests: failures on rank " << env.rank() << std::endl;
  return global;
}
