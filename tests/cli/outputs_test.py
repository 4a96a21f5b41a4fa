#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Outputs are files, and nothing else is touched (issue 26 item 2; DESIGN.md, "Output files").

usage: outputs_test.py AVROGEN

* OUT of random and write, and generate's --depfile and --manifest, as a FIFO
  (a reader thread gets the bytes), a symbolic link to a file (the link stays,
  the file it names gets the new bytes), a symbolic link to a FIFO, a dangling
  link (the file it names is made), a directory and a socket (refused, one
  error line, nothing changed); as root, a character device made here with
  /dev/null's numbers (stays a device) and /dev/full's (exit 1, one line).
  Real /dev entries are never an output here.
* Every signal whose default action ends the process, sent to random in the
  middle of a large OUT: no OUT.tmp-* left, death by that signal.
* Standard output on /dev/full for every verb that prints, and on a pipe
  closed early: exit 1 and one 'avrogen: error:' line.
"""

import glob
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

import clitest
from clitest import check

SCHEMA = json.dumps({"type": "record", "name": "R", "fields": [
    {"name": "id", "type": "long"}, {"name": "s", "type": "string"}]})
HEADER = ("#include <stdint.h>\n#include <avrogen/annotate.h>\n"
          "struct AVRO_RECORD() point { int64_t x; };\n")


def fifo_reader(path):
    """A thread reading the FIFO at path to its end; its .data once joined."""
    t = threading.Thread(target=lambda: setattr(t, "data", open(path, "rb").read()))
    t.data = None
    t.start()
    return t


def kind(path):
    st = os.lstat(path)
    for name in ("S_ISLNK", "S_ISFIFO", "S_ISCHR", "S_ISSOCK", "S_ISDIR", "S_ISREG"):
        if getattr(stat, name)(st.st_mode):
            return name[4:]
    return "?"


def writers(tmp):
    """name -> argv making OUT, for the verbs checked on every kind of OUT."""
    s = os.path.join(tmp, "r.avsc")
    a = clitest.AVROGEN
    return {
        "random": lambda out: [a, "random", "--schema", s, "--count", "50", "--seed", "3", out],
        "write": lambda out: [a, "write", "--schema", s, os.path.join(tmp, "in.jsonl"), out],
        "recodec": lambda out: [a, "recodec", "--codec", "deflate", os.path.join(tmp, "in.avro"),
                                out],
    }


def check_kinds(name, make_argv, tmp):
    base = os.path.join(tmp, name)
    os.mkdir(base)
    # A FIFO: written as it is, the reader gets a container file.
    fifo = os.path.join(base, "fifo")
    os.mkfifo(fifo)
    t = fifo_reader(fifo)
    p = subprocess.run(make_argv(fifo), capture_output=True, timeout=30)
    t.join(30)
    check(p.returncode == 0, f"{name} to a FIFO: {p.stderr!r}")
    check(t.data is not None and t.data[:4] == b"Obj\x01", f"{name}: the FIFO's reader got the file")
    check(kind(fifo) == "FIFO" and not glob.glob(fifo + ".tmp*"), f"{name}: the FIFO stays one")
    # A symbolic link to a file, to a FIFO, and one that names nothing yet.
    target = os.path.join(base, "target")
    with open(target, "w") as f:
        f.write("old")
    link = os.path.join(base, "link")
    os.symlink("target", link)
    p = subprocess.run(make_argv(link), capture_output=True)
    check(p.returncode == 0, f"{name} through a link: {p.stderr!r}")
    check(kind(link) == "LNK" and os.readlink(link) == "target", f"{name}: the link stays a link")
    check(open(target, "rb").read(4) == b"Obj\x01", f"{name}: the link's file has the output")
    fifo_link = os.path.join(base, "fifo-link")
    os.symlink(fifo, fifo_link)
    t = fifo_reader(fifo)
    p = subprocess.run(make_argv(fifo_link), capture_output=True, timeout=30)
    t.join(30)
    check(p.returncode == 0 and t.data is not None and t.data[:4] == b"Obj\x01",
          f"{name} through a link to a FIFO: {p.stderr!r}")
    check(kind(fifo_link) == "LNK" and kind(fifo) == "FIFO", f"{name}: link and FIFO stay")
    dangling = os.path.join(base, "dangling")
    os.symlink("made", dangling)
    p = subprocess.run(make_argv(dangling), capture_output=True)
    check(p.returncode == 0 and kind(dangling) == "LNK" and
          open(os.path.join(base, "made"), "rb").read(4) == b"Obj\x01",
          f"{name} through a dangling link makes the file it names: {p.stderr!r}")
    # A directory and a socket: refused, untouched.
    d = os.path.join(base, "dir")
    os.mkdir(d)
    line = clitest.one_error_line(subprocess.run(make_argv(d), capture_output=True),
                                  f"{name} to a directory")
    check("directory" in line and kind(d) == "DIR", f"{name}: {line!r}")
    sock_path = os.path.join(base, "sock")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(sock_path)
    line = clitest.one_error_line(subprocess.run(make_argv(sock_path), capture_output=True),
                                  f"{name} to a socket")
    check("socket" in line and kind(sock_path) == "SOCK", f"{name}: {line!r}")
    sock.close()
    check(not glob.glob(os.path.join(base, "*.tmp*")), f"{name}: no temporary file left")
    # Character devices, made here (root only): /dev/null's and /dev/full's numbers.
    if os.geteuid() != 0:
        print(f"NOT RUN: {name} to a character device (needs root for mknod)")
        return
    null = os.path.join(base, "null")
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    p = subprocess.run(make_argv(null), capture_output=True)
    check(p.returncode == 0 and kind(null) == "CHR", f"{name} to a null device: {p.stderr!r}")
    full = os.path.join(base, "full")
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    clitest.one_error_line(subprocess.run(make_argv(full), capture_output=True),
                           f"{name} to a full device")
    check(kind(full) == "CHR" and os.stat(full).st_rdev == os.makedev(1, 7),
          f"{name}: the full device stays one")


def check_generate(tmp):
    """generate's --depfile and --manifest as a FIFO and through a link."""
    a = clitest.AVROGEN
    header = os.path.join(tmp, "point.h")
    with open(header, "w") as f:
        f.write(HEADER)
    probe = subprocess.run([a, "schema", header], capture_output=True)
    if probe.returncode != 0:
        print("NOT RUN: generate (no generator in this build):", probe.stderr.decode().strip())
        return False
    base = os.path.join(tmp, "gen")
    os.mkdir(base)
    dep = os.path.join(base, "dep")
    os.mkfifo(dep)
    with open(os.path.join(base, "man.real"), "w") as f:
        f.write("old")
    man = os.path.join(base, "man")
    os.symlink("man.real", man)
    t = fifo_reader(dep)
    p = subprocess.run([a, "generate", header, "-o", os.path.join(base, "out"), "--depfile", dep,
                        "--manifest", man], capture_output=True, timeout=60)
    t.join(30)
    check(p.returncode == 0, f"generate: {p.stderr!r}")
    check(t.data is not None and b"point.h" in t.data, f"generate: the depfile's FIFO got it")
    check(kind(dep) == "FIFO" and kind(man) == "LNK" and os.readlink(man) == "man.real",
          "generate: the FIFO and the link stay")
    check(open(os.path.join(base, "man.real")).read() != "old",
          "generate: the manifest's link names the new manifest")
    d = os.path.join(base, "dir")
    os.mkdir(d)
    p = subprocess.run([a, "generate", header, "-o", os.path.join(base, "out2"), "--depfile", d],
                       capture_output=True)
    line = clitest.one_error_line(p, "generate --depfile DIR")
    check("directory" in line and kind(d) == "DIR", f"generate --depfile DIR: {line!r}")
    check(not glob.glob(os.path.join(base, "*.tmp*")), "generate: no temporary file left")
    return True


