# SPDX-License-Identifier: Apache-2.0
#
# avro_generate(): run avrogen on annotated headers as part of a target's build.
#
#   avro_generate(<target>
#       HEADERS <annotated.h>...     # annotated headers, and/or
#       SCHEMAS <schema.avsc>...     # record schemas: C structs written for them
#       [VIEWS]                      # SCHEMAS: strings as avrogen_str, not char *
#       [BASE_DIR <dir>]             # outputs mirror header and schema paths relative to this
#                                    # (default: CMAKE_CURRENT_SOURCE_DIR)
#       [OUTPUT_DIR <dir>]           # default: ${CMAKE_CURRENT_BINARY_DIR}/avrogen/<target>
#       [SCHEMA_DIR <dir>]           # derived .avsc files (default: <OUTPUT_DIR>/schemas)
#       [SCHEMAS_VAR <var>]          # receives the manifests (<stem>.avsc.list, one
#                                    # .avsc path a line), written at build time
#       [RUNTIME <library>]          # default: AvroGen::runtime (shared); or
#                                    # AvroGen::runtime_static
#       [CLANG_ARGS <arg>...]        # extra flags for parsing the headers
#       [GENERATOR_ARGS <arg>...]    # extra flags for `avrogen generate`
#       [COMPAT_WITH <path>...]      # earlier .avsc files (or directories of them)
#                                    # the derived schemas must stay compatible with
#       [COMPAT <mode>])             # backward (default), forward, full or none
#
#   add_executable(gateway main.c)
#   target_include_directories(gateway PRIVATE include)
#   avro_generate(gateway HEADERS include/telemetry.h BASE_DIR include)
#   # main.c: #include "telemetry.avro.h"
#
# For BASE_DIR/<path>.h the build writes <OUTPUT_DIR>/<path>.avro.h and
# <path>.avro.c, which include the header as "<path>.h", adds the .c to the
# target, <OUTPUT_DIR> and BASE_DIR to its PUBLIC include path (build tree
# only), and RUNTIME to its PUBLIC link libraries. Nothing is written to the
# source tree.
#
# For a schema BASE_DIR/<path>.avsc (any extension) the build first writes the
# annotated header <OUTPUT_DIR>/<path>.h with `avrogen header` (structs whose
# derived schema is the .avsc's, proven before anything is written), then
# generates <path>.avro.h / .avro.c from it as for a header; code includes
# "<path>.avro.h" or "<path>.h". An edited schema or a changed avrogen reruns
# both steps, new flags the second, a no-op build neither; an attribute no
# header can carry is a warning, and a schema with no C representation fails
# the build with `avrogen: error: <schema>: <place in the schema>: <reason>`.
#
# The header is parsed as the target compiles it: the target's include
# directories and compile definitions (its own and those it inherits from the
# libraries it links), its C standard and extensions, and the compiler's
# --target and --sysroot go to a response file. A depfile makes the command rerun
# when the header, anything it includes, avrogen or those flags change, and only
# then; outputs whose bytes did not change keep their timestamps, so nothing
# recompiles needlessly. avrogen reports problems as `file:line:col: error:` lines
# in the build log and the build stops.
#
# COMPAT_WITH makes schema evolution part of the build: each record schema
# derived from a header is checked against every earlier schema given (files,
# or directories whose *.avsc files count) whose record has the same fullname
# or one of the record's aliases. COMPAT says how: backward (the new schema
# reads data written with the earlier ones), forward (the earlier ones read
# data written with the new one), full (both) or none (no check; generated
# code still knows the earlier schemas). A break fails the build with an error
# at the C member that caused it. Relative paths are relative to
# CMAKE_CURRENT_SOURCE_DIR. Editing, adding or removing an earlier schema, or
# changing COMPAT, re-runs the generator (a directory is globbed with
# CONFIGURE_DEPENDS, so the build notices new files).
#
# The tool is the AvroGen::avrogen target (add_subdirectory or find_package), or
# the AVROGEN_EXECUTABLE cache variable when set (a host avrogen for a cross build).
# With the target, the generator module it loads (AvroGen::generator) is a
# dependency too; an avrogen built without it (AVROGEN_BUILD_GENERATOR=OFF) is
# an error here, at configure time, not at build time.
#
# With the Makefile generators, a generated .avro.c or .avro.h deleted by hand
# comes back only with its manifest (<stem>.avsc.list) deleted too, or after
# `make clean`: Make has no rule for a command's byproducts, and declaring them
# outputs would make CMake touch them after every run (and recompile them).

