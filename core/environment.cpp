#include "core/environment.hpp"

#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "core/error.hpp"

namespace tensormg {

Environment::Environment(int& argc, char**& argv, MPI_Comm comm, const DeviceCheck& device_check) {
  for (int i = 0; i < argc; ++i) command_line_.emplace_back(argv[i]);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    owns_mpi_ = true;
  }
  comm_ = comm;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  int devices = 0;
  if (device_check) {
    std::string why;
    devices = device_check(why);
    const int usable = devices > 0 ? 1 : 0;
    int all_usable = 0;
    MPI_Allreduce(&usable, &all_usable, 1, MPI_INT, MPI_MIN, comm_);
    if (!all_usable) {
      // The reason of the lowest failing rank, on every rank.
      int first = usable ? size_ : rank_, lowest = 0;
      MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, comm_);
      int length = static_cast<int>(why.size());
      MPI_Bcast(&length, 1, MPI_INT, lowest, comm_);
      why.resize(std::size_t(length));
      MPI_Bcast(why.data(), length, MPI_CHAR, lowest, comm_);
      device_error_ = "no usable GPU on rank " + std::to_string(lowest) + " (" + why +
                      "); this is a CUDA build of tensormg: run it where a GPU is visible, or build with "
                      "-DTENSORMG_BACKEND=openmp";
    }
  }
  // Kokkos prints its own help for --help and warns when OMP_PROC_BIND is unset.
  std::vector<char*> kokkos_argv(argv, argv + argc);
  static char hidden_help[] = "--tensormg-hidden-help";
  for (auto& a : kokkos_argv)
    if (std::strcmp(a, "--help") == 0) a = hidden_help;
  if (std::getenv("OMP_PROC_BIND") == nullptr) setenv("OMP_PROC_BIND", "false", 0);
  // One GPU per rank: the node-local rank picks it (round robin when ranks outnumber GPUs).
  std::string device_argument;
  if (devices > 0) {
    bool chosen = false;
    for (const auto* a : kokkos_argv)
      chosen = chosen || std::strncmp(a, "--kokkos-device-id", 18) == 0 || std::strncmp(a, "--kokkos-num-devices", 20) == 0 ||
               std::strncmp(a, "--kokkos-ndevices", 17) == 0;
    MPI_Comm node;
    MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    int local_rank = 0;
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);
    device_id_ = local_rank % devices;
    if (!chosen) {
      device_argument = "--kokkos-device-id=" + std::to_string(device_id_);
      kokkos_argv.push_back(device_argument.data());
    }
  }
  if (device_error_.empty() && !Kokkos::is_initialized()) {
    int kokkos_argc = static_cast<int>(kokkos_argv.size());
    char** kokkos_args = kokkos_argv.data();
    Kokkos::initialize(kokkos_argc, kokkos_args);
    kokkos_argv.resize(std::size_t(kokkos_argc));
    owns_kokkos_ = true;
  }
  for (auto& a : kokkos_argv)
    if (a == hidden_help) a = const_cast<char*>("--help");
  argv_.assign(kokkos_argv.begin(), kokkos_argv.end());
  argv_.push_back(nullptr);
}

Environment::~Environment() {
  if (owns_kokkos_ && Kokkos::is_initialized()) Kokkos::finalize();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_mpi_ && !finalized) MPI_Finalize();
}

int run_main(int argc, char** argv, const std::function<int(Environment&)>& body,
             const Environment::DeviceCheck& device_check) {
  Environment env(argc, argv, MPI_COMM_WORLD, device_check);
  if (!env.device_error().empty()) {
    if (env.rank() == 0) std::cerr << "tensormg: error: " << env.device_error() << std::endl;
    return 2;
  }
  try {
    return body(env);
  } catch (const InputError& e) {
    if (e.collective()) {
      if (env.rank() == 0) std::cerr << "tensormg: error: " << e.what() << std::endl;
      return 2;
    }
    std::cerr << "tensormg: error on rank " << env.rank() << ": " << e.what() << std::endl;
    MPI_Abort(env.comm(), 2);
  } catch (const std::exception& e) {
    std::cerr << "tensormg: fatal error on rank " << env.rank() << ": " << e.what() << std::endl;
    MPI_Abort(env.comm(), 1);
  }
  return 1;
}

}  // namespace tensormg
