#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""SCHEMA arguments: a file, - for standard input, or the JSON text itself, on
every verb that takes one, and never read past the limit for schemas.

usage: schema_arg_test.py AVROGEN

* Every verb taking a schema (canonical, fingerprint, tojson --schema and
  --writer-schema, fromjson, cat, head, validate, write, random, compat
  --reader and --writer, header) gives the same output for a file, for
  standard input and for the same text as the argument.
* A schema of exactly 16 MiB (CLI_TEXT_MAX, the default header limit of a
  container file) is read; one byte more is one error line naming the file
  and the limit, exit 1, on every verb; an endless schema through a pipe ends
  with that error, having read no more than the limit (peak RSS).
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import avro.schema  # noqa: E402
import clitest  # noqa: E402
from clitest import check, one_error_line  # noqa: E402

LIMIT = 16 << 20
SCHEMA = {"type": "record", "name": "R", "fields": [{"name": "a", "type": "long"},
                                                    {"name": "s", "type": "string"}]}
TEXT = json.dumps(SCHEMA)
PARSED = avro.schema.parse(TEXT)
RECORDS = [{"a": 1, "s": "x"}, {"a": -7, "s": "yz"}]


def verbs(tmp, s):
    """(name, argv) of every verb with schema argument s; the output to compare is
    stdout, or a file's records (write), or the header written (header)."""
    jsonl = os.path.join(tmp, "in.jsonl")
    datums = os.path.join(tmp, "in.bin")
    avro_file = os.path.join(tmp, "in.avro")
    return [
        ("canonical", ["canonical", s]),
        ("fingerprint", ["fingerprint", s, "--algo", "sha256"]),
        ("tojson --schema", ["tojson", "--schema", s, datums]),
        ("tojson --writer-schema", ["tojson", "--schema", TEXT, "--writer-schema", s, datums]),
        ("fromjson", ["fromjson", "--schema", s, jsonl]),
        ("cat --schema", ["cat", "--schema", s, avro_file]),
        ("head --schema", ["head", "-n", "1", "--schema", s, avro_file]),
        ("validate --schema", ["validate", "--schema", s, avro_file]),
        ("write", ["write", "--schema", s, jsonl, os.path.join(tmp, "out.avro")]),
        ("random", ["random", "--schema", s, "--count", "3", "--seed", "5", "--format", "json",
                    "-"]),
        ("compat --reader", ["compat", "--reader", s, "--writer", TEXT]),
        ("compat --writer", ["compat", "--reader", TEXT, "--writer", s]),
        ("header", ["header", s, "-o", os.path.join(tmp, "hdr")]),
    ]


def result(tmp, name, p):
    """What a run produced: stdout, write's records, header's struct (its file names and first
    comment line say where the schema came from)."""
    if name == "write":
        if p.returncode != 0:
            return None
        out = os.path.join(tmp, "out.avro")
        records = clitest.python_read(out)
        os.unlink(out)
        return records
    if name == "header":
        d = os.path.join(tmp, "hdr")
        if not os.path.isdir(d):
            return None
        texts = []
        for f in sorted(os.listdir(d)):
            with open(os.path.join(d, f)) as h:
                texts.append(h.read().split("\n", 1)[1].replace(f.split(".")[0].upper(), "X"))
            os.unlink(os.path.join(d, f))
        os.rmdir(d)
        return texts
    return p.stdout


