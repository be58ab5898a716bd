# Finding Kokkos / Kokkos Kernels, with cmake/bootstrap-kokkos.sh as the fallback.
#
# A Kokkos counts as "given" when Kokkos_DIR, Kokkos_ROOT (variable or environment) or
# CMAKE_PREFIX_PATH is set: then find_package(Kokkos CONFIG) decides and the bootstrap never runs.
# Otherwise find_package(Kokkos CONFIG) still looks in the default places first, and only when
# that fails does the bootstrap build Kokkos for TENSORMG_BACKEND into <source>/.deps/.
#
# Before a Kokkos is let into this configure it is checked by a separate configure
# (cmake/kokkos-probe/, run by _tensormg_probe_kokkos): it must have the backend asked for, a second
# execution space (core/types.hpp), existing include directories and Kokkos Kernels next to it. A
# Kokkos found in a default place that fails (Debian's libtrilinos-kokkos-dev, pulled in by
# libdeal.ii-dev: Serial only, include path /usr/lib/include, no Kokkos Kernels) is reported and
# ignored, and ours is bootstrapped; a given one that fails stops the configure with what to pass.
#
# The CUDA build must compile with Kokkos' nvcc_wrapper, which has to be chosen before project();
# that is why the CUDA bootstrap (and the check of a Kokkos found in a default place) runs here,
# before the compiler is fixed.

set(_tensormg_bootstrap_script ${CMAKE_CURRENT_LIST_DIR}/bootstrap-kokkos.sh)
set(_tensormg_kokkos_probe_dir ${CMAKE_CURRENT_LIST_DIR}/kokkos-probe)

# out: TRUE when a Kokkos was given; why: which setting gave it (for messages).
function(_tensormg_kokkos_given out why)
  set(_by "")
  foreach(_v Kokkos_DIR Kokkos_ROOT CMAKE_PREFIX_PATH)
    if(${_v})
      list(APPEND _by "${_v}=${${_v}}")
    endif()
  endforeach()
  foreach(_v Kokkos_ROOT CMAKE_PREFIX_PATH)
    if(NOT "$ENV{${_v}}" STREQUAL "")
      list(APPEND _by "environment ${_v}=$ENV{${_v}}")
    endif()
  endforeach()
  if(_by)
    string(REPLACE ";" ", " _by "${_by}")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
  set(${why} "${_by}" PARENT_SCOPE)
endfunction()

function(_tensormg_bootstrap_prefix out)
  if(TENSORMG_BACKEND STREQUAL "cuda")
    string(TOLOWER "${TENSORMG_CUDA_ARCH}" _arch)
    set(${out} ${CMAKE_CURRENT_SOURCE_DIR}/.deps/cuda-${_arch} PARENT_SCOPE)
  elseif(TENSORMG_BACKEND STREQUAL "openmp")
    set(${out} ${CMAKE_CURRENT_SOURCE_DIR}/.deps/openmp PARENT_SCOPE)
  else()
    message(FATAL_ERROR "TENSORMG_BACKEND='${TENSORMG_BACKEND}' is not supported; use 'openmp' or 'cuda'.")
  endif()
endfunction()

function(_tensormg_run_bootstrap prefix)
  message(STATUS "tensormg: no usable Kokkos given; bootstrapping Kokkos 3.4.01 (${TENSORMG_BACKEND}) into ${prefix}")
  set(_args --backend ${TENSORMG_BACKEND} --prefix ${prefix})
  if(TENSORMG_BACKEND STREQUAL "cuda")
    list(APPEND _args --arch ${TENSORMG_CUDA_ARCH})
  endif()
  if(TENSORMG_KOKKOS_SOURCE)
    list(APPEND _args --source ${TENSORMG_KOKKOS_SOURCE})
  endif()
  execute_process(COMMAND bash ${_tensormg_bootstrap_script} ${_args} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "tensormg: the Kokkos bootstrap failed (exit ${_rc}); see its output above. "
                        "Alternatively point CMake at a Kokkos install with -DKokkos_ROOT=<prefix>.")
  endif()
endfunction()

