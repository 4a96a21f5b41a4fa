#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every input bounded (issue 26 item 5). A file a verb reads whole (a SCHEMA, a response
file, a --compat-with schema or folder, a header and the files -include and -imacros name,
which libclang reads whole) is read to 16 MiB at most, and only when it is a regular file or
a pipe named on the command line: /dev/zero, a directory, a FIFO or a device inside a
--compat-with folder are refused by name, never read (they grew the process to gigabytes,
ran libclang out of memory or blocked for ever). tojson of a zero-byte schema stops at the
first byte of input instead of draining an endless one. Every run has a timeout: a run
that blocks or drains fails it."""

import os
import subprocess
import sys
import tempfile
import threading

import clitest
from clitest import check, one_error_line

LIMIT = 16 * 1024 * 1024
HEADER = "#include <avrogen/annotate.h>\nstruct AVRO_RECORD() p { int x; };\n"
SCHEMA = '{"type": "record", "name": "p", "fields": [{"name": "x", "type": "int"}]}'
TIMEOUT = 60


def run(args, **kw):
    try:
        return clitest.run(args, timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        check(False, f"{' '.join(args)}: still running after {TIMEOUT} s")
        return subprocess.CompletedProcess(args, -1, b"", b"")


def refused(args, *words):
    """One error line holding every word, exit 1, nothing on stdout."""
    p = run(args)
    what = " ".join(args)
    line = one_error_line(p, what)
    check(p.stdout == b"", f"{what}: nothing on stdout, got {p.stdout[:200]!r}")
    for w in words:
        check(w in line, f"{what}: {w!r} in {line!r}")
    return line


def feed_fifo(path, data, endless=False):
    """A thread writing `data` (again and again when endless) into FIFO path until its reader
    goes away."""
    def go():
        try:
            with open(path, "wb") as f:
                while True:
                    f.write(data)
                    if not endless:
                        return
        except (BrokenPipeError, OSError):
            pass
    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t


def generator_inputs(tmp):
    header = os.path.join(tmp, "p.h")
    with open(header, "w") as f:
        f.write(HEADER)
    old = os.path.join(tmp, "old.avsc")
    with open(old, "w") as f:
        f.write(SCHEMA)
    sparse_h = os.path.join(tmp, "big.h")  # past the limit, in no disk space
    sparse_avsc = os.path.join(tmp, "big.avsc")
    for path in (sparse_h, sparse_avsc):
        with open(path, "wb") as f:
            f.truncate(LIMIT + 1)
    fifo_h = os.path.join(tmp, "fifo.h")
    os.mkfifo(fifo_h)
    p = run(["schema", header])
    check(p.returncode == 0 and b'"name": "p"' in p.stdout, f"schema p.h: {p.stderr!r}")

    # Headers: libclang reads them whole, unbounded, so only regular files within the limit.
    refused(["schema", "/dev/zero"], "header '/dev/zero'", "character device", "regular file")
    refused(["generate", "/dev/zero", "-o", os.path.join(tmp, "gen")], "character device")
    refused(["schema", fifo_h], "fifo.h", "a pipe", "regular file")
    refused(["schema", tmp], "a directory")
    refused(["schema", sparse_h], "big.h", str(LIMIT + 1), str(LIMIT))
    check(not os.path.exists(os.path.join(tmp, "gen")), "generate of /dev/zero created nothing")

    # The files -include and -imacros name, in every spelling: checked before libclang runs.
    for args in (["-include", "/dev/zero"], ["-include/dev/zero"], ["-imacros", "/dev/zero"],
                 ["--include=/dev/zero"]):
        refused(["schema", header, "--"] + args, "'/dev/zero'", "character device")
    refused(["schema", header, "--", "-include", fifo_h], "fifo.h", "a pipe")
    refused(["schema", header, "--", "-include", sparse_h], "big.h", str(LIMIT))
    refused(["schema", header, "--", "-imacros", sparse_h], "-imacros", str(LIMIT))
    # One clang looks for on the include path is clang's to find (or not).
    p = run(["schema", header, "--", "-include", "stdint.h"])
    check(p.returncode == 0, f"-include stdint.h: {p.stderr!r}")

    # --compat-with FILE: a regular file or a pipe, to the limit.
    p = run(["schema", header, "--compat-with", old])
    check(p.returncode == 0, f"--compat-with old.avsc: {p.stderr!r}")
    refused(["schema", header, "--compat-with", "/dev/zero"], "/dev/zero", "character device")
    refused(["schema", header, "--compat-with", sparse_avsc], "big.avsc", str(LIMIT))
    fifo_avsc = os.path.join(tmp, "pipe.avsc")
    os.mkfifo(fifo_avsc)
    feed_fifo(fifo_avsc, SCHEMA.encode())
    p = run(["schema", header, "--compat-with", fifo_avsc])
    check(p.returncode == 0, f"--compat-with a FIFO named, holding a schema: {p.stderr!r}")
    feed_fifo(fifo_avsc, b" " * 65536, endless=True)
    refused(["schema", header, "--compat-with", fifo_avsc], "pipe.avsc",
            f"longer than {LIMIT} bytes")

    # --compat-with DIR: its *.avsc regular files only; anything else there is refused
    # before it is opened (a FIFO blocked for ever, a link to /dev/zero never ended).
    for name, make in (("fifo", lambda p: os.mkfifo(p)),
                       ("zero", lambda p: os.symlink("/dev/zero", p)),
                       ("dir", lambda p: os.mkdir(p))):
        folder = os.path.join(tmp, "earlier-" + name)
        os.mkdir(folder)
        with open(os.path.join(folder, "a.avsc"), "w") as f:
            f.write(SCHEMA)
        make(os.path.join(folder, "b.avsc"))
        refused(["schema", header, "--compat-with", folder], "b.avsc", "--compat-with folder",
                "regular files")
        os.remove(os.path.join(folder, "b.avsc")) if name != "dir" else os.rmdir(
            os.path.join(folder, "b.avsc"))
        p = run(["schema", header, "--compat-with", folder])
        check(p.returncode == 0, f"--compat-with {name} folder, cleaned: {p.stderr!r}")

    # Response files: the same rule as schemas.
    refused(["schema", header, "--", "@/dev/zero"], "/dev/zero", "a response file",
            "character device")
    fifo_rsp = os.path.join(tmp, "args.rsp")
    os.mkfifo(fifo_rsp)
    feed_fifo(fifo_rsp, b" " * 65536, endless=True)
    refused(["schema", header, "--", "@" + fifo_rsp], "args.rsp", f"longer than {LIMIT}")


def schema_arguments(tmp):
    # A SCHEMA argument: never a device or a directory (a pipe, stdin, a file as before).
    for verb in (["canonical"], ["fingerprint"]):
        refused(verb + ["/dev/zero"], "/dev/zero", "character device", "regular file or a pipe")
        refused(verb + [tmp], "a directory")
    refused(["tojson", "--schema", "/dev/zero"], "/dev/zero", "character device")
    refused(["header", "/dev/zero"], "/dev/zero", "character device")
    fifo = os.path.join(tmp, "schema-pipe")
    os.mkfifo(fifo)
    feed_fifo(fifo, b'"long"')
    p = run(["canonical", fifo])
    check(p.returncode == 0 and p.stdout == b'"long"\n', f"canonical of a FIFO: {p!r}")


def tojson_zero_byte_schema():
    # A datum of "null" takes no bytes: the first byte of input is the error, at byte 0,
    # and nothing more is read (it drained /dev/zero before).
    for schema in ('"null"', '{"type": "record", "name": "E", "fields": []}'):
        refused(["tojson", "--schema", schema, "/dev/zero"], "/dev/zero", "at byte 0",
                "zero bytes")
    p = subprocess.Popen([clitest.AVROGEN, "tojson", "--schema", '"null"'],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    fed = [0]

    def feed():
        try:
            while True:
                p.stdin.write(b"\0" * 65536)
                fed[0] += 65536
        except (BrokenPipeError, OSError):
            pass
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    try:
        err = p.stderr.read()
        p.wait(timeout=TIMEOUT)
        check(p.returncode == 1 and b"at byte 0" in err, f"tojson of an endless pipe: {err!r}")
    except subprocess.TimeoutExpired:
        p.kill()
        check(False, "tojson of an endless pipe: still reading")


def main():
    clitest.AVROGEN = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="avrogen-bounded-")
    generator_inputs(tmp)
    schema_arguments(tmp)
    tojson_zero_byte_schema()
    return clitest.summary("bounded_test")


if __name__ == "__main__":
    sys.exit(main())
