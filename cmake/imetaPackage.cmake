# imeta's install rules and CMake package: `cmake --install build --prefix P`
# installs the tools, the runtime headers and P/lib/cmake/imeta, so that an
# engine's `find_package(imeta CONFIG)` (with CMAKE_PREFIX_PATH=P) gets
# imeta::imeta-gen, imeta::runtime and imeta_add_metadata_library.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The installed tools find libMLIR.so where they were linked against it.
set_target_properties(imeta-gen imeta-opt imeta-run PROPERTIES
                      INSTALL_RPATH_USE_LINK_PATH ON)

add_library(imeta_runtime INTERFACE)
add_library(imeta::runtime ALIAS imeta_runtime)
set_target_properties(imeta_runtime PROPERTIES EXPORT_NAME runtime)
# An engine includes the runtime as <imeta/runtime/X.h> (its own runtime/
# never in the way), from a SYSTEM directory (the engine's warning flags
# are not ours): in the build tree, a link to runtime/ under
# build/include/imeta.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/include/imeta)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/runtime
     ${PROJECT_BINARY_DIR}/include/imeta/runtime SYMBOLIC)
target_include_directories(imeta_runtime SYSTEM INTERFACE
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(imeta_runtime INTERFACE cxx_std_17)

install(TARGETS imeta-gen imeta-opt imeta-run imeta_runtime
        EXPORT imetaTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY runtime/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/imeta/runtime
        FILES_MATCHING PATTERN "*.h" PATTERN "*.inc")

set(IMETA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/imeta)
install(EXPORT imetaTargets NAMESPACE imeta:: DESTINATION ${IMETA_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/imetaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/imetaConfig.cmake
  INSTALL_DESTINATION ${IMETA_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/imetaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/imetaConfig.cmake
              ${PROJECT_BINARY_DIR}/imetaConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/imetaFunctions.cmake
        DESTINATION ${IMETA_CMAKE_DIR})

# In this build (and through add_subdirectory): the function, on the
# imeta-gen built here.
include(${PROJECT_SOURCE_DIR}/cmake/imetaFunctions.cmake)
