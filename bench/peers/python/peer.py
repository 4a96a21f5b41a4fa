# SPDX-License-Identifier: Apache-2.0
"""peer-python: fastavro on the bench Order records, for bench/peers/run.

Loads the records from the input container file (not timed), then times
encoding all of them into one buffer (schemaless_writer), decoding them all
from it (schemaless_reader), and for each codec asked for, writing a container
file of them (fastavro.writer) and reading it back (fastavro.reader). One JSON
line a phase on stdout (bench/peers/README.md). Runs in the venv that
bench/peers/bootstrap makes, so that the system python3's `avro` stays as is.
"""
import argparse
import io
import json
import os
import sys
import time

import fastavro

MASK = (1 << 64) - 1


def digest(o):
    return (o["id"] + o["counters"][-1] + o["lines"][-1]["quantity"]
            + len(o["customer"].encode()) + (o["note"] is not None))


def clock():
    return time.perf_counter(), time.process_time()


def report(t0, op, codec=None, **extra):
    wall, cpu = time.perf_counter() - t0[0], time.process_time() - t0[1]
    line = {"kind": "time", "op": op}
    if codec:
        line["codec"] = codec
    line.update(wall_ms=wall * 1e3, cpu_ms=cpu * 1e3, **extra)
    print(json.dumps(line), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--codecs", default="null,deflate,snappy,zstandard")
    ap.add_argument("--dump", action="store_true")
    ap.add_argument("--warmup", type=int, default=50000)
    ap.add_argument("--block-size", type=int, default=64000)
    a = ap.parse_args()
    if not fastavro.read.__name__.startswith("fastavro") or \
            not fastavro._read.__file__.endswith(".so"):
        sys.exit("peer-python: fastavro without its compiled reader")
    with open(a.schema) as f:
        schema = fastavro.parse_schema(json.load(f))

    with open(a.input, "rb") as f:  # load, not timed
        records = list(fastavro.reader(f))
    print(json.dumps({"kind": "info", "peer": "fastavro",
                      "version": "fastavro %s, CPython %s" % (
                          fastavro.__version__, sys.version.split()[0]),
                      "records": len(records)}), flush=True)

    w = min(a.warmup, len(records))  # warm-up, not timed
    buf = io.BytesIO()
    for o in records[:w]:
        fastavro.schemaless_writer(buf, schema, o)
    buf.seek(0)
    for _ in range(w):
        fastavro.schemaless_reader(buf, schema, None)

    t = clock()
    buf = io.BytesIO()
    write = fastavro.schemaless_writer
    for o in records:
        write(buf, schema, o)
    data = buf.getvalue()
    report(t, "encode", bytes=len(data))
    if a.dump:
        with open(os.path.join(a.out, "python.enc"), "wb") as f:
            f.write(data)

    t = clock()
    buf = io.BytesIO(data)
    read = fastavro.schemaless_reader
    s = 0
    for _ in range(len(records)):
        s += digest(read(buf, schema, None))
    report(t, "decode", count=len(records), digest=str(s & MASK))
    del data, buf

    for codec in a.codecs.split(","):
        path = os.path.join(a.out, "python.%s.avro" % codec)
        t = clock()
        with open(path, "wb") as f:
            fastavro.writer(f, schema, records, codec=codec,
                            sync_interval=a.block_size)
        report(t, "write", codec, file=path)
        t = clock()
        s = n = 0
        with open(path, "rb") as f:
            for o in fastavro.reader(f):
                s += digest(o)
                n += 1
        report(t, "read", codec, count=n, digest=str(s & MASK))


if __name__ == "__main__":
    main()
