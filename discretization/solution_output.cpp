#include "discretization/solution_output.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>


#include "core/error.hpp"
#include "core/hdf5_file.hpp"
#include "core/output_file.hpp"
#include "discretization/hex_layout.hpp"
#include "discretization/hex_mesh.hpp"

namespace tensormg {

void check_output_path(const std::string& path, bool overwrite, MPI_Comm comm) {
  check_output_writable({path, path + ".xdmf"}, overwrite, comm);
}

void write_in_turns(MPI_Comm comm, const std::string& path, const std::function<void(Hdf5Writer&)>& setup,
                    const std::function<void(Hdf5Writer&)>& mine, const std::string& xdmf_text) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::string error, temporary;
  OutputTransaction transaction;
  if (rank == 0) {
    try {
      Hdf5Writer file;
      transaction.add(path, [&](const std::string& t) {
        const bool created = Hdf5Writer::create_exclusive(t, file);
        if (created) temporary = t;
        return created;
      });
      setup(file);
      file.close();
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  long long length = static_cast<long long>(temporary.size());
  MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm);
  temporary.resize(std::size_t(length));
  MPI_Bcast(temporary.data(), int(length), MPI_CHAR, 0, comm);
  check_collective(error.empty(), error, comm);
  for (int r = 0; r < size; ++r) {
    if (r == rank) {
      try {
        Hdf5Writer file;
        file.open_existing(temporary);
        mine(file);
        file.close();
      } catch (const InputError& e) {
        error = e.what();
      }
    }
    MPI_Barrier(comm);
  }
  check_collective(error.empty(), error, comm);
  if (rank == 0) {
    try {
      // Both files complete on disk before either final name changes; the .h5 is renamed first.
      transaction.add_text(path + ".xdmf", xdmf_text);
      transaction.commit();
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  check_collective(error.empty(), error, comm);
}

namespace {
/// The owned entries (a rank's first n_owned values) on the host, in double.
template <class Number, class ExecSpace>
std::vector<double> owned_values(const DistributedVector<Number, ExecSpace>& v) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v.view());
  std::vector<double> out(std::size_t(v.n_owned()));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = double(host(i));
  return out;
}

/// The rows of a rank's box of cells (or nodes) in a 1D (or, with `columns`, 2D) dataset whose
/// entries come `per_entry` at a time in global lexicographic order of the box's grid `global`:
/// per z-layer one regular hyperslab of ey rows of ex·per_entry values.
std::vector<Hdf5Writer::Hyperslab> box_rows(const long long offset[3], const long long extent[3], const std::size_t global[3],
                                            std::size_t per_entry, hsize_t columns = 0) {
  std::vector<Hdf5Writer::Hyperslab> slabs;
  if (extent[0] * extent[1] * extent[2] == 0) return slabs;
  for (long long z = 0; z < extent[2]; ++z) {
    Hdf5Writer::Hyperslab h;
    const hsize_t start = ((hsize_t(offset[2] + z) * global[1] + hsize_t(offset[1])) * global[0] + hsize_t(offset[0])) * per_entry;
    h.start = {start};
    h.stride = {hsize_t(global[0] * per_entry)};
    h.count = {hsize_t(extent[1])};
    h.block = {hsize_t(extent[0]) * per_entry};
    if (columns > 0) {
      h.start.push_back(0);
      h.stride.push_back(1);
      h.count.push_back(1);
      h.block.push_back(columns);
    }
    slabs.push_back(h);
  }
  return slabs;
}
}  // namespace

template <class Number, class ExecSpace>
void write_solution(const std::string& path, const ContinuousDofLayout<ExecSpace>& layout,
                    const DistributedVector<Number, ExecSpace>& solution, const Json& record, bool overwrite) {
  const MPI_Comm comm = layout.mesh().comm();
  check_output_path(path, overwrite, comm);
  const NodeBox& b = layout.box();
  const int dim = b.dim;
  std::vector<hsize_t> counts(dim), dims;
  for (int d = 0; d < dim; ++d) counts[d] = b.global_nodes[d];
  for (int d = dim - 1; d >= 0; --d) dims.push_back(counts[d]);
  const std::string h5_name = path.substr(path.find_last_of('/') + 1);
  const auto setup = [&](Hdf5Writer& file) {
    file.create_double("solution", dims);
    const char* axis[3] = {"mesh/x", "mesh/y", "mesh/z"};
    for (int d = 0; d < dim; ++d) {
      std::vector<double> x(counts[d]);
      for (hsize_t g = 0; g < counts[d]; ++g) x[g] = layout.node_coordinate(d, g);
      file.write(axis[d], x, {counts[d]});
    }
    file.write("run_record", record.dump(2));
  };
  // The owned box: one block of the node grid, its values in their (x fastest) order.
  const auto values = owned_values(solution);
  const auto mine = [&](Hdf5Writer& file) {
    if (values.empty()) return;
    Hdf5Writer::Hyperslab h;
    for (int d = dim - 1; d >= 0; --d) {
      h.start.push_back(hsize_t(b.offset[d]));
      h.stride.push_back(1);
      h.count.push_back(1);
      h.block.push_back(hsize_t(b.o[d]));
    }
    file.write_blocks("solution", values, {h});
  };
  write_in_turns(comm, path, setup, mine, xdmf_rectilinear(dim, counts, h5_name, {"solution"}));
}

double dg_output_bytes(int dim, int degree, double values) {
  const double sub_cells_per_value = std::pow(double(degree) / (degree + 1), dim);
  return values * (8.0 * (1 + dim) + 8.0 * (1 << dim) * sub_cells_per_value);
}

template <class Number, class ExecSpace>
void write_solution(const std::string& path, const DgDofLayout<ExecSpace>& layout,
                    const DistributedVector<Number, ExecSpace>& solution, const Json& record, bool overwrite) {
  const MPI_Comm comm = layout.mesh().comm();
  check_output_path(path, overwrite, comm);
  const CellBox& b = layout.box();
  const int dim = b.dim, k = b.degree, n = k + 1;
  const std::size_t cd = std::size_t(b.cell_dofs);
  const std::size_t global[3] = {std::size_t(b.global_cells[0]), std::size_t(b.global_cells[1]), std::size_t(b.global_cells[2])};
  const long long offset[3] = {b.offset[0], b.offset[1], b.offset[2]}, extent[3] = {b.cells[0], b.cells[1], b.cells[2]};
  std::size_t sub_per_cell = 1;
  for (int d = 0; d < dim; ++d) sub_per_cell *= std::size_t(k);
  const hsize_t corners = hsize_t(1) << dim;
  const hsize_t n_points = global[0] * global[1] * global[2] * cd, n_elements = global[0] * global[1] * global[2] * sub_per_cell;
  const auto setup = [&](Hdf5Writer& file) {
    file.create_double("solution", {n_points});
    file.create_double("mesh/points", {n_points, hsize_t(dim)});
    file.create_int64("mesh/connectivity", {n_elements, corners});
    file.write("run_record", record.dump(2));
  };
  // The rank's cells: values, their points and sub-cells, in global cell-wise order.
  const auto values = owned_values(solution);
  const auto mine = [&](Hdf5Writer& file) {
    if (values.empty()) return;
    const NodeCoordinates& nc = layout.node_coordinates();
    std::vector<double> points(values.size() * dim);
    std::vector<std::int64_t> connectivity(values.size() / cd * sub_per_cell * corners);
    std::size_t c = 0, e = 0;
    for (long long z = 0; z < extent[2]; ++z)
      for (long long y = 0; y < extent[1]; ++y)
        for (long long x = 0; x < extent[0]; ++x, ++c) {
          const std::size_t cc[3] = {std::size_t(offset[0] + x), std::size_t(offset[1] + y), std::size_t(offset[2] + z)};
          const std::size_t g = cc[0] + global[0] * (cc[1] + global[1] * cc[2]);
          // Value i of the cell at its Gauss–Lobatto node.
          for (std::size_t i = 0; i < cd; ++i) {
            const std::size_t node[3] = {i % n, (i / n) % n, i / (n * n)};
            for (int d = 0; d < dim; ++d) points[(c * cd + i) * dim + d] = nc.global(d, global_index(cc[d] * k + node[d]));
          }
          // Sub-cells (x fastest), corners in VTK order, as global point numbers.
          const std::int64_t base = std::int64_t(g * cd);
          const auto at = [&](std::size_t a, std::size_t bb, std::size_t cz) { return base + std::int64_t(a + n * (bb + n * cz)); };
          for (std::size_t sz = 0; sz < (dim == 3 ? std::size_t(k) : 1); ++sz)
            for (std::size_t sy = 0; sy < std::size_t(k); ++sy)
              for (std::size_t sx = 0; sx < std::size_t(k); ++sx)
                for (std::size_t zz = sz; zz <= sz + (dim == 3 ? 1 : 0); ++zz) {
                  connectivity[e++] = at(sx, sy, zz);
                  connectivity[e++] = at(sx + 1, sy, zz);
                  connectivity[e++] = at(sx + 1, sy + 1, zz);
                  connectivity[e++] = at(sx, sy + 1, zz);
                }
        }
    file.write_blocks("solution", values, box_rows(offset, extent, global, cd));
    file.write_blocks("mesh/points", points, box_rows(offset, extent, global, cd, hsize_t(dim)));
    file.write_blocks("mesh/connectivity", connectivity, box_rows(offset, extent, global, sub_per_cell, corners));
  };
  const std::string h5_name = path.substr(path.find_last_of('/') + 1);
  write_in_turns(comm, path, setup, mine, xdmf_unstructured(dim, n_points, n_elements, h5_name, {XdmfField{"solution"}}));
}

template <class ExecSpace>
void write_solution(const std::string& path, const HexLayout<ExecSpace>& layout,
                    const DistributedVector<double, ExecSpace>& x, const Json& record, bool overwrite) {
  const MPI_Comm comm = layout.comm();
  check_output_path(path, overwrite, comm);
  const int nc = layout.components();
  const hsize_t n_points = hsize_t(layout.n_global_vertices()), n_cells = hsize_t(layout.n_global_cells());
  long long my_cells = layout.n_cells(), cell_offset = 0;
  MPI_Exscan(&my_cells, &cell_offset, 1, MPI_LONG_LONG, MPI_SUM, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) cell_offset = 0;  // MPI_Exscan leaves rank 0's result undefined

  // The rank's rows, staged on the host: owned vertices in global order.
  const std::size_t owned = std::size_t(layout.n_owned_vertices());
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.view());
  const auto& global = layout.global_vertex();
  const auto& points = layout.host_points();
  const global_index first = layout.first_vertex();
  std::vector<double> my_points(owned * 3), my_values(owned * nc);
  collectively(comm, [&] {
    for (std::size_t i = 0; i < owned; ++i) {
      const std::size_t row = std::size_t(global[i] - first);
      TENSORMG_CHECK(global[i] >= first && row < owned, "internal: owned vertex " << i << " has the global number "
                                                            << global[i] << ", outside the rank's block");
      for (int d = 0; d < 3; ++d) my_points[row * 3 + d] = points[i * 3 + d];
      for (int c = 0; c < nc; ++c) my_values[row * nc + c] = values(i * nc + c);
    }
  });
  const std::size_t cells = std::size_t(layout.n_cells());
  const auto& host_cells = layout.host_cells();
  std::vector<std::int64_t> connectivity(cells * 8);
  for (std::size_t c = 0; c < cells; ++c)
    for (int i = 0; i < 8; ++i) connectivity[c * 8 + i] = std::int64_t(global[host_cells[c * 8 + hex_vtk_order[i]]]);
  const std::vector<double> material(layout.host_coefficient().begin(), layout.host_coefficient().begin() + cells);

