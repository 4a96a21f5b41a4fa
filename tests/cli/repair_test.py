#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""`avrogen repair` keeps every intact block (issue 26 item 3).

usage: repair_test.py AVROGEN

Files of many small blocks from `avrogen random` (null, deflate, snappy,
zstandard); seeded random trials put damage between two of their blocks
(or after the header, or after the last block):

  (a) a stray copy of the sync marker,
  (b) two zero bytes,
  (c) random junk,
  (d) junk holding a copy of the marker and then a plausible block header,
  (e) junk, a copy of the marker and a block header whose size reaches exactly
      to the next block's marker: a "block" that frames over the intact one.

Each trial runs repair (every fifth reading standard input) and checks that the output holds every block of the
original, in order, byte for byte as stored (so nothing was lost or altered),
that `avrogen cat` of it prints what it prints of the original, and that the
report drops exactly the damage's bytes. Then: damaged blocks claiming
2^63-1 records each do not wrap the report's total ("at least"), and the
counts of damaged blocks are reported as claims.
"""

import os
import random
import sys
import tempfile

import clitest
from clitest import blocks_of, check, run

CODECS = ["null", "deflate", "snappy", "zstandard"]
TRIALS = 300
SCHEMA = ('{"type": "record", "name": "R", "fields": [{"name": "id", "type": "long"}, '
          '{"name": "s", "type": "string"}, {"name": "b", "type": "bytes"}, '
          '{"name": "u", "type": ["null", "double"]}]}')


def varint(n):
    """A long as the spec's zigzag varint."""
    u = (n << 1) ^ (n >> 63)
    out = bytearray()
    while u >= 0x80:
        out.append((u & 0x7f) | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def make_file(tmp, codec):
    """A file of about 40 blocks with `codec`: (path, bytes, blocks, sync marker, cat's output)."""
    raw = os.path.join(tmp, f"random-{codec}.avro")
    p = run(["random", "--schema", SCHEMA, "--count", "600", "--seed", "26", "--codec", codec,
             raw])
    check(p.returncode == 0, f"random {codec}: {p.stderr!r}")
    path = os.path.join(tmp, f"small-{codec}.avro")
    p = run(["recodec", "--block-size", "400", raw, path])
    check(p.returncode == 0, f"recodec {codec}: {p.stderr!r}")
    data = open(path, "rb").read()
    blocks = blocks_of(path)
    check(len(blocks) >= 20, f"{codec}: {len(blocks)} blocks")
    sync = data[blocks[0][2] - 16:blocks[0][2]]
    cat = run(["cat", path])
    check(cat.returncode == 0 and cat.stdout, f"cat of {path}")
    return path, data, blocks, sync, cat.stdout


def stored(data, blocks):
    """Every block as stored: its header, payload and marker."""
    return [data[start:end] for start, _, end in blocks]


def damage(rng, kind, sync, after):
    """Damage bytes of `kind`; `after` is the bytes from the insert point on (for kind e)."""
    junk = lambda lo, hi: bytes(rng.getrandbits(8) for _ in range(rng.randint(lo, hi)))
    if kind == "a":
        return sync
    if kind == "b":
        return b"\0\0"
    if kind == "c":
        return junk(1, 200)
    if kind == "d":
        return (junk(0, 60) + sync + varint(rng.randint(1, 100)) + varint(rng.randint(1, 5000)) +
                junk(0, 30))
    # e: a header whose payload runs to the end of the next block's marker.
    head = junk(0, 40) + sync
    count = rng.randint(1, 100)
    next_end = after.find(sync)
    if next_end < 0:  # damage after the last block: nothing to frame over
        return head + varint(count) + varint(0)
    # The payload is the next block's header and payload: its marker follows.
    return head + varint(count) + varint(next_end)


def dropped(report):
    """The (from, to) ranges of the report's 'dropped bytes' lines."""
    out = []
    for line in report:
        if line.startswith("dropped bytes "):
            a, b = line.split()[2].split("-")
            out.append((int(a), int(b)))
    return out


def trials(tmp, files):
    rng = random.Random(2026)
    lost_trials = 0
    kinds = "abcde"
    for t in range(TRIALS):
        codec = CODECS[t % len(CODECS)]
        kind = kinds[(t // len(CODECS)) % len(kinds)]
        path, data, blocks, sync, cat = files[codec]
        i = rng.randint(0, len(blocks))  # 0: after the header; len: after the last block
        at = blocks[i][0] if i < len(blocks) else len(data)
        bad_bytes = damage(rng, kind, sync, data[at:])
        what = f"trial {t}: {codec}, damage ({kind}) of {len(bad_bytes)} bytes at {at}"
        bad = os.path.join(tmp, "bad.avro")
        with open(bad, "wb") as f:
            f.write(data[:at] + bad_bytes + data[at:])
        out = os.path.join(tmp, "fixed.avro")
        if t % 5 == 4:  # a stream: the scan reads ahead and goes back within the window
            what += " (from standard input)"
            with open(bad, "rb") as f:
                p = run(["repair", "-", out], stdin=f.read())
        else:
            p = run(["repair", bad, out])
        if not check(p.returncode == 0, f"{what}: repair: {p.stderr!r}"):
            continue
        fixed = open(out, "rb").read()
        got = stored(fixed, blocks_of(out))
        want = stored(data, blocks)
        # Each block's header and payload as stored (the output has its own marker).
        same = [g[:-16] for g in got] == [w[:-16] for w in want]
        if not same:
            lost_trials += 1
        check(same, f"{what}: every intact block, in order, as stored "
              f"({len(got)} of {len(want)} blocks)")
        if same:
            c = run(["cat", out])
            check(c.returncode == 0 and c.stdout == cat, f"{what}: cat prints the original's")
        report = p.stdout.decode().splitlines()
        ranges = dropped(report)
        covered = sorted(ranges)
        contiguous = all(covered[k][1] == covered[k + 1][0] for k in range(len(covered) - 1))
        check(covered and covered[0][0] == at and covered[-1][1] == at + len(bad_bytes) and
              contiguous, f"{what}: the damage's bytes are what is dropped: {report}")
        records = sum(c for _, c, _ in blocks)
        check(report and report[-1].startswith(f"kept {len(blocks)} blocks ({records} records); "
                                               f"dropped {len(ranges)} damaged block"),
              f"{what}: the summary: {report[-1:]}")
    check(lost_trials == 0, f"{lost_trials} of {TRIALS} trials lost or altered an intact block")


def claims(tmp, files):
    """Damaged blocks claiming 2^63-1 records each: the total does not wrap, and is a claim."""
    path, data, blocks, sync, cat = files["null"]
    huge = 2**63 - 1
    bogus = b"".join(varint(huge) + varint(4) + b"junk" + sync for _ in range(3))
    at = blocks[0][0]
    bad = os.path.join(tmp, "claims.avro")
    with open(bad, "wb") as f:
        f.write(data[:at] + bogus + data[at:])
    out = os.path.join(tmp, "fixed.avro")
    p = run(["repair", bad, out])
    report = p.stdout.decode().splitlines()
    check(p.returncode == 0 and len(report) == 4, f"repair of huge claims: {p.stderr!r} {report}")
    step = len(bogus) // 3
    for k, line in enumerate(report[:3]):
        check(line.startswith(f"dropped bytes {at + k * step}-{at + (k + 1) * step} "
                              f"({huge} records claimed): "), f"huge claim {k}: {line!r}")
    records = sum(c for _, c, _ in blocks)
    check(report[-1:] == [f"kept {len(blocks)} blocks ({records} records); dropped 3 damaged "
                          f"blocks (at least {2**64 - 1} records claimed, {len(bogus)} bytes)"],
          f"the total saturates and says so: {report[-1:]}")
    # Two fit: the sum is exact.
    with open(bad, "wb") as f:
        f.write(data[:at] + bogus[:2 * step] + data[at:])
    report = run(["repair", bad, out]).stdout.decode().splitlines()
    check(report[-1:] == [f"kept {len(blocks)} blocks ({records} records); dropped 2 damaged "
                          f"blocks ({2 * huge} records claimed, {2 * step} bytes)"],
          f"two huge claims add up: {report[-1:]}")


def main():
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        files = {codec: make_file(tmp, codec) for codec in CODECS}
        trials(tmp, files)
        claims(tmp, files)
    return clitest.summary("repair_test")


if __name__ == "__main__":
    sys.exit(main())
