#pragma once
// The execution spaces every typed test body runs on: DefaultExec and SecondaryExec (core/types.hpp),
// DefaultExec alone in a build with TENSORMG_SECOND_SPACE=OFF.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "core/types.hpp"

#include <string>
#include <type_traits>

namespace tensormg::testing {

#if defined(TENSORMG_ONE_SPACE)
using ExecSpaces = ::testing::Types<Kokkos::DefaultExecutionSpace>;
#else
using ExecSpaces = ::testing::Types<Kokkos::DefaultExecutionSpace, tensormg::SecondaryExec>;
#endif

/// Names typed tests "<Suite>/<ExecSpace>.<Test>" so ctest can select one backend with
/// --gtest_filter=*/<ExecSpace>.*
struct ExecSpaceName {
  template <class T>
  static std::string GetName(int) {
    return T::name();
  }
};

/// MPI rank and size of COMM_WORLD.
inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

}  // namespace tensormg::testing
