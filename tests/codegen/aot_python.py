#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check ahead-of-time resolved decoders against python3-avro 1.11.1.

usage: aot_python.py TEST_AOT EARLIER_DIR GENERATED_DIR

For each earlier schema below, python3-avro writes random datums with it;
`TEST_AOT peer` decodes them with the decoder generated for that writer and
re-encodes the struct with P_avro_encode; Python's DatumReader(writer, reader)
reads the same bytes and DatumWriter(reader) encodes the result. The two
encodings must be equal byte for byte.

Only earlier schemas within what python3-avro 1.11.1 resolves are used here (it
has no aliases, no string/bytes promotion, no enum defaults, and reads no
writer union as a non-union): the promotions, defaults and recursion of
aot_point_v0 and aot_node_v0, and the integers, instants, counted and
padded members of aot_shapes_v0 (not v1: python3-avro 1.11.1 does not
resolve an array of int as an array of long, io.py's match_schemas). test_aot.c compares every earlier schema with the
generic resolver, which tests/interop/resolve_python.py checks against Python.

Prints "N passed"; exit status 0 when all pass, 1 otherwise, 2 on bad usage.
"""

import io
import os
import random
import struct
import subprocess
import sys
import tempfile

import avro.io
import avro.schema

# (earlier schema, the reader's generated .avsc)
PAIRS = [
    ("aot_point_v0.avsc", "aot.aot_point.avsc"),
    ("aot_node_v0.avsc", "aot.aot_node.avsc"),
    ("aot_shapes_v0.avsc", "aot.aot_shapes.avsc"),
    ("aot_lisp_v0.avsc", "aot.aot_lisp.avsc"),
]
DATUMS = 200


def parse(path):
    with open(path, encoding="utf-8") as f:
        return avro.schema.parse(f.read())


def random_datum(rng, s, depth=0, unsigned=False):
    """A random datum of the (small) schemas above; not negative when `unsigned`
    (fields named u_*, unsigned in C), in 0..15 in fields named bits_*."""
    if isinstance(s, avro.schema.RecordSchema):
        datum = {f.name: random_datum(rng, f.type, depth + 1, f.name.startswith("u_"))
                 for f in s.fields}
        for name in datum:
            if name.startswith("bits_"):  # a 4-bit bit-field in C
                datum[name] &= 15
        return datum
    if isinstance(s, avro.schema.UnionSchema):
        branches = s.schemas
        if depth > 6:
            branches = [b for b in branches if b.type == "null"] or branches
        return random_datum(rng, rng.choice(branches), depth + 1)
    if s.type == "null":
        return None
    if s.type == "int":
        x = rng.choice([0, 1, -1, 2**31 - 1, -2**31, rng.randint(-2**31, 2**31 - 1)])
        return ~x if unsigned and x < 0 else x
    if s.type == "long":
        x = rng.choice([0, 1, -1, 2**63 - 1, -2**63, rng.randint(-2**63, 2**63 - 1)])
        return ~x if unsigned and x < 0 else x
    if s.type == "string":
        return "".join(rng.choice("abc/- ") for _ in range(rng.randint(0, 15)))
    if s.type == "array":
        return [random_datum(rng, s.items, depth + 1) for _ in range(rng.randint(0, 4))]
    raise ValueError("no generator for " + str(s))


def without_logical_types(path):
    """The schema at path with every logicalType dropped. python3-avro 1.11.1
    resolves an int writer to a timestamp-micros reader as the plain int and
    then refuses that int when encoding with the reader schema (it wants a
    datetime): the bytes are the same long either way."""
    import json

    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "logicalType"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    with open(path, encoding="utf-8") as f:
        return avro.schema.parse(json.dumps(strip(json.load(f))))


def encode(schema, datum):
    buf = io.BytesIO()
    avro.io.DatumWriter(schema).write(datum, avro.io.BinaryEncoder(buf))
    return buf.getvalue()


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    helper, earlier_dir, generated_dir = sys.argv[1:]
    passed = failed = 0
    rng = random.Random(20240611)
    with tempfile.TemporaryDirectory(prefix="avrogen-aot-") as tmp:
        for writer_file, reader_file in PAIRS:
            writer = parse(os.path.join(earlier_dir, writer_file))
            reader = parse(os.path.join(generated_dir, reader_file))
            reader_plain = without_logical_types(os.path.join(generated_dir, reader_file))
            datums = [encode(writer, random_datum(rng, writer)) for _ in range(DATUMS)]
            src, dst = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
            with open(src, "wb") as f:
                for d in datums:
                    f.write(struct.pack("<I", len(d)) + d)
            p = subprocess.run([helper, "peer", os.path.join(earlier_dir, writer_file), src, dst],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode != 0:
                print("FAIL: %s peer: exit %d\n%s" % (writer_file, p.returncode,
                                                      p.stderr.decode("utf-8", "replace")))
                return 1
            with open(dst, "rb") as f:
                out = f.read()
            pos = 0
            for i, d in enumerate(datums):
                status, n = struct.unpack_from("<II", out, pos)
                pos += 8
                ours = out[pos:pos + n]
                pos += n
                resolved = avro.io.DatumReader(writer, reader).read(avro.io.BinaryDecoder(io.BytesIO(d)))
                want = encode(reader_plain, resolved)
                if status != 0 or ours != want:
                    print("FAIL: %s datum %d (%s): status %d, ours %s, python3-avro %s"
                          % (writer_file, i, d.hex(), status, ours.hex(), want.hex()))
                    failed += 1
                else:
                    passed += 1
            if pos != len(out):
                print("FAIL: %s: %d bytes of output left over" % (writer_file, len(out) - pos))
                failed += 1
    # A floor: a case list or peer that went missing must not pass (issue 12).
    if passed < 540:
        print(f"FAIL: only {passed} checks passed, below the floor of 540")
        return 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
