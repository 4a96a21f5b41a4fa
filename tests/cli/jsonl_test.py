#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""JSON lines from a user (fromjson, write) within the per-datum budget.

usage: jsonl_test.py AVROGEN

The CLI has no option for its budget (256 MiB, CLI_ARENA_BUDGET), so the
inputs are that large, written to a temporary file or generated into a pipe:

* a line of exactly the budget (spaces, then a value) is read; one byte more
  is one error line naming the file, the line and the byte the line starts
  at, after the datums of the lines before it (fromjson streams them; write
  leaves no file, and an old OUT as it was);
* an endless line through a pipe (`yes | tr -d '\\n'`) ends the same way,
  having read no more than the budget: peak RSS stays near it;
* a short line whose JSON tree would take more than the budget in jansson
  ("[{},{},...]": some 80 bytes of tree per byte of text) is refused the same
  way, with jansson's allocations stopped at the budget.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clitest  # noqa: E402
from clitest import check, one_error_line  # noqa: E402

BUDGET = 256 << 20
MIB = 1 << 20
SCHEMA = '"string"'


def schema_file(tmp):
    """write reads its schema from a file."""
    path = os.path.join(tmp, "string.avsc")
    with open(path, "w") as f:
        f.write(SCHEMA)
    return path


def peak(args, stdin_path=None, feed=None):
    """Exit status, stdout, stderr and peak RSS (MiB) of one avrogen run."""
    producer = None
    if feed is not None:
        producer = subprocess.Popen(["sh", "-c", feed], stdout=subprocess.PIPE)
        stdin = producer.stdout
    else:
        stdin = open(stdin_path or os.devnull, "rb")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([clitest.AVROGEN] + args, stdin=stdin, stdout=out, stderr=err)
        stdin.close()
        _, status, usage = os.wait4(p.pid, 0)
        if producer is not None:
            producer.kill()
            producer.wait()
        out.seek(0)
        err.seek(0)
        result = subprocess.CompletedProcess(args, os.waitstatus_to_exitcode(status), out.read(),
                                             err.read())
    return result, usage.ru_maxrss / 1024


def expect_error(p, what, text):
    line = one_error_line(p, what)
    check(text in line, f"{what}: {text!r} in {line!r}")
    return line


