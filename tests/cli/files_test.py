#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Every command that writes a file keeps the promises of DESIGN.md.

usage: files_test.py AVROGEN

For write, concat, recodec, repair and random:
* a new OUT gets 0666 less the umask (027 and 000 tried), as open(2) would
  make it, not mkstemp's 0600;
* an existing OUT keeps its mode (0604) when it is replaced;
* SIGINT, SIGTERM, SIGHUP and SIGPIPE in the middle of a run leave no
  OUT.tmp-XXXXXX behind and the old OUT as it was, and the process dies of
  the signal;
* a failed run (bad input) leaves no file either.
The commands are stopped while they wait for more input on a pipe (or, for
random, while they write a large file), once their temporary file exists.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import clitest
from clitest import check

SCHEMA = json.dumps({"type": "record", "name": "R", "fields": [
    {"name": "id", "type": "long"}, {"name": "s", "type": "string"}]})
LINES = "".join(json.dumps({"id": i, "s": "x" * (i % 50)}) + "\n" for i in range(2000))


def write_cmd(tmp, out):
    return [clitest.AVROGEN, "write", "--schema", os.path.join(tmp, "r.avsc"), "-", out]


def stream_cmds(tmp):
    """name -> (argv for OUT, stdin bytes that make a whole valid run)."""
    jsonl = LINES.encode()
    avro = open(os.path.join(tmp, "in.avro"), "rb").read()
    src = os.path.join(tmp, "in.avro")
    a = clitest.AVROGEN
    cmds = {
        "write": (lambda out: write_cmd(tmp, out), jsonl),
        "concat": (lambda out: [a, "concat", src, "-", out], avro),
        "recodec": (lambda out: [a, "recodec", "--codec", "deflate", "-", out], avro),
        "repair": (lambda out: [a, "repair", "-", out], avro),
        "random": (lambda out: [a, "random", "--schema", os.path.join(tmp, "r.avsc"), "--count",
                                "100", out], b""),
    }
    return cmds, avro


def long_run(name, make_argv):
    """The argv of a run that lasts until it is stopped: random makes a billion records."""
    if name != "random":
        return make_argv
    return lambda out: make_argv(out)[:5] + ["1000000000", out]


def tmp_files(out):
    return glob.glob(glob.escape(out) + ".tmp-*")


def run_with_umask(argv, stdin, umask):
    def child():
        os.umask(umask)
    return subprocess.run(argv, input=stdin, capture_output=True, preexec_fn=child)


def check_modes(name, make_argv, stdin, tmp):
    for umask, want in ((0o027, 0o640), (0o000, 0o666)):
        out = os.path.join(tmp, f"{name}-new-{umask:o}.avro")
        p = run_with_umask(make_argv(out), stdin, umask)
        check(p.returncode == 0, f"{name}: {p.stderr!r}")
        mode = os.stat(out).st_mode & 0o7777
        check(mode == want, f"{name} with umask {umask:03o}: mode {mode:o}, want {want:o}")
    out = os.path.join(tmp, f"{name}-existing.avro")
    with open(out, "w") as f:
        f.write("old")
    os.chmod(out, 0o604)
    p = run_with_umask(make_argv(out), stdin, 0o077)
    mode = os.stat(out).st_mode & 0o7777
    check(p.returncode == 0 and mode == 0o604, f"{name} keeps a replaced file's mode: {mode:o}")
    check(open(out, "rb").read(4) == b"Obj\x01", f"{name} replaced the file")


def check_signals(name, make_argv, stdin, tmp):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        out = os.path.join(tmp, f"{name}-{sig.name}.avro")
        with open(out, "w") as f:
            f.write("old")
        p = subprocess.Popen(make_argv(out), stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        # Half the input, then wait (the rest never comes) until the temporary file is there.
        p.stdin.write(stdin[:len(stdin) // 2])
        p.stdin.flush()
        deadline = time.time() + 20
        while not tmp_files(out) and time.time() < deadline and p.poll() is None:
            time.sleep(0.01)
        check(tmp_files(out), f"{name}: a temporary file while it runs")
        p.send_signal(sig)
        try:
            p.stdin.close()
        except BrokenPipeError:
            pass
        p.wait(timeout=20)
        check(p.returncode == -sig, f"{name} dies of {sig.name}: {p.returncode}")
        check(not tmp_files(out), f"{name} after {sig.name}: no temporary file left")
        check(open(out).read() == "old", f"{name} after {sig.name}: the old OUT is intact")


def check_failure(name, make_argv, tmp):
    out = os.path.join(tmp, f"{name}-failed.avro")
    p = subprocess.run(make_argv(out), input=b"not valid input\n", capture_output=True)
    check(p.returncode == 1, f"{name} of bad input: exit 1, got {p.returncode}")
    check(not os.path.exists(out) and not tmp_files(out), f"{name} of bad input: no file")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "r.avsc"), "w") as f:
            f.write(SCHEMA)
        p = subprocess.run(write_cmd(tmp, os.path.join(tmp, "in.avro")), input=LINES.encode())
        check(p.returncode == 0, "the input file")
        cmds, _ = stream_cmds(tmp)
        for name, (make_argv, stdin) in cmds.items():
            check_modes(name, make_argv, stdin, tmp)
            check_signals(name, long_run(name, make_argv), stdin, tmp)
            if name != "random":
                check_failure(name, make_argv, tmp)
    sys.exit(clitest.summary("cli files"))
