#pragma once
/// @file
/// Wall-clock timing of device work. Kokkos kernels are asynchronous, so every reading fences.

#include <mpi.h>

#include <chrono>
#include <map>
#include <string>

namespace tensormg {

/// A stopwatch that calls Kokkos::fence() before it starts and before it stops, so the time
/// covers all device work launched in between.
class Timer {
 public:
  void start();
  /// Stops, adds the elapsed time to the total and returns the elapsed time of this interval.
  double stop();
  /// Total of all start/stop intervals, in seconds.
  double seconds() const { return total_; }
  int count() const { return count_; }
  void reset() {
    total_ = 0;
    count_ = 0;
    running_ = false;
  }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point begin_{};
  double total_ = 0;
  int count_ = 0;
  bool running_ = false;
};

/// Named timers accumulated over a run (e.g. "setup", "solve", "smoothing").
class TimerSet {
 public:
  Timer& operator[](const std::string& name) { return timers_[name]; }
  const std::map<std::string, Timer>& timers() const { return timers_; }
  /// The maximum over the ranks of comm of each timer's total (collective: all ranks must call,
  /// and all must hold the same names).
  std::map<std::string, double> max_over_ranks(MPI_Comm comm) const;

 private:
  std::map<std::string, Timer> timers_;
};

/// Starts a timer on construction and stops it on destruction.
class ScopedTimer {
 public:
  explicit ScopedTimer(Timer& t) : timer_(t) { timer_.start(); }
  ~ScopedTimer() { timer_.stop(); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  Timer& timer_;
};

}  // namespace tensormg
