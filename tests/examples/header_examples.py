#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile every usage example of ocf.h (the indented blocks of its comments,
each after a blank comment line) inside a function, with gcc -Wall -Wextra
-Werror, against examples/containers' generated orders.avro.h: an example
that makes the compiler warn (a dropped status) fails.

    header_examples.py HEADER CC -I... (include flags)
"""
import os
import re
import subprocess
import sys
import tempfile

PRELUDE = """#include <stdio.h>
#include <string.h>
#include <avrogen/ocf.h>
#include "orders.avro.h"
int fail(const char *msg);
void use(const void *p);
void use_block(avrogen_reader *b, uint64_t n);
void report_dropped(uint64_t from, uint64_t to);
extern const char *path, *schema;
extern size_t n;
extern struct order orders[], order;
extern avrogen_arena arena;
extern avrogen_diag d;
extern avrogen_status st;
extern FILE *out;
extern avrogen_schema *my_schema;
extern avrogen_ocf_reader *r;
int example(void);
"""


def blocks(path):
    out, cur, prev = [], None, ""
    for line in open(path).read().split("\n"):
        starts = re.match(r"^ \*     \S", line) and prev.strip() == "*"
        if starts or (cur is not None and re.match(r"^ \*     ", line)):
            cur = (cur or []) + [line[7:]]
        else:
            if cur:
                out.append(cur)
            cur = None
        prev = line
    return out


def main():
    header, cc, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, b in enumerate(blocks(header)):
            code = PRELUDE + "int example(void)\n{\n%s\n    return 0;\n}\n" % "\n".join(
                "    " + line for line in b)
            src = os.path.join(tmp, "example%d.c" % k)
            with open(src, "w") as f:
                f.write(code)
            p = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", src, "-o",
                                os.devnull] + flags, capture_output=True, text=True)
            print("example %d (%s...): %s" % (k, b[0].strip()[:50], "ok" if p.returncode == 0
                                              else "FAILED"))
            if p.returncode != 0:
                failed += 1
                print(code + p.stderr)
    print("%d examples failed" % failed if failed else "all examples compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
