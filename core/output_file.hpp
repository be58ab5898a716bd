#pragma once
/// @file
/// Safe output files: every result is written under a fresh temporary name in the target's folder,
/// created exclusively (O_CREAT | O_EXCL: never through a symbolic link, never over somebody's
/// file), flushed to disk, and only then renamed to its final name. Files that belong together
/// (an HDF5 file and its XDMF sidecar) are replaced as one transaction: a failure before the last
/// rename restores the previous files, and no final name ever shows a partial file.
///
/// A kill (SIGKILL, power loss) can only leave stray temporaries, named `.<name>.tensormg-<random>`
/// next to the target; the final names hold either the old or the new complete file. For a pair
/// the old sidecar is removed before the new data file is renamed in, so at no moment does a
/// sidecar describe data other than the file beside it (a kill in between leaves the data file
/// without its sidecar).

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace tensormg {

/// True if anything (file, folder, symbolic link, even a dangling one) exists at path.
bool path_exists(const std::string& path);

/// A name for a temporary file next to final_path that does not exist yet
/// (`<folder>/.<name>.tensormg-<16 random hex digits>`). Only a name: create it exclusively.
std::string temporary_name_for(const std::string& final_path);

/// Creates path exclusively (fails if anything exists there, links included) with mode 0666
/// masked by the umask, writes text, flushes it to disk. Throws InputError on failure and then
/// removes what it created.
void write_new_file(const std::string& path, const std::string& text);

/// Several output files replaced together. Usage:
///   OutputTransaction t;
///   const auto h5 = t.add("out.h5", create_hdf5);     // create_hdf5(tmp) creates tmp exclusively
///   const auto xdmf = t.add_text("out.h5.xdmf", text);
///   ... write into h5 ...
///   t.commit();   // renames in the order added
/// Destroyed without commit(), it removes every temporary it created.
class OutputTransaction {
 public:
  OutputTransaction() = default;
  ~OutputTransaction();
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;

  /// Reserves a temporary for final_path and lets create(temporary) make it; create must create
  /// the file exclusively (e.g. H5F_ACC_EXCL) and return false if the name was taken (another
  /// name is then tried) or throw on any other failure. Returns the temporary's name.
  std::string add(const std::string& final_path, const std::function<bool(const std::string&)>& create);
  /// A temporary for final_path holding text (written and flushed now).
  std::string add_text(const std::string& final_path, const std::string& text);
  /// Flushes every temporary, then moves them to their final names in the order added (a previous
  /// file at a later final name is removed before the first rename). If a rename fails, the
  /// previous files are restored (kept meanwhile as second hard links; on file systems without
  /// hard links each file is still replaced atomically, but a failed rename cannot be undone) and
  /// InputError is thrown.
  void commit();
  /// Replaces std::rename in commit(), so tests can make a chosen rename fail.
  void use_rename_for_testing(std::function<int(const char*, const char*)> rename) { rename_ = std::move(rename); }

 private:
  struct Entry {
    std::string final_path, temporary, backup;
    bool had_previous = false, renamed = false;
  };
  void roll_back();
  std::vector<Entry> entries_;
  bool committed_ = false;
  std::function<int(const char*, const char*)> rename_;
};

/// Writes text to path through a temporary + rename (one-file transaction). Throws InputError.
void write_text_file_atomically(const std::string& path, const std::string& text);

/// Collective, before any expensive work: a collective InputError unless every path can be written
/// later, i.e. path is not empty, names no folder, does not exist (unless overwrite), and its
/// folder exists and accepts a new file (a probe file is created exclusively and removed).
void check_output_writable(const std::vector<std::string>& paths, bool overwrite, MPI_Comm comm);

}  // namespace tensormg
