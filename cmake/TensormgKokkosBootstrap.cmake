# Finding Kokkos / Kokkos Kernels, with cmake/bootstrap-kokkos.sh as the fallback.
#
# A Kokkos counts as "given" when Kokkos_DIR, Kokkos_ROOT (variable or environment) or
# CMAKE_PREFIX_PATH is set: then find_package(Kokkos CONFIG) decides and the bootstrap never runs.
# Otherwise find_package(Kokkos CONFIG) still looks in the default places first, and only when
# that fails does the bootstrap build Kokkos for TENSORMG_BACKEND into <source>/.deps/.
#
# The CUDA build must compile with Kokkos' nvcc_wrapper, which has to be chosen before project();
# that is why the CUDA bootstrap runs here, before the compiler is fixed.

set(_tensormg_bootstrap_script ${CMAKE_CURRENT_LIST_DIR}/bootstrap-kokkos.sh)

function(_tensormg_kokkos_given out)
  if(DEFINED Kokkos_DIR OR DEFINED Kokkos_ROOT OR DEFINED ENV{Kokkos_ROOT} OR CMAKE_PREFIX_PATH
     OR DEFINED ENV{CMAKE_PREFIX_PATH})
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
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
  message(STATUS "tensormg: no Kokkos given; bootstrapping Kokkos 3.4.01 (${TENSORMG_BACKEND}) into ${prefix}")
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

macro(tensormg_bootstrap_before_project)
  _tensormg_kokkos_given(_given)
  if(NOT _given AND TENSORMG_BOOTSTRAP_KOKKOS AND TENSORMG_BACKEND STREQUAL "cuda")
    _tensormg_bootstrap_prefix(_prefix)
    _tensormg_run_bootstrap(${_prefix})
    set(Kokkos_ROOT ${_prefix} CACHE PATH "Kokkos install (bootstrapped)")
    set(KokkosKernels_ROOT ${_prefix} CACHE PATH "Kokkos Kernels install (bootstrapped)")
    if(NOT CMAKE_CXX_COMPILER)
      set(CMAKE_CXX_COMPILER ${_prefix}/bin/nvcc_wrapper CACHE FILEPATH "CUDA builds compile with nvcc_wrapper")
    endif()
  endif()
endmacro()

macro(tensormg_find_kokkos)
  _tensormg_kokkos_given(_given)
  if(_given OR NOT TENSORMG_BOOTSTRAP_KOKKOS)
    find_package(Kokkos CONFIG REQUIRED)
  else()
    find_package(Kokkos CONFIG QUIET)
    if(NOT Kokkos_FOUND)
      if(TENSORMG_BACKEND STREQUAL "cuda")
        message(FATAL_ERROR "tensormg: internal: the CUDA bootstrap should have run before project()")
      endif()
      _tensormg_bootstrap_prefix(_prefix)
      _tensormg_run_bootstrap(${_prefix})
      set(Kokkos_ROOT ${_prefix} CACHE PATH "Kokkos install (bootstrapped)")
      set(KokkosKernels_ROOT ${_prefix} CACHE PATH "Kokkos Kernels install (bootstrapped)")
      find_package(Kokkos CONFIG REQUIRED)
    endif()
  endif()
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
