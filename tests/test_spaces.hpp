#pragma once
// The execution spaces every typed test body runs on: the default (device) space and the host
// space, or Serial when the host default is the same as the device default (OpenMP builds).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace tensormg::testing {

#if defined(KOKKOS_ENABLE_SERIAL)
using SecondSpace = std::conditional_t<
    std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>, Kokkos::Serial,
    Kokkos::DefaultHostExecutionSpace>;
#else
using SecondSpace = Kokkos::DefaultHostExecutionSpace;
#endif

using ExecSpaces =
    std::conditional_t<std::is_same_v<Kokkos::DefaultExecutionSpace, SecondSpace>,
                       ::testing::Types<Kokkos::DefaultExecutionSpace>,
                       ::testing::Types<Kokkos::DefaultExecutionSpace, SecondSpace>>;

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
