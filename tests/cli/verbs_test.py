#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The container-file verbs against python3-avro 1.11.1.

usage: verbs_test.py AVROGEN

Files come from Python's DataFileWriter (every codec it has, and xz through
Python's lzma; many blocks, user metadata) and from `avrogen write` (every codec); every expectation comes
from Python: its records, printed as the Avro JSON encoding with json.dumps
(indent=2 for --pretty), its header (metadata, sync marker), and the block
framing parsed here by the spec.

* count: records per file and in total, several files and stdin; a damaged
  file is one error line with its offset.
* head, cat --offset / --limit / --sample / --seed / --pretty, several files,
  "-": the slices of Python's records across the files, in order.
* getmeta: codec, sync marker, blocks, records, every metadata entry, --key.
* cat of two 64 MiB bytes values (Python writes each in a block of 64 MiB and
  a few bytes) streams their 2 x 270 MB of JSON within the CLI's 256 MiB
  per-datum budget (peak RSS); a block claiming more is refused, one error
  line with the file, its offset and the limit.
* concat: Python reads the records of every input in order, the first file's
  metadata and codec; blocks with that codec are copied byte for byte;
  different schemas are refused naming the difference, and nothing is written.
* recodec: every codec and a small block size; Python reads the same records.
* repair and validate on files damaged three ways (cut inside a block, a
  flipped sync marker, a corrupt payload), for every codec: validate names
  the first problem and its offset; repair keeps exactly the intact blocks
  (which Python reads), reports the dropped byte ranges and records.
* validate --schema: a reader schema that resolves, one that does not, and one
  that lacks an enum symbol some record uses.
* random: Python reads every record of every format (container with each
  codec, datums, JSON lines) and avro.io.validate accepts each against the
  schema; every union branch and enum symbol occurs; strings, bytes, arrays
  and maps stay within --max-length; logical types within their ranges; the
  same seed makes the same records in every format; a schema with no finite
  datum is refused.
