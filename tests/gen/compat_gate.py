#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The compatibility gate (`avrogen schema|generate --compat-with`) against
python3-avro's checker (avro.compatibility, a port of Java's
SchemaCompatibility), on the golden cases tests/golden/diag_compat_*.

  compat_gate.py AVROGEN GOLDEN_DIR

For each case, for its input.h (which breaks something) and its compatible.h
(which must pass in the case's own mode), and for every mode (backward,
forward, full, none), with the earlier schemas its generator_args names:

  - the exit status is 1 exactly when python3-avro finds a direction the mode
    checks incompatible, 0 otherwise, and nothing is written on errors;
  - the (earlier file, direction) pairs the errors name are exactly the ones
    python3-avro rejects;
  - generate agrees with schema.

The derived schemas come from `avrogen schema` without --compat-with, and an
earlier schema is a version of a derived one when its record has the same
unqualified name as the derived record or one of its aliases, as the gate
decides (spec, Schema Resolution: names match unqualified).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import avro.compatibility
import avro.schema

MODES = {"backward": {"backward"}, "forward": {"forward"},
         "full": {"backward", "forward"}, "none": set()}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def read_args(case):
    """The earlier schemas (files and directories) and the mode of a case."""
    with open(os.path.join(case, "generator_args")) as f:
        words = [w.strip() for w in f if w.strip() and not w.startswith("#")]
    paths, mode = [], "backward"
    for i, w in enumerate(words):
        if w == "--compat-with":
            paths.append(words[i + 1])
        elif w == "--compat":
            mode = words[i + 1]
    return paths, mode


def earlier_files(case, paths):
    files = []
    for p in paths:
        full = os.path.join(case, p)
        if os.path.isdir(full):
            files += sorted(os.path.join(p, n) for n in os.listdir(full)
                            if n.endswith(".avsc") and not n.startswith("."))
        else:
            files.append(p)
    return files


def unqualified(name):
    return name.rpartition(".")[2]


def names_of(text):
    """A record schema's unqualified name and those it answers to (aliases)."""
    j = json.loads(text)
    if not isinstance(j, dict) or j.get("type") != "record":
        return None, []
    return unqualified(j["name"]), [unqualified(a) for a in j.get("aliases", [])]


def python_broken(avrogen, case, header, files):
    """{(earlier file, direction)} that python3-avro rejects for the records of header."""
    out = tempfile.mkdtemp(prefix="avrogen-compat-")
    try:
        rc, _, err = run([avrogen, "schema", header, "-o", out], case)
        if rc != 0:
            fail("%s: avrogen schema without --compat-with: exit %d\n%s" % (header, rc, err))
        derived = []
        for path in sorted(glob.glob(os.path.join(out, "*.avsc"))):
            with open(path) as f:
                text = f.read()
            derived.append((names_of(text), avro.schema.parse(text)))
    finally:
        shutil.rmtree(out)
    checker = avro.compatibility.ReaderWriterCompatibilityChecker()
    broken = set()
    for path in files:
        with open(os.path.join(case, path)) as f:
            text = f.read()
        old_name, _ = names_of(text)
        if old_name is None:
            continue
        old = avro.schema.parse(text)
        for (name, aliases), new in derived:
            if old_name != name and old_name not in aliases:
                continue
            for direction, reader, writer in (("backward", new, old), ("forward", old, new)):
                r = checker.get_compatibility(reader, writer)
                if r.compatibility is not avro.compatibility.SchemaCompatibilityType.compatible:
                    broken.add((path, direction))
    return broken


def gate(avrogen, case, header, paths, mode, command):
    """Run the gate; return its exit status and the (file, direction) pairs its errors name."""
    out = tempfile.mkdtemp(prefix="avrogen-compat-")
    try:
        cmd = [avrogen, command, header, "-o", out]
        for p in paths:
            cmd += ["--compat-with", p]
        cmd += ["--compat", mode]
        rc, stdout, stderr = run(cmd, case)
        wrote = os.listdir(out)
    finally:
        shutil.rmtree(out)
    named = set()
    for m in re.finditer(r": error: .* breaks (backward|forward) compatibility with (\S+): ",
                         stderr):
        named.add((m.group(2), m.group(1)))
    if rc == 1 and wrote:
        fail("%s %s --compat %s: exit 1, yet wrote %s" % (command, header, mode, wrote))
    # generate may note earlier schemas it makes no decoder for: not errors.
    if rc == 0 and (re.search(r": (error|warning): ", stderr) or not wrote):
        fail("%s %s --compat %s: exit 0, stderr %r, outputs %s"
             % (command, header, mode, stderr, wrote))
    if rc not in (0, 1):
        fail("%s %s --compat %s: exit %d\n%s" % (command, header, mode, rc, stderr))
    return rc, named, stderr


def check_case(avrogen, case):
    paths, case_mode = read_args(case)
    files = earlier_files(case, paths)
    headers = ["input.h"] + (["compatible.h"] if os.path.exists(
        os.path.join(case, "compatible.h")) else [])
    checks = 0
    for header in headers:
        broken = python_broken(avrogen, case, header, files)
        if header == "compatible.h" and any(d in MODES[case_mode] for _, d in broken):
            fail("%s/%s: python3-avro rejects %s: fix the test" % (case, header, sorted(broken)))
        for mode, directions in MODES.items():
            want = {(f, d) for f, d in broken if d in directions}
            for command in ("schema", "generate"):
                rc, named, stderr = gate(avrogen, case, header, paths, mode, command)
                if rc != (1 if want else 0) or named != want:
                    fail("%s/%s, %s --compat %s: exit %d naming %s; python3-avro rejects %s\n%s"
                         % (os.path.basename(case), header, command, mode, rc, sorted(named),
                            sorted(want), stderr))
                checks += 1
    return checks


def main():
    avrogen, golden = sys.argv[1], sys.argv[2]
    cases = sorted(glob.glob(os.path.join(golden, "diag_compat_*")))
    if not cases:
        fail("no diag_compat_* cases under " + golden)
    checks = sum(check_case(avrogen, c) for c in cases)
    print("the gate agrees with python3-avro in %d runs over %d cases" % (checks, len(cases)))


if __name__ == "__main__":
    main()
