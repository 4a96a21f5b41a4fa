#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check type plans (schema resolution into generated structs) against python3-avro 1.11.1.

usage: type_plan_python.py DUMPER

DUMPER is codegen_type_plan_dump (tests/codegen/type_plan_dump.c). It writes,
for pairs of generated records (a writer of tests/codegen/headers/cg_evolve_old.h
and the reader it evolves into), random writer datums and, per datum, the
status of the reader's type plan and the struct it decoded, encoded with the
reader's schema. For every datum:

  * when the plan read it, Python's DatumReader(writer, reader) reads the
    writer's bytes too, and DatumWriter(reader) writes what it read as exactly
    the bytes of the plan's struct;
  * when the plan refused it (a union branch the reader lacks), Python refuses
    it as well.

Prints "N passed, M failed"; exit status 0 when all pass, 1 otherwise,
2 on bad usage.
"""

import io
import os
import struct
import subprocess
import sys
import tempfile

import avro.errors
import avro.io
import avro.schema

E_MISMATCH = 8  # avrogen_status: AVROGEN_E_MISMATCH


def chunks(data):
    """The 4-byte-length-prefixed chunks of data."""
    pos = 0
    while pos < len(data):
        (n,) = struct.unpack_from("<I", data, pos)
        yield data[pos + 4:pos + 4 + n]
        pos += 4 + n


def outcomes(data):
    """(status, bytes or None) per datum of a .out file."""
    pos = 0
    while pos < len(data):
        status = data[pos]
        pos += 1
        if status != 0:
            yield status, None
            continue
        (n,) = struct.unpack_from("<I", data, pos)
        yield status, data[pos + 4:pos + 4 + n]
        pos += 4 + n


def check_pair(tmp, name):
    def read(ext, mode="rb"):
        with open(os.path.join(tmp, f"{name}.{ext}"), mode) as f:
            return f.read()

    writer = avro.schema.parse(read("writer.avsc", "r"))
    reader = avro.schema.parse(read("reader.avsc", "r"))
    datums = list(chunks(read("in")))
    results = list(outcomes(read("out")))
    if len(datums) != len(results) or not datums:
        return 0, [f"{name}: {len(datums)} datums, {len(results)} results"]
    failures, read_ok = [], 0
    for i, (data, (status, ours)) in enumerate(zip(datums, results)):
        try:
            value = avro.io.DatumReader(writer, reader).read(avro.io.BinaryDecoder(io.BytesIO(data)))
        except (avro.errors.SchemaResolutionException, avro.errors.AvroException) as e:
            if status != E_MISMATCH:
                failures.append(f"{name}[{i}]: Python refused ({e}), the plan gave status {status}")
            continue
        if status != 0:
            failures.append(f"{name}[{i}]: Python read it, the plan gave status {status}")
            continue
        out = io.BytesIO()
        avro.io.DatumWriter(reader).write(value, avro.io.BinaryEncoder(out))
        if out.getvalue() != ours:
            failures.append(f"{name}[{i}]: Python {out.getvalue().hex()}, plan {ours.hex()}")
            continue
        read_ok += 1
    if read_ok < len(datums) // 2:
        failures.append(f"{name}: only {read_ok} of {len(datums)} datums read")
    return len(datums) - len([f for f in failures if f.startswith(f"{name}[")]), failures


PAIRS = ["prims", "palette", "node", "tree", "pinned"]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    passed, failed = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([argv[1], tmp], check=True)
        for name in PAIRS:
            ok, failures = check_pair(tmp, name)
            passed += ok
            failed += failures
    for f in failed:
        print("FAIL", f)
    # A floor: a case list or peer that went missing must not pass (issue 12).
    if passed < 450:
        print(f"FAIL: only {passed} checks passed, below the floor of 450")
        return 1
    print(f"{passed} passed, {len(failed)} failed")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
