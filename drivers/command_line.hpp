#pragma once
/// @file
/// CLI11 parsing shared by all tensormg programs: every rank parses the same argv, so a parse
/// error is a collective InputError (printed once by rank 0), and --help prints once.

#include <CLI/CLI.hpp>

#include <optional>

#include "core/environment.hpp"
#include "core/error.hpp"

namespace tensormg {

/// Parses the arguments Kokkos left. Returns an exit code when the program should stop now
/// (--help), std::nullopt when it should run. Throws a collective InputError on bad arguments.
inline std::optional<int> parse_command_line(CLI::App& app, Environment& env) {
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

}  // namespace tensormg
