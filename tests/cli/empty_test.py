#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""What an empty datum input means, against python3-avro and Java Avro 1.8.2.

usage: empty_test.py AVROGEN WORK_DIR

A datum file holds at least one datum, so for `avrogen tojson` an empty input
is an error ("no datum in input"), except for a schema whose datums all
encode to zero bytes (null, fixed(0), records of those), where it is exactly
one datum. For every schema below both peers are asked what they read from
no bytes at all (Python's DatumReader, Java's GenericDatumReader): a datum or
an error. avrogen must agree with both, print the same datum, and refuse any
byte of input for a zero-byte schema (a datum there takes none, so the rest
would be read as datums forever). `fromjson` is the mirror image: no JSON
value is an error, and a zero-byte schema takes one value at most.
"""

import io
import json
import os
import shutil
import subprocess
import sys

import avro.io
import avro.schema

import clitest
from clitest import avro_json, check, one_error_line, run

SCHEMAS = [
    '"null"',
    '{"type": "record", "name": "Empty", "fields": []}',
    '{"type": "fixed", "name": "F0", "size": 0}',
    '{"type": "record", "name": "R", "fields": [{"name": "n", "type": "null"}, '
    '{"name": "e", "type": {"type": "record", "name": "E2", "fields": []}}, '
    '{"name": "f", "type": {"type": "fixed", "name": "F00", "size": 0}}]}',
    '"long"',
    '"string"',
    '"boolean"',
    '{"type": "enum", "name": "One", "symbols": ["A"]}',
    '["null"]',
    '{"type": "array", "items": "null"}',
    '{"type": "map", "values": "null"}',
    '{"type": "fixed", "name": "F1", "size": 1}',
    '{"type": "record", "name": "S", "fields": [{"name": "n", "type": "null"}, '
    '{"name": "i", "type": "int"}]}',
]

JARS = ["avro", "jackson-core-asl", "jackson-mapper-asl", "paranamer", "snappy-java",
        "commons-compress", "xz", "slf4j-api"]


def python_verdict(text):
    schema = avro.schema.parse(text)
    try:
        datum = avro.io.DatumReader(schema).read(avro.io.BinaryDecoder(io.BytesIO(b"")))
        return "datum", json.dumps(avro_json(schema, datum))
    except Exception as e:  # python3-avro raises InvalidAvroBinaryEncoding, or worse
        return "error", type(e).__name__


def java_verdicts(work):
    java, javac = shutil.which("java"), shutil.which("javac")
    cp = ":".join(os.path.join("/usr/share/java", j + ".jar") for j in JARS)
    if not java or not javac or not all(os.path.exists(p) for p in cp.split(":")):
        print("empty_test: java, javac and libavro-java are needed (scripts/bootstrap)")
        sys.exit(1)
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(work, exist_ok=True)
    subprocess.run([javac, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-cp", cp, "-d", work,
                    os.path.join(here, "java", "EmptyInput.java")], check=True)
    p = subprocess.run([java, "-cp", cp + ":" + work, "EmptyInput"],
                       input="".join(s + "\n" for s in SCHEMAS), capture_output=True, text=True,
                       check=True)
    lines = p.stdout.splitlines()
    check(len(lines) == len(SCHEMAS), f"java answers for every schema: {lines}")
    return [tuple(line.split(" ", 1)) for line in lines]


def main(work):
    java = java_verdicts(work)
    empty_ones = 0
    for text, (jkind, _) in zip(SCHEMAS, java):
        pkind, pwhat = python_verdict(text)
        check(pkind == jkind, f"{text}: Python ({pkind}) and Java ({jkind}) agree")
        p = run(["tojson", "--schema", text], stdin=b"")
        if pkind == "datum":
            empty_ones += 1
            check(p.returncode == 0 and p.stdout.decode() == pwhat + "\n" and p.stderr == b"",
                  f"tojson {text} of no bytes: one datum {pwhat}: {p.stdout!r} {p.stderr!r}")
            line = one_error_line(run(["tojson", "--schema", text], stdin=b"\x00"),
                                  f"tojson {text} of one byte")
            check("1 byte" in line and "zero bytes" in line, f"tojson says why: {line}")
            p = run(["fromjson", "--schema", text], stdin=(pwhat + "\n").encode())
            check(p.returncode == 0 and p.stdout == b"", f"fromjson {text}: one value, no bytes")
            line = one_error_line(run(["fromjson", "--schema", text],
                                      stdin=(pwhat + "\n" + pwhat + "\n").encode()),
                                  f"fromjson {text} of two values")
            check(":2:" in line, f"fromjson names the second line: {line}")
        else:
            line = one_error_line(p, f"tojson {text} of no bytes")
            check(line == "avrogen: error: -: no datum in input", f"tojson says so: {line}")
        line = one_error_line(run(["fromjson", "--schema", text], stdin=b"\n\n"),
                              f"fromjson {text} of no value")
        check("no JSON value in input" in line, f"fromjson says so: {line}")
    check(empty_ones == 4, f"four zero-byte schemas: {empty_ones}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    main(sys.argv[2])
    sys.exit(clitest.summary("cli empty input"))
