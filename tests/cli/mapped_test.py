#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Container files the command line reads by path are mapped (issue 13): a
file truncated while avrogen reads it is one error line and exit 1, never a
SIGBUS death or a core dump, and leaves no output file behind.

usage: mapped_test.py AVROGEN

* cat and head, printing to a pipe: the test reads their first line, cuts the
  file to its header while they wait for the pipe to drain (a pipe holds far
  less than the file's JSON, so they cannot have read it all), then drains
  the pipe, which ends with whole lines, each a record's JSON, and the error
  names the file and the offset read (issue 26 item 4);
* concat, copying blocks as stored from the file's pages: the cut makes the
  write fail (EFAULT), and the error names the input, not the output;
* recodec to xz, writing OUT: the file is cut once OUT.tmp-XXXXXX exists
  (xz takes seconds over the file; the cut comes within milliseconds);
* every reading verb on the whole file first: mapped, the output is that of
  the file read from standard input, which is never mapped.
"""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import clitest
from clitest import check

SCHEMA = json.dumps({"type": "record", "name": "R", "fields": [
    {"name": "id", "type": "long"}, {"name": "s", "type": "string"},
    {"name": "x", "type": "double"}]})
MESSAGE = ": the file was truncated while being read"


def make_file(tmp, count):
    schema = os.path.join(tmp, "r.avsc")
    with open(schema, "w") as f:
        f.write(SCHEMA)
    path = os.path.join(tmp, "big.avro")
    p = clitest.run(["random", "--schema", schema, "--count", str(count), "--seed", "7",
                     "--codec", "null", path])
    check(p.returncode == 0, f"random: {p.stderr!r}")
    return path


def check_cut(name, p, err, path, what):
    """Exit 1 and one line blaming the input: "PATH: the file was truncated while being read
    (at offset N)" from the SIGBUS handler, or "(N bytes now, M when opened)" when a write
    from its pages failed instead (EFAULT: "write failed ... Bad address" before)."""
    lines = err.decode().splitlines()
    want = "avrogen: error: " + path + MESSAGE + " ("
    check(p.returncode == 1, f"{name} {what}: exit 1, got {p.returncode} (a signal is negative)")
    check(len(lines) == 1 and lines[0].startswith(want) and
          re.fullmatch(r"\((at offset \d+|\d+ bytes now, \d+ when opened)\)",
                       lines[0][len(want) - 1:]) is not None,
          f"{name} {what}: one line {want!r}..., got {lines!r}")


def check_whole_lines(name, out):
    """Output cut short still ends with whole lines, each a whole record's JSON (issue 26
    item 4: stdio's buffer went out in pieces, the last line torn)."""
    check(out.endswith(b"\n"), f"{name}: the output ends with a newline: {out[-60:]!r}")
    bad = 0
    for line in out.split(b"\n")[:-1]:
        try:
            json.loads(line)
        except ValueError:
            bad += 1
    check(bad == 0, f"{name}: every line is a record's JSON, {bad} are not: {out[-120:]!r}")


def check_stream(name, argv, big, master, tmp):
    path = os.path.join(tmp, f"{name}.avro")
    with open(path, "wb") as f:
        f.write(master)
    p = subprocess.Popen([clitest.AVROGEN] + argv + [path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    first = p.stdout.readline()
    check(first.startswith(b"{"), f"{name}: a first record before the cut: {first[:60]!r}")
    os.truncate(path, 600)
    rest = p.stdout.read()
    err = p.stderr.read()
    p.wait(timeout=60)
    check(len(first) + len(rest) < big, f"{name}: stopped short of the whole file's output")
    check_cut(name, p, err, path, "of a file cut while printing it")
    check_whole_lines(name, first + rest)


def check_concat_cut(tmp, master):
    """concat copies blocks as stored from the input's pages: a cut input fails the write
    with EFAULT, which blamed the output ("out.avro: write failed ...: Bad address")."""
    for attempt in range(3):
        path = os.path.join(tmp, f"concat-{attempt}.avro")
        with open(path, "wb") as f:
            f.write(master)
        out = os.path.join(tmp, "concat-out.avro")
        p = subprocess.Popen([clitest.AVROGEN, "concat", path, path, out],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while not glob.glob(glob.escape(out) + ".tmp-*") and time.time() < deadline \
                and p.poll() is None:
            time.sleep(0.001)
        os.truncate(path, 600)
        _, err = p.communicate(timeout=120)
        if p.returncode == 0:
            continue  # done before the cut: try again
        check_cut("concat", p, err, path, "of a file cut while copying it")
        check(not os.path.exists(out) and not glob.glob(glob.escape(out) + ".tmp-*"),
              "concat after the cut: no OUT and no temporary file")
        return
    check(False, "concat: never cut while running")


def check_output_file(tmp, master):
    path = os.path.join(tmp, "recodec.avro")
    with open(path, "wb") as f:
        f.write(master)
    out = os.path.join(tmp, "recodec-out.avro")
    p = subprocess.Popen([clitest.AVROGEN, "recodec", "--codec", "xz", path, out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while not glob.glob(glob.escape(out) + ".tmp-*") and time.time() < deadline \
            and p.poll() is None:
        time.sleep(0.002)
    check(p.poll() is None, "recodec: still running once its temporary file is there")
    os.truncate(path, 600)
    _, err = p.communicate(timeout=120)
    check_cut("recodec", p, err, path, "of a file cut while recompressing it")
    check(not os.path.exists(out) and not glob.glob(glob.escape(out) + ".tmp-*"),
          "recodec after the cut: no OUT and no temporary file")


def check_same_as_stdin(tmp, path):
    """Mapped (by path) or read (stdin), every reading verb says the same."""
    out = os.path.join(tmp, "copy.avro")
    verbs = [["cat"], ["cat", "--offset", "1000", "--limit", "5"], ["head", "-n", "3"],
             ["count"], ["getschema"], ["getmeta"], ["validate"]]
    for verb in verbs:
        by_path = clitest.run(verb + [path])
        by_stdin = clitest.run(verb + ["-"], stdin=open(path, "rb").read())
        check(by_path.returncode == 0 and by_path.returncode == by_stdin.returncode,
              f"{verb}: exit {by_path.returncode} {by_path.stderr[:200]!r}")
        want = by_stdin.stdout
        if verb == ["validate"] and want.startswith(b"-:"):
            want = path.encode() + want[1:]
        check(by_path.stdout and by_path.stdout == want, f"{verb}: the same output mapped as from stdin")
    for verb in (["concat", path, path, out], ["recodec", "--codec", "deflate", path, out]):
        p = clitest.run(verb)
        check(p.returncode == 0, f"{verb[0]} of a mapped file: {p.stderr!r}")
        c = clitest.run(["count", out])
        want = 2 * 40000 if verb[0] == "concat" else 40000
        check(c.returncode == 0 and c.stdout.split()[0] == str(want).encode(),
              f"{verb[0]}: {want} records, got {c.stdout!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        path = make_file(tmp, 40000)
        check_same_as_stdin(tmp, path)
        big = make_file(tmp, 400000)
        master = open(big, "rb").read()
        check(len(master) > 8 << 20, f"a file of more than 8 MiB: {len(master)} bytes")
        full = len(clitest.run(["cat", big]).stdout)
        check_stream("cat", ["cat"], full, master, tmp)
        check_stream("head", ["head", "-n", "100000000"], full, master, tmp)
        check_output_file(tmp, master)
        check_concat_cut(tmp, master)
    sys.exit(clitest.summary("cli mapped"))
