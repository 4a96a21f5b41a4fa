#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""`avrogen cat FILE --schema R` against python3-avro 1.11.1's DataFileReader
with a reader schema.

usage: cat_resolve.py AVROGEN

For each case python3-avro writes a container file with an older (writer)
schema, in several blocks and with each codec it has, and:

  * compatible pairs: Python's DataFileReader(f, DatumReader(readers_schema=R))
    reads the records, and the Avro JSON encoding of each (python_peer.py's
    avro_json, printed with json.dumps defaults) equals, line for line, what
    `avrogen cat FILE --schema R` prints; exit 0, nothing on stderr;
  * pairs that do not resolve at all: Python raises SchemaResolutionException
    on the first record, and avrogen prints no record, one "avrogen: error:"
    line naming the reader path, exit 1;
  * a datum the reader cannot take (an enum symbol it lacks): Python reads
    the records before it and then raises; avrogen prints the same records,
    then one error line with the block's offset, exit 1;
  * damaged files (cuts of a two-block file, a block claiming a record
    more than it holds): the output is Python's records up to the damage, and
    the failure one error line naming the offset, exit 1;
  * --schema with the file's own schema (another spelling, same canonical form)
    prints exactly what plain `cat` prints.

Prints "N passed, M failed"; exit status 0 when all pass, 1 otherwise, 2 on bad
usage.
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))

import avro.datafile  # noqa: E402
import avro.errors  # noqa: E402
import avro.io  # noqa: E402

from python_peer import avro_json, parse_schema  # noqa: E402

CODECS = ["null", "deflate", "snappy", "zstandard", "bzip2"]


def rec(name, *fields, **extra):
    return dict({"type": "record", "name": name, "fields": list(fields)}, **extra)


def field(name, type_, **extra):
    return dict({"name": name, "type": type_}, **extra)


def enum(name, symbols, **extra):
    return dict({"type": "enum", "name": name, "symbols": symbols}, **extra)


# An order record as version 1 wrote it, and as version 3 reads it: fields
# added with defaults (of every shape), fields removed (of every kind, to be
# skipped), promotions, enum symbols reordered and added, unions widened and
# reordered, a non-union writer read through a reader union, nested records and
# arrays of records evolving with it.
LINE_V1 = rec("Line", field("sku", "int"), field("qty", "int"), field("unit", "float"),
              field("memo", "string"))
LINE_V3 = rec("Line", field("qty", "long"), field("sku", "long"), field("unit", "double"),
              field("discount", "double", default=0.0))
ORDER_V1 = rec("Order", field("id", "int"),
               field("customer", "string"),
               field("status", enum("Status", ["NEW", "PAID", "SHIPPED"])),
               field("lines", {"type": "array", "items": LINE_V1}),
               field("note", ["null", "string"]),
               field("legacy_flags", {"type": "map", "values": {"type": "array", "items": "boolean"}}),
               field("legacy_hash", {"type": "fixed", "name": "Hash", "size": 4}),
               field("legacy_union", ["null", "bytes", "double", rec("Old", field("o", "long"))]),
               field("priority", "int"),
               field("total", "long"),
               field("ship_to", rec("Addr", field("city", "string"), field("zip", "int"))),
               namespace="shop")
ORDER_V3 = rec("Order",
               field("total", "double"),
               field("id", "long"),
               field("status", enum("Status", ["CANCELLED", "SHIPPED", "PAID", "NEW"])),
               field("customer", "string"),
               field("note", ["string", "null", "int"]),
               field("priority", ["null", "long"]),
               field("lines", {"type": "array", "items": LINE_V3}),
               field("currency", "string", default="EUR"),
               field("tags", {"type": "array", "items": "string"}, default=["a", "b"]),
               field("extra", {"type": "map", "values": "int"}, default={"k": 1}),
               field("coupon", ["null", "string"], default=None),
               field("channel", enum("Channel", ["WEB", "SHOP"]), default="SHOP"),
               field("ship_to", rec("Addr", field("zip", "long"), field("city", "string"),
                                    field("country", "string", default="NL"))),
               field("bill_to", rec("Bill", field("name", "string", default="-"),
                                    field("n", "int", default=7)),
                     default={"name": "x"}),
               namespace="shop")


def order_v1(i):
    return {
        "id": i * 7919 - 50000 if i % 5 else -(2**31) + i,
        "customer": ["ann", "bob", "délta", "日本語", "", "emoji-\U0001f600"][i % 6] + str(i),
        "status": ["NEW", "PAID", "SHIPPED"][i % 3],
        "lines": [{"sku": i + k, "qty": k - 1, "unit": 0.25 * k + i, "memo": "m" * k}
                  for k in range(i % 4)],
        "note": None if i % 3 == 0 else f"note {i}",
        "legacy_flags": {f"f{k}": [k % 2 == 0] * k for k in range(i % 3)},
        "legacy_hash": bytes([i % 256, 1, 2, 3]),
        "legacy_union": [None, b"\x00\xff", 1.5, {"o": -i}][i % 4],
        "priority": i % 11 - 5,
        "total": (i - 40) * 2**35,
        "ship_to": {"city": f"city{i % 9}", "zip": 1000 + i},
    }


