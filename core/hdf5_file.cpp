#include "core/hdf5_file.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace tensormg {

bool Hdf5Writer::create_exclusive(const std::string& path, Hdf5Writer& writer) {
  if (path_exists(path)) return false;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported as InputError, not printed
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0 && path_exists(path)) return false;  // taken between the check and the create
  TENSORMG_CHECK(file >= 0, "cannot create HDF5 file '" << path << "' (does the folder exist and is it writable?)");
  writer.path_ = path;
  writer.file_ = file;
  return true;
}

Hdf5Writer::~Hdf5Writer() {
  if (file_ >= 0) H5Fclose(file_);
}

hid_t Hdf5Writer::group_for(const std::string& name) {
  // Creates intermediate groups ("mesh/x" -> group "mesh").
  std::size_t pos = 0;
  while ((pos = name.find('/', pos + 1)) != std::string::npos) {
    const std::string g = name.substr(0, pos);
    if (H5Lexists(file_, g.c_str(), H5P_DEFAULT) <= 0) {
      const hid_t id = H5Gcreate2(file_, g.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      TENSORMG_CHECK(id >= 0, "cannot create HDF5 group '" << g << "' in '" << path_ << "'");
      H5Gclose(id);
    }
  }
  return file_;
}

void Hdf5Writer::write_array(const std::string& name, const void* data, std::size_t size, hid_t file_type,
                             hid_t memory_type, const std::vector<hsize_t>& dims) {
  hsize_t count = 1;
  for (const auto d : dims) count *= d;
  TENSORMG_CHECK(count == size, "dataset '" << name << "': " << size << " values for " << count << " entries");
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t set = H5Dcreate2(group_for(name), name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t status = set >= 0 ? H5Dwrite(set, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : -1;
  if (set >= 0) H5Dclose(set);
  H5Sclose(space);
  TENSORMG_CHECK(status >= 0, "cannot write dataset '" << name << "' to '" << path_ << "' (disk full?)");
}

void Hdf5Writer::write(const std::string& name, const std::vector<double>& data, const std::vector<hsize_t>& dims) {
  write_array(name, data.data(), data.size(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, dims);
}

void Hdf5Writer::write(const std::string& name, const std::vector<std::int64_t>& data, const std::vector<hsize_t>& dims) {
  write_array(name, data.data(), data.size(), H5T_STD_I64LE, H5T_NATIVE_INT64, dims);
}

void Hdf5Writer::open_existing(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  TENSORMG_CHECK(file_ < 0, "HDF5 writer already has a file open");
  file_ = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  TENSORMG_CHECK(file_ >= 0, "cannot open HDF5 file '" << path << "' for writing");
  path_ = path;
}

void Hdf5Writer::create_array(const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  // Space at creation: a later failure to allocate shows here, once, not in some rank's turn.
  const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_alloc_time(plist, H5D_ALLOC_TIME_EARLY);
  const hid_t set = H5Dcreate2(group_for(name), name.c_str(), file_type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
  H5Pclose(plist);
  H5Sclose(space);
  TENSORMG_CHECK(set >= 0, "cannot create dataset '" << name << "' in '" << path_ << "' (disk full?)");
  H5Dclose(set);
}

void Hdf5Writer::create_double(const std::string& name, const std::vector<hsize_t>& dims) {
  create_array(name, H5T_IEEE_F64LE, dims);
}
void Hdf5Writer::create_int64(const std::string& name, const std::vector<hsize_t>& dims) {
  create_array(name, H5T_STD_I64LE, dims);
}

void Hdf5Writer::write_selection(const std::string& name, const void* data, std::size_t size, hid_t memory_type,
                                 const std::vector<Hyperslab>& slabs) {
  const hid_t set = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
  TENSORMG_CHECK(set >= 0, "no dataset '" << name << "' in '" << path_ << "'");
  const hid_t file_space = H5Dget_space(set);
  H5Sselect_none(file_space);
  for (const auto& h : slabs)
    H5Sselect_hyperslab(file_space, H5S_SELECT_OR, h.start.data(), h.stride.data(), h.count.data(), h.block.data());
  const hssize_t selected = H5Sget_select_npoints(file_space);
  herr_t status = -1;
  if (selected == hssize_t(size)) {
    const hsize_t n = size;
    const hid_t memory_space = H5Screate_simple(1, &n, nullptr);
    status = size == 0 ? 0 : H5Dwrite(set, memory_type, memory_space, file_space, H5P_DEFAULT, data);
    H5Sclose(memory_space);
  }
  H5Sclose(file_space);
  H5Dclose(set);
  TENSORMG_CHECK(selected == hssize_t(size), "dataset '" << name << "': " << size << " values for " << selected << " selected entries");
  TENSORMG_CHECK(status >= 0, "cannot write dataset '" << name << "' to '" << path_ << "' (disk full?)");
}

void Hdf5Writer::write_blocks(const std::string& name, const std::vector<double>& data, const std::vector<Hyperslab>& slabs) {
  write_selection(name, data.data(), data.size(), H5T_NATIVE_DOUBLE, slabs);
}
void Hdf5Writer::write_blocks(const std::string& name, const std::vector<std::int64_t>& data,
                              const std::vector<Hyperslab>& slabs) {
  write_selection(name, data.data(), data.size(), H5T_NATIVE_INT64, slabs);
}

void Hdf5Writer::write(const std::string& name, const std::string& text) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t set = H5Dcreate2(group_for(name), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const char* data = text.c_str();
  const herr_t status = set >= 0 ? H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &data) : -1;
  if (set >= 0) H5Dclose(set);
  H5Sclose(space);
  H5Tclose(type);
  TENSORMG_CHECK(status >= 0, "cannot write dataset '" << name << "' to '" << path_ << "'");
}

void Hdf5Writer::close() {
  const hid_t file = file_;
  file_ = -1;
  TENSORMG_CHECK(file >= 0, "HDF5 file '" << path_ << "' is not open");
  const bool flushed = H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0;
  const bool closed = H5Fclose(file) >= 0;
  TENSORMG_CHECK(flushed && closed, "cannot close HDF5 file '" << path_ << "' (disk full?)");
}

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string xdmf_rectilinear(int dim, const std::vector<hsize_t>& counts, const std::string& h5_name,
                             const std::vector<std::string>& fields) {
  std::ostringstream dims;  // XDMF lists the slowest direction first
  for (int d = dim - 1; d >= 0; --d) dims << counts[d] << (d ? " " : "");
  const std::string file = xml_escaped(h5_name);
  std::ostringstream x;
  x << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n  <Grid Name=\"tensormg\" GridType=\"Uniform\">\n"
    << "   <Topology TopologyType=\"" << dim << "DRectMesh\" Dimensions=\"" << dims.str() << "\"/>\n"
    << "   <Geometry GeometryType=\"" << (dim == 2 ? "VXVY" : "VXVYVZ") << "\">\n";
  const char* axis[3] = {"x", "y", "z"};
  for (int d = 0; d < dim; ++d)
    x << "    <DataItem Dimensions=\"" << counts[d] << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">"
      << file << ":/mesh/" << axis[d] << "</DataItem>\n";
  x << "   </Geometry>\n";
  for (const auto& f : fields)
    x << "   <Attribute Name=\"" << xml_escaped(f) << "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      << "    <DataItem Dimensions=\"" << dims.str() << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">"
      << file << ":/" << f << "</DataItem>\n   </Attribute>\n";
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";
  return x.str();
}

std::string xdmf_unstructured(int dim, hsize_t n_points, hsize_t n_elements, const std::string& h5_name,
                              const std::vector<XdmfField>& fields) {
  const std::string file = xml_escaped(h5_name);
  const int corners = dim == 2 ? 4 : 8;
  std::ostringstream x;
  x << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n  <Grid Name=\"tensormg\" GridType=\"Uniform\">\n"
    << "   <Topology TopologyType=\"" << (dim == 2 ? "Quadrilateral" : "Hexahedron") << "\" NumberOfElements=\""
    << n_elements << "\">\n    <DataItem Dimensions=\"" << n_elements << " " << corners
    << "\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">" << file << ":/mesh/connectivity</DataItem>\n   </Topology>\n"
    << "   <Geometry GeometryType=\"" << (dim == 2 ? "XY" : "XYZ") << "\">\n    <DataItem Dimensions=\"" << n_points << " "
    << dim << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":/mesh/points</DataItem>\n   </Geometry>\n";
  for (const auto& f : fields) {
    TENSORMG_CHECK(f.components == 1 || f.components == 3, "internal: XDMF field " << f.name << " of " << f.components << " components");
    x << "   <Attribute Name=\"" << xml_escaped(f.name) << "\" AttributeType=\"" << (f.components == 1 ? "Scalar" : "Vector")
      << "\" Center=\"" << (f.per_cell ? "Cell" : "Node") << "\">\n    <DataItem Dimensions=\"" << (f.per_cell ? n_elements : n_points);
    if (f.components > 1) x << " " << f.components;
    x << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":/" << xml_escaped(f.name)
      << "</DataItem>\n   </Attribute>\n";
  }
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";
  return x.str();
}

}  // namespace tensormg
