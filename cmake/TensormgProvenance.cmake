# Writes generated/tensormg/provenance_generated.hpp at every build (only touching it when the git
# hash or dirty state changed), so run records carry the commit the binary was built from.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/generated/tensormg)
add_custom_target(tensormg_provenance
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
          -DOUTPUT=${PROJECT_BINARY_DIR}/generated/tensormg/provenance_generated.hpp
          -DVERSION=${PROJECT_VERSION} -DKOKKOS_VERSION=${Kokkos_VERSION}
          "-DKOKKOS_DEVICES=${Kokkos_DEVICES}" "-DKOKKOS_ARCH=${Kokkos_ARCH}"
          "-DCXX=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}" -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
          -P ${CMAKE_CURRENT_LIST_DIR}/write_provenance.cmake
  BYPRODUCTS ${PROJECT_BINARY_DIR}/generated/tensormg/provenance_generated.hpp
  COMMENT "tensormg: provenance header" VERBATIM)