def test_line_budget(tmp):
    """A line of the budget is read; a byte more is refused, from a file, with the offset of the
    line's start; fromjson has printed the datums before it, write has left no file."""
    path = os.path.join(tmp, "big.jsonl")
    first = b'"a"\n"b"\n'
    for extra in (0, 1):
        with open(path, "wb") as f:
            f.write(first)
            # In pieces: a 256 MiB object in this process would count in the RSS of the
            # children it forks.
            spaces = BUDGET - 3 + extra
            for _ in range(spaces // MIB):
                f.write(b" " * MIB)
            f.write(b" " * (spaces % MIB) + b'"c"\n')
            f.write(b'"d"\n')
        p, rss = peak(["fromjson", "--schema", SCHEMA, path])
        if extra == 0:
            check(p.returncode == 0 and p.stdout == b"\x02a\x02b\x02c\x02d",
                  f"fromjson reads a line of exactly the budget: exit {p.returncode} "
                  f"{p.stderr!r}")
            continue
        expect_error(p, "fromjson of a line a byte past the budget",
                     f"{path}:3: the line starting at byte {len(first)} is longer than "
                     f"{BUDGET} bytes")
        check(p.stdout == b"\x02a\x02b", f"fromjson printed the lines before it: {p.stdout!r}")
        check(rss < 256 + 48, f"fromjson read no more than the budget: {rss:.0f} MiB")
        out = os.path.join(tmp, "big.avro")
        with open(out, "wb") as f:
            f.write(b"old")
        p, _ = peak(["write", "--schema", schema_file(tmp), path, out])
        expect_error(p, "write of a line a byte past the budget",
                     f"{path}:3: the line starting at byte {len(first)} is longer than "
                     f"{BUDGET} bytes")
        with open(out, "rb") as f:
            check(f.read() == b"old", "write left the old OUT as it was")
        check(sorted(os.listdir(tmp)) == ["big.avro", "big.jsonl", "string.avsc"],
              f"write left no temporary file: {os.listdir(tmp)}")
        os.unlink(out)
    os.unlink(path)


def test_endless_line(tmp):
    """`yes | tr -d '\\n'` after two lines: one error line, and no more than the budget read."""
    _, base = peak(["fromjson", "--schema", SCHEMA], feed="printf '\"a\"\\n'")
    feed = "printf '\"a\"\\n  \"b\"\\n'; yes | tr -d '\\n'"
    p, rss = peak(["fromjson", "--schema", SCHEMA], feed=feed)
    expect_error(p, "fromjson of an endless line",
                 f"-:3: the line starting at byte 10 is longer than {BUDGET} bytes "
                 "(the per-datum budget)")
    check(p.stdout == b"\x02a\x02b", f"fromjson printed the lines before it: {p.stdout!r}")
    check(rss - base < 256 + 24, f"fromjson of an endless line: {rss - base:.0f} MiB over the start")
    out = os.path.join(tmp, "endless.avro")
    p, rss = peak(["write", "--schema", schema_file(tmp), "-", out], feed=feed)
    expect_error(p, "write of an endless line",
                 f"-:3: the line starting at byte 10 is longer than {BUDGET} bytes")
    check(os.listdir(tmp) == ["string.avsc"],
          f"write of an endless line leaves no file: {os.listdir(tmp)}")
    check(rss - base < 256 + 24, f"write of an endless line: {rss - base:.0f} MiB over the start")


def test_tree_budget(tmp):
    """4 MiB of "[{},{},...]" would take some 300 MiB of jansson's tree: refused at the budget,
    with the line and its offset, in bounded memory."""
    path = os.path.join(tmp, "objects.jsonl")
    n = (4 * MIB) // 3
    with open(path, "wb") as f:
        f.write(b'"a"\n')
        f.write(b"[" + b",".join([b"{}"] * n) + b"]\n")
    _, base = peak(["fromjson", "--schema", SCHEMA], feed="printf '\"a\"\\n'")
    for args in (["fromjson", "--schema", SCHEMA, path],
                 ["write", "--schema", schema_file(tmp), path, os.path.join(tmp, "o.avro")]):
        p, rss = peak(args)
        expect_error(p, f"{args[0]} of a line whose JSON tree is too large",
                     f"{path}:2: the JSON text of the line starting at byte 4 needs more than "
                     f"{BUDGET} bytes of memory to parse (the per-datum budget)")
        check(rss - base < 256 + 80, f"{args[0]}: {rss - base:.0f} MiB over the start")
    check(sorted(os.listdir(tmp)) == ["objects.jsonl", "string.avsc"],
          f"write left no file: {os.listdir(tmp)}")
    os.unlink(path)


def test_line_ends():
    """Spaces, tabs and a CR before the newline are not part of the value; a NUL byte is, and
    is bad JSON, not trailing space."""
    p = clitest.run(["fromjson", "--schema", SCHEMA], stdin=b'"a" \t\r\n"b"')
    check(p.returncode == 0 and p.stdout == b"\x02a\x02b", f"trailing space: {p.stderr!r}")
    p = clitest.run(["fromjson", "--schema", SCHEMA], stdin=b'"a"\n"b"\x00\n')
    expect_error(p, "a NUL byte after the value", "-:2:")
    check(p.stdout == b"\x02a", f"fromjson printed the line before it: {p.stdout!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_line_budget(tmp)
        test_endless_line(tmp)
        test_tree_budget(tmp)
        test_line_ends()
    sys.exit(clitest.summary("cli jsonl"))
