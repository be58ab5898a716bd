#pragma once
/// @file
/// Writing HDF5 files and the XDMF sidecar that lets ParaView open a structured node grid. Serial
/// HDF5: one process at a time (rank 0 creates the datasets, then every rank writes its own
/// blocks in turn: no rank holds the global vector). Files are created exclusively under a temporary name and renamed by
/// an OutputTransaction (core/output_file.hpp).

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/output_file.hpp"

namespace tensormg {

/// A new HDF5 file, created exclusively (H5F_ACC_EXCL: fails if anything exists at path, a link
/// included). Closed by close() or the destructor; the caller owns the name (OutputTransaction).
class Hdf5Writer {
 public:
  /// Returns false (and creates nothing) when something exists at path; throws InputError on
  /// other failures. Used as the creator of an OutputTransaction entry.
  static bool create_exclusive(const std::string& path, Hdf5Writer& writer);
  Hdf5Writer() = default;
  ~Hdf5Writer();
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  /// A double dataset; dims in C order (slowest first). Groups in the name are created.
  void write(const std::string& name, const std::vector<double>& data, const std::vector<hsize_t>& dims);
  /// A 64-bit integer dataset (connectivity); dims in C order.
  void write(const std::string& name, const std::vector<std::int64_t>& data, const std::vector<hsize_t>& dims);
  /// A variable-length string dataset (JSON run records).
  void write(const std::string& name, const std::string& text);

  /// Opens an existing file for writing (a rank's turn at a file rank 0 created).
  void open_existing(const std::string& path);
  /// A dataset of dims (C order) whose values come later, block by block (write_blocks).
  void create_double(const std::string& name, const std::vector<hsize_t>& dims);
  void create_int64(const std::string& name, const std::vector<hsize_t>& dims);
  /// A regular hyperslab of a dataset (H5Sselect_hyperslab's start, stride, count, block).
  struct Hyperslab {
    std::vector<hsize_t> start, stride, count, block;
  };
  /// Writes `size` values into the union of the hyperslabs of dataset `name`, in the dataset's
  /// row-major order of the selected entries.
  void write_blocks(const std::string& name, const std::vector<double>& data, const std::vector<Hyperslab>& slabs);
  void write_blocks(const std::string& name, const std::vector<std::int64_t>& data, const std::vector<Hyperslab>& slabs);
  /// Flushes and closes the file. Throws InputError if HDF5 reports a failure.
  void close();

 private:
  hid_t group_for(const std::string& name);
  /// One dataset of `size` values of memory_type, stored as file_type; dims in C order.
  void write_array(const std::string& name, const void* data, std::size_t size, hid_t file_type, hid_t memory_type,
                   const std::vector<hsize_t>& dims);
  void create_array(const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims);
  void write_selection(const std::string& name, const void* data, std::size_t size, hid_t memory_type,
                       const std::vector<Hyperslab>& slabs);
  std::string path_;
  hid_t file_ = -1;
};

/// text with & < > " ' replaced by XML entities.
std::string xml_escaped(const std::string& text);

/// XDMF 3 text for a rectilinear node grid (2D: VXVY, 3D: VXVYVZ) with node-centred fields.
/// counts: nodes per direction (x first); h5_name: the HDF5 file name relative to the XDMF file.
std::string xdmf_rectilinear(int dim, const std::vector<hsize_t>& counts, const std::string& h5_name,
                             const std::vector<std::string>& fields);

/// A field of an unstructured mesh's XDMF: the dataset /<name>, a value (scalar) or 3 (vector)
/// per node or per cell.
struct XdmfField {
  std::string name;
  int components = 1;     ///< 1 or 3
  bool per_cell = false;  ///< cell-centred (n_elements rows) instead of node-centred (n_points)
};

/// XDMF 3 text for an unstructured mesh of quadrilaterals (2D) or hexahedra (3D): points
/// (n_points × dim, /mesh/points), connectivity (n_elements × 2^dim, /mesh/connectivity, 64-bit)
/// and the fields.
std::string xdmf_unstructured(int dim, hsize_t n_points, hsize_t n_elements, const std::string& h5_name,
                              const std::vector<XdmfField>& fields);


}  // namespace tensormg
