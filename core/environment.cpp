#include "core/environment.hpp"

#include <Kokkos_Core.hpp>

#include <iostream>

#include "core/error.hpp"

namespace tensormg {

Environment::Environment(int& argc, char**& argv, MPI_Comm comm) {
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
  if (!Kokkos::is_initialized()) {
    Kokkos::initialize(argc, argv);
    owns_kokkos_ = true;
  }
  argv_.assign(argv, argv + argc);
  argv_.push_back(nullptr);
}

Environment::~Environment() {
  if (owns_kokkos_ && Kokkos::is_initialized()) Kokkos::finalize();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_mpi_ && !finalized) MPI_Finalize();
}

int run_main(int argc, char** argv, const std::function<int(Environment&)>& body) {
  Environment env(argc, argv);
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
