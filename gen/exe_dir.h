/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The folder of the running avrogen executable, where an installed avrogen
 * finds what was installed with it (annotate.h, the generator module) however
 * its prefix moved. Linux only (/proc/self/exe); elsewhere there is none.
 */
#ifndef AVROGEN_GEN_EXE_DIR_H
#define AVROGEN_GEN_EXE_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* The folder, as the kernel resolved it (no symbolic links, no "."), into
 * buf[size]; false when it is not known or does not fit. */
bool exe_dir(char *buf, size_t size);

#endif /* AVROGEN_GEN_EXE_DIR_H */
