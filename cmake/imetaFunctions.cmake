# imeta_add_metadata_library(<target> SPEC <spec.mlir> [NAME <name>]
#                            [PATHS <path>...] [CUDA_ARCHITECTURES <arch>...])
# imeta_add_metadata_library(<target> GENERATED_DIR <dir> NAME <name>
#                            [CUDA_ARCHITECTURES <arch>...])
#
# A static library of a spec's generated code. With SPEC, imeta-gen runs at
# build time (again whenever the spec changes) into the build tree; with
# GENERATED_DIR, the sources imeta-gen wrote beforehand are compiled as
# they are (an engine build without LLVM). NAME is the files' base name
# (default: the spec file's name), PATHS the paths to generate (default:
# all). The CUDA code is compiled where the project enables CUDA and the
# spec has a GPU path, for CUDA_ARCHITECTURES (default 90). Consumers
# include "<name>.h" (and "<name>_cuda.h"), and the runtime as
# <imeta/runtime/X.h>, both from SYSTEM directories.
function(imeta_add_metadata_library target)
  cmake_parse_arguments(ARG "" "SPEC;NAME;GENERATED_DIR"
                        "PATHS;CUDA_ARCHITECTURES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "imeta_add_metadata_library: unknown arguments "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_SPEC AND ARG_GENERATED_DIR)
    message(FATAL_ERROR "imeta_add_metadata_library(${target}): give SPEC "
                        "or GENERATED_DIR, not both")
  endif()
  if(NOT ARG_CUDA_ARCHITECTURES)
    set(ARG_CUDA_ARCHITECTURES 90)
  endif()

  if(ARG_GENERATED_DIR)
    if(NOT ARG_NAME)
      message(FATAL_ERROR "imeta_add_metadata_library(${target}): "
                          "GENERATED_DIR needs NAME")
    endif()
    get_filename_component(dir "${ARG_GENERATED_DIR}" ABSOLUTE)
    if(NOT EXISTS "${dir}/${ARG_NAME}.cpp")
      message(FATAL_ERROR "imeta_add_metadata_library(${target}): no "
                          "${dir}/${ARG_NAME}.cpp (run imeta-gen -o ${dir} "
                          "--name ${ARG_NAME} first)")
    endif()
    set(hasCuda FALSE)
    if(EXISTS "${dir}/${ARG_NAME}.cu")
      set(hasCuda TRUE)
    endif()
  elseif(ARG_SPEC)
    get_filename_component(spec "${ARG_SPEC}" ABSOLUTE)
    if(NOT ARG_NAME)
      get_filename_component(ARG_NAME "${spec}" NAME_WE)
    endif()
    if(TARGET imeta::imeta-gen)
      set(gen imeta::imeta-gen)
    elseif(TARGET imeta-gen)
      set(gen imeta-gen)
    else()
      message(FATAL_ERROR "imeta_add_metadata_library(${target}): no "
                          "imeta-gen (find_package(imeta) or "
                          "add_subdirectory(imeta) first)")
    endif()
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.imeta")
    set(options -o "${dir}" --name "${ARG_NAME}")
    if(ARG_PATHS)
      list(JOIN ARG_PATHS "," paths)
      list(APPEND options --paths "${paths}")
    endif()
    # Whether a generated path runs on the GPU: an installed imeta-gen
    # lists its files now; in the same build, the spec says.
    get_target_property(imported ${gen} IMPORTED)
    if(imported)
      get_target_property(genExe ${gen} LOCATION)
      execute_process(COMMAND "${genExe}" "${spec}" ${options} --list-files
                      OUTPUT_VARIABLE listed RESULT_VARIABLE rc
                      ERROR_VARIABLE errors)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "imeta_add_metadata_library(${target}): "
                            "imeta-gen failed on ${spec}:\n${errors}")
      endif()
      string(FIND "${listed}" "${ARG_NAME}.cu" cuAt)
      set(hasCuda FALSE)
      if(cuAt GREATER -1)
        set(hasCuda TRUE)
      endif()
    else()
      file(READ "${spec}" text)
      set(hasCuda FALSE)
      if(text MATCHES "target\\(gpu\\)")
        set(hasCuda TRUE)
      endif()
    endif()
    set(outputs "${dir}/${ARG_NAME}.h" "${dir}/${ARG_NAME}_impl.h"
                "${dir}/${ARG_NAME}.cpp" "${dir}/${ARG_NAME}_driver.cpp")
    if(hasCuda)
      list(APPEND outputs "${dir}/${ARG_NAME}_cuda.h" "${dir}/${ARG_NAME}.cu")
    endif()
    add_custom_command(OUTPUT ${outputs}
                       COMMAND ${gen} "${spec}" ${options}
                       DEPENDS "${spec}" ${gen}
                       COMMENT "imeta-gen: ${ARG_NAME} from ${spec}"
                       VERBATIM)
  else()
    message(FATAL_ERROR "imeta_add_metadata_library(${target}): give SPEC "
                        "or GENERATED_DIR")
  endif()

  set(sources "${dir}/${ARG_NAME}.cpp")
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(hasCuda AND "CUDA" IN_LIST languages)
    list(APPEND sources "${dir}/${ARG_NAME}.cu")
  endif()
  add_library(${target} STATIC ${sources})
  # The library's own sources see the generated headers as they are; its
  # consumers through a SYSTEM directory (their warning flags are theirs).
  target_include_directories(${target} PRIVATE "${dir}")
  target_include_directories(${target} SYSTEM INTERFACE "${dir}")
  target_compile_features(${target} PUBLIC cxx_std_17)
  set_target_properties(${target} PROPERTIES
                        POSITION_INDEPENDENT_CODE ON
                        CUDA_ARCHITECTURES "${ARG_CUDA_ARCHITECTURES}")
  if(TARGET imeta::runtime)
    target_link_libraries(${target} PUBLIC imeta::runtime)
  endif()
endfunction()
