#include "discretization/solution_output.hpp"

#include <cmath>
#include <cstdint>


#include "core/error.hpp"
#include "core/hdf5_file.hpp"
#include "core/output_file.hpp"

namespace tensormg {

void check_output_path(const std::string& path, bool overwrite, MPI_Comm comm) {
  check_output_writable({path, path + ".xdmf"}, overwrite, comm);
}

namespace {
/// The owned sub-boxes of all ranks gathered into one global lexicographic box on rank 0 (empty
/// elsewhere): each rank owns entries [offset, offset + extent) of a box of `global` entries per
/// direction, `per_entry` consecutive values each (1 node, or a DG cell's values), sent in its
/// own lexicographic order. Rank by rank, one block buffered at a time, 64-bit positions (the
/// global count may pass 2^31 where MPI_Gatherv's int displacements could not follow; a rank's
/// own count is below 2^31, its indices are 32-bit).
template <class Number, class ExecSpace>
std::vector<double> gather_boxes_on_root(MPI_Comm comm, const long long offset[3], const long long extent[3],
                                         const std::size_t global[3], std::size_t per_entry,
                                         const DistributedVector<Number, ExecSpace>& v) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  long long meta[6] = {offset[0], offset[1], offset[2], extent[0], extent[1], extent[2]};
  std::vector<long long> all_meta(rank == 0 ? 6 * size : 0);
  MPI_Gather(meta, 6, MPI_LONG_LONG, all_meta.data(), 6, MPI_LONG_LONG, 0, comm);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  std::vector<double> mine(std::size_t(extent[0] * extent[1] * extent[2]) * per_entry);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = double(host(i));
  if (rank != 0) {
    MPI_Send(mine.data(), int(mine.size()), MPI_DOUBLE, 0, 0, comm);
    return {};
  }
  std::vector<double> out(global[0] * global[1] * global[2] * per_entry, 0.0);
  std::vector<double> block;
  for (int r = 0; r < size; ++r) {
    const long long* m = &all_meta[6 * r];
    if (r == 0) {
      block.swap(mine);
    } else {
      block.resize(std::size_t(m[3] * m[4] * m[5]) * per_entry);
      MPI_Recv(block.data(), int(block.size()), MPI_DOUBLE, r, 0, comm, MPI_STATUS_IGNORE);
    }
    std::size_t pos = 0;
    for (long long z = 0; z < m[5]; ++z)
      for (long long y = 0; y < m[4]; ++y)
        for (long long x = 0; x < m[3]; ++x) {
          const std::size_t entry =
              std::size_t(m[0] + x) + global[0] * (std::size_t(m[1] + y) + global[1] * std::size_t(m[2] + z));
          for (std::size_t i = 0; i < per_entry; ++i) out[entry * per_entry + i] = block[pos++];
        }
  }
  return out;
}
}  // namespace

template <class Number, class ExecSpace>
std::vector<double> gather_on_root(const ContinuousDofLayout<ExecSpace>& layout,
                                   const DistributedVector<Number, ExecSpace>& v) {
  const NodeBox& b = layout.box();
  const long long offset[3] = {b.offset[0], b.offset[1], b.offset[2]}, extent[3] = {b.o[0], b.o[1], b.o[2]};
  const std::size_t global[3] = {std::size_t(b.global_nodes[0]), std::size_t(b.global_nodes[1]),
                                 std::size_t(b.global_nodes[2])};
  return gather_boxes_on_root(layout.mesh().comm(), offset, extent, global, 1, v);
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
      OutputTransaction transaction;
      Hdf5Writer file;
      transaction.add(path, [&](const std::string& temporary) { return Hdf5Writer::create_exclusive(temporary, file); });
      file.write("solution", values, dims);
      const char* axis[3] = {"mesh/x", "mesh/y", "mesh/z"};
      for (int d = 0; d < dim; ++d) {
        std::vector<double> x(counts[d]);
        for (hsize_t g = 0; g < counts[d]; ++g) x[g] = layout.node_coordinate(d, g);
        file.write(axis[d], x, {counts[d]});
      }
      file.write("run_record", record.dump(2));
      const std::string h5_name = path.substr(path.find_last_of('/') + 1);
      file.close();
      // Both files complete on disk before either final name changes; the .h5 is renamed first.
      transaction.add_text(path + ".xdmf", xdmf_rectilinear(dim, counts, h5_name, {"solution"}));
      transaction.commit();
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  check_collective(error.empty(), error, comm);
}

double dg_output_bytes(int dim, int degree, double values) {
  const double sub_cells_per_value = std::pow(double(degree) / (degree + 1), dim);
  return values * (8.0 * (1 + dim) + 8.0 * (1 << dim) * sub_cells_per_value);
}

