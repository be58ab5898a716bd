// Fenced timers and their reduction over ranks.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/timer.hpp"
#include "tests/test_spaces.hpp"

namespace {

TEST(Timer, AccumulatesIntervals) {
  tensormg::Timer t;
  for (int i = 0; i < 2; ++i) {
    t.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
    const double dt = t.stop();
    EXPECT_GE(dt, 0.015);
    EXPECT_LT(dt, 1.0);
  }
  EXPECT_EQ(t.count(), 2);
  EXPECT_GE(t.seconds(), 0.030);
  t.reset();
  EXPECT_EQ(t.seconds(), 0.0);
}

void halve_and_add_index(Kokkos::View<double*> x) {
  Kokkos::parallel_for("tensormg::test::timer", x.extent(0), KOKKOS_LAMBDA(int i) { x(i) = x(i) * 0.5 + i; });
}

TEST(Timer, IncludesAsynchronousDeviceWork) {
  Kokkos::View<double*> x("x", 1 << 20);
  tensormg::Timer timed;
  timed.start();
  for (int rep = 0; rep < 20; ++rep) halve_and_add_index(x);
  EXPECT_GT(timed.stop(), 0.0);
  // The result is complete when the timer has stopped.
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  EXPECT_NEAR(h(3), 3.0 * (2.0 - std::pow(0.5, 19)), 1e-12);
}

TEST(TimerSet, MaxOverRanks) {
  const int rank = tensormg::testing::world_rank();
  const int size = tensormg::testing::world_size();
  tensormg::TimerSet timers;
  {
    tensormg::ScopedTimer s(timers["sleep"]);
    std::this_thread::sleep_for(std::chrono::milliseconds(10 * (rank + 1)));
  }
  timers["other"].start();
  timers["other"].stop();
  const auto max = timers.max_over_ranks(MPI_COMM_WORLD);
  EXPECT_GE(max.at("sleep"), 0.010 * size);
  EXPECT_GE(max.at("sleep"), timers["sleep"].seconds());
  EXPECT_EQ(max.size(), 2u);
}

}  // namespace
