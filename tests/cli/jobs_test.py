#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""-j/--jobs on the command line (issue 25, item 1): blocks compressed and
decompressed on N threads change nothing a user can see.

usage: jobs_test.py AVROGEN

* writers (random, write, recodec, concat) at -j 1, 2 and 5 write the same
  bytes, for every codec and a low and a high level of each that has levels,
  in small blocks so that many are in flight at once;
* readers (cat, count, validate, head) print the same bytes at -j 1 and -j 4,
  on every codec, and on a file with a damaged block in the middle: the same
  records before it, the same one error line naming the same offset, the
  same exit status;
* a threaded recodec stopped by SIGTERM while it writes leaves OUT as it was
  and no temporary file behind.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import avro.datafile
import avro.io
import clitest
from clitest import check

SCHEMA = json.dumps({"type": "record", "name": "Event", "fields": [
    {"name": "id", "type": "long"},
    {"name": "name", "type": "string"},
    {"name": "score", "type": "double"},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "attrs", "type": {"type": "map", "values": "long"}},
    {"name": "note", "type": ["null", "string"], "default": None},
    {"name": "raw", "type": "bytes"}]})

LEVELS = {"null": [None], "deflate": [None, 1, 9], "snappy": [None], "zstandard": [None, 1, 19],
          "xz": [None, 1], "bzip2": [None, 9]}
BLOCK = ["--block-size", "3000"]


def ok(p, what):
    return check(p.returncode == 0, f"{what}: exit {p.returncode}, {p.stderr.decode(errors='replace')!r}")


def without_sync(path):
    """The file's bytes with its sync marker (16 random bytes every file draws anew) zeroed."""
    with open(path, "rb") as f:
        sync = avro.datafile.DataFileReader(f, avro.io.DatumReader()).sync_marker
    data = open(path, "rb").read()
    check(data.count(sync) >= 1, f"{path}: its sync marker is in it")
    return data.replace(sync, bytes(16))


def data_start(path, block):
    """The offset of a block's compressed bytes (past its count and size)."""
    start, _, _ = block
    with open(path, "rb") as f:
        f.seek(start)
        dec = avro.io.BinaryDecoder(f)
        dec.read_long()
        dec.read_long()
        return f.tell()


def same_at_every_j(tmp, name, args, jobs=(1, 2, 5)):
    """args writes the path '{out}'; the file at each -j, compared with -j 1's."""
    first = None
    for j in jobs:
        out = os.path.join(tmp, f"{name}.j{j}.avro")
        p = clitest.run([a.replace("{out}", out) for a in args[:1] + ["-j", str(j)] + args[1:]])
        if not ok(p, f"{name} -j {j}"):
            return None
        data = without_sync(out)
        if first is None:
            first = data
        else:
            check(data == first, f"{name}: -j {j} wrote other bytes than -j 1 "
                  f"({len(data)} against {len(first)} bytes)")
    return first


def check_writers(tmp):
    schema = os.path.join(tmp, "event.avsc")
    open(schema, "w").write(SCHEMA)
    src = os.path.join(tmp, "src.avro")
    ok(clitest.run(["random", "--schema", schema, "--count", "6000", "--seed", "25", src]), "random source")
    lines = clitest.run(["cat", src]).stdout
    jsonl = os.path.join(tmp, "src.jsonl")
    open(jsonl, "wb").write(lines)
    files = {}
    for codec, levels in LEVELS.items():
        for level in levels:
            lv = [] if level is None else ["--level", str(level)]
            tag = f"{codec}{'' if level is None else level}"
            data = same_at_every_j(tmp, f"recodec-{tag}", ["recodec", "--codec", codec] + lv + BLOCK + [src, "{out}"])
            if data is not None and level is None:
                files[codec] = os.path.join(tmp, f"recodec-{tag}.j1.avro")
                check(clitest.run(["cat", files[codec]]).stdout == lines, f"recodec {codec}: the records kept")
        same_at_every_j(tmp, f"random-{codec}", ["random", "--schema", schema, "--count", "3000", "--seed", "7",
                                                 "--codec", codec, "{out}"])
        same_at_every_j(tmp, f"write-{codec}", ["write", "--schema", schema, "--codec", codec] +
                        [jsonl, "{out}"])
    same_at_every_j(tmp, "concat", ["concat", files["deflate"], files["zstandard"], files["deflate"], "{out}"])
    return files, lines


