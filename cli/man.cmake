# SPDX-License-Identifier: Apache-2.0
# cmake -DAVROGEN=<avrogen> [-DEMULATOR=<cmd>] -DOUT=<file> -P man.cmake:
# write the man page the binary renders (avrogen help --man) to OUT.
execute_process(COMMAND ${EMULATOR} ${AVROGEN} help --man
                OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    file(REMOVE ${OUT}.tmp)
    message(FATAL_ERROR "avrogen help --man failed: ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