* every file (Python's and ours, every codec): cat, head and validate print
  and count Python's records; Python reads what concat, recodec and repair
  make of it.
* a file cut inside a block, and one with a flipped sync marker: cat, head,
  count, getmeta, validate, concat and recodec print one error line with the
  file and the block's offset (the writing ones leave no file); repair drops
  that block.
* memory: on a 63 MiB file (null and deflate) no verb's peak RSS is more
  than 24 MiB over what the program takes to start, random's included.
* progress: with stderr on a terminal (a pty) and a run longer than a second
  (stdin fed slowly; random's stdout read slowly), every verb shows
  "avrogen: VERB N records" on one line and clears it at the end.
"""

import io
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
        # Every entry on a line of its own, but the schema: indented as json.dumps(indent=2)
        # prints it, under its key (DESIGN.md, Command line).
        schema = json.dumps(json.loads(meta["avro.schema"]), indent=2, ensure_ascii=False)
        shown_schema = "  avro.schema: " + schema.replace("\n", "\n  ")
        body = out[len(head):]
        check(shown_schema + "\n" in body, f"getmeta {name}: the schema indented: {body[:300]!r}")
        entries = body.replace(shown_schema + "\n", "").splitlines()
        check(len(entries) == len(meta) - 1, f"getmeta {name}: every metadata entry: {entries}")
        for key, value in meta.items():
            if key == "avro.schema":
                continue
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
    """Two 64 MiB bytes values are 2 x 270 MB of JSON: cat streams them out within the CLI's
    256 MiB per-datum budget; a block past that budget is refused, naming file and offset.

    The file is written and the expected text hashed without holding either in
    this process, whose size a child's peak RSS would include (fork)."""
    import hashlib
    import subprocess
    path = os.path.join(tmp, "big.avro")
    size, n = 64 << 20, 2
    writer = (
        "import sys, avro.datafile, avro.io, avro.schema\n"
        "s = avro.schema.parse('{\"type\": \"record\", \"name\": \"B\", \"fields\": ["
        "{\"name\": \"b\", \"type\": \"bytes\"}]}')\n"
        "with avro.datafile.DataFileWriter(open(sys.argv[1], 'wb'), avro.io.DatumWriter(), s)"
        " as w:\n"
        "    for _ in range(int(sys.argv[3])):\n"
        "        w.append({'b': bytes(range(256)) * (int(sys.argv[2]) // 256)})\n")
    subprocess.run([sys.executable, "-c", writer, path, str(size), str(n)], check=True)
    check(len(blocks_of(path)) == n, "python writes each 64 MiB value in a block of its own")
    # The Avro JSON encoding: bytes as the code points U+0000..U+00FF, json.dumps-escaped.
    escape = [json.dumps(chr(i))[1:-1].encode() for i in range(256)]
    period = b"".join(escape)

    def text_hash(start, end):
        h = hashlib.sha256()
        for _ in range(n):
            h.update(start)
            for _ in range(size // 256):
                h.update(period)
            h.update(end)
        return h.hexdigest()

    for args, want in ((["cat", path], text_hash(b'{"b": "', b'"}\n')),
                       (["cat", "--pretty", path], text_hash(b'{\n  "b": "', b'"\n}\n'))):
        p = subprocess.Popen([clitest.AVROGEN] + args, stdout=subprocess.PIPE)
        got, total = hashlib.sha256(), 0
        for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
            got.update(chunk)
            total += len(chunk)
        _, status, usage = os.wait4(p.pid, 0)
        check(status == 0 and got.hexdigest() == want,
              f"{' '.join(args[:-1])} of 64 MiB bytes values: {total} bytes of JSON")
        rss_mib = usage.ru_maxrss / 1024
        check(rss_mib < 256, f"{' '.join(args[:-1])} of 64 MiB values stays under 256 MiB: "
              f"{rss_mib:.0f} MiB")
    # validate decodes them too, within the budget.
    p = run(["validate", path])
    check(p.returncode == 0, f"validate of 64 MiB values: {p.stderr!r}")
    # A block that claims more than the budget is refused before it is read.
    with open(path, "rb") as f:
        head = f.read(blocks_of(path)[0][0])
    over = os.path.join(tmp, "over.avro")
    with open(over, "wb") as f:
        # spec: a block is its object count and byte size as zigzag longs, then the payload.
        f.write(head + bytes([2]) + zigzag(257 << 20) + b"\x00" * 4096)
    line = one_error_line(run(["cat", over]), "cat of a block over the budget")
    check(over in line and f"offset {len(head)}" in line and "max_block_size" in line,
          f"cat names the file, the offset and the limit: {line}")


def zigzag(n):
    """n as an Avro long (spec: zigzag, then base-128 varint)."""
    u = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        b = u & 0x7f
        u >>= 7
        if u:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def payloads(path):
    """The stored bytes of every block (between its size and its sync marker)."""
    data = open(path, "rb").read()
    out = []
    for pos, count, end in blocks_of(path):
        dec = avro.io.BinaryDecoder(io.BytesIO(data[pos:pos + 20]))
        dec.read_long()
        dec.read_long()
        out.append(data[pos + dec.reader.tell():end - 16])
    return out


def meta_of(path):
    with open(path, "rb") as f:
        return dict(avro.datafile.DataFileReader(f, avro.io.DatumReader()).meta)


def test_concat(files, tmp):
    names = ["py-deflate", "ours-deflate", "py-null", "ours-snappy", "py-bzip2"]
    paths = [files[n][0] for n in names]
    datums = [d for n in names for d in files[n][1]]
    out = os.path.join(tmp, "concat.avro")
    with open(paths[2], "rb") as f:
        p = run(["concat", paths[0], paths[1], "-", paths[3], paths[4], out], stdin=f.read())
    check(p.returncode == 0 and p.stdout == b"", f"concat: {p.stderr!r}")
    check(python_read(out) == datums, "python reads concat's output: every record, in order")
    meta = meta_of(out)
    check(meta.get("avro.codec") == b"deflate", "concat: the first file's codec")
    check(meta.get("app.origin") == b"verbs_test" and meta.get("app.blob") == b"\x00\xff\n\\",
          "concat: the first file's user metadata")
    # Blocks with the output's codec are copied as stored; the others recompressed.
    got = payloads(out)
    want = payloads(paths[0]) + payloads(paths[1])
    check(got[:len(want)] == want, "concat copies deflate blocks byte for byte")
    p = run(["concat", "--codec", "zstandard", paths[0], paths[2], out])
    check(p.returncode == 0 and python_read(out) == files[names[0]][1] + files[names[2]][1],
          f"concat --codec zstandard: {p.stderr!r}")
    check(meta_of(out).get("avro.codec") == b"zstandard", "concat --codec")

    # Another schema: refused, naming the first difference; nothing is written.
    other = json.loads(SCHEMA_TEXT)
    other["fields"][2]["type"] = "float"
    other_path = os.path.join(tmp, "other.avro")
    python_write(other_path, avro.schema.parse(json.dumps(other)),
                 [dict(d, score=0.5) for d in files[names[2]][1][:5]])
    refused = os.path.join(tmp, "refused.avro")
    p = run(["concat", paths[2], other_path, refused])
    line = one_error_line(p, "concat of different schemas")
    check(f"Event.score: double in {paths[2]}, float in {other_path}" in line,
          f"concat names the difference: {line}")
    check(not os.path.exists(refused) and not any(n.startswith("refused.avro") for n in
                                                  os.listdir(tmp)), "concat refused: no file")
    other["fields"][2]["type"] = "double"
    other["fields"][6]["type"]["symbols"] = ["A", "B", "D"]
    python_write(other_path, avro.schema.parse(json.dumps(other)), [])
    line = one_error_line(run(["concat", paths[2], other_path, refused]), "concat, other enum")
    check("Event.kind: symbol 2 C in" in line and "D in" in line, f"concat names it: {line}")
    # Docs and defaults do not matter.
    other = json.loads(SCHEMA_TEXT)
    other["doc"] = "the same data"
    other["fields"][3]["default"] = None
    python_write(other_path, avro.schema.parse(json.dumps(other)), files[names[2]][1][:3])
    p = run(["concat", paths[2], other_path, out])
    check(p.returncode == 0 and python_read(out) == files[names[2]][1] + files[names[2]][1][:3],
          f"concat of schemas differing only in docs and defaults: {p.stderr!r}")


def test_recodec(files, tmp):
    path, datums = files["py-deflate"]
    before = len(blocks_of(path))
    for codec in OUR_CODECS:
        out = os.path.join(tmp, f"recodec-{codec}.avro")
        p = run(["recodec", "--codec", codec, "--block-size", "1000", path, out])
        check(p.returncode == 0, f"recodec {codec}: {p.stderr!r}")
        check(meta_of(out).get("avro.codec") == codec.encode(), f"recodec {codec}: the codec")
        check(len(blocks_of(out)) > 2 * before, f"recodec {codec}: smaller blocks")
        if codec in python_codecs():
            check(python_read(out) == datums, f"python reads recodec's {codec} output")
        p = run(["cat", out])
        check(p.stdout.decode() == json_lines(SCHEMA, datums), f"cat of recodec's {codec} output")
    out = os.path.join(tmp, "recodec-level.avro")
    p = run(["recodec", "--codec", "zstandard", "--level", "19", path, out])
    check(p.returncode == 0 and python_read(out) == datums, "recodec --level 19")
    for args in (["recodec", "--codec", "lz4", path, out], ["recodec", "--block-size", "0", path,
                 out], ["recodec", "--level", "x", path, out], ["recodec", path]):
        check(run(args).returncode == 2, f"usage error {args}")


def damaged_files(files, tmp, name):
    """(kind, path, first bad block, blocks lost) for three kinds of damage to one file."""
    path, _ = files[name]
    blocks = blocks_of(path)
    k = 3
    cut = damaged_copy(path, os.path.join(tmp, f"{name}-cut.avro"),
                       cut=(blocks[k][0] + blocks[k][2]) // 2)
    flipped = damaged_copy(path, os.path.join(tmp, f"{name}-flipped.avro"),
                           flip=blocks[k][2] - 9)
    data = bytearray(open(path, "rb").read())
    middle = (blocks[k][0] + blocks[k][2]) // 2
    data[middle:middle + 16] = b"\xff" * 16
    corrupt = os.path.join(tmp, f"{name}-corrupt.avro")
    with open(corrupt, "wb") as f:
        f.write(data)
    return [("cut", cut, k, range(k, len(blocks))), ("flipped sync marker", flipped, k,
                                                     range(k, k + 1)),
            ("corrupt block", corrupt, k, range(k, k + 1))]


def test_repair_validate(files, tmp):
    # Ours too, in small blocks.
    small = os.path.join(tmp, "ours-snappy-small.avro")
    p = run(["recodec", "--block-size", "8000", files["ours-snappy"][0], small])
    check(p.returncode == 0 and len(blocks_of(small)) > 10, "ours-snappy in small blocks")
    files = dict(files, **{"ours-snappy-small": (small, files["ours-snappy"][1])})
    for name in ["py-" + c for c in python_codecs()] + ["ours-snappy-small"]:
        path, datums = files[name]
        blocks = blocks_of(path)
        p = run(["validate", path])
        check(p.returncode == 0 and p.stdout.decode() ==
              f"{path}: ok, {len(datums)} records in {len(blocks)} blocks\n",
              f"validate {name}: {p.stdout!r} {p.stderr!r}")
        for kind, bad, k, lost in damaged_files(files, tmp, name):
            what = f"{kind} {name}"
            line = one_error_line(run(["validate", bad]), f"validate {what}")
            check(bad in line and f"offset {blocks[k][0]}" in line,
                  f"validate {what} names the file and the block: {line}")
            out = os.path.join(tmp, "repaired.avro")
            p = run(["repair", bad, out])
            check(p.returncode == 0, f"repair {what}: {p.stderr!r}")
            keep = []
            for b, (_, count, _) in enumerate(blocks):
                first = sum(c for _, c, _ in blocks[:b])
                if b not in lost:
                    keep += datums[first:first + count]
            check(python_read(out) == keep, f"python reads repair's output of {what}")
            report = p.stdout.decode().splitlines()
            n_lost = sum(blocks[b][1] for b in lost)
            end = blocks[k][2] if kind != "cut" else os.path.getsize(bad)
            check(report and report[0].startswith(f"dropped bytes {blocks[k][0]}-{end} "
                                                  f"({blocks[k][1]} records claimed): "),
                  f"repair {what} reports the range: {report}")
            check(report and report[-1] == f"kept {len(blocks) - len(lost)} blocks ({len(keep)} "
                  f"records); dropped 1 damaged block ({blocks[k][1]} records claimed, "
                  f"{end - blocks[k][0]} bytes)", f"repair {what}: the summary: {report[-1:]}")
            check(n_lost == len(datums) - len(keep), f"repair {what} lost what it says")
            p = run(["validate", out])
            check(p.returncode == 0, f"validate of repair's output of {what}: {p.stderr!r}")
    # Several files: every one checked, exit 1, an error line for each bad one.
    bad = [d[1] for d in damaged_files(files, tmp, "py-null")]
    good = files["ours-zstandard"][0]
    p = run(["validate", bad[0], good, bad[1]])
    err = p.stderr.decode().splitlines()
    check(p.returncode == 1 and len(err) == 2 and err[0].startswith("avrogen: error: " + bad[0])
          and err[1].startswith("avrogen: error: " + bad[1]), f"validate of several: {err}")
    check(p.stdout.decode().startswith(good + ": ok, 2500 records"), "validate: the good one")
    # An undamaged file passes repair unchanged.
    out = os.path.join(tmp, "repaired.avro")
    p = run(["repair", good, out])
    check(p.returncode == 0 and python_read(out) == files["ours-zstandard"][1] and
          p.stdout.decode().endswith("dropped 0 damaged blocks (0 records claimed, 0 bytes)\n"),
          f"repair of a sound file: {p.stdout!r}")
    check(payloads(out) == payloads(good), "repair copies intact blocks as stored")

    # --schema: what S reads.
    path, datums = files["py-deflate"]
    reader = json.loads(SCHEMA_TEXT)
    reader["fields"] = [f for f in reader["fields"] if f["name"] != "raw"] + [
        {"name": "extra", "type": "int", "default": 7}]
    s_path = os.path.join(tmp, "reader.avsc")
    with open(s_path, "w") as f:
        json.dump(reader, f)
    p = run(["validate", "--schema", s_path, path])
    check(p.returncode == 0, f"validate --schema that resolves: {p.stderr!r}")
    reader["fields"][0]["type"] = "int"
    with open(s_path, "w") as f:
        json.dump(reader, f)
    line = one_error_line(run(["validate", "--schema", s_path, path]), "validate --schema, no")
    check("/fields/0" in line and "int" in line, f"validate --schema names the field: {line}")
    reader["fields"][0]["type"] = "long"
    kind = next(f for f in reader["fields"] if f["name"] == "kind")
    kind["type"]["symbols"] = ["A", "B"]
    with open(s_path, "w") as f:
        json.dump(reader, f)
    first_c = next(i for i, d in enumerate(datums) if d["kind"] == "C")
    line = one_error_line(run(["validate", "--schema", s_path, path]), "validate, symbol C")
    check("C" in line and "offset" in line, f"validate --schema names the record: {line}")
    check(first_c >= 0, "some record uses C")


def test_every_file(files, tmp):
    """Every verb on every file, Python's and ours, every codec: the records Python wrote."""
    out = os.path.join(tmp, "every.avro")
    for name, (path, datums) in files.items():
        lines = json_lines(SCHEMA, datums)
        p = run(["cat", path])
        check(p.returncode == 0 and p.stdout.decode() == lines, f"cat {name}: {p.stderr!r}")
        p = run(["head", "-n", "3", path])
        check(p.stdout.decode() == "".join(lines.splitlines(keepends=True)[:3]), f"head {name}")
        p = run(["validate", path])
        check(p.returncode == 0 and p.stdout.decode() ==
              f"{path}: ok, {len(datums)} records in {len(blocks_of(path))} blocks\n",
              f"validate {name}: {p.stdout!r} {p.stderr!r}")
        # What the writing verbs make of it, read by Python.
        for verb in (["concat", path, path], ["recodec", "--codec", "deflate", path],
                     ["repair", path]):
            p = run(verb + [out])
            want = datums * 2 if verb[0] == "concat" else datums
            check(p.returncode == 0 and python_read(out) == want,
                  f"python reads {verb[0]}'s output of {name}: {p.stderr!r}")


def test_damage_every_verb(files, tmp):
    """On a damaged file every reading verb prints one error line naming the file and the
    offset of the bad block, and the writing verbs leave no output behind."""
    path, datums = files["py-deflate"]
    blocks = blocks_of(path)
    k = 2
    bad_files = {
        "cut": damaged_copy(path, os.path.join(tmp, "dmg-cut.avro"),
                            cut=(blocks[k][0] + blocks[k][2]) // 2),
        "flipped sync marker": damaged_copy(path, os.path.join(tmp, "dmg-flip.avro"),
                                            flip=blocks[k][2] - 5),
    }
    for kind, bad in bad_files.items():
        out = os.path.join(tmp, "dmg-out.avro")
        for verb in (["cat", bad], ["head", "-n", "100000", bad], ["count", bad],
                     ["getmeta", bad], ["validate", bad], ["concat", bad, path, out],
                     ["recodec", "--codec", "null", bad, out]):
            what = f"{verb[0]} of a file with a {kind}"
            line = one_error_line(run(verb), what)
            check(bad in line and f"offset {blocks[k][0]}" in line,
                  f"{what} names the file and the offset {blocks[k][0]}: {line}")
            check(not os.path.exists(out) and not any(n.startswith("dmg-out.avro.tmp")
                                                      for n in os.listdir(tmp)),
                  f"{what}: no output file")
        p = run(["repair", bad, out])
        check(p.returncode == 0 and p.stdout.decode().startswith(f"dropped bytes {blocks[k][0]}-"),
              f"repair of a file with a {kind}: {p.stdout[:80]!r} {p.stderr!r}")
        os.unlink(out)


def peak_rss_mib(args, stdin=None):
    """Exit status and peak RSS (MiB) of one avrogen run, stdout thrown away."""
    import subprocess
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen([clitest.AVROGEN] + args, stdin=stdin, stdout=null,
                             stderr=subprocess.PIPE)
        p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
    return status, usage.ru_maxrss / 1024


def test_bounded_memory(tmp):
    """Every verb streams: on a 63 MiB file of blocks up to 130 KB (and tojson and fromjson on
    the same records as 63 MiB of datums and of JSON lines), none uses more than 24 MiB over what
    the program takes to start (libclang and all)."""
    schema = json.dumps({"type": "record", "name": "Blob", "fields": [
        {"name": "id", "type": "long"}, {"name": "b", "type": "bytes"}]})
    out = os.path.join(tmp, "mem-out.avro")
    check(run(["random", "--schema", schema, "--count", "1", out]).returncode == 0, "one record")
    _, base = peak_rss_mib(["count", out])
    for codec in ("null", "deflate"):
        path = os.path.join(tmp, f"mem-{codec}.avro")
        status, rss = peak_rss_mib(["random", "--schema", schema, "--count", "2000", "--seed",
                                    "5", "--max-length", "65536", "--codec", codec, path])
        size = os.path.getsize(path)
        check(status == 0 and (codec != "null" or size > 60 << 20),
              f"random writes a big {codec} file: {size} bytes")
        check(rss - base < 24, f"random --codec {codec}: {rss - base:.0f} MiB over the start")
        for args in (["cat", path], ["head", "-n", "100000", path], ["count", path],
                     ["getmeta", path], ["validate", path], ["concat", path, path, out],
                     ["recodec", "--codec", "snappy", path, out], ["repair", path, out]):
            status, rss = peak_rss_mib(args)
            check(status == 0 and rss - base < 24,
                  f"{args[0]} of a {size >> 20} MiB {codec} file: {rss - base:.0f} MiB over "
                  f"the start (exit {status})")
        os.unlink(path)
    # The same records as concatenated datums and as JSON lines: tojson and fromjson stream too.
    datums, lines = os.path.join(tmp, "mem.bin"), os.path.join(tmp, "mem.jsonl")
    for fmt, path in (("datums", datums), ("json", lines)):
        status, _ = peak_rss_mib(["random", "--schema", schema, "--count", "2000", "--seed", "5",
                                  "--max-length", "65536", "--format", fmt, path])
        check(status == 0 and os.path.getsize(path) > 60 << 20,
              f"random --format {fmt}: {os.path.getsize(path)} bytes")
    for args, piped in ((["tojson", "--schema", schema, datums], None),
                        (["tojson", "--schema", schema], datums),
                        (["fromjson", "--schema", schema, lines], None)):
        with open(piped or os.devnull, "rb") as f:
            status, rss = peak_rss_mib(args, stdin=f)
        what = f"{args[0]} {'from a pipe' if piped else 'of a file'}"
        check(status == 0 and rss - base < 24,
              f"{what}: {rss - base:.0f} MiB over the start (exit {status})")
    os.unlink(datums)
    os.unlink(lines)
    os.unlink(out)


def test_progress(files, tmp):
    """On a terminal, a run longer than a second shows what it has done, on one line that it
    clears at the end; off a terminal (every other test) it shows nothing."""
    path = os.path.join(tmp, "progress.avro")
    p = run(["recodec", "--block-size", "4000", files["ours-null"][0], path])
    check(p.returncode == 0 and len(blocks_of(path)) > 20, "a file of many blocks")
    with open(path, "rb") as f:
        data = f.read()
    out = os.path.join(tmp, "progress-out.avro")
    schema = os.path.join(tmp, "event.avsc")
    for args, verb in ((["cat", "-"], "printed"), (["head", "-n", "100000", "-"], "printed"),
                       (["count", "-"], "counted"), (["validate", "-"], "validated"),
                       (["concat", "-", out], "copied"), (["recodec", "-", out], "recoded"),
                       (["repair", "-", out], "repaired")):
        rc, _, shown = clitest.run_watched(args, stdin=data, slow_reader=False)
        check(rc == 0 and f"\ravrogen: {verb} " in shown and " records" in shown and
              "\033[K" in shown and
              shown.endswith("\r\033[K"), f"{args[0]} on a terminal shows progress: {shown!r}")
    rc, got, shown = clitest.run_watched(["random", "--schema", schema, "--count", "20000",
                                          "--format", "json", "-"])
    check(rc == 0 and got.count(b"\n") == 20000 and "\ravrogen: made " in shown and
          shown.endswith("\r\033[K"), f"random on a terminal shows progress: {shown!r}")


RANDOM_SCHEMA = {
    "type": "record", "name": "Node", "namespace": "test.random",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "i", "type": "int"},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "b", "type": "boolean"},
        {"name": "s", "type": "string"},
        {"name": "raw", "type": "bytes"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C", "D"]}},
        {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
        {"name": "kids", "type": {"type": "array", "items": "Node"}},
        {"name": "next", "type": ["null", "Node"]},
        {"name": "m", "type": {"type": "map", "values": ["int", "string", "null", "Kind"]}},
        {"name": "date", "type": {"type": "int", "logicalType": "date"}},
        {"name": "tms", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "tus", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "tsu", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "dec", "type": {"type": "bytes", "logicalType": "decimal", "precision": 20,
                                 "scale": 4}},
        {"name": "decf", "type": {"type": "fixed", "name": "D8", "size": 8,
                                  "logicalType": "decimal", "precision": 18, "scale": 2}},
        {"name": "u", "type": {"type": "string", "logicalType": "uuid"}},
    ]}


def walk_random(node, datum, seen, max_len, problems):
    """Check one Python datum against the rules of random, noting what it used."""
    import datetime
    import decimal
    import uuid
    t = node.type
    name = getattr(node, "name", t)
    logical = node.get_prop("logicalType")
    if t == "union":
        for i, b in enumerate(node.schemas):
            try:
                if avro.io.validate(b, datum):
                    seen.add((node.fullname if hasattr(node, "fullname") else "", id(node), i))
                    walk_random(b, datum, seen, max_len, problems)
                    return
            except Exception:
                continue
        problems.append(f"no branch fits {datum!r}")
    elif t == "record":
        for f in node.fields:
            walk_random(f.type, datum[f.name], seen, max_len, problems)
    elif t == "array":
        if len(datum) > max_len:
            problems.append(f"array of {len(datum)}")
        for x in datum:
            walk_random(node.items, x, seen, max_len, problems)
    elif t == "map":
        if len(datum) > max_len:
            problems.append(f"map of {len(datum)}")
        for k, x in datum.items():
            if len(k) > max_len:
                problems.append(f"map key of {len(k)}")
            walk_random(node.values, x, seen, max_len, problems)
    elif t == "enum":
        seen.add(("enum", name, datum))
    elif logical == "date":
        if not datetime.date(1900, 1, 1) <= datum <= datetime.date(2099, 12, 31):
            problems.append(f"date {datum}")
    elif logical in ("timestamp-millis", "timestamp-micros"):
        if not 1900 <= datum.year <= 2099:
            problems.append(f"timestamp {datum}")
    elif logical in ("time-millis", "time-micros"):
        if not isinstance(datum, datetime.time):
            problems.append(f"time {datum!r}")
    elif logical == "decimal":
        digits = len(datum.as_tuple().digits) if datum != 0 else 1
        if not isinstance(datum, decimal.Decimal) or digits > node.get_prop("precision"):
            problems.append(f"decimal {datum!r}")
        if -datum.as_tuple().exponent != node.get_prop("scale") and datum != 0:
            problems.append(f"decimal scale {datum!r}")
    elif logical == "uuid":
        if uuid.UUID(datum).version != 4 or str(uuid.UUID(datum)) != datum:
            problems.append(f"uuid {datum!r}")
    elif t in ("string", "bytes"):
        if len(datum) > max_len:
            problems.append(f"{t} of {len(datum)}")


def canon(x):
    """x with NaN (which equals nothing) made comparable."""
    if isinstance(x, float) and x != x:
        return "NaN"
    if isinstance(x, dict):
        return {k: canon(v) for k, v in x.items()}
    if isinstance(x, list):
        return [canon(v) for v in x]
    return x


def test_random(tmp):
    schema_path = os.path.join(tmp, "random.avsc")
    with open(schema_path, "w") as f:
        json.dump(RANDOM_SCHEMA, f)
    schema = avro.schema.parse(json.dumps(RANDOM_SCHEMA))
    n, max_len = 600, 6
    common = ["random", "--schema", schema_path, "--count", str(n), "--seed", "42",
              "--max-length", str(max_len)]
    records = None
    for codec in python_codecs():
        out = os.path.join(tmp, f"random-{codec}.avro")
        p = run(common + ["--codec", codec, out])
        check(p.returncode == 0, f"random --codec {codec}: {p.stderr!r}")
        got = python_read(out)
        check(len(got) == n, f"python reads random's {codec} file: {len(got)} records")
        check(all(avro.io.validate(schema, d) for d in got),
              f"python validates random's {codec} records against the schema")
        if records is None:
            records = got
        check(canon(got) == canon(records), f"random --seed makes the same records with {codec}")
    # Everything random promises, record by record.
    seen, problems = set(), []
    for d in records:
        walk_random(schema, d, seen, max_len, problems)
    check(not problems, f"random keeps its bounds and ranges: {problems[:5]}")
    symbols = {s for (k, _, s) in seen if k == "enum"}
    check(symbols == {"A", "B", "C", "D"}, f"every enum symbol occurs: {symbols}")
    # Union branches, by the names the JSON encoding gives them.
    lines = run(["cat", os.path.join(tmp, "random-null.avro")]).stdout.decode()
    for branch in ('"next": null', '"next": {"test.random.Node": ', '{"int": ', '{"string": ',
                   '{"test.random.Kind": '):
        check(branch in lines, f"random picks the union branch {branch}")
    check(lines.count('": null') > lines.count('"next": null'), "map values take the null branch")
    # The same records as JSON lines and as datums.
    p = run(common + ["--format", "json", "-"])
    check(p.returncode == 0, f"random --format json: {p.stderr!r}")
    check(p.stdout.decode() == lines, "random --format json prints what cat prints of its file")
    p = run(common + ["--format", "datums", "-"])
    dec = avro.io.BinaryDecoder(io.BytesIO(p.stdout))
    reader = avro.io.DatumReader(schema)
    got = []
    while dec.reader.tell() < len(p.stdout):
        got.append(reader.read(dec))
    check(canon(got) == canon(records), f"python reads random's datums: {len(got)}")
    check(lines.count("\n") == n, "JSON of every record")
    # Bad schemas and options.
    line = one_error_line(run(["random", "--schema", json.dumps(
        {"type": "record", "name": "Inf", "fields": [{"name": "me", "type": "Inf"}]}),
        "--count", "1", os.path.join(tmp, "x.avro")]), "random of a schema with no datum")
    check("no finite datum" in line, f"random says why: {line}")
    for args in (["random", "--schema", schema_path, "x.avro"],
                 ["random", "--count", "1", "x.avro"],
                 ["random", "--schema", schema_path, "--count", "1", "--format", "xml", "-"],
                 ["random", "--schema", '"null"', "--count", "2", "--format", "datums", "-"]):
        check(run(args).returncode == 2, f"usage error {args}")


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
        test_concat(files, tmp)
        test_recodec(files, tmp)
        test_repair_validate(files, tmp)
        test_random(tmp)
        test_every_file(files, tmp)
        test_damage_every_verb(files, tmp)
        test_progress(files, tmp)
        test_bounded_memory(tmp)
        test_big_value(tmp)
    sys.exit(clitest.summary("cli verbs"))
