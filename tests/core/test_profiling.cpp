// Hierarchical kernel names and profiling regions as Kokkos Tools see them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/profiling.hpp"

namespace {

std::vector<std::string> events;
void on_push(const char* name) { events.push_back(std::string("push ") + name); }
void on_pop() { events.push_back("pop"); }

TEST(Profiling, KernelNamesAreHierarchical) {
  EXPECT_EQ(tensormg::kernel_name({"smoother", "vertex_patch", "fused"}), "tensormg::smoother::vertex_patch::fused");
  EXPECT_EQ(tensormg::kernel_name({}), "tensormg");
}

TEST(Profiling, ScopedRegionsNestAsKokkosToolsSeeThem) {
  events.clear();
  Kokkos::Tools::Experimental::set_push_region_callback(on_push);
  Kokkos::Tools::Experimental::set_pop_region_callback(on_pop);
  {
    tensormg::ScopedRegion solve({"solve"});
    { tensormg::ScopedRegion vcycle("tensormg::solve::vcycle"); }
  }
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  Kokkos::Tools::Experimental::set_pop_region_callback(nullptr);
  const std::vector<std::string> expected = {"push tensormg::solve", "push tensormg::solve::vcycle", "pop", "pop"};
  EXPECT_EQ(events, expected);
}

}  // namespace