  const char* field = nc == 1 ? "solution" : "displacement";
  const auto setup = [&](Hdf5Writer& file) {
    file.create_double("mesh/points", {n_points, 3});
    file.create_int64("mesh/connectivity", {n_cells, 8});
    if (nc == 1) file.create_double(field, {n_points});
    else file.create_double(field, {n_points, 3});
    file.create_double("material", {n_cells});
    file.write("run_record", record.dump(2));
  };
  const auto rows = [](hsize_t start, hsize_t count, hsize_t columns) {
    Hdf5Writer::Hyperslab h;
    h.start = {start};
    h.stride = {1};
    h.count = {1};
    h.block = {count};
    if (columns > 0) {
      h.start.push_back(0);
      h.stride.push_back(1);
      h.count.push_back(1);
      h.block.push_back(columns);
    }
    return std::vector<Hdf5Writer::Hyperslab>{h};
  };
  const auto mine = [&](Hdf5Writer& file) {
    if (owned > 0) {
      file.write_blocks("mesh/points", my_points, rows(hsize_t(first), owned, 3));
      file.write_blocks(field, my_values, rows(hsize_t(first), owned, nc == 1 ? 0 : 3));
    }
    if (cells > 0) {
      file.write_blocks("mesh/connectivity", connectivity, rows(hsize_t(cell_offset), cells, 8));
      file.write_blocks("material", material, rows(hsize_t(cell_offset), cells, 0));
    }
  };
  const std::string h5_name = path.substr(path.find_last_of('/') + 1);
  const std::vector<XdmfField> fields{{field, nc, false}, {"material", 1, true}};
  write_in_turns(comm, path, setup, mine, xdmf_unstructured(3, n_points, n_cells, h5_name, fields));
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                          \
  template void write_solution<Number, Exec>(const std::string&, const DgDofLayout<Exec>&,                          \
                                             const DistributedVector<Number, Exec>&, const Json&, bool);            \
  template void write_solution<Number, Exec>(const std::string&, const ContinuousDofLayout<Exec>&,                  \
                                             const DistributedVector<Number, Exec>&, const Json&, bool);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE
template void write_solution(const std::string&, const HexLayout<DefaultExec>&, const DistributedVector<double, DefaultExec>&,
                             const Json&, bool);
TENSORMG_IF_SECOND_SPACE(template void write_solution(const std::string&, const HexLayout<SecondaryExec>&,
                                                      const DistributedVector<double, SecondaryExec>&, const Json&, bool);)

}  // namespace tensormg
