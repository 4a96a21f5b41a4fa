#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A datum cut short names the member it ends in (issue 23), in every verb that reads data.

usage: decode_errors_test.py AVROGEN

An Order of five lines, written by python3-avro, is cut inside the name of its
fourth line, and inside its fourth line's quantity: `cat`, `validate` and
`head` of a container file holding it (one block, codec null, the datum's
bytes cut), and `tojson` of the bare datum, each print one error line naming
`Order.lines[3].name: input ends inside a string` (or `.qty: ... an int`) and
the byte where reading stopped, which is the one it was before the path was
named: the byte after the name's length.
"""

import io
import json
import os
import sys
import tempfile

import avro.io
import avro.schema

import clitest
from clitest import check, one_error_line, run

SCHEMA = {
    "type": "record", "name": "Order", "namespace": "shop", "fields": [
        {"name": "id", "type": "long"},
        {"name": "lines", "type": {"type": "array", "items": {
            "type": "record", "name": "Line", "fields": [
                {"name": "name", "type": "string"},
                {"name": "qty", "type": "int"}]}}},
        {"name": "note", "type": ["null", "string"]}]}

ORDER = {"id": 7, "lines": [{"name": f"item number {i}", "qty": 1000 * i} for i in range(5)],
         "note": None}


def encode(schema, datum):
    out = io.BytesIO()
    avro.io.DatumWriter(schema).write(datum, avro.io.BinaryEncoder(out))
    return out.getvalue()


def zigzag(n):
    """The Avro varint of n (spec: zigzag, 7 bits a byte, low group first)."""
    u = (n << 1) ^ (n >> 63)
    out = bytearray()
    while u >= 0x80:
        out.append(u & 0x7f | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def container(schema_json, payload, count=1):
    """An object container file of one null-codec block holding `payload` as is (spec: Object
    Container Files), so that a datum cut short stays inside an intact block."""
    sync = bytes(range(16))
    meta = zigzag(2)
    for key, value in (("avro.schema", schema_json.encode()), ("avro.codec", b"null")):
        meta += zigzag(len(key)) + key.encode() + zigzag(len(value)) + value
    meta += zigzag(0)
    return (b"Obj\x01" + meta + sync + zigzag(count) + zigzag(len(payload)) + payload + sync)


def main():
    schema_json = json.dumps(SCHEMA)
    schema = avro.schema.parse(schema_json)
    datum = encode(schema, ORDER)
    name = b"item number 3"
    at = datum.index(bytes([len(name) * 2]) + name)  # the fourth line's name, its length first
    cuts = [(at + 1 + 4, "Order.lines[3].name: input ends inside a string", at + 1),
            (at + 1 + len(name) + 1, "Order.lines[3].qty: input ends inside an int",
             at + 1 + len(name))]
    with tempfile.TemporaryDirectory() as tmp:
        schema_path = os.path.join(tmp, "order.avsc")
        with open(schema_path, "w") as f:
            f.write(schema_json)
        for cut, message, offset in cuts:
            part = datum[:cut]
            avro_path = os.path.join(tmp, f"cut{cut}.avro")
            with open(avro_path, "wb") as f:
                f.write(container(schema_json, part))
            for verb in (["cat"], ["validate"], ["head", "-n", "1"]):
                p = run(verb + [avro_path])
                line = one_error_line(p, f"{verb[0]} of a datum cut at {cut}")
                check(avro_path in line and f"(byte {offset} of the decompressed block): {message}"
                      in line, f"{verb[0]}, cut at {cut}: {line!r}")
            datum_path = os.path.join(tmp, f"cut{cut}.bin")
            with open(datum_path, "wb") as f:
                f.write(part)
            p = run(["tojson", "--schema", schema_path, datum_path])
            line = one_error_line(p, f"tojson of a datum cut at {cut}")
            check(f"datum 0 (at byte 0): {message} at byte {offset}" in line,
                  f"tojson, cut at {cut}: {line!r}")
        # The whole datum reads: the test's file is a good one but for the cut.
        good = os.path.join(tmp, "whole.avro")
        with open(good, "wb") as f:
            f.write(container(schema_json, datum))
        p = run(["cat", good])
        check(p.returncode == 0 and json.loads(p.stdout)["lines"][3]["name"] == "item number 3",
              f"cat of the whole datum: {p.stdout!r} {p.stderr!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    main()
    sys.exit(clitest.summary("cli decode errors"))
