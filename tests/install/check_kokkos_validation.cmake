# ctest script: a Kokkos is checked before tensormg takes it (issue 19, defect 11).
#
# A fake install mimics Debian's libtrilinos-kokkos-dev (pulled in by libdeal.ii-dev): Kokkos
# 3.4.01 with Serial only, a Kokkos::kokkos whose include directory does not exist
# (<prefix>/lib/include, from a config file under lib/<arch>/cmake/Kokkos that goes up four
# levels) and no Kokkos Kernels. -DCMAKE_SYSTEM_PREFIX_PATH=<prefix> puts it among the default
# search places (like /usr), which does not count as a given Kokkos (Kokkos_DIR, Kokkos_ROOT,
# CMAKE_PREFIX_PATH do).
#
# CASE=default_broken  found in a default place: the configure names what is missing, ignores it,
#                      takes the bootstrapped Kokkos (SOURCE_DIR/.deps/openmp, reused, not rebuilt),
#                      and a reconfigure keeps it.
# CASE=given_broken    given by -DKokkos_ROOT: the configure stops, naming what is missing and what
#                      to pass.
# CASE=default_good    a usable Kokkos (KOKKOS_ROOT, the build's own) in a default place is taken
#                      without a bootstrap; for TENSORMG_BACKEND=cuda (checked before project()):
#                      the broken one stops the configure when TENSORMG_BOOTSTRAP_KOKKOS=OFF, and a
#                      fake usable Cuda + Serial Kokkos is taken with its nvcc_wrapper as compiler.
#
# Inputs: CASE, SOURCE_DIR (tensormg), WORK (scratch), CXX, LIBARCH (CMAKE_LIBRARY_ARCHITECTURE,
# may be empty), KOKKOS_ROOT (a usable Kokkos install, for default_good).
file(REMOVE_RECURSE ${WORK})
if(LIBARCH)
  set(_libdir lib/${LIBARCH})
else()
  set(_libdir lib)
endif()

