#include "core/timer.hpp"

#include <Kokkos_Core.hpp>

#include <vector>

#include "core/error.hpp"

namespace tensormg {

void Timer::start() {
  TENSORMG_ASSERT(!running_, "Timer started twice");
  Kokkos::fence();
  running_ = true;
  begin_ = clock::now();
}

double Timer::stop() {
  TENSORMG_ASSERT(running_, "Timer stopped without start");
  Kokkos::fence();
  const double dt = std::chrono::duration<double>(clock::now() - begin_).count();
  running_ = false;
  total_ += dt;
  ++count_;
  return dt;
}

std::map<std::string, double> TimerSet::max_over_ranks(MPI_Comm comm) const {
  std::vector<double> local, global;
  for (const auto& [name, t] : timers_) local.push_back(t.seconds());
  global.resize(local.size());
  MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_MAX, comm);
  std::map<std::string, double> result;
  std::size_t i = 0;
  for (const auto& entry : timers_) result[entry.first] = global[i++];
  return result;
}

}  // namespace tensormg
