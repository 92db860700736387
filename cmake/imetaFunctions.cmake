# imeta_add_metadata_library(<target> SPEC <spec.mlir> [NAME <name>]
#                            [PATHS <path>...] [OUTPUT_DIR <dir>] [TORCH]
#                            [TARGET <existing>] [OUT_VAR <var>]
#                            [CUDA_ARCHITECTURES <arch>...])
# imeta_add_metadata_library(<target> GENERATED_DIR <dir> NAME <name>
#                            [TORCH] [TARGET <existing>] [OUT_VAR <var>]
#                            [CUDA_ARCHITECTURES <arch>...])
#
# A static library of a spec's generated code. With SPEC, imeta-gen runs at
# build time (again whenever the spec changes) into OUTPUT_DIR (default
# <binary dir>/<target>.imeta); a spec that does not verify fails that
# build step with imeta-gen's located diagnostic. With GENERATED_DIR, the
# sources imeta-gen wrote beforehand are compiled as they are (an engine
# build without LLVM). NAME is the files' base name (default: the spec's
# symbol, as imeta-gen's default and the namespace imeta_gen::<symbol>),
# PATHS the paths to generate (default: all). The CUDA code is
# compiled where the project enables CUDA and the spec has a GPU path, for
# CUDA_ARCHITECTURES (default 90; into a TARGET only where given). TARGET
# adds the sources to an existing target (a library or executable this
# project builds) instead of a new library (<target> then only names the
# generation step); OUT_VAR receives the generated sources. TORCH (with
# TARGET, e.g. a MODULE library that Python loads with
# torch.ops.load_library) also generates (or expects) the PyTorch binding,
# <name>_torch.cpp, and compiles it into TARGET: the caller links torch
# (find_package(Torch): ${TORCH_LIBRARIES}).
# Consumers include "<name>.h" (and "<name>_cuda.h"), and the runtime as
# <imeta/runtime/X.h>, both from SYSTEM directories.
function(imeta_add_metadata_library target)
  cmake_parse_arguments(ARG "TORCH" "SPEC;NAME;GENERATED_DIR;OUTPUT_DIR;TARGET;OUT_VAR"
                        "PATHS;CUDA_ARCHITECTURES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "imeta_add_metadata_library: unknown arguments "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_SPEC AND ARG_GENERATED_DIR)
    message(FATAL_ERROR "imeta_add_metadata_library(${target}): give SPEC "
                        "or GENERATED_DIR, not both")
  endif()
  if(ARG_GENERATED_DIR AND ARG_OUTPUT_DIR)
    message(FATAL_ERROR "imeta_add_metadata_library(${target}): OUTPUT_DIR "
                        "is where SPEC is generated; GENERATED_DIR names "
                        "sources generated beforehand")
  endif()
  if(ARG_TARGET)
    if(NOT TARGET ${ARG_TARGET})
      message(FATAL_ERROR "imeta_add_metadata_library(${target}): TARGET "
                          "${ARG_TARGET} is not a target (add it first)")
    endif()
    get_target_property(targetType ${ARG_TARGET} TYPE)
    get_target_property(targetImported ${ARG_TARGET} IMPORTED)
    get_target_property(targetAliased ${ARG_TARGET} ALIASED_TARGET)
    if(targetImported OR targetAliased
       OR targetType STREQUAL "INTERFACE_LIBRARY"
       OR targetType STREQUAL "UTILITY")
      message(FATAL_ERROR "imeta_add_metadata_library(${target}): TARGET "
                          "${ARG_TARGET} must be a library or executable "
                          "this project builds (not imported, an alias or "
                          "an interface library)")
    endif()
  endif()
  if(ARG_TORCH AND NOT ARG_TARGET)
    # A static library's binding object holds only the torch library's
    # registration, which a link drops.
    message(FATAL_ERROR "imeta_add_metadata_library(${target}): TORCH needs "
                        "TARGET <module> (e.g. add_library(m MODULE)), which "
                        "Python loads with torch.ops.load_library")
  endif()
  set(explicitArchitectures FALSE)
  if(ARG_CUDA_ARCHITECTURES)
    set(explicitArchitectures TRUE)
  else()
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
    if(ARG_TORCH AND NOT EXISTS "${dir}/${ARG_NAME}_torch.cpp")
      message(FATAL_ERROR "imeta_add_metadata_library(${target}): TORCH "
                          "but no ${dir}/${ARG_NAME}_torch.cpp (run imeta-gen "
                          "with --torch)")
    endif()
    set(hasCuda FALSE)
    if(EXISTS "${dir}/${ARG_NAME}.cu")
      set(hasCuda TRUE)
    endif()
  elseif(ARG_SPEC)
    get_filename_component(spec "${ARG_SPEC}" ABSOLUTE)
    # The spec's text without comments: its name and, where imeta-gen
    # cannot list the files, whether a path runs on the GPU.
    file(READ "${spec}" specText)
    string(REGEX REPLACE "//[^\n]*" "" specText "${specText}")
    if(NOT ARG_NAME)
      # As imeta-gen names them: after the spec's symbol (its namespace's
      # name too), else the file's.
      if(specText MATCHES "imeta\\.spec[ \t\r\n]+@([A-Za-z_][A-Za-z0-9_]*)")
        set(ARG_NAME "${CMAKE_MATCH_1}")
      else()
        get_filename_component(ARG_NAME "${spec}" NAME_WE)
      endif()
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
    if(ARG_OUTPUT_DIR)
      get_filename_component(dir "${ARG_OUTPUT_DIR}" ABSOLUTE
                             BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    else()
      set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.imeta")
    endif()
    set(options -o "${dir}" --name "${ARG_NAME}")
    if(ARG_PATHS)
      list(JOIN ARG_PATHS "," paths)
      list(APPEND options --paths "${paths}")
    endif()
    if(ARG_TORCH)
      list(APPEND options --torch)
    endif()
    # Whether a generated path runs on the GPU: an installed imeta-gen
    # lists its files now; in the same build, the spec says.
    get_target_property(imported ${gen} IMPORTED)
    if(imported)
      get_target_property(genExe ${gen} LOCATION)
      execute_process(COMMAND "${genExe}" "${spec}" ${options} --list-files
                      OUTPUT_VARIABLE listed RESULT_VARIABLE rc
                      ERROR_QUIET)
    else()
      set(rc 1)
    endif()
    if(rc EQUAL 0)
      string(FIND "${listed}" "${ARG_NAME}.cu" cuAt)
      set(hasCuda FALSE)
      if(cuAt GREATER -1)
        set(hasCuda TRUE)
      endif()
    else()
      # In the same build (no imeta-gen yet), or a spec imeta-gen refuses
      # (the build step then fails with its diagnostic): the spec says.
      set(hasCuda FALSE)
      if(specText MATCHES "target\\(gpu\\)")
        set(hasCuda TRUE)
      endif()
    endif()
    set(outputs "${dir}/${ARG_NAME}.h" "${dir}/${ARG_NAME}_impl.h"
                "${dir}/${ARG_NAME}.cpp" "${dir}/${ARG_NAME}_driver.cpp")
    if(hasCuda)
      list(APPEND outputs "${dir}/${ARG_NAME}_cuda.h" "${dir}/${ARG_NAME}.cu")
    endif()
    if(ARG_TORCH)
      list(APPEND outputs "${dir}/${ARG_NAME}_torch.cpp")
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
  set(cuda FALSE)
  if(hasCuda AND "CUDA" IN_LIST languages)
    set(cuda TRUE)
    list(APPEND sources "${dir}/${ARG_NAME}.cu")
  endif()
  if(ARG_TORCH)
    list(APPEND sources "${dir}/${ARG_NAME}_torch.cpp")
  endif()
  if(ARG_OUT_VAR)
    set(${ARG_OUT_VAR} ${sources} PARENT_SCOPE)
  endif()
  if(ARG_TARGET)
    # Into the caller's target (its own settings kept: the architectures
    # only where given): the generation step is <target>.
    if(ARG_SPEC)
      add_custom_target(${target} DEPENDS ${outputs})
      add_dependencies(${ARG_TARGET} ${target})
    endif()
    set(lib ${ARG_TARGET})
    set(use PRIVATE)
    target_sources(${lib} PRIVATE ${sources})
    target_include_directories(${lib} PRIVATE "${dir}")
    if(cuda AND explicitArchitectures)
      set_target_properties(${lib} PROPERTIES
                            CUDA_ARCHITECTURES "${ARG_CUDA_ARCHITECTURES}")
    endif()
  else()
    set(lib ${target})
    set(use PUBLIC)
    add_library(${lib} STATIC ${sources})
    # The library's own sources see the generated headers as they are; its
    # consumers through a SYSTEM directory (their warning flags are theirs).
    target_include_directories(${lib} PRIVATE "${dir}")
    target_include_directories(${lib} SYSTEM INTERFACE "${dir}")
    set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    if(cuda)
      set_target_properties(${lib} PROPERTIES
                            CUDA_ARCHITECTURES "${ARG_CUDA_ARCHITECTURES}")
    endif()
  endif()
  target_compile_features(${lib} ${use} cxx_std_17)
  if(ARG_TORCH AND cuda)
    set_source_files_properties("${dir}/${ARG_NAME}_torch.cpp"
                                TARGET_DIRECTORY ${lib} PROPERTIES
                                COMPILE_DEFINITIONS IMETA_TORCH_CUDA)
  endif()
  if(TARGET imeta::runtime)
    target_link_libraries(${lib} ${use} imeta::runtime)
  endif()
endfunction()