# (name, writer, reader, datums)
COMPATIBLE = [
    ("order v1 read as v3", ORDER_V1, ORDER_V3, [order_v1(i) for i in range(90)]),
    ("int file read as long", "int", "long", [0, 1, -1, 2**31 - 1, -(2**31)] * 5),
    ("float file read as double", "float", "double", [0.1, -2.5, 1e30, 3.0] * 5),
    ("long file read as a union", "long", ["null", "string", "double"], [0, -7, 2**40] * 5),
    ("enum file, symbols reordered and added", enum("E", ["A", "B", "C"]),
     enum("E", ["D", "C", "B", "A"]), ["A", "B", "C", "B"] * 5),
    ("union file read as a wider union", ["null", "int", "string"],
     ["string", "long", "null", "bytes"], [None, 3, "s", -4, "", None] * 5),
    ("array of records", {"type": "array", "items": LINE_V1}, {"type": "array", "items": LINE_V3},
     [[{"sku": k, "qty": -k, "unit": 1.5, "memo": "x"} for k in range(n)] for n in range(6)] * 3),
]

# (name, writer, reader, datums, text the error line must contain)
INCOMPATIBLE = [
    ("reader field without a default", rec("R", field("a", "int")),
     rec("R", field("a", "int"), field("b", "string")), [{"a": 1}], "/fields/1"),
    ("record names differ", rec("A", field("a", "int")), rec("B", field("a", "int")), [{"a": 1}],
     "cannot be read"),
    ("field type changed", rec("R", field("a", "string")), rec("R", field("a", "boolean")),
     [{"a": "x"}], "/fields/0"),
    ("long read as int", "long", "int", [1], "cannot be read"),
]

passed = 0
failures = []


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)


def write_file(path, schema, datums, codec, per_block):
    with avro.datafile.DataFileWriter(open(path, "wb"), avro.io.DatumWriter(), schema,
                                      codec=codec) as w:
        for i, d in enumerate(datums):
            w.append(d)
            if (i + 1) % per_block == 0:
                w.flush()


def python_lines(path, rschema):
    """Python's records, resolved into rschema, as JSON lines; then the exception, if any."""
    lines = []
    try:
        with avro.datafile.DataFileReader(open(path, "rb"),
                                          avro.io.DatumReader(readers_schema=rschema)) as r:
            for d in r:
                lines.append(json.dumps(avro_json(rschema, d)))
    except Exception as e:  # noqa: BLE001 - which exception is part of what is compared
        return lines, e
    return lines, None


def cat(avrogen, path, schema_path=None):
    args = [avrogen, "cat", path] + (["--schema", schema_path] if schema_path else [])
    return subprocess.run(args, capture_output=True, text=True)


def one_error(p):
    err = p.stderr.splitlines()
    return p.returncode == 1 and len(err) == 1 and err[0].startswith("avrogen: error: ")


def save(tmp, name, obj):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(json.dumps(obj))
    return path


def test_compatible(avrogen, tmp):
    for name, w, r, datums in COMPATIBLE:
        wschema, rschema = parse_schema(json.dumps(w)), parse_schema(json.dumps(r))
        rpath = save(tmp, "r.avsc", r)
        for codec in CODECS:
            path = os.path.join(tmp, f"compat-{codec}.avro")
            write_file(path, wschema, datums, codec, per_block=7)
            want, exc = python_lines(path, rschema)
            check(exc is None and len(want) == len(datums), f"{name} {codec}: python read {exc!r}")
            p = cat(avrogen, path, rpath)
            check(p.returncode == 0 and p.stderr == "", f"{name} {codec}: exit {p.returncode} {p.stderr!r}")
            got = p.stdout.splitlines()
            check(got == want, f"{name} {codec}: avrogen printed\n  {got[:3]}\npython\n  {want[:3]}")


def test_incompatible(avrogen, tmp):
    for name, w, r, datums, needle in INCOMPATIBLE:
        wschema, rschema = parse_schema(json.dumps(w)), parse_schema(json.dumps(r))
        path = os.path.join(tmp, "incompat.avro")
        write_file(path, wschema, datums, "null", per_block=100)
        lines, exc = python_lines(path, rschema)
        check(lines == [] and isinstance(exc, avro.errors.SchemaResolutionException),
              f"{name}: python read {lines} / {exc!r}")
        p = cat(avrogen, path, save(tmp, "r.avsc", r))
        check(one_error(p) and p.stdout == "", f"{name}: {p.returncode} {p.stdout!r} {p.stderr!r}")
        check(needle in p.stderr, f"{name}: {needle!r} not in {p.stderr!r}")