include_guard(GLOBAL)
cmake_policy(PUSH)
# DEPFILE with the Makefile generators; CMP0116: depfile paths made relative
# for Ninja. Functions keep the policies in force where they are defined.
cmake_policy(VERSION 3.20...3.28)

set(AVROGEN_EXECUTABLE "" CACHE FILEPATH
    "avrogen for avro_generate() to run instead of the AvroGen::avrogen target (cross builds)")

# An installed program or library that links the shared runtime finds it
# without LD_LIBRARY_PATH: its install run path gets the folder an installed
# avrogen keeps libavrogen.so in (unless the linker searches it anyway), and
# the program's own library folder relative to itself ($ORIGIN/../<libdir> for
# an executable, $ORIGIN for a library), where a project that installs avrogen
# along with itself puts it. Both survive the program's prefix moving. Entries
# the target has are kept; `set_property(TARGET t PROPERTY INSTALL_RPATH "")`
# after avro_generate() takes them all away.
function(avrogen_install_rpath target type runtime)
    if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
        return()
    endif()
    get_target_property(runtime_type "${runtime}" TYPE)
    if(NOT runtime_type STREQUAL "SHARED_LIBRARY")
        return()
    endif()
    set(rpath "")
    get_target_property(installed "${runtime}" AVROGEN_INSTALLED_LIBDIR)
    if(installed AND NOT installed IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
        list(APPEND rpath "${installed}")
    endif()
    if(type STREQUAL "EXECUTABLE")
        set(own_libdir lib)
        if(CMAKE_INSTALL_LIBDIR AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
            set(own_libdir "${CMAKE_INSTALL_LIBDIR}")
        endif()
        list(APPEND rpath "$ORIGIN/../${own_libdir}")
    else()
        list(APPEND rpath "$ORIGIN")
    endif()
    get_target_property(have "${target}" INSTALL_RPATH)
    foreach(dir IN LISTS rpath)
        if(NOT have OR NOT dir IN_LIST have)
            set_property(TARGET "${target}" APPEND PROPERTY INSTALL_RPATH "${dir}")
        endif()
    endforeach()
endfunction()

function(avro_generate target)
    cmake_parse_arguments(PARSE_ARGV 1 ARG "VIEWS"
        "BASE_DIR;OUTPUT_DIR;SCHEMA_DIR;SCHEMAS_VAR;RUNTIME;COMPAT"
        "HEADERS;SCHEMAS;CLANG_ARGS;GENERATOR_ARGS;COMPAT_WITH")
    if(ARG_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "avro_generate: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT TARGET "${target}")
        message(FATAL_ERROR "avro_generate: '${target}' is not a target; "
                            "call avro_generate() after add_executable() or add_library()")
    endif()
    get_target_property(aliased "${target}" ALIASED_TARGET)
    get_target_property(imported "${target}" IMPORTED)
    get_target_property(type "${target}" TYPE)
    if(aliased OR imported
       OR NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
        message(FATAL_ERROR "avro_generate: '${target}' cannot take the generated sources: "
                            "it must be an executable or a compiled library of this project, "
                            "not an alias, imported or interface target")
    endif()
    if(NOT ARG_HEADERS AND NOT ARG_SCHEMAS)
        message(FATAL_ERROR "avro_generate(${target}): no HEADERS or SCHEMAS given")
    endif()
    if(ARG_VIEWS AND NOT ARG_SCHEMAS)
        message(FATAL_ERROR "avro_generate(${target}): VIEWS applies to SCHEMAS, and none are "
                            "given")
    endif()
    foreach(kw BASE_DIR OUTPUT_DIR SCHEMA_DIR SCHEMAS_VAR RUNTIME COMPAT COMPAT_WITH)
        if(kw IN_LIST ARG_KEYWORDS_MISSING_VALUES)
            message(FATAL_ERROR "avro_generate(${target}): ${kw} needs a value")
        endif()
    endforeach()

    # Earlier schemas: avrogen gets the files and directories as given (it
    # reads a directory's *.avsc itself); the build depends on every file, and
    # on a list of them and the mode, rewritten only when that changes, so an
    # added or removed schema or a new COMPAT re-runs avrogen with any generator.
    set(compat_args "")
    set(compat_deps "")
    if(DEFINED ARG_COMPAT AND NOT ARG_COMPAT_WITH)
        message(FATAL_ERROR "avro_generate(${target}): COMPAT needs COMPAT_WITH, the earlier "
                            "schemas to check against")
    endif()
    if(DEFINED ARG_COMPAT AND NOT ARG_COMPAT MATCHES "^(backward|forward|full|none)$")
        message(FATAL_ERROR "avro_generate(${target}): COMPAT '${ARG_COMPAT}' is not one of "
                            "backward, forward, full, none")
    endif()
    foreach(earlier IN LISTS ARG_COMPAT_WITH)
        get_filename_component(earlier "${earlier}" ABSOLUTE)
        if(IS_DIRECTORY "${earlier}")
            file(GLOB found CONFIGURE_DEPENDS "${earlier}/*.avsc")
            list(FILTER found EXCLUDE REGEX "/\\.[^/]*$") # avrogen skips hidden files too
            list(APPEND compat_deps ${found})
        elseif(EXISTS "${earlier}")
            list(APPEND compat_deps "${earlier}")
        else()
            message(FATAL_ERROR "avro_generate(${target}): COMPAT_WITH '${earlier}' does not exist")
        endif()
        list(APPEND compat_args --compat-with "${earlier}")
    endforeach()
    if(ARG_COMPAT)
        list(APPEND compat_args --compat "${ARG_COMPAT}")
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
    # Generated files belong in the build tree (which an in-source build shares
    # with the sources).
    foreach(dir IN ITEMS "${ARG_OUTPUT_DIR}" "${ARG_SCHEMA_DIR}")
        set(in_source FALSE)
        set(in_binary FALSE)
        foreach(src IN ITEMS "${CMAKE_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
            string(FIND "${dir}/" "${src}/" at)
            if(at EQUAL 0)
                set(in_source TRUE)
            endif()
        endforeach()
        foreach(bin IN ITEMS "${CMAKE_BINARY_DIR}" "${CMAKE_CURRENT_BINARY_DIR}")
            string(FIND "${dir}/" "${bin}/" at)
            if(at EQUAL 0)
                set(in_binary TRUE)
            endif()
        endforeach()
        if(in_source AND NOT in_binary)
            message(FATAL_ERROR "avro_generate(${target}): '${dir}' is in the source tree; "
                                "generated files belong in the build tree")
        endif()
    endforeach()
    if(NOT ARG_RUNTIME)
        set(ARG_RUNTIME AvroGen::runtime)
    endif()
    if(NOT TARGET "${ARG_RUNTIME}")
        message(FATAL_ERROR "avro_generate(${target}): no runtime library '${ARG_RUNTIME}'; "
                            "use find_package(AvroGen) or add_subdirectory() of avrogen first")
    endif()

    # The tool: naming the target in DEPENDS gives an in-tree avrogen both the
    # build order and a file dependency; an imported one needs its file named.
    if(AVROGEN_EXECUTABLE)
        if(NOT IS_ABSOLUTE "${AVROGEN_EXECUTABLE}" OR NOT EXISTS "${AVROGEN_EXECUTABLE}")
            message(FATAL_ERROR "avro_generate(${target}): AVROGEN_EXECUTABLE "
                                "'${AVROGEN_EXECUTABLE}' is not the absolute path of a file")
        endif()
        set(avrogen_cmd "${AVROGEN_EXECUTABLE}")
        set(avrogen_dep "${AVROGEN_EXECUTABLE}")
    elseif(TARGET AvroGen::avrogen AND NOT TARGET AvroGen::generator)
        message(FATAL_ERROR "avro_generate(${target}): this avrogen was built without its "
                            "generator (AVROGEN_BUILD_GENERATOR=OFF), so it cannot parse C: "
                            "use an avrogen built with it, or set AVROGEN_EXECUTABLE to one")
    elseif(TARGET AvroGen::avrogen)
        set(avrogen_cmd AvroGen::avrogen)
        get_target_property(tool_imported AvroGen::avrogen IMPORTED)
        get_target_property(tool_aliased AvroGen::avrogen ALIASED_TARGET)
        if(tool_imported)
            set(avrogen_dep "$<TARGET_FILE:AvroGen::avrogen>")
        elseif(tool_aliased)
            set(avrogen_dep "${tool_aliased}")
        else()
            set(avrogen_dep AvroGen::avrogen)
        endif()
        # The generator itself is in the module avrogen loads for generate and
        # header: a rebuilt or reinstalled module reruns them too.
        if(TARGET AvroGen::generator)
            get_target_property(module_aliased AvroGen::generator ALIASED_TARGET)
            if(module_aliased)
                list(APPEND avrogen_dep "${module_aliased}")
            else()
                list(APPEND avrogen_dep "$<TARGET_FILE:AvroGen::generator>")
            endif()
        endif()
    else()
        message(FATAL_ERROR "avro_generate(${target}): no avrogen tool: use find_package(AvroGen) "
                            "or add_subdirectory() of avrogen, or set AVROGEN_EXECUTABLE")
    endif()

    # The flags the target compiles with, one a line, written at generate time.
    # A build step quotes them into the response file avrogen reads, since a
    # generator expression cannot escape the quotes of -DNAME="text".
    get_target_property(flags_file "${target}" AVROGEN_FLAGS_FILE)
    if(NOT flags_file)
        set(flags_file
            "${CMAKE_CURRENT_BINARY_DIR}/avrogen/${target}$<$<BOOL:$<CONFIG>>:-$<CONFIG>>.flags")
        set(incs "$<REMOVE_DUPLICATES:$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>>")
        set(defs "$<REMOVE_DUPLICATES:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>>")
        # Unset C_STANDARD / C_EXTENSIONS mean the compiler's defaults; clang
        # before 18 knows C23 only as c2x.
        set(std "$<TARGET_PROPERTY:${target},C_STANDARD>")
        set(std "$<IF:$<BOOL:${std}>,${std},${CMAKE_C_STANDARD_COMPUTED_DEFAULT}>")
        set(std "$<IF:$<STREQUAL:${std},23>,2x,${std}>")
        set(ext "$<TARGET_PROPERTY:${target},C_EXTENSIONS>")
        set(ext "$<IF:$<STREQUAL:${ext},>,$<BOOL:${CMAKE_C_EXTENSIONS_COMPUTED_DEFAULT}>,$<BOOL:${ext}>>")
        set(std_flag "-std=$<IF:${ext},gnu,c>${std}")
        set(cross "")
        if(CMAKE_C_COMPILER_TARGET)
            string(APPEND cross "--target=${CMAKE_C_COMPILER_TARGET}\n")
        endif()
        if(CMAKE_SYSROOT)
            string(APPEND cross "--sysroot=${CMAKE_SYSROOT}\n")
        endif()
        file(GENERATE OUTPUT "${flags_file}" CONTENT
"${cross}$<$<BOOL:${incs}>:-I$<JOIN:${incs},\n-I>\n>\
$<$<BOOL:${defs}>:-D$<JOIN:${defs},\n-D>\n>$<$<BOOL:${std}>:${std_flag}\n>")
        set_target_properties("${target}" PROPERTIES AVROGEN_FLAGS_FILE "${flags_file}")
    endif()

    set(args_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/AvroGenArgs.cmake")
    set(manifests "")
    set(outputs "")
    set(inputs "")
    foreach(header IN LISTS ARG_HEADERS)
        list(APPEND inputs "header;${header}")
    endforeach()
    foreach(schema IN LISTS ARG_SCHEMAS)
        list(APPEND inputs "schema;${schema}")
    endforeach()
    set(views_arg "")
    if(ARG_VIEWS)
        set(views_arg --views)
    endif()
    while(inputs)
        list(POP_FRONT inputs what header)
        get_filename_component(header "${header}" ABSOLUTE)
        if(NOT EXISTS "${header}" OR IS_DIRECTORY "${header}")
            message(FATAL_ERROR "avro_generate(${target}): ${what} '${header}' does not exist")
        endif()
        file(RELATIVE_PATH rel "${ARG_BASE_DIR}" "${header}")
        if(rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${rel}")
            message(FATAL_ERROR "avro_generate(${target}): ${what} '${header}' is outside "
                                "BASE_DIR '${ARG_BASE_DIR}'")
        endif()
        get_filename_component(rel_dir "${rel}" DIRECTORY)
        get_filename_component(stem "${rel}" NAME_WLE)
        if(rel_dir)
            set(out_dir "${ARG_OUTPUT_DIR}/${rel_dir}")
        else()
            set(out_dir "${ARG_OUTPUT_DIR}")
        endif()
        set(gen_h "${out_dir}/${stem}.avro.h")
        set(gen_c "${out_dir}/${stem}.avro.c")
        if(gen_h IN_LIST outputs)
            message(FATAL_ERROR "avro_generate(${target}): two headers or schemas would both "
                                "generate '${gen_h}'")
        endif()
        list(APPEND outputs "${gen_h}")
        set(manifest "${out_dir}/${stem}.avsc.list")
        set(depfile "${out_dir}/${stem}.d")
        set(rsp "${out_dir}/${stem}.rsp")
        set(compat_list "")
        if(compat_args)
            set(compat_list "${out_dir}/${stem}.compat")
            string(REPLACE ";" "\n" text "${compat_args};${compat_deps}")
            file(GENERATE OUTPUT "${compat_list}" CONTENT "${text}\n")
        endif()
        # A schema's header is written first, into the output folder, by a
        # command of its own (its stamp is what the code step depends on: the
        # code step's depfile names the header, which only this command may
        # produce); from there it is a header like any other, "<path>.h".
        set(shown "${rel}")
        set(header_dep "${header}")
        set(written "")
        if(what STREQUAL "schema")
            set(schema "${header}")
            set(header "${out_dir}/${stem}.h")
            set(rel "${stem}.h")
            if(rel_dir)
                set(rel "${rel_dir}/${stem}.h")
            endif()
            if(header IN_LIST outputs)
                message(FATAL_ERROR "avro_generate(${target}): two schemas would both write "
                                    "'${header}'")
            endif()
            list(APPEND outputs "${header}")
            set(header_dep "${out_dir}/${stem}.h.stamp")
            add_custom_command(
                OUTPUT "${header_dep}"
                BYPRODUCTS "${header}"
                COMMAND ${avrogen_cmd} header "${schema}" -o "${out_dir}" ${views_arg}
                COMMAND "${CMAKE_COMMAND}" -E touch "${header_dep}"
                DEPENDS "${schema}" ${avrogen_dep}
                COMMENT "avrogen header ${shown}"
                VERBATIM)
            set(written "${header}" "${header_dep}")
        endif()
        add_custom_command(
            OUTPUT "${manifest}"
            BYPRODUCTS "${gen_h}" "${gen_c}"
            COMMAND "${CMAKE_COMMAND}" "-DFLAGS=${flags_file}" "-DRSP=${rsp}"
                    "-DOUT_DIR=${out_dir}" "-DSCHEMA_DIR=${ARG_SCHEMA_DIR}" -P "${args_script}"
            COMMAND ${avrogen_cmd} generate "${header}" -o "${out_dir}"
                    --include-as "${rel}" --schema-dir "${ARG_SCHEMA_DIR}"
                    --manifest "${manifest}" --depfile "${depfile}" ${compat_args}
                    ${ARG_GENERATOR_ARGS} -- "@${rsp}" ${ARG_CLANG_ARGS}
            DEPENDS "${header_dep}" ${avrogen_dep} "${flags_file}" "${args_script}"
                    ${compat_list} ${compat_deps}
            DEPFILE "${depfile}"
            COMMENT "avrogen ${shown}"
            VERBATIM COMMAND_EXPAND_LISTS)
        target_sources("${target}" PRIVATE "${gen_c}" "${gen_h}" ${written} "${manifest}")
        list(APPEND manifests "${manifest}")
    endwhile()

    # PUBLIC: a library's users include its generated headers too, and those
    # include the annotated header by its path relative to BASE_DIR.
    target_include_directories("${target}" PUBLIC
        "$<BUILD_INTERFACE:${ARG_OUTPUT_DIR}>" "$<BUILD_INTERFACE:${ARG_BASE_DIR}>")
    target_link_libraries("${target}" PUBLIC "${ARG_RUNTIME}")
    avrogen_install_rpath("${target}" "${type}" "${ARG_RUNTIME}")
    if(ARG_SCHEMAS_VAR)
        set(${ARG_SCHEMAS_VAR} "${manifests}" PARENT_SCOPE)
    endif()
endfunction()

cmake_policy(POP)
