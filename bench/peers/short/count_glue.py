#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lines of glue in the three "Short programs" of README: the lines between
the "glue begin" and "glue end" comments of examples/containers/main.c,
rust/src/main.rs and fastavro_orders.py (opening, the write loop, closing,
opening again, the read loop, the error checks), blank lines and comment
lines left out. The records' definitions and the functions that make and
check an order are not glue: they are the same in each.

    python3 bench/peers/short/count_glue.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
PROGRAMS = [("avrogen (C)", os.path.join(ROOT, "examples", "containers", "main.c"), "//", "/*"),
            ("serde + apache-avro (Rust)", os.path.join(HERE, "rust", "src", "main.rs"), "//", "//"),
            ("fastavro (Python)", os.path.join(HERE, "fastavro_orders.py"), "#", "#")]


def glue(path, comment, block):
    inside, n = False, 0
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.rstrip("*/ ").lstrip("/#* ") == "glue begin":
                inside = True
            elif s.rstrip("*/ ").lstrip("/#* ") == "glue end":
                inside = False
            elif inside and s and not s.startswith(comment) and not s.startswith(block):
                n += 1
    return n


def main():
    for name, path, comment, block in PROGRAMS:
        print("%-28s %3d  %s" % (name, glue(path, comment, block), os.path.relpath(path, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
