#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check avrogen's schema resolution against python3-avro 1.11.1.

usage: resolve_python.py AVROGEN

For every (writer, reader) schema pair below, python3-avro writes the datums
with the writer's schema, and

  * for a compatible pair, Python's DatumReader(writer, reader) reads them
    back, and the Avro JSON encoding of each resolved datum (python_peer.py's
    avro_json, printed with json.dumps defaults) equals, line for line, what
    `avrogen tojson --writer-schema W --schema R` prints for the same bytes;
  * for an incompatible pair, Python raises SchemaResolutionException and
    avrogen exits 1 with one "avrogen: error:" line and prints nothing.

Only rules python3-avro 1.11.1 implements are compared here: it has no alias
matching, no string/bytes promotion, no enum defaults, and will not read a
writer union as a non-union reader type (it checks the union as a whole
before choosing the branch). tests/runtime/test_resolve.c covers those.

Prints "N passed, M failed"; exit status 0 when all pass, 1 otherwise,
2 on bad usage.
"""

import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import avro.errors  # noqa: E402
import avro.io  # noqa: E402

from python_peer import avro_json, parse_schema  # noqa: E402


def rec(name, *fields, **extra):
    return dict({"type": "record", "name": name, "fields": list(fields)}, **extra)


def field(name, type_, **extra):
    return dict({"name": name, "type": type_}, **extra)


LIST_W = rec("List", field("v", "int"), field("junk", "string"), field("next", ["null", "List"]))
LIST_R = rec("List", field("next", ["null", "List"]), field("v", "long"),
             field("tag", "string", default="t"))
POINT_W = rec("ns.Point", field("x", "int"), field("y", "int"), field("label", "string"))
POINT_R = rec("ns.Point", field("y", "double"), field("x", "long"),
              field("z", ["null", "int"], default=None))

# (name, writer, reader, datums in the writer's shape)
COMPATIBLE = [
    ("int->long", "int", "long", [0, -1, 2**31 - 1, -2**31]),
    ("int->float", "int", "float", [0, 7, -300]),
    ("int->double", "int", "double", [1, -2**31]),
    ("long->float", "long", "float", [3, -1024]),
    ("long->double", "long", "double", [2**40, -5]),
    ("float->double", "float", "double", [0.1, -2.5, 1e30]),
    ("fields reordered, skipped, defaulted",
     rec("R", field("a", "int"), field("gone", {"type": "array", "items": {"type": "map", "values": "string"}}),
         field("b", "string"), field("old", ["null", rec("Q", field("q", "long"))])),
     rec("R", field("b", "string"), field("n", ["null", "int"], default=None), field("a", "long"),
         field("p", rec("P", field("x", "int", default=4), field("y", {"type": "array", "items": "string"})),
               default={"y": ["u", "v"]}),
         field("s", "string", default="dflt"), field("m", {"type": "map", "values": "int"}, default={"k": 1})),
     [{"a": 5, "gone": [{"k": "v"}, {}], "b": "bee", "old": {"q": 9}},
      {"a": -1, "gone": [], "b": "", "old": None}]),
    ("nested record with promotions", rec("Outer", field("p", POINT_W), field("n", "int")),
     rec("Outer", field("n", "double"), field("p", POINT_R)),
     [{"p": {"x": 1, "y": 2, "label": "l"}, "n": 3}]),
    ("enum symbols reordered",
     {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]},
     {"type": "enum", "name": "E", "symbols": ["C", "A", "B", "D"]}, ["A", "B", "C"]),
    ("writer union to reader union",
     ["null", "string", "int", rec("U", field("u", "int"))],
     [rec("U", field("u", "long")), "long", "null", "string"],
     [None, "s", 4, {"u": 1}]),
    ("int to reader union", "int", ["null", "string", "long", "int"], [5, -6]),
    ("record to reader union", POINT_W, ["null", POINT_R], [{"x": 1, "y": 2, "label": "l"}]),
    ("recursive list", LIST_W, LIST_R,
     [{"v": 1, "junk": "x", "next": {"v": 2, "junk": "y", "next": None}},
      {"v": 3, "junk": "", "next": None}]),
    ("array of records", {"type": "array", "items": POINT_W}, {"type": "array", "items": POINT_R},
     [[{"x": 1, "y": 2, "label": "a"}, {"x": 3, "y": 4, "label": "b"}], []]),
    ("map of unions and fixed",
     rec("M", field("m", {"type": "map", "values": ["null", "int"]}),
         field("f", {"type": "fixed", "name": "F", "size": 2})),
     rec("M", field("f", {"type": "fixed", "name": "F", "size": 2}),
         field("m", {"type": "map", "values": ["null", "int"]})),
     [{"m": {"a": 1, "b": None}, "f": b"\x00\xff"}]),
    ("skip every kind",
     rec("S", field("keep", "int"), field("b", "boolean"), field("l", "long"), field("fl", "float"),
         field("d", "double"), field("by", "bytes"), field("e", {"type": "enum", "name": "E2", "symbols": ["X", "Y"]}),
         field("fx", {"type": "fixed", "name": "F2", "size": 3}), field("u", ["null", "string"]),
         field("mm", {"type": "map", "values": {"type": "array", "items": "long"}}), field("last", "string")),
     rec("S", field("last", "string"), field("keep", "int")),
     [{"keep": 1, "b": True, "l": -99, "fl": 1.5, "d": 2.5, "by": b"xyz", "e": "Y", "fx": b"abc", "u": "q",
       "mm": {"k": [1, 2, 3]}, "last": "end"}]),
]

# (name, writer, reader, datums): Python raises SchemaResolutionException.
INCOMPATIBLE = [
    ("reader field without default", rec("R", field("a", "int")),
     rec("R", field("a", "int"), field("c", "int")), [{"a": 1}]),
    ("string as int", "string", "int", ["x"]),
    ("long as int", "long", "int", [1]),
    ("record names differ", rec("A", field("a", "int")), rec("B", field("a", "int")), [{"a": 1}]),
    ("enum symbol unknown to the reader", {"type": "enum", "name": "E", "symbols": ["A", "B"]},
     {"type": "enum", "name": "E", "symbols": ["A"]}, ["B"]),
    ("union branch unknown to the reader", ["int", "string"], ["int", "null"], ["x"]),
    ("fixed sizes differ", {"type": "fixed", "name": "F", "size": 2},
     {"type": "fixed", "name": "F", "size": 3}, [b"ab"]),
    ("field type changed", rec("R", field("a", "string")), rec("R", field("a", "boolean")), [{"a": "x"}]),
]


def write_datums(schema, datums):
    buf = io.BytesIO()
    writer = avro.io.DatumWriter(schema)
    enc = avro.io.BinaryEncoder(buf)
    for d in datums:
        writer.write(d, enc)
    return buf.getvalue()


def python_lines(wschema, rschema, data):
    reader = avro.io.DatumReader(wschema, rschema)
    buf = io.BytesIO(data)
    dec = avro.io.BinaryDecoder(buf)
    lines = []
    while buf.tell() < len(data):
        lines.append(json.dumps(avro_json(rschema, reader.read(dec))))
    return lines


def run_avrogen(avrogen, tmp, wtext, rtext, data):
    paths = {}
    for key, content in (("w.avsc", wtext), ("r.avsc", rtext), ("data.bin", data)):
        paths[key] = os.path.join(tmp, key)
        with open(paths[key], "wb") as f:
            f.write(content.encode() if isinstance(content, str) else content)
    return subprocess.run([avrogen, "tojson", "--writer-schema", paths["w.avsc"], "--schema", paths["r.avsc"],
                           paths["data.bin"]], capture_output=True, text=True)


def check_compatible(avrogen, tmp, case):
    name, w, r, datums = case
    wtext, rtext = json.dumps(w), json.dumps(r)
    wschema, rschema = parse_schema(wtext), parse_schema(rtext)
    data = write_datums(wschema, datums)
    expect = python_lines(wschema, rschema, data)
    got = run_avrogen(avrogen, tmp, wtext, rtext, data)
    if got.returncode != 0:
        return f"{name}: avrogen exit {got.returncode}: {got.stderr.strip()}"
    lines = got.stdout.splitlines()
    if lines != expect:
        return f"{name}: avrogen printed\n  {lines}\npython resolved\n  {expect}"
    return None


def check_incompatible(avrogen, tmp, case):
    name, w, r, datums = case
    wtext, rtext = json.dumps(w), json.dumps(r)
    wschema, rschema = parse_schema(wtext), parse_schema(rtext)
    data = write_datums(wschema, datums)
    try:
        lines = python_lines(wschema, rschema, data)
        return f"{name}: python resolved it: {lines}"
    except avro.errors.SchemaResolutionException:
        pass
    got = run_avrogen(avrogen, tmp, wtext, rtext, data)
    err = got.stderr.splitlines()
    if got.returncode != 1 or got.stdout or len(err) != 1 or not err[0].startswith("avrogen: error:"):
        return f"{name}: avrogen exit {got.returncode}, stdout {got.stdout!r}, stderr {got.stderr!r}"
    return None


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    avrogen = argv[0]
    passed, failures = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for check, cases in ((check_compatible, COMPATIBLE), (check_incompatible, INCOMPATIBLE)):
            for case in cases:
                try:
                    problem = check(avrogen, tmp, case)
                except Exception as e:  # a Python-side surprise is a failure of this case
                    problem = f"{case[0]}: {type(e).__name__}: {e}"
                if problem is None:
                    passed += 1
                else:
                    failures.append(problem)
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    # A floor: a case list or peer that went missing must not pass (issue 12).
    if passed < 20:
        print(f"FAIL: only {passed} checks passed, below the floor of 20")
        return 1
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
