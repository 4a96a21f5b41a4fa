# SPDX-License-Identifier: Apache-2.0
#
# The libraries libavrogen itself uses, as imported targets: jansson (schema
# JSON), libcrypto (MD5 / SHA-256 fingerprints) and the container-file codecs
# libdeflate (deflate, and the CRC-32 of snappy blocks), zstd, xz, bzip2 and
# snappy. The shared runtime hides them; the static one names them in its
# link interface, so the build tree and an installed AvroGenConfig.cmake both
# look them up here, under the same target names.
#
#   avrogen_find_dependencies(REQUIRED)         # the build: stop if one is missing
#   avrogen_find_dependencies(QUIET <out-var>)  # a consumer: <out-var> lists the
#                                               # missing ones, empty if none
#
# Lookups go through CMake's own find modules where one exists, so that these
# targets are the ones the rest of a consumer's build also uses; jansson, zstd
# and libdeflate through pkg-config, snappy through its CMake package or a
# plain library.

include_guard(GLOBAL)

function(avrogen_find_dependencies mode)
    if(NOT mode MATCHES "^(REQUIRED|QUIET)$")
        message(FATAL_ERROR "avrogen_find_dependencies: REQUIRED or QUIET, not '${mode}'")
    endif()
    set(missing "")

    find_package(PkgConfig ${mode})
    if(PKG_CONFIG_FOUND)
        if(NOT TARGET PkgConfig::avrogen_jansson)
            pkg_check_modules(avrogen_jansson ${mode} IMPORTED_TARGET jansson>=2.11)
        endif()
        if(NOT TARGET PkgConfig::avrogen_zstd)
            pkg_check_modules(avrogen_zstd ${mode} IMPORTED_TARGET libzstd>=1.4.0)
        endif()
        # Every release that installs libdeflate.pc has the decompress_ex and
        # crc32 calls codec.c makes (Debian 12: 1.14).
        if(NOT TARGET PkgConfig::avrogen_libdeflate)
            pkg_check_modules(avrogen_libdeflate ${mode} IMPORTED_TARGET libdeflate)
        endif()
    endif()
    if(NOT TARGET PkgConfig::avrogen_jansson)
        list(APPEND missing jansson)
    endif()
    if(NOT TARGET PkgConfig::avrogen_zstd)
        list(APPEND missing zstd)
    endif()
    if(NOT TARGET PkgConfig::avrogen_libdeflate)
        list(APPEND missing libdeflate)
    endif()

    find_package(OpenSSL ${mode} COMPONENTS Crypto)
    find_package(LibLZMA 5.2 ${mode})
    find_package(BZip2 ${mode})
    # The container reader and writer run codecs on worker threads (ocf_pool.c).
    find_package(Threads ${mode})
    foreach(dep OpenSSL::Crypto LibLZMA::LibLZMA BZip2::BZip2 Threads::Threads)
        if(NOT TARGET ${dep})
            list(APPEND missing ${dep})
        endif()
    endforeach()

    # snappy installs a CMake package since 1.1.8; older ones only a library.
    if(NOT TARGET Snappy::snappy)
        find_package(Snappy CONFIG QUIET)
    endif()
    if(NOT TARGET Snappy::snappy)
        find_path(AVROGEN_SNAPPY_INCLUDE_DIR snappy-c.h)
        find_library(AVROGEN_SNAPPY_LIBRARY snappy)
        mark_as_advanced(AVROGEN_SNAPPY_INCLUDE_DIR AVROGEN_SNAPPY_LIBRARY)
        if(AVROGEN_SNAPPY_INCLUDE_DIR AND AVROGEN_SNAPPY_LIBRARY)
            add_library(Snappy::snappy UNKNOWN IMPORTED)
            set_target_properties(Snappy::snappy PROPERTIES
                IMPORTED_LOCATION "${AVROGEN_SNAPPY_LIBRARY}"
                INTERFACE_INCLUDE_DIRECTORIES "${AVROGEN_SNAPPY_INCLUDE_DIR}")
        elseif(mode STREQUAL "REQUIRED")
            message(FATAL_ERROR "avrogen: snappy not found (Debian: apt-get install "
                                "libsnappy-dev); set Snappy_DIR or CMAKE_PREFIX_PATH")
        else()
            list(APPEND missing snappy)
        endif()
    endif()

    if(ARGC GREATER 1)
        set(${ARGV1} "${missing}" PARENT_SCOPE)
    endif()
endfunction()
