#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The avrogen command line against python3-avro 1.11.1 and DESIGN.md's contract.

usage: cli_test.py AVROGEN

* tojson: Python's DatumWriter encodes datums back to back; every line avrogen
  prints equals the Avro JSON encoding of Python's datum (built by
  tests/interop/python_peer.py's encoder, printed with json.dumps defaults).
* fromjson: those JSON lines become exactly Python's bytes.
* write: files avrogen writes with every codec Python reads back equal;
  cat / getschema: files Python writes with every codec it has are printed
  as the same JSON lines, and their schema as written.
* damaged input: the records before the damage are printed, then one error
  line naming the offset, exit 1; no half-written output file is left.
* exit statuses: 0 ok, 1 bad input (one "avrogen: error: " line), 2 usage.
"""

import io
import json
import os
import random
import sys
import tempfile

import avro.datafile
import avro.io
import avro.schema

import clitest
from clitest import avro_json, check, one_error_line, python_codecs, run

CASES = [
    ('"long"', [0, 1, -1, 63, -64, 2**31, -(2**63), 2**63 - 1]),
    ('"string"', ["", "a", "h\u00e9llo", "\U0001f600", "quote \" back \\ nl \n"]),
    ('"bytes"', [b"", b"\x00\xff\x80", bytes(range(256))]),
    ('["null", "double", "string"]', [None, 1.5, "x", -0.0]),
    ('{"type": "array", "items": "int"}', [[], [1, -2, 3], list(range(300))]),
    ('{"type": "map", "values": ["null", "boolean"]}', [{}, {"a": None, "b": True}]),
    ('{"type": "fixed", "name": "F4", "size": 4}', [b"\x00\x01\x02\xff"]),
    (json.dumps({
        "type": "record", "name": "Order", "namespace": "com.acme",
        "fields": [
            {"name": "id", "type": "long"},
            {"name": "customer", "type": "string"},
            {"name": "total", "type": "double"},
            {"name": "paid", "type": "boolean"},
            {"name": "note", "type": ["null", "string"], "default": None},
            {"name": "status", "type": {"type": "enum", "name": "Status",
                                        "symbols": ["NEW", "PAID"]}},
            {"name": "lines", "type": {"type": "array", "items": {
                "type": "record", "name": "Line", "fields": [
                    {"name": "sku", "type": "long"}, {"name": "qty", "type": "int"}]}}},
            {"name": "next", "type": ["null", "Line"]},
        ]}), [
        {"id": 1, "customer": "ann", "total": 9.5, "paid": True, "note": None,
         "status": "PAID", "lines": [{"sku": 7, "qty": 2}], "next": None},
        {"id": -(2**40), "customer": "", "total": -0.25, "paid": False, "note": "rush",
         "status": "NEW", "lines": [], "next": {"sku": 1, "qty": -1}},
    ]),
]

def encode(schema, datums):
    buf = io.BytesIO()
    writer = avro.io.DatumWriter(schema)
    enc = avro.io.BinaryEncoder(buf)
    for d in datums:
        writer.write(d, enc)
    return buf.getvalue()


def test_tojson_fromjson(tmp):
    for i, (text, datums) in enumerate(CASES):
        schema = avro.schema.parse(text)
        path = os.path.join(tmp, f"s{i}.avsc")
        with open(path, "w") as f:
            f.write(text)
        data = encode(schema, datums)
        want = "".join(json.dumps(avro_json(schema, d)) + "\n" for d in datums)
        p = run(["tojson", "--schema", path], stdin=data)
        check(p.returncode == 0, f"tojson case {i}: {p.stderr!r}")
        check(p.stdout.decode() == want, f"tojson case {i}: {p.stdout!r} != {want!r}")
        p = run(["fromjson", "--schema", path], stdin=want.encode())
        check(p.returncode == 0 and p.stdout == data, f"fromjson case {i}: {p.stderr!r}")
        # Every strict prefix of the input prints exactly the datums it holds
        # whole; cut inside a datum it is then one error line and exit 1, cut
        # between datums exit 0 (the empty prefix is item 3's to decide).
        ends, lines = [], want.splitlines(keepends=True)
        for k in range(len(datums)):
            ends.append(len(encode(schema, datums[:k + 1])))
        for cut in range(0, len(data), max(1, len(data) // 7)):
            p = run(["tojson", "--schema", path], stdin=data[:cut])
            whole = sum(1 for e in ends if e <= cut)
            check(p.stdout.decode() == "".join(lines[:whole]),
                  f"tojson case {i} cut {cut}: printed {p.stdout!r}, want the first {whole} datums")
            if cut == 0:
                continue
            if cut in ends:
                check(p.returncode == 0 and p.stderr == b"",
                      f"tojson case {i} cut {cut} (between datums): exit {p.returncode} {p.stderr!r}")
            else:
                err = p.stderr.decode()
                check(p.returncode == 1 and err.startswith("avrogen: error: ")
                      and err.count("\n") == 1 and f"datum {whole}" in err,
                      f"tojson case {i} cut {cut} (inside datum {whole}): exit {p.returncode} {err!r}")


def test_tojson_streams(tmp):
    """tojson reads its input through a window (1 MiB, doubled while one datum fills it), not
    whole: datums the window's end cuts, and datums of 1 and 3 MiB, print as Python's encoder
    wrote them; from a file and from a pipe; a datum cut short past the first window is one
    error line with its own absolute byte offset, after every datum before it."""
    text = json.dumps({"type": "record", "name": "Blob", "fields": [
        {"name": "id", "type": "long"}, {"name": "b", "type": "bytes"}]})
    schema = avro.schema.parse(text)
    rnd = random.Random(13)
    sizes = ([rnd.randrange(0, 70000) for _ in range(40)] + [3 << 20, 5, (1 << 20) + 3, 0]
             + [rnd.randrange(0, 200000) for _ in range(20)])
    datums = [{"id": i * 7919, "b": rnd.randbytes(n)} for i, n in enumerate(sizes)]
    data = encode(schema, datums)
    ends = [len(encode(schema, datums[:k + 1])) for k in range(len(datums))]
    check(len(data) > 6 << 20 and ends[39] < 3 << 20 and ends[40] > 4 << 20,
          f"the input spans several windows: {len(data)} bytes")
    want = "".join(json.dumps(avro_json(schema, d)) + "\n" for d in datums)
    schema_path = os.path.join(tmp, "blob.avsc")
    data_path = os.path.join(tmp, "blobs.bin")
    with open(schema_path, "w") as f:
        f.write(text)
    with open(data_path, "wb") as f:
        f.write(data)
    for how, args, stdin in (("file", [data_path], None), ("pipe", [], data)):
        p = run(["tojson", "--schema", schema_path] + args, stdin=stdin)
        check(p.returncode == 0 and p.stderr == b"", f"tojson from a {how}: {p.stderr!r}")
        check(p.stdout.decode() == want, f"tojson from a {how} prints Python's datums")
    lines = want.splitlines(keepends=True)
    for k in (40, 42, len(datums) - 1):  # 3 MiB, 1 MiB + 3, the last
        cut = ends[k] - 2
        p = run(["tojson", "--schema", schema_path], stdin=data[:cut])
        line = one_error_line(p, f"tojson cut inside datum {k}")
        check(f"datum {k} (at byte {ends[k - 1]})" in line,
              f"the error names datum {k} at byte {ends[k - 1]}: {line}")
        check(p.stdout.decode() == "".join(lines[:k]), f"the {k} datums before it are printed")


def test_files(tmp):
    text, datums = CASES[-1]
    schema = avro.schema.parse(text)
    schema_path = os.path.join(tmp, "order.avsc")
    with open(schema_path, "w") as f:
        f.write(text)
    want = "".join(json.dumps(avro_json(schema, d)) + "\n" for d in datums * 50)
    jsonl = os.path.join(tmp, "order.jsonl")
    with open(jsonl, "w") as f:
        f.write(want)
    py_codecs = python_codecs()
    for codec in ["null", "deflate", "snappy", "zstandard", "xz", "bzip2"]:
        out = os.path.join(tmp, f"ours-{codec}.avro")
        p = run(["write", "--schema", schema_path, "--codec", codec, jsonl, out])
        check(p.returncode == 0, f"write {codec}: {p.stderr!r}")
        p = run(["cat", out])
        check(p.returncode == 0 and p.stdout.decode() == want, f"cat ours-{codec}")
        p = run(["getschema", out])
        check(p.stdout.decode().strip() == text, f"getschema ours-{codec}")
        if codec in py_codecs:
            with avro.datafile.DataFileReader(open(out, "rb"), avro.io.DatumReader()) as r:
                check(list(r) == datums * 50, f"python reads ours-{codec}")
    for codec in py_codecs:
        theirs = os.path.join(tmp, f"theirs-{codec}.avro")
        with avro.datafile.DataFileWriter(open(theirs, "wb"), avro.io.DatumWriter(), schema,
                                          codec=codec) as w:
            for d in datums * 50:
                w.append(d)
        p = run(["cat", theirs])
        check(p.returncode == 0 and p.stdout.decode() == want, f"cat theirs-{codec}: {p.stderr!r}")

    # A damaged file: the first block's records come out, then the error with an offset.
    two_blocks = os.path.join(tmp, "two-blocks.avro")
    with avro.datafile.DataFileWriter(open(two_blocks, "wb"), avro.io.DatumWriter(), schema) as w:
        for d in datums:
            w.append(d)
        w.flush()
        for d in datums:
            w.append(d)
    blob = open(two_blocks, "rb").read()
    damaged = os.path.join(tmp, "damaged.avro")
    with open(damaged, "wb") as f:
        f.write(blob[:-5])
    p = run(["cat", damaged])
    first = "".join(json.dumps(avro_json(schema, d)) + "\n" for d in datums)
    check(p.stdout.decode() == first, "cat damaged: the records before the damage")
    line = one_error_line(p, "cat damaged")
    check("offset" in line, f"cat damaged names the offset: {line!r}")

    # A bad line: exit 1 naming file and line; the output file is not created.
    bad = os.path.join(tmp, "bad.jsonl")
    with open(bad, "w") as f:
        f.write(want.splitlines()[0] + "\n" + '{"id": "seven"}\n')
    out = os.path.join(tmp, "never.avro")
    p = run(["write", "--schema", schema_path, bad, out])
    line = one_error_line(p, "write bad line")
    check(f"{bad}:2:" in line, f"write bad line names file:line: {line!r}")
    check(not any(n.startswith("never.avro") for n in os.listdir(tmp)), "no partial output")


def test_contract(tmp):
    schema_path = os.path.join(tmp, "s0.avsc")
    for args in (["nosuch"], ["canonical"], ["fingerprint", schema_path, "--algo", "crc32"],
                 ["tojson"], ["fromjson", "--bogus"], ["write", "--schema", schema_path],
                 ["cat"], ["cat", "f.avro", "--schema"], ["cat", "--bogus", "f.avro"],
                 ["cat", "-", "-"], []):
        p = run(args)
        check(p.returncode == 2, f"usage error {args}: exit 2, got {p.returncode}")
    bad_schema = os.path.join(tmp, "bad.avsc")
    with open(bad_schema, "w") as f:
        f.write('{"type": "record", "name": "R", "fields": [{"name": "a", "type": "Nope"}]}')
    for args in (["canonical", bad_schema], ["fingerprint", os.path.join(tmp, "missing.avsc")],
                 ["cat", bad_schema], ["getschema", schema_path]):
        one_error_line(run(args), f"bad input {args}")
    p = run(["fromjson", "--schema", schema_path], stdin=b'"not a long"\n')
    one_error_line(p, "fromjson type mismatch")
    p = run(["tojson", "--schema", schema_path], stdin=b"\x80" * 11)
    line = one_error_line(p, "tojson overlong varint")
    check("byte" in line, f"tojson error names the byte offset: {line!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_tojson_fromjson(tmp)
        test_tojson_streams(tmp)
        test_files(tmp)
        test_contract(tmp)
    sys.exit(clitest.summary("cli"))
