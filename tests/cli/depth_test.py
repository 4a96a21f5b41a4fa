#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The one depth limit at the command line (issue 12):

  depth_test.py AVROGEN

A linked list of 1000 nodes (AVROGEN_DEFAULT_MAX_DEPTH records that contain
themselves) goes through fromjson, tojson, write and cat unchanged; 1001 nodes
are refused by each with exit 1 and one error line naming the limit. (tojson
refused more than 64 nodes before: two levels a node, limit 128.)
"""
import json
import os
import subprocess
import sys
import tempfile

SCHEMA = {"type": "record", "name": "L", "fields": [
    {"name": "v", "type": "long"}, {"name": "next", "type": ["null", "L"]}]}


def binary(n):
    """n nodes, v = 0..n-1 (zigzag varints), each next a branch 1 but the last."""
    out = bytearray()
    for i in range(n):
        u = i << 1
        while u >= 0x80:
            out.append((u & 0x7f) | 0x80)
            u >>= 7
        out.append(u)
        out.append(0x02 if i + 1 < n else 0x00)
    return bytes(out)


def text(n):
    s = "null"
    for i in reversed(range(n)):
        s = '{"v": %d, "next": %s}' % (i, s if s == "null" else '{"L": %s}' % s)
    return s + "\n"


def main(avrogen):
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, "l.avsc")
        with open(schema, "w") as f:
            json.dump(SCHEMA, f)
        for n, ok in ((1000, True), (1001, False)):
            data, js = binary(n), text(n)
            p = subprocess.run([avrogen, "tojson", "--schema", schema], input=data,
                               capture_output=True)
            if ok:
                check(p.returncode == 0 and p.stdout.decode() == js, f"tojson of {n} nodes: {p.stderr!r}")
            else:
                err = p.stderr.decode()
                check(p.returncode == 1 and err.count("\n") == 1 and "max_depth" in err and not p.stdout,
                      f"tojson of {n} nodes: exit {p.returncode}, {err!r}")
            p = subprocess.run([avrogen, "fromjson", "--schema", schema], input=js.encode(),
                               capture_output=True)
            if ok:
                check(p.returncode == 0 and p.stdout == data, f"fromjson of {n} nodes: {p.stderr!r}")
            else:
                err = p.stderr.decode()
                check(p.returncode == 1 and "nest deeper than 1000" in err,
                      f"fromjson of {n} nodes: exit {p.returncode}, {err!r}")
            jsonl, avro = os.path.join(tmp, f"l{n}.jsonl"), os.path.join(tmp, f"l{n}.avro")
            with open(jsonl, "w") as f:
                f.write(js)
            p = subprocess.run([avrogen, "write", "--schema", schema, jsonl, avro], capture_output=True)
            check((p.returncode == 0) == ok, f"write of {n} nodes: exit {p.returncode} {p.stderr!r}")
            if ok:
                p = subprocess.run([avrogen, "cat", avro], capture_output=True)
                check(p.returncode == 0 and p.stdout.decode() == js, f"cat of {n} nodes: {p.stderr!r}")
    for f in failures:
        print("FAIL " + f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
