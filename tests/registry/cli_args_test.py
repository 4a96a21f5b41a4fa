#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`avrogen registry` without a registry: usage errors and an unreachable one.

  cli_args_test.py AVROGEN

Bad usage (no subcommand, an unknown one or option, missing or extra
operands, no URL, a bad URL or setting, an ID that is no id, a properties
file that cannot be read or holds a misspelt registry key) is exit 2 with a
usage line; a registry that cannot be reached (a loopback port nothing
listens on) is exit 1 with one error line naming the URL, within
request.timeout.ms; `avrogen help registry` documents every subcommand.
"""
import os
import subprocess
import sys
import tempfile
import time

AVROGEN = os.path.abspath(sys.argv[1])
CLOSED = "http://127.0.0.1:1"
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


def run(args, cwd):
    return subprocess.run([AVROGEN, "registry"] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=60)


def main():
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "p.avsc"), "w") as f:
            f.write('{"type": "record", "name": "P", "fields": [{"name": "x", "type": "long"}]}')
        with open(os.path.join(d, "typo.properties"), "w") as f:
            f.write("bootstrap.servers=k:9092\nschema.registry.urll=http://x\n")
        with open(os.path.join(d, "big.properties"), "wb") as f:
            f.truncate(16 * 1024 * 1024 + 1)  # one line of NULs past the limit, sparse
        with open(os.path.join(d, "ok.properties"), "w") as f:
            f.write("# kcat\nbootstrap.servers=k:9092\nschema.registry.url=%s\n"
                    "request.timeout.ms=1500\nretries.wait.ms=200\n" % CLOSED)

        usage = [
            ([], "which of register, get"),
            (["frobnicate", "--url", CLOSED], "no such command 'frobnicate'"),
            (["get", "--url", CLOSED, "--frob", "1"], "unknown option '--frob'"),
            (["get", "--url"], "--url needs a value"),
            (["get", "--url", CLOSED], "registry get needs ID"),
            (["get", "--url", CLOSED, "1", "2"], "registry get needs ID"),
            (["get", "--url", CLOSED, "x1"], "ID needs a whole number, not 'x1'"),
            (["get", "--url", CLOSED, "4294967296"], "past 4294967295"),
            (["register", "--url", CLOSED, "s"], "registry register needs SUBJECT SCHEMA"),
            (["check", "--url", CLOSED, "s"], "registry check needs SUBJECT SCHEMA"),
            (["subjects", "--url", CLOSED, "extra"], "registry subjects needs no operand"),
            (["latest", "--url", CLOSED], "registry latest needs SUBJECT"),
            (["subjects"], "where is the registry? --url URL"),
            (["subjects", "--url", "ftp://x"], "'ftp://x' is not an http:// or https:// URL"),
            (["subjects", "--url", CLOSED, "-X", "max.retries"], "-X needs KEY=VALUE"),
            (["subjects", "--url", CLOSED, "-X", "request.timeout.ms=soon"],
             "request.timeout.ms: 'soon' is not a whole number"),
            (["subjects", "--url", CLOSED, "-X", "no.such.key=1"], "unknown key 'no.such.key'"),
            (["subjects", "--config", "missing.properties"], "missing.properties: No such file"),
            # Read whole, so only a regular file or a pipe (getline grew on /dev/zero for ever).
            (["subjects", "--config", "/dev/zero"],
             "/dev/zero: a properties file is read from a regular file or a pipe"),
            (["subjects", "--config", "big.properties"],
             "big.properties: longer than 16777216 bytes"),
            (["subjects", "--config", "typo.properties"],
             "typo.properties:2: unknown key 'schema.registry.urll'"),
        ]
        for args, want in usage:
            p = run(args, d)
            check(p.returncode == 2, f"{args}: exit 2, got {p.returncode}: {p.stderr!r}")
            check(want in p.stderr, f"{args}: {want!r} not in {p.stderr!r}")
            check(p.stdout == "", f"{args}: printed {p.stdout!r}")

        # Unreachable: one error line naming the URL, within the timeout, every subcommand.
        for args in (["subjects"], ["get", "7"], ["latest", "orders-value"],
                     ["register", "orders-value", "p.avsc"], ["check", "orders-value", "p.avsc"],
                     ["versions", "orders-value"]):
            for how in (["--url", CLOSED, "-X", "request.timeout.ms=1500", "-X",
                         "retries.wait.ms=200"], ["--config", "ok.properties"]):
                t0 = time.monotonic()
                p = run(args + how, d)
                took = time.monotonic() - t0
                lines = p.stderr.splitlines()
                check(p.returncode == 1, f"{args} {how}: exit 1, got {p.returncode}")
                check(len(lines) == 1 and lines[0].startswith(
                    "avrogen: error: registry %s: the registry cannot be reached: %s/" %
                    (args[0], CLOSED)), f"{args} {how}: one line naming the URL: {lines!r}")
                check(took < 1.5 + 1.0, f"{args} {how}: took {took:.1f} s, past the 1.5 s bound")
                check(p.stdout == "", f"{args}: printed {p.stdout!r}")
        # -X and --url win over the file.
        p = run(["subjects", "--config", "ok.properties", "--url", "http://127.0.0.1:2"], d)
        check("http://127.0.0.1:2/subjects" in p.stderr, f"--url over --config: {p.stderr!r}")

        # Help.
        p = subprocess.run([AVROGEN, "help", "registry"], capture_output=True, text=True)
        check(p.returncode == 0, "help registry: exit 0")
        text = " ".join(p.stdout.split())
        for word in ("register SUBJECT SCHEMA", "get ID", "latest SUBJECT", "check SUBJECT SCHEMA",
                     "subjects", "--url URL", "--config FILE", "-X KEY=VALUE"):
            check(word in text, f"help registry: {word!r} missing")
    if failures:
        print(f"{failures} failure(s)")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
