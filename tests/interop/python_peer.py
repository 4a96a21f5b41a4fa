#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check avrogen's generic values against python3-avro 1.11.1.

usage: python_peer.py INTEROP_DUMP

Runs INTEROP_DUMP (tests/interop/interop_dump.c) into a temporary directory,
then for every case it wrote:

  * Python's DatumReader decodes our binary datums one after the other, and
    Python's DatumWriter re-encodes each to exactly our bytes;
  * the Avro JSON encoding of Python's datum (built here by the spec's rules:
    unions as {"fullname or type": value}, null branches as null, bytes and
    fixed as ISO-8859-1 strings, NaN and infinities as "NaN"/"Infinity"/
    "-Infinity"), printed with json.dumps() defaults, equals our line byte for
    byte;
  * for defaults<k>: Python resolves an empty writer record against the
    schema, filling every field from its default, and its JSON equals the
    record avrogen assembled with avrogen_value_from_default.

python3-avro has no JSON encoder of its own, hence the small one here.
Logical types are removed from the schema before Python sees it: Python turns
them into Decimal, datetime, ... while avrogen keeps the underlying type, and
the bytes on the wire are what is being compared.

Exit status 0 when everything agrees, 1 otherwise, 2 on bad usage.
"""

import io
import json
import math
import os
import subprocess
import sys
import tempfile

import avro.io
import avro.schema

NAMED = ("record", "error", "enum", "fixed")


def strip_logical(node):
    if isinstance(node, dict):
        return {k: strip_logical(v) for k, v in node.items() if k != "logicalType"}
    if isinstance(node, list):
        return [strip_logical(v) for v in node]
    return node


def parse_schema(text):
    return avro.schema.parse(json.dumps(strip_logical(json.loads(text))))


class Branch:
    """A union's value with the branch its bytes select (BranchReader): a
    Python value alone cannot tell int from long, or False from 0.0."""

    def __init__(self, schema, value):
        self.schema, self.value = schema, value


class BranchReader(avro.io.DatumReader):
    """python3-avro's DatumReader, every union's value read as a Branch."""

    def read_union(self, writers_schema, readers_schema, decoder):
        index = int(decoder.read_long())
        if not 0 <= index < len(writers_schema.schemas):
            raise ValueError(f"union branch {index} of {len(writers_schema.schemas)}")
        branch = writers_schema.schemas[index]
        return Branch(branch, self.read_data(branch, branch, decoder))


def avro_json(schema, datum):
    t = schema.type
    if t == "null":
        return None
    if t in ("boolean", "int", "long", "string", "enum"):
        return datum
    if t in ("float", "double"):
        if math.isnan(datum):
            return "NaN"
        if math.isinf(datum):
            return "Infinity" if datum > 0 else "-Infinity"
        return float(datum)
    if t in ("bytes", "fixed"):
        return datum.decode("latin-1")
    if t == "array":
        return [avro_json(schema.items, x) for x in datum]
    if t == "map":
        return {k: avro_json(schema.values, v) for k, v in datum.items()}
    if t in ("record", "error"):
        return {f.name: avro_json(f.type, datum[f.name]) for f in schema.fields}
    if t == "union" and isinstance(datum, Branch):
        if datum.schema.type == "null":
            return None
        name = datum.schema.fullname if datum.schema.type in NAMED else datum.schema.type
        return {name: avro_json(datum.schema, datum.value)}
    if t == "union":
        for branch in schema.schemas:
            if avro.io.validate(branch, datum):
                if branch.type == "null":
                    return None
                name = branch.fullname if branch.type in NAMED else branch.type
                return {name: avro_json(branch, datum)}
        raise ValueError(f"no union branch fits {datum!r}")
    raise ValueError(f"unknown type {t}")


def check_case(directory, name, failures):
    with open(os.path.join(directory, name + ".avsc"), encoding="utf-8") as f:
        schema = parse_schema(f.read())
    with open(os.path.join(directory, name + ".bin"), "rb") as f:
        data = f.read()
    with open(os.path.join(directory, name + ".jsonl"), encoding="utf-8") as f:
        lines = f.read().split("\n")[:-1]
    reader = avro.io.DatumReader(schema)
    writer = avro.io.DatumWriter(schema)
    stream = io.BytesIO(data)
    decoder = avro.io.BinaryDecoder(stream)
    index = 0
    while stream.tell() < len(data):
        start = stream.tell()
        datum = reader.read(decoder)
        ours = data[start : stream.tell()]
        out = io.BytesIO()
        writer.write(datum, avro.io.BinaryEncoder(out))
        if out.getvalue() != ours:
            failures.append(f"{name}[{index}]: Python encodes {out.getvalue().hex()}, we wrote {ours.hex()}")
        text = json.dumps(avro_json(schema, datum))
        if index >= len(lines) or text != lines[index]:
            got = lines[index] if index < len(lines) else "(missing)"
            failures.append(f"{name}[{index}]: JSON differs\n  python: {text}\n  ours:   {got}")
        index += 1
    if index != len(lines):
        failures.append(f"{name}: Python read {index} datums, we wrote {len(lines)}")
    return index


def check_defaults(directory, name, failures):
    with open(os.path.join(directory, name + ".avsc"), encoding="utf-8") as f:
        reader_schema = parse_schema(f.read())
    with open(os.path.join(directory, name + ".jsonl"), encoding="utf-8") as f:
        ours = f.read().rstrip("\n")
    empty = avro.schema.parse(json.dumps({"type": "record", "name": reader_schema.fullname, "fields": []}))
    datum = avro.io.DatumReader(empty, reader_schema).read(avro.io.BinaryDecoder(io.BytesIO(b"")))
    text = json.dumps(avro_json(reader_schema, datum))
    if text != ours:
        failures.append(f"{name}: defaults differ\n  python: {text}\n  ours:   {ours}")


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    failures = []
    with tempfile.TemporaryDirectory(prefix="avrogen-interop-") as directory:
        subprocess.run([argv[0], directory], check=True)
        names = sorted(n[:-5] for n in os.listdir(directory) if n.endswith(".avsc"))
        datums = 0
        for name in names:
            if name.startswith("defaults"):
                check_defaults(directory, name, failures)
            else:
                datums += check_case(directory, name, failures)
    # A floor: a case list or dump that went missing must not pass (issue 12).
    if datums < 30:
        failures.append(f"only {datums} datums compared, below the floor of 30")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    if failures:
        return 1
    print(f"python_peer: {datums} datums and {sum(n.startswith('defaults') for n in names)} default records agree with python3-avro")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
