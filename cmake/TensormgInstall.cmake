# Installable package: find_package(tensormg) gives tensormg::tensormg.
include(CMakePackageConfigHelpers)
install(TARGETS tensormg EXPORT tensormgTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(_dir core discretization multigrid smoothers backends)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tensormg/${_dir}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/tensormg/provenance_generated.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tensormg/tensormg)
install(EXPORT tensormgTargets NAMESPACE tensormg:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensormg)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tensormgConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tensormgConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensormg)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tensormgConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tensormgConfig.cmake ${PROJECT_BINARY_DIR}/tensormgConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensormg)
