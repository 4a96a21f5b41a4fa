#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The container-file verbs against python3-avro 1.11.1.

usage: verbs_test.py AVROGEN

Files come from Python's DataFileWriter (every codec it has, many blocks,
user metadata) and from `avrogen write` (every codec); every expectation comes
from Python: its records, printed as the Avro JSON encoding with json.dumps
(indent=2 for --pretty), its header (metadata, sync marker), and the block
framing parsed here by the spec.

* count: records per file and in total, several files and stdin; a damaged
  file is one error line with its offset.
* head, cat --offset / --limit / --sample / --seed / --pretty, several files,
  "-": the slices of Python's records across the files, in order.
* getmeta: codec, sync marker, blocks, records, every metadata entry, --key.
* cat of a 60 MiB bytes value streams its 250 MB of JSON in bounded memory.
"""

import json
import os
import random
import sys
import tempfile

import avro.datafile
import avro.io
import avro.schema

import clitest
from clitest import (OUR_CODECS, blocks_of, check, damaged_copy, json_lines, one_error_line,
                     python_codecs, python_read, python_write, run)

SCHEMA_TEXT = json.dumps({
    "type": "record", "name": "Event", "namespace": "test.cli",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "who", "type": "string"},
        {"name": "score", "type": "double"},
        {"name": "note", "type": ["null", "string"]},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "int"}},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}},
        {"name": "raw", "type": "bytes"},
    ]})
SCHEMA = avro.schema.parse(SCHEMA_TEXT)
WORDS = ["alpha", "béta", "日本", "emoji-\U0001f600", "", "quote\"back\\slash", "x" * 30]


def records(n, seed):
    rng = random.Random(seed)
    return [{
        "id": i * 7919 - 10**6,
        "who": rng.choice(WORDS) + str(i),
        "score": rng.choice([0.5, -1.25, 1e-7, 3.0e20, rng.random()]),
        "note": None if i % 3 == 0 else rng.choice(WORDS),
        "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 3))],
        "attrs": {rng.choice(WORDS) + str(k): rng.randint(-9, 9) for k in range(rng.randint(0, 2))},
        "kind": rng.choice(["A", "B", "C"]),
        "raw": bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 6))),
    } for i in range(n)]


def make_files(tmp):
    """{name: (path, datums)}: Python's files with every codec, ours with every codec."""
    files = {}
    for i, codec in enumerate(python_codecs()):
        datums = records(300 + i, seed=i)
        path = os.path.join(tmp, f"py-{codec}.avro")
        python_write(path, SCHEMA, datums, codec=codec, flush_every=37,
                     meta={"app.origin": b"verbs_test", "app.blob": b"\x00\xff\n\\"})
        files[f"py-{codec}"] = (path, datums)
    schema_path = os.path.join(tmp, "event.avsc")
    with open(schema_path, "w") as f:
        f.write(SCHEMA_TEXT)
    datums = records(2500, seed=99)
    jsonl = os.path.join(tmp, "events.jsonl")
    with open(jsonl, "w") as f:
        f.write(json_lines(SCHEMA, datums))
    for codec in OUR_CODECS:
        path = os.path.join(tmp, f"ours-{codec}.avro")
        p = run(["write", "--schema", schema_path, "--codec", codec, jsonl, path])
        check(p.returncode == 0, f"write {codec}: {p.stderr!r}")
        check(python_read(path) == datums if codec in python_codecs() else True,
              f"python reads ours-{codec}")
        files[f"ours-{codec}"] = (path, datums)
    return files


def test_count(files, tmp):
    total = 0
    for name, (path, datums) in files.items():
        p = run(["count", path])
        check(p.returncode == 0 and p.stdout == f"{len(datums)}\n".encode(),
              f"count {name}: {p.stdout!r} {p.stderr!r}")
        total += len(datums)
        with open(path, "rb") as f:
            p = run(["count", "-"], stdin=f.read())
        check(p.stdout == f"{len(datums)}\n".encode(), f"count - < {name}: {p.stdout!r}")
    paths = [path for path, _ in files.values()]
    p = run(["count"] + paths)
    want = "".join(f"{len(d)}\t{path}\n" for path, d in files.values()) + f"{total}\ttotal\n"
    check(p.returncode == 0 and p.stdout.decode() == want, f"count of every file: {p.stdout!r}")

    # Damage: a file cut inside its third block, and one whose sync marker is flipped.
    path, datums = files["py-deflate"]
    blocks = blocks_of(path)
    cut = damaged_copy(path, os.path.join(tmp, "cut.avro"), cut=blocks[2][0] + 9)
    p = run(["count", cut])
    line = one_error_line(p, "count of a truncated file")
    check(f"offset {blocks[2][0]}" in line and cut in line, f"count names file and offset: {line}")
    flipped = damaged_copy(path, os.path.join(tmp, "flipped.avro"), flip=blocks[1][2] - 3)
    p = run(["count", flipped, path])
    line = one_error_line(p, "count with a flipped sync marker")
    check(f"offset {blocks[1][0]}" in line and "sync marker" in line, f"count: {line}")
    check(p.stdout.decode() == f"{len(datums)}\t{path}\n{len(datums)}\ttotal\n",
          f"count goes on with the other files: {p.stdout!r}")


