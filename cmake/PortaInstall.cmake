# Install: public headers, libporta.so (versioned SONAME), plugins in
# <libdir>/porta/, programs, an exported CMake package (porta::porta) and a
# pkg-config file.
include(CMakePackageConfigHelpers)

# (porta/version.h is generated and installed by api/CMakeLists.txt.)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/api/include/porta DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(TARGETS porta porta_headers EXPORT portaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT portaTargets NAMESPACE porta:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/porta)
# The build tree is a package too (porta_DIR=<build>), with portaConfig.cmake
# below: python/ built alone links the libporta of a build (scripts/gpu/bundle).
export(EXPORT portaTargets NAMESPACE porta:: FILE ${PROJECT_BINARY_DIR}/portaTargets.cmake)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/portaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/portaConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/porta)
# Before 1.0 a minor version may break compatibility (see the SONAME in api/src).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(PORTA_PACKAGE_COMPATIBILITY SameMinorVersion)
else()
  set(PORTA_PACKAGE_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/portaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${PORTA_PACKAGE_COMPATIBILITY})
install(FILES ${PROJECT_BINARY_DIR}/portaConfig.cmake ${PROJECT_BINARY_DIR}/portaConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/porta)

file(RELATIVE_PATH PORTA_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" PORTA_PC_TO_PREFIX "${PORTA_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/porta.pc.in ${PROJECT_BINARY_DIR}/porta.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/porta.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
