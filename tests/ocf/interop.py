#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Container-file interop between our reader/writer (through ocf_tool) and real
peers: python3-avro 1.11.1 (null, deflate, snappy, zstandard, bzip2), Python's
lzma module for the spec's "xz" codec (python3-avro 1.11.1 has none), and
avro-c 1.11.1's avrocat / avromod (null, deflate, snappy).

Every expectation comes from a peer: datum bytes are what avro.io's
BinaryEncoder writes for the same records, and files we write must read back,
in the peers, to records that re-encode to those same bytes.

Usage: interop.py OCF_TOOL WORK_DIR [AVROCAT AVROMOD]
"""
import io
import json
import lzma
import os
import random
import struct
import subprocess
import sys

import avro.codecs
import avro.datafile
import avro.io
import avro.schema

SCHEMA_JSON = {
    "type": "record", "name": "Reading", "namespace": "test.ocf",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "sensor", "type": "string"},
        {"name": "value", "type": "double"},
        {"name": "ratio", "type": "float"},
        {"name": "ok", "type": "boolean"},
        {"name": "small", "type": "int"},
        {"name": "note", "type": ["null", "string"]},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "long"}},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}},
        {"name": "digest", "type": {"type": "fixed", "name": "MD5", "size": 16}},
        {"name": "raw", "type": "bytes"},
        {"name": "loc", "type": {"type": "record", "name": "Point", "fields": [
            {"name": "lat", "type": "double"}, {"name": "lon", "type": "double"}]}},
    ],
}
SCHEMA = avro.schema.parse(json.dumps(SCHEMA_JSON))
WORDS = ["alpha", "beta", "gamma", "délta", "日本語", "emoji-\U0001f600", "", "x" * 40]
PY_CODECS = ["null", "deflate", "snappy", "zstandard", "bzip2"]
OUR_CODECS = PY_CODECS + ["xz"]
AVROC_CODECS = ["null", "deflate", "snappy"]

failures = []


def check(cond, what):
    if cond:
        print(f"ok   {what}")
    else:
        print(f"FAIL {what}")
        failures.append(what)


def make_records(n, seed):
    rng = random.Random(seed)
    recs = []
    for i in range(n):
        recs.append({
            "id": rng.randint(-(2 ** 63), 2 ** 63 - 1) if i % 7 else i,
            "sensor": rng.choice(WORDS) + str(i),
            "value": rng.uniform(-1e6, 1e6),
            "ratio": rng.random(),
            "ok": rng.random() < 0.5,
            "small": rng.randint(-(2 ** 31), 2 ** 31 - 1),
            "note": None if i % 3 == 0 else rng.choice(WORDS),
            "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 4))],
            "attrs": {rng.choice(WORDS) + str(k): rng.randint(-1000, 1000) for k in range(rng.randint(0, 3))},
            "kind": rng.choice(["A", "B", "C"]),
            "digest": bytes(rng.getrandbits(8) for _ in range(16)),
            "raw": bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 30))),
            "loc": {"lat": rng.uniform(-90, 90), "lon": rng.uniform(-180, 180)},
        })
    return recs


def encode(schema, rec):
    buf = io.BytesIO()
    avro.io.DatumWriter(schema).write(rec, avro.io.BinaryEncoder(buf))
    return buf.getvalue()


def write_frames(path, datums):
    with open(path, "wb") as f:
        for d in datums:
            f.write(struct.pack(">I", len(d)))
            f.write(d)


def read_frames(path):
    out = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        out.append(data[pos + 4:pos + 4 + n])
        pos += 4 + n
    return out


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def our_read(tool, path, work):
    """Datums of `path` as our reader delimits them, with its codec and block count."""
    frames = os.path.join(work, "read.frames")
    p = run([tool, "read", path, frames])
    if p.returncode != 0:
        return None, p.stderr.strip(), 0
    codec, _, blocks = p.stdout.split()
    return read_frames(frames), codec, int(blocks)


def python_write(path, recs, codec, sync_interval=1500):
    avro.datafile.SYNC_INTERVAL = sync_interval
    with open(path, "wb") as f:
        w = avro.datafile.DataFileWriter(f, avro.io.DatumWriter(), SCHEMA, codec=codec)
        for r in recs:
            w.append(r)
        w.close()


def python_read_datums(path):
    """Records python3-avro reads from `path`, re-encoded to bytes, and the file's codec."""
    with open(path, "rb") as f:
        r = avro.datafile.DataFileReader(f, avro.io.DatumReader())
        codec = r.meta.get("avro.codec", b"null").decode()
        out = [encode(SCHEMA, rec) for rec in r]
        r.close()
    return out, codec


