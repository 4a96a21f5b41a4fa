# SPDX-License-Identifier: Apache-2.0
#
# The build-time step of avro_generate() before each avrogen run:
#
#   cmake -DFLAGS=<flags> -DRSP=<rsp> -DOUT_DIR=<dir> -DSCHEMA_DIR=<dir> -P AvroGenArgs.cmake
#
# FLAGS holds one compiler flag a line, as file(GENERATE) wrote them from the
# target's properties. RSP receives them quoted and escaped the way avrogen's
# @file reader (and GCC's) splits words, so that -DNAME="two words" and paths
# with blanks survive. It also creates the output folders, which avrogen
# expects to exist.

foreach(var FLAGS RSP OUT_DIR SCHEMA_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "AvroGenArgs.cmake: -D${var}=... missing")
    endif()
endforeach()

file(MAKE_DIRECTORY "${OUT_DIR}" "${SCHEMA_DIR}")
file(READ "${FLAGS}" text)
# One argument a line: escape backslashes and quotes, then quote each line.
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REGEX REPLACE "\n+" "\n" text "${text}")
string(REGEX REPLACE "^\n|\n$" "" text "${text}")
if(text STREQUAL "")
    file(WRITE "${RSP}" "")
else()
    string(REPLACE "\n" "\"\n\"" text "${text}")
    file(WRITE "${RSP}" "\"${text}\"\n")
endif()
