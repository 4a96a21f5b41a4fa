/* SPDX-License-Identifier: Apache-2.0 */
/* exe_dir.h: the folder of the running executable, from /proc/self/exe. */
#include "exe_dir.h"

#include <string.h>

#include <unistd.h>

bool exe_dir(char *buf, size_t size)
{
#ifdef __linux__
    ssize_t n = readlink("/proc/self/exe", buf, size); /* not NUL-terminated */
    if (n <= 0 || (size_t)n >= size)
        return false;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash == NULL)
        return false;
    *slash = '\0';
    return true;
#else
    (void)buf;
    (void)size;
    return false;
#endif
}