# Every signal whose default action ends the process (signal(7)), SIGKILL, SIGSTOP and SIGBUS
# (the mapped inputs' own, cli_mapped) aside.
FATAL = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM",
         "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR", "SIGTRAP", "SIGABRT",
         "SIGSYS"]


def check_signals(tmp):
    s = os.path.join(tmp, "r.avsc")
    sigs = [getattr(signal, n) for n in FATAL if hasattr(signal, n)] + [signal.SIGRTMIN + 3]
    for sig in sigs:
        out = os.path.join(tmp, f"sig-{int(sig)}.avro")
        with open(out, "w") as f:
            f.write("old")
        p = subprocess.Popen([clitest.AVROGEN, "random", "--schema", s, "--count", "1000000000",
                              out], stderr=subprocess.PIPE)
        deadline = time.time() + 20
        while not glob.glob(out + ".tmp-*") and time.time() < deadline and p.poll() is None:
            time.sleep(0.01)
        check(glob.glob(out + ".tmp-*"), f"signal {int(sig)}: a temporary file while it runs")
        p.send_signal(sig)
        p.wait(timeout=20)
        check(p.returncode == -sig, f"random dies of signal {int(sig)}: {p.returncode}")
        check(not glob.glob(out + ".tmp-*"), f"signal {int(sig)}: no temporary file left")
        check(open(out).read() == "old", f"signal {int(sig)}: the old OUT is intact")


