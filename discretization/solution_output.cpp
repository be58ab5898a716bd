#include "discretization/solution_output.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/hdf5_file.hpp"

namespace tensormg {

void check_output_path(const std::string& path, bool overwrite, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  bool exists = false;
  if (rank == 0) exists = path_exists(path) || path_exists(path + ".xdmf");
  int flag = exists ? 1 : 0;
  MPI_Bcast(&flag, 1, MPI_INT, 0, comm);
  TENSORMG_CHECK_COLLECTIVE(comm, overwrite || flag == 0,
                            "output file '" << path << "' (or its .xdmf) exists; pass --overwrite to replace it");
  TENSORMG_CHECK_COLLECTIVE(comm, !path.empty(), "output path is empty");
}

template <class Number, class ExecSpace>
std::vector<double> gather_on_root(const ContinuousDofLayout<ExecSpace>& layout,
                                   const DistributedVector<Number, ExecSpace>& v) {
  const MPI_Comm comm = layout.mesh().comm();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const NodeBox& b = layout.box();
  // Each rank's owned box: offsets and extents, then its owned values (already lexicographic).
  long long meta[6] = {b.offset[0], b.offset[1], b.offset[2], b.o[0], b.o[1], b.o[2]};
  std::vector<long long> all_meta(rank == 0 ? 6 * size : 0);
  MPI_Gather(meta, 6, MPI_LONG_LONG, all_meta.data(), 6, MPI_LONG_LONG, 0, comm);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  std::vector<double> mine(b.n_owned);
  for (local_index i = 0; i < b.n_owned; ++i) mine[i] = double(host(i));
  std::vector<int> counts(size, 0), displs(size, 0);
  const int count = b.n_owned;
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> gathered(rank == 0 ? displs[size - 1] + counts[size - 1] : 0);
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, gathered.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
  if (rank != 0) return {};
  const global_index mx = b.global_nodes[0], my = b.global_nodes[1], mz = b.global_nodes[2];
  std::vector<double> global(mx * my * mz, 0.0);
  for (int r = 0; r < size; ++r) {
    const long long* m = &all_meta[6 * r];
    std::size_t pos = displs[r];
    for (long long z = 0; z < m[5]; ++z)
      for (long long y = 0; y < m[4]; ++y)
        for (long long x = 0; x < m[3]; ++x) global[(m[0] + x) + mx * ((m[1] + y) + my * (m[2] + z))] = gathered[pos++];
  }
  return global;
}

template <class Number, class ExecSpace>
void write_solution(const std::string& path, const ContinuousDofLayout<ExecSpace>& layout,
                    const DistributedVector<Number, ExecSpace>& solution, const Json& record, bool overwrite) {
  const MPI_Comm comm = layout.mesh().comm();
  check_output_path(path, overwrite, comm);
  const auto values = gather_on_root(layout, solution);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  if (rank == 0) {
    try {
      const NodeBox& b = layout.box();
      const int dim = b.dim;
      std::vector<hsize_t> counts(dim), dims;
      for (int d = 0; d < dim; ++d) counts[d] = b.global_nodes[d];
      for (int d = dim - 1; d >= 0; --d) dims.push_back(counts[d]);
      Hdf5Writer file(path);
      file.write("solution", values, dims);
      const char* axis[3] = {"mesh/x", "mesh/y", "mesh/z"};
      for (int d = 0; d < dim; ++d) {
        std::vector<double> x(counts[d]);
        for (hsize_t g = 0; g < counts[d]; ++g) x[g] = layout.node_coordinate(d, g);
        file.write(axis[d], x, {counts[d]});
      }
      file.write("run_record", record.dump(2));
      const std::string h5_name = path.substr(path.find_last_of('/') + 1);
      write_text_file_atomically(path + ".xdmf", xdmf_rectilinear(dim, counts, h5_name, {"solution"}));
      file.commit();
    } catch (const InputError& e) {
      std::remove((path + ".xdmf").c_str());
      error = e.what();
    }
  }
  check_collective(error.empty(), error, comm);
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                          \
  template void write_solution<Number, Exec>(const std::string&, const ContinuousDofLayout<Exec>&,                  \
                                             const DistributedVector<Number, Exec>&, const Json&, bool);            \
  template std::vector<double> gather_on_root<Number, Exec>(const ContinuousDofLayout<Exec>&,                       \
                                                            const DistributedVector<Number, Exec>&);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