def xz_container_read(path):
    """Parse a container by hand and decompress its blocks with Python's lzma (FORMAT_XZ)."""
    with open(path, "rb") as f:
        data = f.read()
    f = io.BytesIO(data)
    dec = avro.io.BinaryDecoder(f)
    assert f.read(4) == b"Obj\x01"
    meta = {}
    while True:
        n = dec.read_long()
        if n == 0:
            break
        if n < 0:
            n = -n
            dec.read_long()
        for _ in range(n):
            key = dec.read_utf8()
            meta[key] = dec.read_bytes()
    sync = f.read(16)
    schema = avro.schema.parse(meta["avro.schema"].decode())
    reader = avro.io.DatumReader(schema)
    out = []
    while f.tell() < len(data):
        count = dec.read_long()
        size = dec.read_long()
        block = lzma.decompress(f.read(size), format=lzma.FORMAT_XZ)
        assert f.read(16) == sync, "sync marker"
        bd = avro.io.BinaryDecoder(io.BytesIO(block))
        for _ in range(count):
            out.append(encode(schema, reader.read(bd)))
    return out, meta["avro.codec"].decode()


def xz_container_write(path, datums, check_kind, per_block=40):
    """An "xz" container made with Python's lzma: what Java's XZ codec writes, an .xz stream per block."""
    sync = os.urandom(16)
    buf = io.BytesIO()
    enc = avro.io.BinaryEncoder(buf)
    buf.write(b"Obj\x01")
    enc.write_long(2)
    enc.write_utf8("avro.schema")
    enc.write_bytes(json.dumps(SCHEMA_JSON).encode())
    enc.write_utf8("avro.codec")
    enc.write_bytes(b"xz")
    enc.write_long(0)
    buf.write(sync)
    for k in range(0, len(datums), per_block):
        chunk = datums[k:k + per_block]
        packed = lzma.compress(b"".join(chunk), format=lzma.FORMAT_XZ, check=check_kind)
        enc.write_long(len(chunk))
        enc.write_long(len(packed))
        buf.write(packed)
        buf.write(sync)
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def main():
    tool, work = sys.argv[1], sys.argv[2]
    avrocat = sys.argv[3] if len(sys.argv) > 3 else None
    avromod = sys.argv[4] if len(sys.argv) > 4 else None
    os.makedirs(work, exist_ok=True)
    check(set(avro.codecs.KNOWN_CODECS) >= set(PY_CODECS),
          f"python3-avro supports {sorted(avro.codecs.KNOWN_CODECS)}")

    recs = make_records(3000, 1)
    datums = [encode(SCHEMA, r) for r in recs]
    schema_path = os.path.join(work, "reading.avsc")
    with open(schema_path, "w") as f:
        json.dump(SCHEMA_JSON, f)
    frames = os.path.join(work, "all.frames")
    write_frames(frames, datums)

    # python3-avro writes, we read: the same datum bytes, in many blocks.
    for codec in PY_CODECS:
        path = os.path.join(work, f"py-{codec}.avro")
        python_write(path, recs, codec)
        got, got_codec, blocks = our_read(tool, path, work)
        check(got_codec == codec and blocks > 50, f"python {codec}: our reader sees codec {got_codec}, {blocks} blocks")
        check(got == datums, f"python {codec}: our reader returns python's {len(datums)} datums byte for byte")

    # We write, python3-avro reads (and python's lzma for xz): the same records.
    for codec in OUR_CODECS:
        path = os.path.join(work, f"ours-{codec}.avro")
        p = run([tool, "write", schema_path, codec, "2000", frames, path])
        check(p.returncode == 0, f"ours {codec}: written {p.stderr.strip()}")
        if codec == "xz":
            got, got_codec = xz_container_read(path)
        else:
            got, got_codec = python_read_datums(path)
        check(got_codec == codec, f"ours {codec}: the peer sees avro.codec {got_codec}")
        check(got == datums, f"ours {codec}: the peer reads back all {len(datums)} records equal")

    # The spec's xz codec as another writer makes it, with each kind of .xz check.
    for check_kind, name in [(lzma.CHECK_CRC64, "crc64"), (lzma.CHECK_CRC32, "crc32"),
                             (lzma.CHECK_SHA256, "sha256"), (lzma.CHECK_NONE, "none")]:
        path = os.path.join(work, f"pyxz-{name}.avro")
        xz_container_write(path, datums, check_kind)
        got, got_codec, _ = our_read(tool, path, work)
        check(got == datums and got_codec == "xz", f"python lzma xz ({name} check): our reader returns every datum")

    # Appending across implementations.
    first, second = datums[:1200], datums[1200:]
    path = os.path.join(work, "append-py-then-ours.avro")
    python_write(path, recs[:1200], "deflate")
    part = os.path.join(work, "second.frames")
    write_frames(part, second)
    p = run([tool, "append", part, path, "3000"])
    check(p.returncode == 0, f"append to python's deflate file {p.stderr.strip()}")
    got, _ = python_read_datums(path)
    check(got == datums, "python reads its file plus our appended blocks")

    path = os.path.join(work, "append-ours-then-py.avro")
    write_frames(part, first)
    p = run([tool, "write", schema_path, "snappy", "3000", part, path])
    check(p.returncode == 0, f"ours snappy, first part: written {p.stderr.strip()}")
    with open(path, "r+b") as f:
        w = avro.datafile.DataFileWriter(f, avro.io.DatumWriter())
        for r in recs[1200:]:
            w.append(r)
        w.close()
    got, _, _ = our_read(tool, path, work)
    check(got == datums, "our reader reads our snappy file plus python's appended blocks")

    if avrocat is None or avromod is None:
        # scripts/bootstrap installs avro-bin: a missing peer fails (issue 12).
        check(False, "avro-c's avrocat / avromod not found (scripts/bootstrap installs avro-bin)")
    else:
        # avro-c reads our files exactly as it reads python's of the same records.
        for codec in AVROC_CODECS:
            ours = run([avrocat, os.path.join(work, f"ours-{codec}.avro")])
            theirs = run([avrocat, os.path.join(work, f"py-{codec}.avro")])
            check(ours.returncode == 0 and ours.stdout == theirs.stdout
                  and ours.stdout.count("\n") == len(datums),
                  f"avrocat {codec}: our file prints the same {ours.stdout.count(chr(10))} lines as python's "
                  f"{ours.stderr.strip()}")
        # avro-c writes (avromod re-encodes python's file), we read.
        src = os.path.join(work, "py-null.avro")
        for codec in AVROC_CODECS:
            path = os.path.join(work, f"avroc-{codec}.avro")
            p = run([avromod, f"--codec={codec}", "--block-size=4000", src, path])
            got, got_codec, blocks = our_read(tool, path, work)
            check(p.returncode == 0 and got == datums and got_codec == codec and blocks > 10,
                  f"avro-c {codec}: our reader returns every datum ({blocks} blocks)")
        # avro-c's "lzma" codec is raw LZMA2 under a name the spec does not have: refused by name.
        path = os.path.join(work, "avroc-lzma.avro")
        p = run([avromod, "--codec=lzma", src, path])
        got, err, _ = our_read(tool, path, work)
        check(p.returncode == 0 and got is None and 'unsupported codec "lzma"' in err,
              f"avro-c lzma: refused with '{err}'")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