def test_file_or_text(tmp):
    """A file, standard input and the JSON text give the same output, on every verb."""
    path = os.path.join(tmp, "r.avsc")
    with open(path, "w") as f:
        f.write(TEXT)
    with open(os.path.join(tmp, "in.jsonl"), "w") as f:
        f.write(clitest.json_lines(PARSED, RECORDS))
    p = clitest.run(["fromjson", "--schema", path, os.path.join(tmp, "in.jsonl")])
    check(p.returncode == 0, f"fromjson: {p.stderr!r}")
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(p.stdout)
    clitest.python_write(os.path.join(tmp, "in.avro"), PARSED, RECORDS)
    for (name, by_file), (_, by_text), (_, by_stdin) in zip(verbs(tmp, path), verbs(tmp, TEXT),
                                                            verbs(tmp, "-")):
        outs = []
        for how, args, stdin in (("file", by_file, None), ("JSON text", by_text, None),
                                 ("standard input", by_stdin, TEXT.encode())):
            if name == "header" and how == "standard input":
                continue
            p = clitest.run(args, stdin=stdin)
            check(p.returncode == 0, f"{name}, schema as {how}: exit {p.returncode} "
                                     f"{p.stderr!r}")
            outs.append(result(tmp, name, p))
        check(outs[0] not in (None, b"", []) and all(o == outs[0] for o in outs),
              f"{name}: the same output for a file, JSON text and stdin: {outs!r}")
    p = clitest.run(["write", "--schema", '{"type": "record"', os.path.join(tmp, "in.jsonl"),
                     os.path.join(tmp, "out.avro")])
    line = one_error_line(p, "write of bad JSON text")
    check(line.startswith("avrogen: error: <argument>: "), f"write names the argument: {line!r}")
    check(not os.path.exists(os.path.join(tmp, "out.avro")), "write left no file")


def peak(args, feed=None, stdin_path=None):
    """Exit status, stderr and peak RSS (MiB) of one run, stdin from a shell pipeline or file."""
    producer = None
    if feed is not None:
        producer = subprocess.Popen(["sh", "-c", feed], stdout=subprocess.PIPE)
        stdin = producer.stdout
    else:
        stdin = open(stdin_path or os.devnull, "rb")
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([clitest.AVROGEN] + args, stdin=stdin, stdout=subprocess.DEVNULL,
                             stderr=err)
        stdin.close()
        _, status, usage = os.wait4(p.pid, 0)
        if producer is not None:
            producer.kill()
            producer.wait()
        err.seek(0)
        result = subprocess.CompletedProcess(args, os.waitstatus_to_exitcode(status), b"",
                                             err.read())
    return result, usage.ru_maxrss / 1024


def too_long(name):
    return (f"avrogen: error: {name}: the schema is longer than {LIMIT} bytes (the limit for "
            f"schemas, the default limit of a container file's header)")


def test_limit(tmp):
    """16 MiB of schema is read, a byte more is refused on every verb, from a file and from an
    endless pipe, with no more than the limit read."""
    path = os.path.join(tmp, "big.avsc")
    value = b'"string"'
    with open(path, "wb") as f:
        f.write(b" " * (LIMIT - len(value)) + value)
    p = clitest.run(["canonical", path])
    check(p.returncode == 0 and p.stdout == b'"string"\n',
          f"a schema of exactly {LIMIT} bytes: {p.returncode} {p.stderr[:200]!r}")
    with open(path, "wb") as f:
        f.write(b" " * (LIMIT + 1 - len(value)) + value)
    base = peak(["canonical", TEXT])[1]
    for name, args in verbs(tmp, path):
        p = clitest.run(args)
        line = one_error_line(p, f"{name}: a schema one byte over the limit")
        check(line == too_long(path), f"{name}: {line!r}")
    check(not os.path.exists(os.path.join(tmp, "out.avro")) and
          not os.path.exists(os.path.join(tmp, "hdr")), "write and header wrote nothing")
    for name, args in verbs(tmp, "-"):
        p, rss = peak(args, feed="yes")
        line = one_error_line(p, f"{name}: an endless schema through a pipe")
        check(line == too_long("-"), f"{name}: {line!r}")
        check(rss - base < 2 * LIMIT / (1 << 20) + 8,
              f"{name}: an endless schema took {rss - base:.0f} MiB over the start")
    p = clitest.run(["canonical", "/dev/stdin"], stdin=b"x" * (LIMIT + 1))
    check(one_error_line(p, "/dev/stdin") == too_long("/dev/stdin"), f"/dev/stdin: {p.stderr!r}")
    os.unlink(path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_file_or_text(tmp)
        test_limit(tmp)
    sys.exit(clitest.summary("cli schema arguments"))