def check_readers(tmp, files, lines):
    for codec, path in files.items():
        for verb in (["cat"], ["count"], ["validate"], ["head", "-n", "4321"]):
            one = clitest.run(verb[:1] + ["-j", "1"] + verb[1:] + [path])
            four = clitest.run(verb[:1] + ["-j", "4"] + verb[1:] + [path])
            ok(one, f"{verb[0]} -j 1 {codec}")
            check(four.returncode == one.returncode and four.stdout == one.stdout and four.stderr == one.stderr,
                  f"{verb[0]} {codec}: -j 4 printed other than -j 1")
        check(clitest.run(["cat", "-j", "4", path]).stdout == lines, f"cat -j 4 {codec}: every record")

    # A damaged block in the middle: the threads decompressed it ahead, but its error comes when
    # the reader reaches it, as with one thread.
    for codec in ("deflate", "snappy", "zstandard", "bzip2"):
        blocks = clitest.blocks_of(files[codec])
        check(len(blocks) > 20, f"{codec}: many blocks ({len(blocks)})")
        # The first byte of the compressed data: deflate's block type, zstandard's and bzip2's
        # magic number, snappy's length (and its CRC-32) cannot take the change unnoticed.
        bad = clitest.damaged_copy(files[codec], os.path.join(tmp, f"bad-{codec}.avro"),
                                   flip=data_start(files[codec], blocks[len(blocks) // 2]))
        for verb in (["cat"], ["validate"]):
            one = clitest.run([verb[0], "-j", "1"] + verb[1:] + [bad])
            four = clitest.run([verb[0], "-j", "4"] + verb[1:] + [bad])
            check(one.returncode == 1 and clitest.one_error_line(one, f"{verb[0]} -j 1 damaged {codec}"),
                  f"{verb[0]} -j 1 damaged {codec}: exit {one.returncode}")
            check((four.returncode, four.stdout, four.stderr) == (one.returncode, one.stdout, one.stderr),
                  f"{verb[0]} damaged {codec}: -j 4 gave {four.returncode} {four.stderr!r}, "
                  f"-j 1 gave {one.returncode} {one.stderr!r}")
        cat = clitest.run(["cat", "-j", "4", bad])
        before = sum(c for _, c, _ in blocks[:len(blocks) // 2])
        got = cat.stdout.count(b"\n")
        check(got == before and lines.startswith(cat.stdout),
              f"cat -j 4 damaged {codec}: the {before} records before the block, got {got}")


def check_signal(tmp, files):
    big = os.path.join(tmp, "big.avro")
    schema = os.path.join(tmp, "event.avsc")
    ok(clitest.run(["random", "--schema", schema, "--count", "200000", "--seed", "3", big]), "random big")
    out = os.path.join(tmp, "kept.avro")
    open(out, "wb").write(b"what was here before")
    p = subprocess.Popen([clitest.AVROGEN, "recodec", "-j", "2", "--codec", "xz", "--level", "9", big, out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while not glob.glob(out + ".tmp*") and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.01)
    time.sleep(0.2)
    running = p.poll() is None
    p.send_signal(signal.SIGTERM)
    p.communicate()
    check(running, "recodec -j 2 to xz level 9 was still running when signalled")
    check(p.returncode == -signal.SIGTERM, f"recodec -j 2: ended by SIGTERM, got {p.returncode}")
    check(open(out, "rb").read() == b"what was here before", "recodec -j 2 on SIGTERM: OUT as it was")
    check(glob.glob(out + ".tmp*") == [], f"recodec -j 2 on SIGTERM: no temporary file: {os.listdir(tmp)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        files, lines = check_writers(tmp)
        check_readers(tmp, files, lines)
        check_signal(tmp, files)
    sys.exit(clitest.summary("cli jobs"))
