#include "core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/error.hpp"

namespace tensormg {

namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string system_error(int error) { return std::strerror(error); }

/// fsync of a file or folder, never through a link. Returns 0 or an errno value.
int sync_path(const std::string& path, bool folder) {
  const int fd = ::open(path.c_str(), (folder ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno;
  const int rc = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  // Some file systems cannot sync folders; that loses no data we could keep.
  return folder && (rc == EINVAL || rc == EBADF) ? 0 : rc;
}

bool is_folder(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

bool path_exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string temporary_name_for(const std::string& final_path) {
  static std::mt19937_64 generator{[] {
    std::random_device device;  // /dev/urandom on Linux
    return (std::uint64_t(device()) << 32) ^ device() ^ std::uint64_t(::getpid());
  }()};
  const std::string folder = folder_of(final_path);
  for (;;) {
    char suffix[17];
    std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(generator()));
    const std::string name = (folder == "." && final_path.find('/') == std::string::npos ? "" : folder + "/") + "." +
                             name_of(final_path) + ".tensormg-" + suffix;
    if (!path_exists(name)) return name;
  }
}

void write_new_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  TENSORMG_CHECK(fd >= 0, "cannot create '" << path << "': " << system_error(errno));
  std::size_t done = 0;
  int error = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    done += std::size_t(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(path.c_str());
    throw InputError("cannot write '" + path + "': " + system_error(error));
  }
}

OutputTransaction::~OutputTransaction() {
  if (committed_) return;
  for (const auto& e : entries_)
    if (!e.renamed && !e.temporary.empty()) ::unlink(e.temporary.c_str());
}

std::string OutputTransaction::add(const std::string& final_path, const std::function<bool(const std::string&)>& create) {
  TENSORMG_CHECK(!committed_, "output transaction already committed");
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::string temporary = temporary_name_for(final_path);
    if (create(temporary)) {
      entries_.push_back({final_path, temporary, "", false, false});
      return temporary;
    }
  }
  throw InputError("cannot find a free temporary name next to '" + final_path + "'");
}

std::string OutputTransaction::add_text(const std::string& final_path, const std::string& text) {
  return add(final_path, [&](const std::string& temporary) {
    if (path_exists(temporary)) return false;
    write_new_file(temporary, text);
    return true;
  });
}

void OutputTransaction::roll_back() {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    Entry& e = *it;
    if (e.renamed && !e.had_previous) ::unlink(e.final_path.c_str());
    if (e.had_previous && !e.backup.empty()) {
      // Still in place (a second link to the backup: rename would do nothing), or gone / replaced.
      if (!e.renamed && path_exists(e.final_path)) ::unlink(e.backup.c_str());
      else std::rename(e.backup.c_str(), e.final_path.c_str());
    }
    if (!e.renamed) ::unlink(e.temporary.c_str());
    e.renamed = false;
    e.temporary.clear();
  }
}

void OutputTransaction::commit() {
  TENSORMG_CHECK(!committed_, "output transaction already committed");
  for (const auto& e : entries_) {
    TENSORMG_CHECK(!is_folder(e.final_path), "cannot write '" << e.final_path << "': it is a folder");
    const int rc = sync_path(e.temporary, false);
    TENSORMG_CHECK(rc == 0, "cannot flush '" << e.temporary << "' to disk: " << system_error(rc));
  }
  // Keep every previous file under a backup name (a second hard link: the final name stays), so a
  // failed rename can put everything back.
  for (auto& e : entries_) {
    e.had_previous = path_exists(e.final_path);
    if (!e.had_previous) continue;
    e.backup = temporary_name_for(e.final_path);
    if (::link(e.final_path.c_str(), e.backup.c_str()) != 0) {
      const int error = errno;
      e.backup.clear();
      // File systems without hard links: replace without a way back (each rename is still atomic).
      if (error == EPERM || error == ENOTSUP || error == EOPNOTSUPP || error == EXDEV || error == EMLINK) continue;
      roll_back();
      throw InputError("cannot keep a backup of '" + e.final_path + "' while replacing it: " + system_error(error));
    }
  }
  // Sidecars of the previous result go first: none may describe the new data file's predecessor.
  for (std::size_t i = 1; i < entries_.size(); ++i)
    if (entries_[i].had_previous && !entries_[i].backup.empty()) ::unlink(entries_[i].final_path.c_str());
  for (auto& e : entries_) {
    if ((rename_ ? rename_(e.temporary.c_str(), e.final_path.c_str()) : std::rename(e.temporary.c_str(), e.final_path.c_str())) != 0) {
      const int error = errno;
      roll_back();
      throw InputError("cannot rename '" + e.temporary + "' to '" + e.final_path + "': " + system_error(error));
    }
    e.renamed = true;
  }
  for (const auto& e : entries_)
    if (!e.backup.empty()) ::unlink(e.backup.c_str());
  committed_ = true;
  for (const auto& e : entries_) sync_path(folder_of(e.final_path), true);
}

void write_text_file_atomically(const std::string& path, const std::string& text) {
  OutputTransaction t;
  t.add_text(path, text);
  t.commit();
}

void check_output_writable(const std::vector<std::string>& paths, bool overwrite, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string message;
  if (rank == 0) {
    for (const auto& path : paths) {
      if (!message.empty()) break;
      if (path.empty()) {
        message = "the output path is empty; give a file name";
      } else if (path.back() == '/' || is_folder(path)) {
        message = "output path '" + path + "' is a folder; give a file name";
      } else if (path_exists(path) && !overwrite) {
        message = "output file '" + path + "' exists; pass --overwrite to replace it";
      } else if (!path_exists(folder_of(path))) {
        message = "cannot write '" + path + "': folder '" + folder_of(path) + "' does not exist";
      } else if (!is_folder(folder_of(path))) {
        message = "cannot write '" + path + "': '" + folder_of(path) + "' is not a folder";
      } else {
        const std::string probe = temporary_name_for(path + ".probe");
        try {
          write_new_file(probe, "");
          ::unlink(probe.c_str());
        } catch (const InputError& e) {
          message = "cannot write '" + path + "': folder '" + folder_of(path) + "' does not accept new files (" +
                    e.what() + ")";
        }
      }
    }
  }
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  message.resize(std::size_t(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm);
  if (length > 0) throw InputError(message, true);
}

}  // namespace tensormg
