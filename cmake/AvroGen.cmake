# SPDX-License-Identifier: Apache-2.0
#
# avro_generate(): run avrogen on annotated headers as part of a target's build.
#
#   avro_generate(<target>
#       HEADERS <annotated.h>...     # required
#       [BASE_DIR <dir>]             # outputs mirror header paths relative to this
#                                    # (default: CMAKE_CURRENT_SOURCE_DIR)
#       [OUTPUT_DIR <dir>]           # default: ${CMAKE_CURRENT_BINARY_DIR}/avrogen/<target>
#       [SCHEMA_DIR <dir>]           # derived .avsc files (default: OUTPUT_DIR/schemas)
#       [SCHEMAS_VAR <var>]          # receives the manifest files listing the .avsc paths
#       [CLANG_ARGS <arg>...]        # extra flags for parsing the headers
#       [GENERATOR_ARGS <arg>...])   # extra flags for avrogen generate
#
# The header is parsed exactly as the target compiles it: the target's include
# directories, compile definitions and C standard go to a response file. A
# depfile regenerates the output when the header, anything it includes, or
# avrogen itself changes. Generated sources are added to the target, the output
# folder to its include path, and AvroGen::runtime to its link libraries.
# Set AVROGEN_EXECUTABLE to use a host avrogen (cross builds).

include_guard(GLOBAL)

set(AVROGEN_EXECUTABLE "" CACHE FILEPATH "avrogen to run instead of the AvroGen::avrogen target")

function(avro_generate target)
    cmake_parse_arguments(PARSE_ARGV 1 ARG ""
        "BASE_DIR;OUTPUT_DIR;SCHEMA_DIR;SCHEMAS_VAR" "HEADERS;CLANG_ARGS;GENERATOR_ARGS")
    if(ARG_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "avro_generate: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT TARGET ${target})
        message(FATAL_ERROR "avro_generate: '${target}' is not a target; "
                            "call avro_generate() after add_executable()/add_library()")
    endif()
    if(NOT ARG_HEADERS)
        message(FATAL_ERROR "avro_generate(${target}): no HEADERS given")
    endif()
    if(NOT ARG_BASE_DIR)
        set(ARG_BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    endif()
    get_filename_component(ARG_BASE_DIR "${ARG_BASE_DIR}" ABSOLUTE)
    if(NOT ARG_OUTPUT_DIR)
        set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/avrogen/${target}")
    endif()
    get_filename_component(ARG_OUTPUT_DIR "${ARG_OUTPUT_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    if(NOT ARG_SCHEMA_DIR)
        set(ARG_SCHEMA_DIR "${ARG_OUTPUT_DIR}/schemas")
    endif()
    get_filename_component(ARG_SCHEMA_DIR "${ARG_SCHEMA_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    string(FIND "${ARG_OUTPUT_DIR}/" "${CMAKE_SOURCE_DIR}/" in_source)
    if(in_source EQUAL 0 AND NOT "${CMAKE_SOURCE_DIR}" STREQUAL "${CMAKE_BINARY_DIR}")
        string(FIND "${ARG_OUTPUT_DIR}/" "${CMAKE_BINARY_DIR}/" in_binary)
        if(NOT in_binary EQUAL 0)
            message(FATAL_ERROR "avro_generate(${target}): OUTPUT_DIR '${ARG_OUTPUT_DIR}' is in "
                                "the source tree; generated files belong in the build tree")
        endif()
    endif()

    if(AVROGEN_EXECUTABLE)
        set(avrogen_cmd "${AVROGEN_EXECUTABLE}")
        set(avrogen_dep "${AVROGEN_EXECUTABLE}")
    elseif(TARGET AvroGen::avrogen)
        set(avrogen_cmd AvroGen::avrogen)
        set(avrogen_dep AvroGen::avrogen)
    else()
        message(FATAL_ERROR "avro_generate: no avrogen: use find_package(AvroGen), "
                            "add_subdirectory(avrogen) or set AVROGEN_EXECUTABLE")
    endif()

    # The target's own flags, so the header parses as it compiles.
    set(rsp "${ARG_OUTPUT_DIR}/avrogen-clang-args-$<CONFIG>.rsp")
    set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
    set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
    set(std "$<TARGET_PROPERTY:${target},C_STANDARD>")
    file(GENERATE OUTPUT "${rsp}" CONTENT
"$<$<BOOL:${incs}>:-I$<JOIN:${incs},\n-I>\n>$<$<BOOL:${defs}>:-D$<JOIN:${defs},\n-D>\n>$<$<BOOL:${std}>:-std=c${std}\n>")

    set(manifests "")
    foreach(header IN LISTS ARG_HEADERS)
        get_filename_component(header "${header}" ABSOLUTE)
        if(NOT EXISTS "${header}")
            message(FATAL_ERROR "avro_generate(${target}): header '${header}' does not exist")
        endif()
        file(RELATIVE_PATH rel "${ARG_BASE_DIR}" "${header}")
        if(rel MATCHES "^\\.\\./")
            message(FATAL_ERROR "avro_generate(${target}): header '${header}' is outside "
                                "BASE_DIR '${ARG_BASE_DIR}'")
        endif()
        get_filename_component(rel_dir "${rel}" DIRECTORY)
        get_filename_component(stem "${rel}" NAME_WLE)
        if(rel_dir)
            set(out_dir "${ARG_OUTPUT_DIR}/${rel_dir}")
            set(rel_stem "${rel_dir}/${stem}")
        else()
            set(out_dir "${ARG_OUTPUT_DIR}")
            set(rel_stem "${stem}")
        endif()
        set(gen_h "${out_dir}/${stem}.avro.h")
        set(gen_c "${out_dir}/${stem}.avro.c")
        set(manifest "${out_dir}/${stem}.avsc.list")
        set(depfile "${out_dir}/${stem}.d")
        add_custom_command(
            OUTPUT "${manifest}"
            BYPRODUCTS "${gen_h}" "${gen_c}"
            COMMAND ${avrogen_cmd} generate "${header}" -o "${out_dir}"
                    --include-as "${rel}" --schema-dir "${ARG_SCHEMA_DIR}"
                    --manifest "${manifest}" --depfile "${depfile}" ${ARG_GENERATOR_ARGS}
                    -- "@${rsp}" ${ARG_CLANG_ARGS}
            DEPENDS "${header}" ${avrogen_dep} "${rsp}"
            DEPFILE "${depfile}"
            COMMENT "avrogen ${rel}"
            VERBATIM COMMAND_EXPAND_LISTS)
        set_source_files_properties("${gen_h}" "${gen_c}" PROPERTIES GENERATED TRUE)
        target_sources(${target} PRIVATE "${gen_c}" "${gen_h}" "${manifest}")
        list(APPEND manifests "${manifest}")
    endforeach()

    target_include_directories(${target} PUBLIC
        $<BUILD_INTERFACE:${ARG_OUTPUT_DIR}> $<BUILD_INTERFACE:${ARG_BASE_DIR}>)
    target_link_libraries(${target} PUBLIC AvroGen::runtime)
    if(ARG_SCHEMAS_VAR)
        set(${ARG_SCHEMAS_VAR} "${manifests}" PARENT_SCOPE)
    endif()
endfunction()
