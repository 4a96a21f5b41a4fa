#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A container file whose header holds 200,000 metadata entries (issue 26 item 5): concat,
recodec and repair copy them in n log n, not n^2 (200,000 took minutes each when every key
was looked up again). No time is asserted here: ctest's TIMEOUT for this test is what fails
a quadratic copy. Checked exactly: the user entries come out in file order, each key once
with its last value, whatever the verb."""

import os
import sys
import tempfile

import clitest
from clitest import check

N = 200_000
SYNC = bytes(range(16))


def zigzag(n):
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_long(data, pos):
    shift = value = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return (value >> 1) ^ -(value & 1), pos


def header_entries(path):
    """The metadata map of path's header, every entry in file order (blocks of the map too)."""
    data = open(path, "rb").read()
    assert data[:4] == b"Obj\x01", path
    pos, out = 4, []
    while True:
        count, pos = read_long(data, pos)
        if count == 0:
            return out
        if count < 0:
            count = -count
            _, pos = read_long(data, pos)
        for _ in range(count):
            klen, pos = read_long(data, pos)
            key = data[pos:pos + klen]
            pos += klen
            vlen, pos = read_long(data, pos)
            out.append((key, data[pos:pos + vlen]))
            pos += vlen


def write_file(path, user):
    """A header of avro.schema "long", codec null and `user`, then one block of the datum 1."""
    entries = [(b"avro.schema", b'"long"'), (b"avro.codec", b"null")] + user
    h = bytearray(b"Obj\x01") + zigzag(len(entries))
    for k, v in entries:
        h += zigzag(len(k)) + k + zigzag(len(v)) + v
    h += zigzag(0) + SYNC + zigzag(1) + zigzag(1) + zigzag(1) + SYNC
    open(path, "wb").write(h)


def main():
    clitest.AVROGEN = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="avrogen-meta-")
    # Keys in no sorted order, a few repeated far apart: the last value of a key wins, at
    # the place of its last entry.
    user = [(b"k%07d" % ((i * 7919) % N), b"v%d" % i) for i in range(N)]
    user += [(b"k0000003", b"again"), (b"k0199999", b"")]
    last = {}
    for i, (k, v) in enumerate(user):
        last[k] = i
    expected = [(k, v) for i, (k, v) in enumerate(user) if last[k] == i]
    src = os.path.join(tmp, "big.avro")
    write_file(src, user)
    check(len(expected) == N, f"{len(expected)} distinct keys")

    runs = {
        "concat": ["concat", src, src],
        "recodec": ["recodec", "--codec", "deflate", src],
        "repair": ["repair", src],
    }
    for verb, args in runs.items():
        out = os.path.join(tmp, verb + ".avro")
        p = clitest.run(args + [out])
        if not check(p.returncode == 0, f"{verb}: exit {p.returncode}: {p.stderr[-300:]!r}"):
            continue
        got = [e for e in header_entries(out) if not e[0].startswith(b"avro.")]
        check(got == expected,
              f"{verb}: {len(got)} user entries, first difference at "
              f"{next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), None)}")
        records = clitest.run(["cat", out]).stdout
        check(records == (b"1\n1\n" if verb == "concat" else b"1\n"), f"{verb}: records {records!r}")
    return clitest.summary("meta_test")


if __name__ == "__main__":
    sys.exit(main())
