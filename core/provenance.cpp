#include "core/provenance.hpp"

#include <Kokkos_Core.hpp>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <thread>

#include "core/simd_pack.hpp"
#include "tensormg/provenance_generated.hpp"

namespace tensormg {

std::string git_hash() { return TENSORMG_GIT_HASH; }

std::string kokkos_configuration() {
  const int v = KOKKOS_VERSION;
  std::string s = "Kokkos " + std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." +
                  std::to_string(v % 100) + " [" + TENSORMG_KOKKOS_DEVICES + "]";
  const std::string arch = TENSORMG_KOKKOS_ARCH;
  if (!arch.empty()) s += " " + arch;
  return s;
}

std::string backend_name() { return Kokkos::DefaultExecutionSpace::name(); }

namespace {
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto pos = line.find(':');
      if (pos != std::string::npos) return line.substr(pos + 2);
    }
  }
  return "unknown CPU";
}
}  // namespace

std::string cpu_description() {
  return cpu_model() + " (" + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

Json provenance_record(const std::vector<std::string>& command_line, int ranks, const std::string& device) {
  Json p = Json::object();
  p["tensormg_version"] = TENSORMG_VERSION_STRING;
  p["git_hash"] = git_hash();
  p["build_type"] = TENSORMG_BUILD_TYPE;
  p["compiler"] = TENSORMG_CXX_COMPILER;
  p["kokkos"] = kokkos_configuration();
  p["backend"] = backend_name();
  p["host_simd_bytes"] = simd::native_bytes();  // the host register of the SIMD kernels (TENSORMG_NATIVE_ARCH)
  p["device"] = device;
  p["host"] = host_name();
  p["date_utc"] = utc_now();
  p["mpi_ranks"] = ranks;
  p["command_line"] = command_line;
  return p;
}

}  // namespace tensormg
