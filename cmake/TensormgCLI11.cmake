# CLI11 is header-only: Debian's libcli11-dev, a CLI11 CMake package, or a copied include folder
# (the GPU machine has no CLI11; carry /usr/include/CLI as <dir>/CLI and pass -DTENSORMG_CLI11_INCLUDE_DIR=<dir>).
find_package(CLI11 CONFIG QUIET)
if(TARGET CLI11::CLI11)
  set(TENSORMG_CLI11_TARGET CLI11::CLI11)
else()
  find_path(TENSORMG_CLI11_INCLUDE_DIR CLI/CLI.hpp
            HINTS ${CMAKE_CURRENT_SOURCE_DIR}/.deps/cli11/include
            DOC "folder that holds CLI/CLI.hpp")
  if(NOT TENSORMG_CLI11_INCLUDE_DIR)
    message(FATAL_ERROR "CLI11 not found: apt-get install libcli11-dev, or set TENSORMG_CLI11_INCLUDE_DIR to a folder holding CLI/CLI.hpp")
  endif()
  add_library(tensormg_cli11 INTERFACE)
  target_include_directories(tensormg_cli11 SYSTEM INTERFACE ${TENSORMG_CLI11_INCLUDE_DIR})
  set(TENSORMG_CLI11_TARGET tensormg_cli11)
endif()
