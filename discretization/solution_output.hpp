#pragma once
/// @file
/// One HDF5 file per run, whatever the rank count: the solution on the global node grid (each rank
/// writes its own block in turn, serial HDF5; no rank gathers the vector), the node coordinates,
/// and the JSON run record; plus an XDMF sidecar for ParaView.
/// DG solutions are written as what they are, discontinuous: every value with its node's
/// coordinates, each cell cut into k^d sub-cells (quadrilaterals or hexahedra) of its own points.

#include <functional>
#include <string>

#include "core/distributed_vector.hpp"
#include "core/hdf5_file.hpp"
#include "core/json.hpp"
#include "discretization/continuous_dof_layout.hpp"
#include "discretization/dg_dof_layout.hpp"

namespace tensormg {

template <class ExecSpace>
class HexLayout;

/// The output protocol for serial HDF5 at any rank count: rank 0 creates path's temporary and
/// runs `setup` (datasets, mesh data it owns alone, the record); then each rank in turn opens the
/// temporary and writes its own blocks (`mine`): no rank holds more than its own part of the
/// vector. Rank 0 then adds the XDMF text and commits both files. Collective; any failure is an
/// InputError on every rank, and the transaction leaves nothing behind.
void write_in_turns(MPI_Comm comm, const std::string& path, const std::function<void(Hdf5Writer&)>& setup,
                    const std::function<void(Hdf5Writer&)>& mine, const std::string& xdmf_text);

/// Collective: throws a collective InputError when path (or its .xdmf sidecar) exists and
/// overwrite is false. Call before the run's expensive work so a refusal costs nothing.
void check_output_path(const std::string& path, bool overwrite, MPI_Comm comm);

/// Collective. Writes path (HDF5: /solution, /mesh/{x,y,z}, /run_record) and path + ".xdmf".
/// Nothing is left at either path if writing fails; failures are collective InputErrors.
template <class Number, class ExecSpace>
void write_solution(const std::string& path, const ContinuousDofLayout<ExecSpace>& layout,
                    const DistributedVector<Number, ExecSpace>& solution, const Json& record, bool overwrite);

/// Collective. DG: writes path (HDF5: /solution in global cell-wise order, /mesh/points
/// (values × dim), /mesh/connectivity (cells·k^d × 2^d, 64-bit), /run_record) and path + ".xdmf";
/// nothing is left behind if writing fails.
template <class Number, class ExecSpace>
void write_solution(const std::string& path, const DgDofLayout<ExecSpace>& layout,
                    const DistributedVector<Number, ExecSpace>& solution, const Json& record, bool overwrite);

/// Collective. The Q1 solution on unstructured hexahedra (paper 004): path (HDF5: /mesh/points in
/// global vertex order, each rank its owned rows; /mesh/connectivity, the cells in rank order with
/// global vertex numbers in VTK order, 64-bit; /solution, or /displacement (n × 3) when the layout
/// has 3 components; /material, the per-cell coefficient κ or Young's modulus; /run_record) and
/// path + ".xdmf"; nothing is left behind if writing fails.
template <class ExecSpace>
void write_solution(const std::string& path, const HexLayout<ExecSpace>& layout,
                    const DistributedVector<double, ExecSpace>& solution, const Json& record, bool overwrite);

/// The host bytes a rank holds while writing its `values` DG values (solution, points,
/// connectivity): what the memory check adds for --output.
double dg_output_bytes(int dim, int degree, double values);

}  // namespace tensormg