def test_cat_slices(files, tmp):
    names = ["py-null", "ours-zstandard", "py-deflate"]
    paths = [files[n][0] for n in names]
    datums = [d for n in names for d in files[n][1]]
    lines = json_lines(SCHEMA, datums).splitlines(keepends=True)
    p = run(["cat"] + paths)
    check(p.returncode == 0 and p.stdout.decode() == "".join(lines), "cat of three files")
    p = run(["head"] + paths)
    check(p.stdout.decode() == "".join(lines[:10]), "head: the first 10 records")
    p = run(["head", "-n", "3", paths[0]])
    check(p.stdout.decode() == "".join(lines[:3]), "head -n 3")
    p = run(["head", "--limit=0", paths[0]])
    check(p.returncode == 0 and p.stdout == b"", "head --limit=0 prints nothing")

    # Offsets at, before and after block boundaries, and past the end.
    first = blocks_of(paths[0])
    bounds = sorted({0, 1, 36, 37, 38, first[3][1] and 37 * 3, len(files[names[0]][1]),
                     len(files[names[0]][1]) + 5, len(datums) - 1, len(datums), len(datums) + 9})
    for off in bounds:
        for limit in (None, 0, 1, 50):
            args = ["cat", "--offset", str(off)] + (["--limit", str(limit)] if limit is not None
                                                     else []) + paths
            want = lines[off:] if limit is None else lines[off:off + limit]
            p = run(args)
            check(p.returncode == 0 and p.stdout.decode() == "".join(want),
                  f"cat --offset {off} --limit {limit}: {len(p.stdout)} bytes, {p.stderr!r}")

    # --pretty: json.dumps(indent=2), one record after the other.
    p = run(["cat", "--pretty", "--limit", "25", paths[1]])
    want = json_lines(SCHEMA, files[names[1]][1][:25], indent=2)
    check(p.stdout.decode() == want, "cat --pretty is json.dumps(indent=2)")
    p = run(["head", "-n", "2", "--pretty", paths[0]])
    check(p.stdout.decode() == json_lines(SCHEMA, files[names[0]][1][:2], indent=2),
          "head --pretty")

    # --sample: an ordered subset, the same for the same seed, about RATE of the records.
    a = run(["cat", "--sample", "0.1", "--seed", "7"] + paths).stdout.decode()
    b = run(["cat", "--sample", "0.1", "--seed", "7"] + paths).stdout.decode()
    c = run(["cat", "--sample", "0.1", "--seed", "8"] + paths).stdout.decode()
    picked = a.splitlines(keepends=True)
    check(a == b, "--sample with one seed picks the same records")
    check(a != c, "--sample with another seed picks others")
    it = iter(lines)
    check(all(line in it for line in picked), "--sample keeps records in order, unchanged")
    check(0.05 * len(lines) < len(picked) < 0.15 * len(lines),
          f"--sample 0.1 keeps about a tenth: {len(picked)} of {len(lines)}")
    p = run(["cat", "--sample", "1"] + paths)
    check(p.stdout.decode() == "".join(lines), "--sample 1 keeps everything")
    # Offset first, then sampling, then the limit counts what is printed.
    p = run(["cat", "--offset", "100", "--sample", "0.5", "--seed", "3", "--limit", "20"] + paths)
    got = p.stdout.decode().splitlines(keepends=True)
    it = iter(lines[100:])
    check(len(got) == 20 and all(line in it for line in got), "offset, sample, limit together")

    # Standard input, among files.
    with open(paths[1], "rb") as f:
        p = run(["cat", paths[0], "-", paths[2]], stdin=f.read())
    check(p.stdout.decode() == "".join(lines), "cat FILE - FILE < FILE")
    for args in (["cat", "-", "-"], ["cat", "--offset", "x", paths[0]], ["cat", "--sample", "0",
                 paths[0]], ["cat", "--sample", "1.5", paths[0]], ["head", "-n"], ["cat"],
                 ["count"], ["getmeta"], ["getmeta", paths[0], paths[1]]):
        p = run(args)
        check(p.returncode == 2, f"usage error {args}: exit 2, got {p.returncode}")

    # A damaged file among others: its records before the damage, the others whole, exit 1.
    path, d = files["py-deflate"]
    blocks = blocks_of(path)
    cut = damaged_copy(path, os.path.join(tmp, "cut-cat.avro"), cut=blocks[2][0] + 30)
    p = run(["cat", cut, paths[0]])
    before = blocks[0][1] + blocks[1][1]
    want = json_lines(SCHEMA, d[:before]) + json_lines(SCHEMA, files[names[0]][1])
    check(p.stdout.decode() == want, "cat: records before the damage, then the next file")
    line = one_error_line(p, "cat of a damaged file")
    check(f"offset {blocks[2][0]}" in line and cut in line, f"cat names file and offset: {line}")