def check_stdout(tmp, generator):
    s = os.path.join(tmp, "r.avsc")
    src = os.path.join(tmp, "in.avro")
    runs = [["canonical", s], ["fingerprint", s], ["getschema", src], ["getmeta", src],
            ["count", src], ["cat", src], ["head", src], ["validate", src],
            ["compat", "--reader", s, "--writer", s], ["help"], ["help", "cat"], ["cat", "--help"],
            ["--version"], ["random", "--schema", s, "--count", "5", "-"],
            ["recodec", src, "-"], ["concat", src, src, "-"],
            ["fromjson", "--schema", s, os.path.join(tmp, "in.jsonl")]]
    if generator:
        runs += [["schema", os.path.join(tmp, "point.h")], ["header", s]]
    for args in runs:
        with open("/dev/full", "wb") as full:
            p = subprocess.run([clitest.AVROGEN] + args, stdout=full, stderr=subprocess.PIPE)
        line = clitest.one_error_line(p, f"{' '.join(args)} > /dev/full")
        check("No space left on device" in line, f"{args}: {line!r}")
    # A pipe whose reader goes away: EPIPE is a write error like any other.
    big = os.path.join(tmp, "big.avro")
    subprocess.run([clitest.AVROGEN, "random", "--schema", s, "--count", "200000", big],
                   check=True)
    for args in (["cat", big], ["head", "-n", "150000", big], ["recodec", big, "-"]):
        p = subprocess.Popen([clitest.AVROGEN] + args, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        p.stdout.read(1)
        p.stdout.close()
        err = p.stderr.read()
        p.wait(timeout=30)
        line = clitest.one_error_line(subprocess.CompletedProcess(args, p.returncode, b"", err),
                                      f"{args[0]} into a closed pipe")
        check("Broken pipe" in line, f"{args[0]} into a closed pipe: {line!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "r.avsc"), "w") as f:
            f.write(SCHEMA)
        with open(os.path.join(tmp, "in.jsonl"), "w") as f:
            f.write("".join(json.dumps({"id": i, "s": "x" * i}) + "\n" for i in range(20)))
        subprocess.run([clitest.AVROGEN, "write", "--schema", os.path.join(tmp, "r.avsc"),
                        os.path.join(tmp, "in.jsonl"), os.path.join(tmp, "in.avro")], check=True)
        for name, make_argv in writers(tmp).items():
            check_kinds(name, make_argv, tmp)
        generator = check_generate(tmp)
        check_signals(tmp)
        check_stdout(tmp, generator)
    sys.exit(clitest.summary("cli outputs"))
