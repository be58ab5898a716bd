# TENSORMG_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer (GCC or Clang, host code).
#
# Every target defined after this file is included (the tensormg library, tests, drivers, perf
# programs) compiles and links with -fsanitize=address,undefined; UB is not recoverable, so the
# first report fails the program. Meant for a Debug build, where TENSORMG_ASSERT is on as well
# (core/error.hpp: on whenever NDEBUG is not defined). Kokkos and Kokkos Kernels are not rebuilt:
# their compiled parts run uninstrumented, their templates are instrumented in our objects.
#
# TENSORMG_SANITIZER_ENV: the environment the tests run with (tests/CMakeLists.txt adds it to every
# test); leak reports from inside Open MPI, hwloc, ... are suppressed by cmake/lsan.supp, leaks
# anywhere else fail the test.
set(TENSORMG_SANITIZER_ENV "")
if(NOT TENSORMG_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" OR CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
  message(FATAL_ERROR "tensormg: TENSORMG_SANITIZE needs GCC or Clang for host code (compiler: ${CMAKE_CXX_COMPILER}); "
                      "for CUDA use compute-sanitizer (README.md)")
endif()
if(CMAKE_BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
  message(WARNING "tensormg: TENSORMG_SANITIZE with CMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}: NDEBUG turns "
                  "TENSORMG_ASSERT off; use Debug (or RelWithDebInfo without NDEBUG)")
endif()
set(_tensormg_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
                             -fno-omit-frame-pointer)
add_compile_options(${_tensormg_sanitize_flags})
# Read by the tests (tests/test_utils.hpp: testing::sanitized) to run their heaviest sweeps smaller.
add_compile_definitions(TENSORMG_SANITIZED)
add_link_options(-fsanitize=address,undefined)
# A consumer of the installed package links the sanitizer runtimes too.
function(_tensormg_sanitize_export)
  if(TARGET tensormg)
    target_link_options(tensormg INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
  endif()
endfunction()
cmake_language(DEFER CALL _tensormg_sanitize_export)

# OMP_NUM_THREADS=1: ctest -j2 runs two programs at once on CI's two cores, and two OpenMP threads
# each oversubscribed them (the sanitizers find no races; the README job runs two threads).
set(TENSORMG_SANITIZER_ENV
  "OMP_NUM_THREADS=1"
  "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:strict_init_order=1:check_initialization_order=1:print_summary=1"
  "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/lsan.supp:print_suppressions=0"
  "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:print_summary=1")
message(STATUS "tensormg: AddressSanitizer + UndefinedBehaviorSanitizer on (TENSORMG_SANITIZE)")