def test_getmeta(files):
    for name, (path, datums) in files.items():
        with open(path, "rb") as f:
            reader = avro.datafile.DataFileReader(f, avro.io.DatumReader())
            meta, sync = dict(reader.meta), reader.sync_marker
        codec = meta.get("avro.codec", b"null").decode()
        p = run(["getmeta", path])
        out = p.stdout.decode("utf-8")
        check(p.returncode == 0, f"getmeta {name}: {p.stderr!r}")
        head = (f"codec: {codec}\nsync marker: {sync.hex()}\nblocks: {len(blocks_of(path))}\n"
                f"records: {len(datums)}\nmetadata:\n")
        check(out.startswith(head), f"getmeta {name}: {out[:200]!r} != {head!r}")
        entries = out[len(head):].splitlines()
        check(len(entries) == len(meta), f"getmeta {name}: every metadata entry: {entries}")
        for key, value in meta.items():
            shown = (value.decode().replace("\\", "\\\\").replace("\n", "\\n")
                     if key != "app.blob" else "\\x00\\xff\\n\\\\")
            check(f"  {key}: {shown}" in entries, f"getmeta {name}: {key}")
            p = run(["getmeta", "--key", key, path])
            check(p.returncode == 0 and p.stdout == value + b"\n", f"getmeta --key {key} {name}")
        with open(path, "rb") as f:
            p = run(["getmeta", "-"], stdin=f.read())
        check(p.stdout.decode("utf-8") == out, f"getmeta - < {name}")
    path = files["py-null"][0]
    p = run(["getmeta", "--key", "nosuch", path])
    line = one_error_line(p, "getmeta --key of a missing key")
    check("nosuch" in line, f"getmeta names the key: {line}")


def test_big_value(tmp):
    """A 60 MiB bytes value is 256 MB of JSON: it streams out, within the 256 MiB budget.

    The file is written and the expected text hashed without holding either in
    this process, whose size a child's peak RSS would include (fork)."""
    import hashlib
    import subprocess
    path = os.path.join(tmp, "big.avro")
    size = 60 << 20
    writer = (
        "import sys, avro.datafile, avro.io, avro.schema\n"
        "s = avro.schema.parse('{\"type\": \"record\", \"name\": \"B\", \"fields\": ["
        "{\"name\": \"b\", \"type\": \"bytes\"}]}')\n"
        "with avro.datafile.DataFileWriter(open(sys.argv[1], 'wb'), avro.io.DatumWriter(), s)"
        " as w:\n"
        "    w.append({'b': bytes(i % 256 for i in range(int(sys.argv[2])))})\n")
    subprocess.run([sys.executable, "-c", writer, path, str(size)], check=True)
    # The Avro JSON encoding: bytes as the code points U+0000..U+00FF, json.dumps-escaped.
    escape = [json.dumps(chr(i))[1:-1].encode() for i in range(256)]
    period = b"".join(escape)
    want = hashlib.sha256(b'{"b": "')
    for _ in range(size // 256):
        want.update(period)
    want.update(b'"}\n')
    p = subprocess.Popen([clitest.AVROGEN, "cat", path], stdout=subprocess.PIPE)
    got, n = hashlib.sha256(), 0
    for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
        got.update(chunk)
        n += len(chunk)
    _, status, usage = os.wait4(p.pid, 0)
    check(status == 0 and got.hexdigest() == want.hexdigest(),
          f"cat of a 60 MiB bytes value: {n} bytes of JSON")
    rss_mib = usage.ru_maxrss / 1024
    check(rss_mib < 256, f"cat of a 60 MiB value stays under 256 MiB: {rss_mib:.0f} MiB")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(tmp)
        test_count(files, tmp)
        test_cat_slices(files, tmp)
        test_getmeta(files)
        test_big_value(tmp)
    sys.exit(clitest.summary("cli verbs"))
