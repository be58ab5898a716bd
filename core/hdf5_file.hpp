#pragma once
/// @file
/// Writing HDF5 files atomically (a temporary name, renamed when complete) and the XDMF sidecar
/// that lets ParaView open a structured node grid. Serial HDF5: one process writes.

#include <hdf5.h>

#include <string>
#include <vector>

namespace tensormg {

/// Creates `<path>.tmp`; commit() closes and renames it to path. Destroyed without commit()
/// (an exception, a failed run), it removes the temporary file: no partial file is left.
class Hdf5Writer {
 public:
  explicit Hdf5Writer(std::string path);
  ~Hdf5Writer();
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  /// A double dataset; dims in C order (slowest first). Groups in the name are created.
  void write(const std::string& name, const std::vector<double>& data, const std::vector<hsize_t>& dims);
  /// A variable-length string dataset (JSON run records).
  void write(const std::string& name, const std::string& text);
  /// Closes and renames to the final path.
  void commit();

 private:
  hid_t group_for(const std::string& name);
  std::string path_, tmp_;
  hid_t file_ = -1;
  bool committed_ = false;
};

/// XDMF 3 text for a rectilinear node grid (2D: VXVY, 3D: VXVYVZ) with node-centred fields.
/// counts: nodes per direction (x first); h5_name: the HDF5 file name relative to the XDMF file.
std::string xdmf_rectilinear(int dim, const std::vector<hsize_t>& counts, const std::string& h5_name,
                             const std::vector<std::string>& fields);

/// Writes text to path through `<path>.tmp` + rename. Throws InputError on failure.
void write_text_file_atomically(const std::string& path, const std::string& text);

/// True if a file or directory exists at path.
bool path_exists(const std::string& path);

}  // namespace tensormg
