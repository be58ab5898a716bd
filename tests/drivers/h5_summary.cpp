// Test helper: opens a tensormg-poisson result and prints what the kill test checks, so that test
// needs no h5py. Prints "solution <dims, slowest first>", "mesh <x count> <y count> [<z count>]" and
// "record <bytes of /run_record>"; exits 1 when the file does not open or a dataset is missing or
// unreadable (a partial file).
#include <hdf5.h>

#include <cstdio>
#include <vector>

namespace {
/// Extents of a dataset, empty when it cannot be opened.
std::vector<hsize_t> extents(hid_t file, const char* name) {
  std::vector<hsize_t> dims;
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  if (set < 0) return dims;
  const hid_t space = H5Dget_space(set);
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank >= 0) {
    dims.resize(rank > 0 ? rank : 1, 1);
    if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  }
  // Read the data too: a file cut short opens but cannot give its values.
  hssize_t points = H5Sget_simple_extent_npoints(space);
  bool ok = points >= 0;
  const hid_t type = H5Dget_type(set);
  ok = ok && type >= 0;
  if (ok && H5Tget_class(type) == H5T_FLOAT) {
    std::vector<double> values(static_cast<std::size_t>(points));
    ok = H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0;
  }
  if (type >= 0) H5Tclose(type);
  H5Sclose(space);
  H5Dclose(set);
  if (!ok) dims.clear();
  return dims;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <file.h5>\n", argv[0]);
    return 2;
  }
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return 1;
  const auto solution = extents(file, "solution");
  const auto record = extents(file, "run_record");
  std::vector<std::vector<hsize_t>> mesh;
  for (const char* axis : {"mesh/x", "mesh/y", "mesh/z"})
    if (H5Lexists(file, "mesh", H5P_DEFAULT) > 0 && H5Lexists(file, axis, H5P_DEFAULT) > 0) mesh.push_back(extents(file, axis));
  H5Fclose(file);
  if (solution.empty() || record.empty() || mesh.size() < 2) return 1;
  std::printf("solution");
  for (const auto d : solution) std::printf(" %llu", static_cast<unsigned long long>(d));
  std::printf("\nmesh");
  for (const auto& m : mesh) {
    if (m.empty()) return 1;
    std::printf(" %llu", static_cast<unsigned long long>(m[0]));
  }
  std::printf("\n");
  return 0;
}
