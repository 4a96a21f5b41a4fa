#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The one depth limit at the command line (issue 12):

  depth_test.py AVROGEN

A linked list of 1000 nodes (AVROGEN_DEFAULT_MAX_DEPTH records that contain
themselves) goes through fromjson, tojson, write and cat unchanged; 1001 nodes
are refused by each with exit 1 and one error line naming the limit. (tojson
refused more than 64 nodes before: two levels a node, limit 128.)

--max-depth N (issue 12 item 4: the limit is configurable) on every command
that reads binary data: a list of DEEP nodes, as a datum file and as a
container file, is refused by tojson, cat, head, validate, concat and recodec
at the default and at --max-depth DEEP-1 (repair drops its block), and read
whole at --max-depth DEEP: the same JSON text, a copy that cat reads back, a
repaired file that keeps the record. 0, 10001 and a word are usage errors.

fromjson and write take --max-depth too: 10 nodes at 10 pass and 11 fail,
1024 nodes (2048 JSON levels, jansson's limit) pass at 1024, and 1025 fail at
any N, with jansson's message.
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


DEEP = 3000


def zigzag(n):
    u, out = (n << 1) ^ (n >> 63), bytearray()
    while u >= 0x80:
        out.append((u & 0x7f) | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def container(schema, datum):
    """An object container file (spec: Object Container Files) of one datum, null codec:
    written here because the JSON side of every writer stops at the default depth."""
    def string(b):
        return zigzag(len(b)) + b
    sync = bytes(range(16))
    meta = zigzag(1) + string(b"avro.schema") + string(json.dumps(schema).encode()) + zigzag(0)
    return b"Obj\x01" + meta + sync + zigzag(1) + zigzag(len(datum)) + datum + sync


def max_depth_flag(avrogen, tmp, check):
    data, js = binary(DEEP), text(DEEP)
    schema, avro = os.path.join(tmp, "l.avsc"), os.path.join(tmp, "deep.avro")
    datums = os.path.join(tmp, "deep.bin")
    with open(avro, "wb") as f:
        f.write(container(SCHEMA, data))
    with open(datums, "wb") as f:
        f.write(data)

    def run(cmd, depth, *args):
        flag = [] if depth is None else ["--max-depth", str(depth)]
        return subprocess.run([avrogen, cmd] + flag + list(args), capture_output=True)

    readers = [("tojson", ["--schema", schema, datums]), ("cat", [avro]), ("head", [avro]),
               ("validate", [avro]), ("concat", [avro, os.path.join(tmp, "c.avro")]),
               ("recodec", ["--codec", "deflate", avro, os.path.join(tmp, "r.avro")])]
    for cmd, args in readers:
        for depth in (None, DEEP - 1):
            p = run(cmd, depth, *args)
            err = p.stderr.decode()
            check(p.returncode == 1 and "max_depth" in err and err.count("\n") == 1,
                  f"{cmd} --max-depth {depth} of {DEEP} nodes: exit {p.returncode}, {err!r}")
        p = run(cmd, DEEP, *args)
        check(p.returncode == 0 and p.stderr == b"", f"{cmd} --max-depth {DEEP}: {p.stderr!r}")
        if cmd in ("tojson", "cat", "head"):
            check(p.stdout.decode() == js, f"{cmd} --max-depth {DEEP}: not the {DEEP} nodes")
        if cmd in ("concat", "recodec"):
            q = run("cat", DEEP, args[-1])
            check(q.returncode == 0 and q.stdout.decode() == js, f"{cmd}'s output: {q.stderr!r}")
    repaired = os.path.join(tmp, "fixed.avro")
    for depth, kept in ((None, 0), (DEEP, 1)):
        p = run("repair", depth, avro, repaired)
        q = run("count", None, repaired)
        check(p.returncode == 0 and q.stdout.decode() == f"{kept}\n",
              f"repair --max-depth {depth}: kept {q.stdout!r}, {p.stdout!r}")
    for bad in ("0", "10001", "deep"):
        for cmd, args in readers:
            p = subprocess.run([avrogen, cmd, "--max-depth", bad] + args, capture_output=True)
            check(p.returncode == 2 and b"--max-depth" in p.stderr,
                  f"{cmd} --max-depth {bad}: exit {p.returncode}, {p.stderr!r}")


def json_max_depth(avrogen, tmp, check):
    """--max-depth on the commands that read JSON lines: a lower limit refuses a list one node
    longer, a higher one reads lists past the default (up to what jansson parses: 1024 nodes,
    2048 JSON levels), and nothing past that whatever N says; 0, 10001 and a word are usage
    errors."""
    schema = os.path.join(tmp, "l.avsc")

    def run(cmd, depth, n):
        jsonl = os.path.join(tmp, f"j{n}.jsonl")
        with open(jsonl, "w") as f:
            f.write(text(n))
        args = ["--schema", schema, jsonl]
        if cmd == "write":
            args.append(os.path.join(tmp, "j.avro"))
        return subprocess.run([avrogen, cmd, "--max-depth", str(depth)] + args,
                              capture_output=True)

    for cmd in ("fromjson", "write"):
        for depth, n, ok in ((10, 10, True), (10, 11, False), (1024, 1024, True),
                             (1020, 1021, False), (10000, 1025, False)):
            p = run(cmd, depth, n)
            err = p.stderr.decode()
            what = f"{cmd} --max-depth {depth} of {n} nodes"
            if ok:
                check(p.returncode == 0 and err == "", f"{what}: exit {p.returncode}, {err!r}")
                if cmd == "fromjson":
                    check(p.stdout == binary(n), f"{what}: not the {n} nodes")
                else:
                    q = subprocess.run([avrogen, "cat", "--max-depth", str(depth),
                                        os.path.join(tmp, "j.avro")], capture_output=True)
                    check(q.returncode == 0 and q.stdout.decode() == text(n),
                          f"{what}: cat reads back {q.stderr!r}")
                continue
            why = ("maximum parsing depth reached" if n > 1024
                   else f"records nest deeper than {depth}")
            check(p.returncode == 1 and err.count("\n") == 1 and why in err,
                  f"{what}: exit {p.returncode}, {err!r}")
        for bad in ("0", "10001", "deep"):
            p = run(cmd, bad, 1)
            check(p.returncode == 2 and b"--max-depth" in p.stderr,
                  f"{cmd} --max-depth {bad}: exit {p.returncode}, {p.stderr!r}")


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
        max_depth_flag(avrogen, tmp, check)
        json_max_depth(avrogen, tmp, check)
    for f in failures:
        print("FAIL " + f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