def test_datum_mismatch(avrogen, tmp):
    # Python 1.11.1 reads each enum symbol through the reader's symbols: the
    # first record using one the reader lacks raises, after those before it.
    w, r = enum("E", ["A", "B", "GONE"]), enum("E", ["B", "A"])
    datums = ["A", "B"] * 10 + ["GONE", "A"]
    wschema, rschema = parse_schema(json.dumps(w)), parse_schema(json.dumps(r))
    path = os.path.join(tmp, "gone.avro")
    write_file(path, wschema, datums, "deflate", per_block=8)
    want, exc = python_lines(path, rschema)
    check(len(want) == 20 and isinstance(exc, avro.errors.SchemaResolutionException),
          f"enum symbol: python read {len(want)} / {exc!r}")
    p = cat(avrogen, path, save(tmp, "r.avsc", r))
    check(p.stdout.splitlines() == want, f"enum symbol: {p.stdout!r}")
    check(one_error(p), f"enum symbol: one error line: {p.returncode} {p.stderr!r}")
    check("offset" in p.stderr and "object 4" in p.stderr and "GONE" in p.stderr,
          f"enum symbol: error names offset, object and symbol: {p.stderr!r}")


def test_damaged(avrogen, tmp):
    w, r = COMPATIBLE[0][1], COMPATIBLE[0][2]
    datums = [order_v1(i) for i in range(12)]
    wschema, rschema = parse_schema(json.dumps(w)), parse_schema(json.dumps(r))
    rpath = save(tmp, "r.avsc", r)
    path = os.path.join(tmp, "whole.avro")
    write_file(path, wschema, datums, "null", per_block=6)
    want, _ = python_lines(path, rschema)
    check(len(want) == 12, f"damaged: python read {len(want)}")
    blob = open(path, "rb").read()
    cut_path = os.path.join(tmp, "cut.avro")
    # Every cut is tested in tests/runtime/test_ocf.c; here, each block boundary
    # and its neighbours, and thirty cuts spread over the rest (the CLI costs
    # a process each).
    sync = blob[-16:]
    ends = [blob.index(sync) + 16, blob.index(sync, blob.index(sync) + 16) + 16, len(blob)]
    cuts = sorted({c for e in ends for c in (e - 1, e, e + 1) if c <= len(blob)} |
                  set(range(0, len(blob), max(1, len(blob) // 30))))
    bad, clean = [], 0
    for cut in cuts:
        with open(cut_path, "wb") as f:
            f.write(blob[:cut])
        p = cat(avrogen, cut_path, rpath)
        got = p.stdout.splitlines()
        # Whole blocks come out (6 records each), then one error line that
        # names an offset; a cut between blocks is a shorter valid file.
        if p.returncode == 0:
            clean += 1
            ok = p.stderr == ""
        else:
            ok = one_error(p) and (not got or "offset" in p.stderr)
        if not ok or got != want[:len(got)] or len(got) not in (0, 6, 12):
            bad.append((cut, p.returncode, len(got), p.stderr))
    check(not bad, f"every cut: {bad[:3]}")
    # Valid cuts: after the header (no records), after the first block, the whole file.
    check(clean == 3, f"cuts that are valid files: {clean}")

    # The second block claims one record more than it holds: its six records
    # come out after the first block's, then the error names it.
    second = ends[1]
    check(blob[second] == 12, f"second block's count byte {blob[second]}")  # zigzag 6
    lying = bytearray(blob)
    lying[second] = 14  # zigzag 7
    with open(cut_path, "wb") as f:
        f.write(lying)
    p = cat(avrogen, cut_path, rpath)
    check(p.stdout.splitlines() == want, f"lying count: {len(p.stdout.splitlines())} records")
    check(one_error(p) and f"offset {second}" in p.stderr and "object 6" in p.stderr,
          f"lying count: {p.stderr!r}")


def test_same_schema(avrogen, tmp):
    w = ORDER_V1
    datums = [order_v1(i) for i in range(20)]
    path = os.path.join(tmp, "same.avro")
    write_file(path, parse_schema(json.dumps(w)), datums, "snappy", per_block=6)
    # Another spelling of the same schema: a doc string, an alias, extra spaces.
    respelled = dict(w, doc="the same order", aliases=["shop.Purchase"])
    rpath = os.path.join(tmp, "same.avsc")
    with open(rpath, "w") as f:
        f.write(json.dumps(respelled, indent=3))
    plain = cat(avrogen, path)
    p = cat(avrogen, path, rpath)
    check(plain.returncode == 0 and p.returncode == 0 and p.stdout == plain.stdout and p.stdout,
          f"same schema: {p.stderr!r}")
    # And a schema that is not there, or not a schema: one error, no output.
    for arg in (os.path.join(tmp, "missing.avsc"), '{"type": "nope"}'):
        p = cat(avrogen, path, arg)
        check(one_error(p) and p.stdout == "", f"bad --schema {arg}: {p.returncode} {p.stderr!r}")


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    avrogen = argv[0]
    with tempfile.TemporaryDirectory() as tmp:
        for test in (test_compatible, test_incompatible, test_datum_mismatch, test_damaged,
                     test_same_schema):
            try:
                test(avrogen, tmp)
            except Exception as e:  # a Python-side surprise fails the test, not the run
                failures.append(f"{test.__name__}: {type(e).__name__}: {e}")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    # A floor: a case list or peer that went missing must not pass (issue 12).
    if passed < 120:
        print(f"FAIL: only {passed} checks passed, below the floor of 120")
        return 1
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