# ---- fake packages ---------------------------------------------------------------------------------
# write_fake_kokkos(<prefix> <devices> <with include dir and Kokkos Kernels>)
function(write_fake_kokkos prefix devices usable)
  set(_dir ${prefix}/${_libdir}/cmake/Kokkos)
  file(WRITE ${_dir}/KokkosConfigVersion.cmake [=[
set(PACKAGE_VERSION "3.4.01")
if(PACKAGE_FIND_VERSION AND NOT PACKAGE_FIND_VERSION_MAJOR EQUAL 3)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
]=])
  # As Trilinos' KokkosTrilinosConfig.cmake.in: the prefix is four levels above this file.
  file(WRITE ${_dir}/KokkosConfig.cmake "
if(NOT TARGET Kokkos::kokkos)
  get_filename_component(KOKKOS_IMPORT_PREFIX \"\${CMAKE_CURRENT_LIST_FILE}\" PATH)
  get_filename_component(KOKKOS_IMPORT_PREFIX \"\${KOKKOS_IMPORT_PREFIX}\" PATH)
  get_filename_component(KOKKOS_IMPORT_PREFIX \"\${KOKKOS_IMPORT_PREFIX}\" PATH)
  get_filename_component(KOKKOS_IMPORT_PREFIX \"\${KOKKOS_IMPORT_PREFIX}\" PATH)
  add_library(Kokkos::kokkos INTERFACE IMPORTED)
  set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"\${KOKKOS_IMPORT_PREFIX}/include\")
endif()
set(Kokkos_DEVICES ${devices})
foreach(DEV \${Kokkos_DEVICES})
  set(Kokkos_ENABLE_\${DEV} ON)
endforeach()
")
  if(usable)
    get_filename_component(_inc "${_dir}/../../.." ABSOLUTE)
    file(MAKE_DIRECTORY ${_inc}/include)
    set(_kk ${prefix}/${_libdir}/cmake/KokkosKernels)
    file(WRITE ${_kk}/KokkosKernelsConfig.cmake "
include(CMakeFindDependencyMacro)
find_dependency(Kokkos HINTS ${_dir})
if(NOT TARGET Kokkos::kokkoskernels)
  add_library(Kokkos::kokkoskernels INTERFACE IMPORTED)
  set_target_properties(Kokkos::kokkoskernels PROPERTIES INTERFACE_LINK_LIBRARIES Kokkos::kokkos)
endif()
")
    file(WRITE ${_kk}/KokkosKernelsConfigVersion.cmake "set(PACKAGE_VERSION 3.4.01)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n")
  endif()
endfunction()

set(_fake ${WORK}/fake-debian)
write_fake_kokkos(${_fake} "SERIAL" FALSE)
set(_fake_dir ${_fake}/${_libdir}/cmake/Kokkos)

# configure(<build dir> <out var> <rc var> args...): output and error text together.
function(configure build out rc)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -DTENSORMG_ENABLE_TESTS=OFF
                          -DTENSORMG_ENABLE_DRIVERS=OFF ${ARGN}
                  OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  # CMake wraps long messages: compare with all white space runs made single blanks.
  string(REGEX REPLACE "[ \t\r\n]+" " " _text "${_out}\n${_err}")
  set(${out} "${_text}" PARENT_SCOPE)
  set(${rc} ${_rc} PARENT_SCOPE)
endfunction()

function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: the output does not match '${pattern}':\n${text}")
  endif()
endfunction()

function(expect_not text pattern what)
  if(text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: the output matches '${pattern}':\n${text}")
  endif()
endfunction()

# No Kokkos may reach these configures through the environment: it would count as given.
unset(ENV{Kokkos_ROOT})
unset(ENV{CMAKE_PREFIX_PATH})
string(REPLACE "." "\\." _fake_re "${_fake}")

if(CASE STREQUAL "default_broken")
  set(_deps ${SOURCE_DIR}/.deps/openmp)
  if(NOT EXISTS ${_deps}/.tensormg-stamp)
    message(FATAL_ERROR "${_deps} holds no bootstrapped Kokkos: this test reuses it and must not build one")
  endif()
  configure(${WORK}/build out rc -DCMAKE_SYSTEM_PREFIX_PATH=${_fake} -DCMAKE_CXX_COMPILER=${CXX})
  set(_what "a broken Kokkos in a default place")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${_what}: the configure failed (it must ignore that Kokkos and bootstrap):\n${out}")
  endif()
  expect("${out}" "ignoring the Kokkos 3\\.4\\.01 found at ${_fake_re}/${_libdir}/cmake/Kokkos" "${_what}")
  expect("${out}" "no OpenMP backend" "${_what}")
  expect("${out}" "only one execution space" "${_what}")
  expect("${out}" "Kokkos::kokkos includes non-existent path ${_fake_re}/lib/include" "${_what}")
  expect("${out}" "no Kokkos Kernels" "${_what}")
  expect("${out}" "bootstrap-kokkos: reusing ${_deps}" "${_what} (the bootstrap must reuse .deps/openmp)")
  expect("${out}" "tensormg: Kokkos 3\\.4\\.01 from ${_deps}/lib/cmake/Kokkos" "${_what}")
  # A second configure of that build directory keeps our Kokkos and does not look at the fake again.
  configure(${WORK}/build out rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${_what}: the reconfigure failed:\n${out}")
  endif()
  expect_not("${out}" "${_fake_re}" "${_what}, reconfigure")
  expect("${out}" "tensormg: Kokkos 3\\.4\\.01 from ${_deps}/lib/cmake/Kokkos" "${_what}, reconfigure")

elseif(CASE STREQUAL "given_broken")
  configure(${WORK}/build out rc -DKokkos_ROOT=${_fake} -DCMAKE_CXX_COMPILER=${CXX})
  set(_what "a broken Kokkos given by Kokkos_ROOT")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${_what}: the configure succeeded; it must stop:\n${out}")
  endif()
  expect("${out}" "the Kokkos 3\\.4\\.01 at ${_fake_re}/${_libdir}/cmake/Kokkos \\(given by Kokkos_ROOT=${_fake_re}\\) cannot be used" "${_what}")
  expect("${out}" "no OpenMP backend" "${_what}")
  expect("${out}" "Kokkos::kokkos includes non-existent path ${_fake_re}/lib/include" "${_what}")
  expect("${out}" "no Kokkos Kernels" "${_what}")
  expect("${out}" "pass -DKokkos_ROOT=<prefix of a Kokkos with OpenMP \\+ Serial and Kokkos Kernels>" "${_what}")
  expect_not("${out}" "bootstrapping" "${_what}")

elseif(CASE STREQUAL "default_good")
  # The build's own Kokkos, in a default place, is taken as is.
  configure(${WORK}/build out rc -DCMAKE_SYSTEM_PREFIX_PATH=${KOKKOS_ROOT} -DCMAKE_CXX_COMPILER=${CXX})
  set(_what "a usable Kokkos in a default place")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${_what}: the configure failed:\n${out}")
  endif()
  string(REPLACE "." "\\." _root_re "${KOKKOS_ROOT}")
  expect("${out}" "using the Kokkos 3\\.4\\.01 found at ${_root_re}/lib[^ ]*/cmake/Kokkos" "${_what}")
  expect_not("${out}" "bootstrapping|bootstrap-kokkos" "${_what}")
  file(REMOVE_RECURSE ${WORK}/build)

  # CUDA: decided before project(). The broken one, without bootstrap: stops before any compiler is
  # needed.
  configure(${WORK}/build out rc -DCMAKE_SYSTEM_PREFIX_PATH=${_fake} -DTENSORMG_BACKEND=cuda
                                 -DTENSORMG_BOOTSTRAP_KOKKOS=OFF)
  set(_what "TENSORMG_BACKEND=cuda, a broken Kokkos in a default place, no bootstrap")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${_what}: the configure succeeded; it must stop:\n${out}")
  endif()
  expect("${out}" "the Kokkos 3\\.4\\.01 at ${_fake_re}/${_libdir}/cmake/Kokkos \\(found in a default place" "${_what}")
  expect("${out}" "no CUDA backend" "${_what}")
  expect("${out}" "-DTENSORMG_BOOTSTRAP_KOKKOS=ON" "${_what}")
  file(REMOVE_RECURSE ${WORK}/build)

  # A usable Cuda + Serial Kokkos (fake: an empty include directory, a Kokkos Kernels package and an
  # nvcc_wrapper that runs the host compiler) is taken, and so is its nvcc_wrapper.
  set(_cuda ${WORK}/fake-cuda)
  write_fake_kokkos(${_cuda} "CUDA;SERIAL" TRUE)
  file(WRITE ${WORK}/nvcc_wrapper "#!/bin/sh\nexec ${CXX} \"$@\"\n")
  file(COPY ${WORK}/nvcc_wrapper DESTINATION ${_cuda}/bin
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  configure(${WORK}/build out rc -DCMAKE_SYSTEM_PREFIX_PATH=${_cuda} -DTENSORMG_BACKEND=cuda)
  set(_what "TENSORMG_BACKEND=cuda, a usable Cuda Kokkos in a default place")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${_what}: the configure failed:\n${out}")
  endif()
  string(REPLACE "." "\\." _cuda_re "${_cuda}")
  expect("${out}" "using the Kokkos 3\\.4\\.01 found at ${_cuda_re}/${_libdir}/cmake/Kokkos" "${_what}")
  expect_not("${out}" "bootstrapping|bootstrap-kokkos" "${_what}")
  file(STRINGS ${WORK}/build/CMakeCache.txt _compiler REGEX "^CMAKE_CXX_COMPILER:")
  expect("${_compiler}" "${_cuda_re}/bin/nvcc_wrapper$" "${_what}: the compiler")

else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()
file(REMOVE_RECURSE ${WORK})
