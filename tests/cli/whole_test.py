#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cat never prints part of a record (issue 26 item 4). A record's JSON text is held until
the record has been read in full (past 64 KiB in a temporary file, up to twice the
per-datum budget), so a record that fails prints nothing, and the records around it print
whole:

* a 2 KB file whose schema is a fan-out of empty records (records of 8 records of ... of
  empty records, 9 levels: no bytes at all) printed 654 MB of a record that then failed the
  item budget, leaving invalid JSON: now nothing of it, one error line;
* 7 levels of the same (23 MB of JSON) print whole, one valid JSON line; with 300-byte
  field names (630 MB) the record is refused, naming it and the limit, nothing printed
  (and by tojson, which holds a datum's text in memory, to the same limit);
* a 1 MB string whose last bytes are not UTF-8 printed its first 64 KiB pieces and a
  newline: now nothing of it; the records of the files before and after print whole.
"""

import json
import os
import subprocess
import sys
import tempfile

import clitest
from clitest import check

SYNC = bytes(range(16))


def zigzag(n):
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def avro_bytes(b):
    return zigzag(len(b)) + b


def container(path, schema, datums):
    """A "null"-codec container file of one block holding the encoded `datums`."""
    text = json.dumps(schema, separators=(",", ":")).encode()
    h = (b"Obj\x01" + zigzag(2) + avro_bytes(b"avro.schema") + avro_bytes(text) +
         avro_bytes(b"avro.codec") + avro_bytes(b"null") + zigzag(0) + SYNC)
    payload = b"".join(datums)
    h += zigzag(len(datums)) + zigzag(len(payload)) + payload + SYNC
    with open(path, "wb") as f:
        f.write(h)


def fan_out(fields, levels, name="f"):
    schema = {"type": "record", "name": "T0", "fields": []}
    for d in range(1, levels + 1):
        schema = {"type": "record", "name": f"T{d}",
                  "fields": [{"name": f"{name}{i}", "type": schema if i == 0 else f"T{d - 1}"}
                             for i in range(fields)]}
    return schema


def run(args):
    try:
        return clitest.run(args, timeout=300)
    except subprocess.TimeoutExpired:
        check(False, f"{' '.join(args)}: still running after 300 s")
        return subprocess.CompletedProcess(args, -1, b"", b"")


def whole_lines(out, what):
    """Every line a JSON value, the last one ended; the values."""
    check(out == b"" or out.endswith(b"\n"), f"{what}: ends with a newline: {out[-40:]!r}")
    values = []
    for line in out.split(b"\n")[:-1]:
        try:
            values.append(json.loads(line))
        except ValueError:
            check(False, f"{what}: a line is not JSON: {line[:60]!r}...{line[-60:]!r}")
    return values


def main():
    clitest.AVROGEN = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="avrogen-whole-")
    small = os.path.join(tmp, "small.avro")
    container(small, "long", [zigzag(1), zigzag(2)])

    fan = os.path.join(tmp, "fan.avro")
    container(fan, fan_out(8, 9), [b""])
    check(os.path.getsize(fan) < 4096, f"the fan-out file is small: {os.path.getsize(fan)}")
    p = run(["cat", small, fan, small])
    line = clitest.one_error_line(p, "cat of a fan-out of empty records")
    check(fan in line, f"the error names the file: {line}")
    check(whole_lines(p.stdout, "cat small fan small") == [1, 2, 1, 2],
          f"nothing of the fan-out record, the others whole: {len(p.stdout)} bytes, "
          f"{p.stdout[:40]!r}...{p.stdout[-40:]!r}")

    fan7 = os.path.join(tmp, "fan7.avro")
    container(fan7, fan_out(8, 7), [b""])
    p = run(["cat", fan7, small])
    values = whole_lines(p.stdout, "cat of 7 levels")
    check(p.returncode == 0 and len(values) == 3 and values[1:] == [1, 2] and
          len(p.stdout) > 20 << 20, f"7 levels print whole: exit {p.returncode}, "
          f"{len(p.stdout)} bytes, {p.stderr[:200]!r}")

    # Within the item budget (2 million empty records) but not the text's: 300-byte field
    # names make 630 MB of JSON, past the most a record may print (512 MiB).
    long_names = os.path.join(tmp, "long-names.avro")
    container(long_names, fan_out(8, 7, "n" * 300), [b""])
    p = run(["cat", small, long_names])
    line = clitest.one_error_line(p, "cat of a record of 630 MB of JSON")
    check(long_names in line and "record 2" in line and "longer than 536870912 bytes" in line,
          f"the error names the file, the record and the limit: {line}")
    check(whole_lines(p.stdout, "cat small long-names") == [1, 2],
          f"nothing of the long record: {len(p.stdout)} bytes")

    # tojson holds a datum's text in memory: to the same limit (it took 835 MB for this one).
    schema = os.path.join(tmp, "long-names.avsc")
    with open(schema, "w") as f:
        json.dump(fan_out(8, 7, "n" * 300), f)
    p = run(["tojson", "--schema", schema, "/dev/null"])
    line = clitest.one_error_line(p, "tojson of a datum of 630 MB of JSON")
    check("datum 0 (at byte 0)" in line and "longer than 536870912 bytes" in line,
          f"tojson names the datum and the limit: {line}")
    check(p.stdout == b"", f"tojson printed nothing of it: {len(p.stdout)} bytes")

    # A long string that turns out not to be UTF-8 at its end: nothing of it.
    bad = os.path.join(tmp, "bad-utf8.avro")
    good = b"a" * 1_000_000
    container(bad, "string", [avro_bytes(good), avro_bytes(good[:-2] + b"\xff\xfe"),
                              avro_bytes(b"after")])
    for args in (["cat", bad], ["cat", "--pretty", bad], ["head", "-n", "5", bad]):
        p = run(args)
        line = clitest.one_error_line(p, " ".join(args[:-1]) + " of a string not UTF-8")
        check(bad in line and "UTF-8" in line, f"{args[0]}: the error says why: {line}")
        check(whole_lines(p.stdout, args[0]) == [good.decode()],
              f"{' '.join(args[:-1])}: the first string whole and nothing of the second: "
              f"{len(p.stdout)} bytes")
    return clitest.summary("whole_test")


if __name__ == "__main__":
    sys.exit(main())
