# ctest script: configuring tensormg with Kokkos_ROOT pointing at an install must not bootstrap.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK} -DKokkos_ROOT=${KOKKOS_ROOT}
                        -DCMAKE_CXX_COMPILER=${CXX} -DTENSORMG_ENABLE_TESTS=OFF -DTENSORMG_ENABLE_DRIVERS=OFF
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure with Kokkos_ROOT failed:\n${out}\n${err}")
endif()
if(out MATCHES "bootstrapping" OR err MATCHES "bootstrapping")
  message(FATAL_ERROR "the bootstrap ran although Kokkos_ROOT was given")
endif()
if(NOT out MATCHES "tensormg: Kokkos [0-9.]+ from ${KOKKOS_ROOT}")
  message(FATAL_ERROR "the given Kokkos was not the one used:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
