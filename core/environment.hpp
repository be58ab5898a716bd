#pragma once
/// @file
/// Start-up and shut-down of MPI and Kokkos, and the guarded main() of every tensormg program.

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace tensormg {

/// Owns MPI and Kokkos for the lifetime of a program (like Kokkos::ScopeGuard, plus MPI).
/// Initializes whichever of the two is not initialized yet and finalizes only what it initialized.
/// `--kokkos-*` flags are consumed by Kokkos and removed from argc/argv; the rest is left for the
/// program's own parser. With a device check (CUDA builds) each rank takes the GPU of its
/// node-local rank (MPI_COMM_TYPE_SHARED) modulo the node's GPU count, unless a Kokkos device
/// argument is given.
class Environment {
 public:
  /// Asked before Kokkos starts (a CUDA build on a machine without a GPU): the number of usable
  /// GPUs of this rank's node (0: none, with the reason in the argument).
  /// Several ranks of a node take GPU (node-local rank mod count), unless Kokkos' own
  /// --kokkos-device-id / --kokkos-num-devices / --kokkos-ndevices arguments say otherwise.
  using DeviceCheck = std::function<int(std::string&)>;
  /// `--help`/`-h` stay for the program's parser (Kokkos' own help is `--kokkos-help`). When
  /// OMP_PROC_BIND is not set, it is set to "false" (what the OpenMP runtime already does without
  /// it) so that Kokkos does not warn on every run; set OMP_PROC_BIND=spread OMP_PLACES=threads for
  /// pinned threads. If device_check fails on any rank, Kokkos is not initialized and
  /// device_error() says why (collectively).
  Environment(int& argc, char**& argv, MPI_Comm comm = MPI_COMM_WORLD, const DeviceCheck& device_check = {});
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The command line as given, before Kokkos removed its flags (for run records).
  const std::vector<std::string>& command_line() const { return command_line_; }
  /// argc/argv without the flags Kokkos consumed, for the program's own parser.
  int argc() const { return static_cast<int>(argv_.size()) - 1; }
  char** argv() { return argv_.data(); }
  /// Non-empty when the device check failed on some rank (the same text on every rank).
  const std::string& device_error() const { return device_error_; }
  /// The GPU this rank uses (0 without a device check).
  int device_id() const { return device_id_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  bool owns_mpi_ = false;
  bool owns_kokkos_ = false;
  std::vector<std::string> command_line_;
  std::vector<char*> argv_;  // null-terminated
  std::string device_error_;
  int device_id_ = 0;
};

/// Runs body inside an Environment and turns errors into exit codes:
///  - InputError thrown collectively (every rank): printed once by rank 0, exit code 2 on all ranks;
///  - any other exception (one rank only): printed with its rank, then MPI_Abort with code 1 or 2.
/// Returns the body's return value otherwise.
///  - a failed device check: one line from rank 0, exit code 2 on all ranks, body not run.
int run_main(int argc, char** argv, const std::function<int(Environment&)>& body,
             const Environment::DeviceCheck& device_check = {});

}  // namespace tensormg