namespace {
/// The DG values gathered on rank 0 in global cell-wise order (empty elsewhere).
template <class Number, class ExecSpace>
std::vector<double> gather_dg_on_root(const DgDofLayout<ExecSpace>& layout, const DistributedVector<Number, ExecSpace>& v) {
  const CellBox& b = layout.box();
  const long long offset[3] = {b.offset[0], b.offset[1], b.offset[2]}, extent[3] = {b.cells[0], b.cells[1], b.cells[2]};
  const std::size_t global[3] = {std::size_t(b.global_cells[0]), std::size_t(b.global_cells[1]),
                                 std::size_t(b.global_cells[2])};
  return gather_boxes_on_root(layout.mesh().comm(), offset, extent, global, std::size_t(b.cell_dofs), v);
}
}  // namespace

template <class Number, class ExecSpace>
void write_solution(const std::string& path, const DgDofLayout<ExecSpace>& layout,
                    const DistributedVector<Number, ExecSpace>& solution, const Json& record, bool overwrite) {
  const MPI_Comm comm = layout.mesh().comm();
  check_output_path(path, overwrite, comm);
  const auto values = gather_dg_on_root(layout, solution);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  if (rank == 0) {
    try {
      const CellBox& b = layout.box();
      const int dim = b.dim, k = b.degree, n = k + 1;
      const std::size_t cd = std::size_t(b.cell_dofs), cells = values.size() / cd;
      const NodeCoordinates& nc = layout.node_coordinates();
      // Points in the values' order: value i of global cell (cx, cy, cz) at its Gauss–Lobatto node.
      std::vector<double> points(values.size() * dim);
      const std::size_t gx = std::size_t(b.global_cells[0]), gy = std::size_t(b.global_cells[1]);
      std::size_t sub_per_cell = 1;
      for (int d = 0; d < dim; ++d) sub_per_cell *= std::size_t(k);
      std::vector<std::int64_t> connectivity(cells * sub_per_cell * (std::size_t(1) << dim));
      std::size_t e = 0;
      for (std::size_t c = 0; c < cells; ++c) {
        const std::size_t cc[3] = {c % gx, (c / gx) % gy, c / (gx * gy)};
        for (std::size_t i = 0; i < cd; ++i) {
          const std::size_t node[3] = {i % n, (i / n) % n, i / (n * n)};
          for (int d = 0; d < dim; ++d) points[(c * cd + i) * dim + d] = nc.global(d, global_index(cc[d] * k + node[d]));
        }
        // Sub-cells (x fastest), corners in VTK order.
        const std::int64_t base = std::int64_t(c * cd);
        const auto at = [&](std::size_t x, std::size_t y, std::size_t z) { return base + std::int64_t(x + n * (y + n * z)); };
        for (std::size_t sz = 0; sz < (dim == 3 ? std::size_t(k) : 1); ++sz)
          for (std::size_t sy = 0; sy < std::size_t(k); ++sy)
            for (std::size_t sx = 0; sx < std::size_t(k); ++sx) {
              for (std::size_t z = sz; z <= sz + (dim == 3 ? 1 : 0); ++z) {
                connectivity[e++] = at(sx, sy, z);
                connectivity[e++] = at(sx + 1, sy, z);
                connectivity[e++] = at(sx + 1, sy + 1, z);
                connectivity[e++] = at(sx, sy + 1, z);
              }
            }
      }
      const hsize_t n_points = values.size(), n_elements = cells * sub_per_cell;
      OutputTransaction transaction;
      Hdf5Writer file;
      transaction.add(path, [&](const std::string& temporary) { return Hdf5Writer::create_exclusive(temporary, file); });
      file.write("solution", values, {n_points});
      file.write("mesh/points", points, {n_points, hsize_t(dim)});
      file.write("mesh/connectivity", connectivity, {n_elements, hsize_t(1) << dim});
      file.write("run_record", record.dump(2));
      const std::string h5_name = path.substr(path.find_last_of('/') + 1);
      file.close();
      transaction.add_text(path + ".xdmf", xdmf_unstructured(dim, n_points, n_elements, h5_name, {"solution"}));
      transaction.commit();
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  check_collective(error.empty(), error, comm);
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                          \
  template void write_solution<Number, Exec>(const std::string&, const DgDofLayout<Exec>&,                          \
                                             const DistributedVector<Number, Exec>&, const Json&, bool);            \
  template void write_solution<Number, Exec>(const std::string&, const ContinuousDofLayout<Exec>&,                  \
                                             const DistributedVector<Number, Exec>&, const Json&, bool);            \
  template std::vector<double> gather_on_root<Number, Exec>(const ContinuousDofLayout<Exec>&,                       \
                                                            const DistributedVector<Number, Exec>&);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
