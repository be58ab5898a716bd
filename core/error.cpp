#include "core/error.hpp"

#include <iostream>
#include <vector>

namespace tensormg {

void check_collective(bool ok, const std::string& message, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = ok ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int length = rank == first ? static_cast<int>(message.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::vector<char> buffer(message.begin(), message.end());
  buffer.resize(length);
  MPI_Bcast(buffer.data(), length, MPI_CHAR, first, comm);
  throw InputError(std::string(buffer.begin(), buffer.end()), true);
}

namespace detail {
void assertion_failed(const char* cond, const char* file, int line, const std::string& msg) {
  std::cerr << "tensormg: internal assertion '" << cond << "' failed at " << file << ":" << line
            << ": " << msg << std::endl;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}
}  // namespace detail

}  // namespace tensormg
