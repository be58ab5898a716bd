#pragma once
/// @file
/// Errors for user input (always checked, also in release builds) and internal invariants
/// (checked in debug builds only).
///
/// Two kinds of user-input check:
///  - TENSORMG_CHECK(cond, msg): local. Throws InputError on the rank that sees it. run_main()
///    prints it with the rank and aborts all ranks (the others cannot know).
///  - TENSORMG_CHECK_COLLECTIVE(comm, cond, msg): every rank of comm calls it. If any rank fails,
///    every rank throws the same message (that of the lowest failing rank); run_main() prints it
///    once on rank 0 and all ranks leave through MPI_Finalize with exit code 2.

#include <mpi.h>

#include <sstream>
#include <stdexcept>
#include <string>

namespace tensormg {

/// A user-facing error: bad options, impossible configurations, I/O refusals.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message, bool collective = false)
      : std::runtime_error(message), collective_(collective) {}
  /// True when every rank of the communicator threw this same error.
  bool collective() const { return collective_; }

 private:
  bool collective_;
};

/// Collective agreement on a check: if any rank passes ok == false, all ranks throw
/// InputError(message of the lowest failing rank, collective = true).
void check_collective(bool ok, const std::string& message, MPI_Comm comm);

/// Rethrows a local InputError as a collective one on every rank when any rank failed:
/// wraps a block of local checks (parsing, validation) that all ranks execute.
template <class F>
void collectively(MPI_Comm comm, F&& f) {
  std::string message;
  bool ok = true;
  try {
    f();
  } catch (const InputError& e) {
    ok = false;
    message = e.what();
  }
  check_collective(ok, message, comm);
}

namespace detail {
[[noreturn]] void assertion_failed(const char* cond, const char* file, int line, const std::string& msg);
}

}  // namespace tensormg

#define TENSORMG_CHECK(cond, msg)                               \
  do {                                                          \
    if (!(cond)) {                                              \
      std::ostringstream tensormg_os_;                          \
      tensormg_os_ << msg;                                      \
      throw ::tensormg::InputError(tensormg_os_.str());         \
    }                                                           \
  } while (false)

#define TENSORMG_CHECK_COLLECTIVE(comm, cond, msg)               \
  do {                                                           \
    const bool tensormg_ok_ = static_cast<bool>(cond);           \
    std::ostringstream tensormg_os_;                             \
    if (!tensormg_ok_) tensormg_os_ << msg;                      \
    ::tensormg::check_collective(tensormg_ok_, tensormg_os_.str(), comm); \
  } while (false)

#ifdef NDEBUG
#define TENSORMG_ASSERT(cond, msg) \
  do {                             \
  } while (false)
#else
#define TENSORMG_ASSERT(cond, msg)                                                        \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::ostringstream tensormg_os_;                                                    \
      tensormg_os_ << msg;                                                                \
      ::tensormg::detail::assertion_failed(#cond, __FILE__, __LINE__, tensormg_os_.str()); \
    }                                                                                     \
  } while (false)
#endif
