#pragma once
/// @file
/// CLI11 parsing shared by all tensormg programs: every rank parses the same argv, so a parse
/// error is a collective InputError (printed once by rank 0), and --help prints once.

#include <CLI/CLI.hpp>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include "backends/cuda_mma/cuda_mma.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"

namespace tensormg {

/// Accepts [+-]digits only (CLI11 alone takes "0x3" as 3 and "3.0" as 3).
inline CLI::Validator decimal_integer() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
        bool digits = i < text.size();
        for (; i < text.size(); ++i) digits = digits && std::isdigit(static_cast<unsigned char>(text[i]));
        return digits ? std::string() : "'" + text + "' is not a decimal integer";
      },
      "", "decimal integer");
}

/// Accepts finite decimal numbers only (no inf, nan or hexadecimal floats).
inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const bool hex = text.find_first_of("xX") != std::string::npos;
        if (text.empty() || end != text.c_str() + text.size() || hex || !std::isfinite(value))
          return "'" + text + "' is not a finite number";
        return std::string();
      },
      "", "finite number");
}

/// Parses the arguments Kokkos left. Returns an exit code when the program should stop now
/// (--help), std::nullopt when it should run. Throws a collective InputError on bad arguments.
inline std::optional<int> parse_command_line(CLI::App& app, Environment& env) {
  // --help shows each option's default (the bound variable's value before parsing). Numbers are
  // plain decimal and finite: "0x3", "1e3" for an integer, "inf" or "nan" are refused.
  for (CLI::Option* option : app.get_options()) {
    option->capture_default_str();
    // The type name starts with INT/UINT/FLOAT; validators already attached add ":<description>".
    const std::string type = option->get_type_name();
    const auto starts = [&](const char* prefix) { return type.rfind(prefix, 0) == 0; };
    if (starts("INT") || starts("UINT")) option->check(decimal_integer());
    if (starts("FLOAT")) option->check(finite_number());
  }
  app.footer("Kokkos options (--kokkos-threads, --kokkos-num-devices, ...): --kokkos-help");
  try {
    app.parse(env.argc(), env.argv());
  } catch (const CLI::Success& e) {  // --help and friends
    if (env.rank() == 0) app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    throw InputError(std::string(e.what()) + " (run with --help for the options)", true);
  }
  return std::nullopt;
}

/// run_main with the check that the build's device is usable: a CUDA build started where no GPU
/// is visible stops with one line and exit code 2 instead of Kokkos' abort.
inline int run_program(int argc, char** argv, const std::function<int(Environment&)>& body) {
  Environment::DeviceCheck check;
  if constexpr (cuda_mma::enabled) check = [](std::string& why) { return cuda_mma::usable_device_count(why); };
  return run_main(argc, argv, body, check);
}

}  // namespace tensormg
