/* SPDX-License-Identifier: Apache-2.0 */
/* Found only through the target's include path, a folder with a blank in its name. */
#ifndef PROBE_CONFIG_H
#define PROBE_CONFIG_H

#define PROBE_SLOTS (PROBE_BASE_SLOTS + 2)

#endif /* PROBE_CONFIG_H */