# What a usable Kokkos needs, for messages.
function(_tensormg_kokkos_wanted out)
  if(TENSORMG_BACKEND STREQUAL "cuda")
    set(${out} "Cuda + Serial (or OpenMP) and Kokkos Kernels" PARENT_SCOPE)
  else()
    set(${out} "OpenMP + Serial and Kokkos Kernels" PARENT_SCOPE)
  endif()
endfunction()

# Finds Kokkos (+ Kokkos Kernels) in a separate configure, with this configure's search variables,
# and checks it; sets _tkp_found, _tkp_dir, _tkp_version, _tkp_devices, _tkp_nvcc_wrapper,
# _tkp_problems (empty: usable) in the caller. strict: the Kokkos was not given.
function(_tensormg_probe_kokkos strict)
  set(_work ${CMAKE_BINARY_DIR}/CMakeFiles/tensormg-kokkos-probe)
  file(REMOVE_RECURSE ${_work})
  file(MAKE_DIRECTORY ${_work})
  set(_init "")
  foreach(_v Kokkos_DIR Kokkos_ROOT KokkosKernels_DIR KokkosKernels_ROOT CMAKE_PREFIX_PATH
          CMAKE_FIND_ROOT_PATH CMAKE_FIND_ROOT_PATH_MODE_PACKAGE CMAKE_SYSROOT CMAKE_STAGING_PREFIX
          CMAKE_INSTALL_PREFIX CMAKE_FIND_NO_INSTALL_PREFIX CMAKE_IGNORE_PATH CMAKE_IGNORE_PREFIX_PATH
          CMAKE_SYSTEM_IGNORE_PATH CMAKE_SYSTEM_IGNORE_PREFIX_PATH CMAKE_FIND_USE_PACKAGE_REGISTRY
          CMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY CMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY
          CMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY CMAKE_FIND_USE_CMAKE_SYSTEM_PATH
          CMAKE_FIND_USE_SYSTEM_ENVIRONMENT_PATH CMAKE_FIND_USE_CMAKE_ENVIRONMENT_PATH
          CMAKE_FIND_USE_CMAKE_PATH CMAKE_FIND_USE_PACKAGE_ROOT_PATH CMAKE_FIND_PACKAGE_SORT_ORDER
          CMAKE_FIND_PACKAGE_SORT_DIRECTION CMAKE_LIBRARY_ARCHITECTURE CMAKE_CXX_COMPILER)
    if(DEFINED ${_v} AND NOT "${${_v}}" MATCHES "-NOTFOUND$")
      string(APPEND _init "set(${_v} [==[${${_v}}]==] CACHE STRING \"\")\n")
    endif()
  endforeach()
  # Extra system prefixes given on the command line (the platform files append the standard ones).
  if(DEFINED CACHE{CMAKE_SYSTEM_PREFIX_PATH})
    string(APPEND _init "set(CMAKE_SYSTEM_PREFIX_PATH [==[$CACHE{CMAKE_SYSTEM_PREFIX_PATH}]==] CACHE STRING \"\")\n")
  endif()
  string(APPEND _init "set(TENSORMG_BACKEND [==[${TENSORMG_BACKEND}]==] CACHE STRING \"\")\n"
                      "set(TENSORMG_PROBE_STRICT ${strict} CACHE BOOL \"\")\n"
                      "set(TENSORMG_PROBE_RESULT [==[${_work}/result.cmake]==] CACHE FILEPATH \"\")\n")
  file(WRITE ${_work}/init.cmake "${_init}")
  execute_process(COMMAND ${CMAKE_COMMAND} -G "${CMAKE_GENERATOR}" -S ${_tensormg_kokkos_probe_dir}
                          -B ${_work}/build -C ${_work}/init.cmake
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  set(_tkp_found FALSE)
  set(_tkp_loaded FALSE)
  set(_tkp_dir "")
  set(_tkp_version "")
  set(_tkp_devices "")
  set(_tkp_nvcc_wrapper "")
  set(_tkp_problems "")
  set(_tkp_considered "")
  if(EXISTS ${_work}/result.cmake)
    include(${_work}/result.cmake)
  endif()
  if(NOT _tkp_loaded)
    # A package config that stops any configure that loads it: report it as found and broken.
    set(_tkp_found TRUE)
    string(STRIP "${_err}" _err)
    set(_tkp_problems "loading its CMake package fails (probe exit ${_rc}): ${_err}")
    if(_err MATCHES "([^ \n\"]*/)(Kokkos|KokkosKernels)Config\\.cmake")
      get_filename_component(_tkp_dir "${CMAKE_MATCH_1}" ABSOLUTE)
    else()
      set(_tkp_dir "(see the message)")
    endif()
  endif()
  foreach(_v found dir version devices nvcc_wrapper problems considered)
    set(_tkp_${_v} "${_tkp_${_v}}" PARENT_SCOPE)
  endforeach()
endfunction()

# Decides which Kokkos this configure uses, before any find_package(Kokkos) here. Sets Kokkos_DIR
# (a Kokkos found and checked) or Kokkos_ROOT (bootstrapped) in the cache, or leaves both alone (a
# given Kokkos that find_package cannot find: its own error then says so). stage: before_project or
# after_project (only CUDA decides before project()).
macro(_tensormg_decide_kokkos stage)
  _tensormg_kokkos_given(_tkg_given _tkg_by)
  _tensormg_kokkos_wanted(_tkg_wanted)
  if(_tkg_given)
    set(_tkg_strict OFF)
  else()
    set(_tkg_strict ON)
  endif()
  _tensormg_probe_kokkos(${_tkg_strict})
  string(REPLACE ";" "\n    - " _tkg_problems_text "${_tkp_problems}")
  _tensormg_bootstrap_prefix(_tkg_prefix)
  if(_tkp_found AND NOT _tkp_problems)
    set(Kokkos_DIR "${_tkp_dir}" CACHE PATH "The directory containing a CMake configuration file for Kokkos." FORCE)
    set(_TENSORMG_KOKKOS_CHECKED "${_tkp_dir}|${TENSORMG_BACKEND}" CACHE INTERNAL "Kokkos_DIR|backend that passed the check")
    if(NOT _tkg_given)
      message(STATUS "tensormg: using the Kokkos ${_tkp_version} found at ${_tkp_dir} (devices: ${_tkp_devices})")
    endif()
    if("${stage}" STREQUAL "before_project" AND NOT CMAKE_CXX_COMPILER)
      if(_tkp_nvcc_wrapper)
        set(CMAKE_CXX_COMPILER ${_tkp_nvcc_wrapper} CACHE FILEPATH "CUDA builds compile with nvcc_wrapper")
      else()
        message(WARNING "tensormg: the Kokkos at ${_tkp_dir} has CUDA but no nvcc_wrapper was found next to it; "
                        "pass -DCMAKE_CXX_COMPILER=<its nvcc_wrapper>.")
      endif()
    endif()
  elseif(_tkp_found AND (_tkg_given OR NOT TENSORMG_BOOTSTRAP_KOKKOS))
    if(_tkg_given)
      set(_tkg_from "given by ${_tkg_by}")
      set(_tkg_fix "pass -DKokkos_ROOT=<prefix of a Kokkos with ${_tkg_wanted}> (cmake/bootstrap-kokkos.sh builds one), or remove the setting (-UKokkos_DIR -UKokkos_ROOT, no CMAKE_PREFIX_PATH with a Kokkos) so that tensormg bootstraps its own into ${_tkg_prefix}")
    else()
      set(_tkg_from "found in a default place; TENSORMG_BOOTSTRAP_KOKKOS is OFF")
      set(_tkg_fix "pass -DKokkos_ROOT=<prefix of a Kokkos with ${_tkg_wanted}>, or -DTENSORMG_BOOTSTRAP_KOKKOS=ON so that tensormg bootstraps its own into ${_tkg_prefix}")
    endif()
    message(FATAL_ERROR "tensormg: the Kokkos ${_tkp_version} at ${_tkp_dir} (${_tkg_from}) cannot be used:\n"
                        "    - ${_tkg_problems_text}\n"
                        "  tensormg needs ${_tkg_wanted}: ${_tkg_fix}.")
  elseif(NOT _tkg_given AND TENSORMG_BOOTSTRAP_KOKKOS)
    if(_tkp_found)
      message(STATUS "tensormg: ignoring the Kokkos ${_tkp_version} found at ${_tkp_dir} (a default search place, not given by Kokkos_ROOT/Kokkos_DIR/CMAKE_PREFIX_PATH):\n"
                     "    - ${_tkg_problems_text}\n"
                     "   tensormg needs ${_tkg_wanted}; bootstrapping its own instead "
                     "(pass -DKokkos_ROOT=<prefix> to use another install)")
    endif()
    _tensormg_run_bootstrap(${_tkg_prefix})
    unset(Kokkos_DIR CACHE)
    unset(Kokkos_DIR)
    set(Kokkos_ROOT ${_tkg_prefix} CACHE PATH "Kokkos install (bootstrapped)" FORCE)
    set(KokkosKernels_ROOT ${_tkg_prefix} CACHE PATH "Kokkos Kernels install (bootstrapped)" FORCE)
    if(EXISTS ${_tkg_prefix}/lib/cmake/Kokkos/KokkosConfig.cmake)
      set(Kokkos_DIR ${_tkg_prefix}/lib/cmake/Kokkos CACHE PATH "The directory containing a CMake configuration file for Kokkos.")
    endif()
    set(_TENSORMG_KOKKOS_CHECKED "${Kokkos_DIR}|${TENSORMG_BACKEND}" CACHE INTERNAL "Kokkos_DIR|backend that passed the check")
    if("${stage}" STREQUAL "before_project" AND NOT CMAKE_CXX_COMPILER)
      set(CMAKE_CXX_COMPILER ${_tkg_prefix}/bin/nvcc_wrapper CACHE FILEPATH "CUDA builds compile with nvcc_wrapper")
    endif()
  endif()
endmacro()

# The check ran for this Kokkos_DIR and backend before (a reconfigure): skip the probe.
macro(_tensormg_kokkos_checked out)
  if(Kokkos_DIR AND DEFINED _TENSORMG_KOKKOS_CHECKED AND "${Kokkos_DIR}|${TENSORMG_BACKEND}" STREQUAL "${_TENSORMG_KOKKOS_CHECKED}"
     AND (EXISTS "${Kokkos_DIR}/KokkosConfig.cmake" OR EXISTS "${Kokkos_DIR}/kokkos-config.cmake"))
    set(${out} TRUE)
  else()
    set(${out} FALSE)
  endif()
endmacro()

macro(tensormg_bootstrap_before_project)
  _tensormg_kokkos_given(_given _given_by)
  _tensormg_kokkos_checked(_checked)
  # A given Kokkos is checked after project() (the CUDA compiler is then the user's business).
  if(TENSORMG_BACKEND STREQUAL "cuda" AND NOT _given AND NOT _checked)
    _tensormg_decide_kokkos(before_project)
  endif()
endmacro()

macro(tensormg_find_kokkos)
  _tensormg_kokkos_checked(_checked)
  if(NOT _checked)
    _tensormg_decide_kokkos(after_project)
  endif()
  find_package(Kokkos CONFIG REQUIRED)
  if(NOT KokkosKernels_ROOT AND NOT KokkosKernels_DIR)
    # Kokkos Kernels is normally installed next to Kokkos.
    get_filename_component(_kk_guess "${Kokkos_DIR}/../KokkosKernels" ABSOLUTE)
    if(EXISTS "${_kk_guess}/KokkosKernelsConfig.cmake")
      set(KokkosKernels_DIR "${_kk_guess}" CACHE PATH "Kokkos Kernels config dir")
    endif()
  endif()
  find_package(KokkosKernels CONFIG REQUIRED)
  if(Kokkos_ENABLE_CUDA AND NOT CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
    message(WARNING "tensormg: Kokkos has CUDA but the compiler is ${CMAKE_CXX_COMPILER}; Kokkos 3.4 expects nvcc_wrapper.")
  endif()
  set(TENSORMG_HAS_CUDA ${Kokkos_ENABLE_CUDA})
  set(TENSORMG_HAS_OPENMP ${Kokkos_ENABLE_OPENMP})
  set(TENSORMG_HAS_SERIAL ${Kokkos_ENABLE_SERIAL})
endmacro()
