#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Golden tests for `avrogen schema` (registered by tests/gen/CMakeLists.txt).

  golden.py schema AVROGEN CASE   input.h -> exactly expected/*.avsc, and
                                  `generate` -> exactly expected/input.avro.{h,c};
                                  stdout mode prints the same schemas; a rerun
                                  leaves the files untouched (same inode)
  golden.py diag AVROGEN CASE     exit 1, stderr == expected/stderr.txt, and
                                  neither schema -o nor generate -o writes anything
  golden.py python GOLDEN_DIR     python3-avro parses every expected/*.avsc
  golden.py canonical AVROGEN GOLDEN_DIR
                                  `avrogen canonical` of every expected/*.avsc equals
                                  python3-avro's canonical form (with the two spec
                                  fixups of tests/interop/schema_kat.py)
  golden.py cli AVROGEN CASE      exit statuses of the schema/generate command lines
  golden.py compile GOLDEN_DIR INCLUDE_DIR... -- COMPILER FLAGS...
                                  every expected/input.avro.c compiles with COMPILER
                                  FLAGS (-Werror and the full warning set), the case's
                                  own directory and the INCLUDE_DIRs on the path

The case directory is the working directory, so paths in diagnostics are
relative ("input.h:12:18: error: ..."). Extra clang arguments come from the
optional file CASE/args, one per line; extra avrogen options (before "--",
e.g. --compat-with earlier) from the optional file CASE/generator_args, one
per line. AVROGEN_UPDATE_GOLDEN=1 rewrites the expected files from the
current output instead of comparing.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

UPDATE = os.environ.get("AVROGEN_UPDATE_GOLDEN") == "1"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def case_args(case, name="args"):
    path = os.path.join(case, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def gen_args(case):
    return case_args(case, "generator_args")


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def snapshot(d):
    return {n: os.stat(os.path.join(d, n)).st_ino for n in sorted(os.listdir(d))}


def check_schema(avrogen, case):
    expected_dir = os.path.join(case, "expected")
    out = tempfile.mkdtemp(prefix="avrogen-golden-")
    try:
        cmd = [avrogen, "schema", "input.h", "-o", out] + gen_args(case) + ["--"] + case_args(case)
        rc, stdout, stderr = run(cmd, case)
        if rc != 0 or stderr:
            fail("%s: exit %d\n%s" % (" ".join(cmd), rc, stderr))
        got = sorted(os.listdir(out))
        code_dir = os.path.join(out, "code")
        os.makedirs(code_dir)
        gen_cmd = ([avrogen, "generate", "input.h", "-o", code_dir] + gen_args(case) + ["--"]
                   + case_args(case))
        rc, _, stderr = run(gen_cmd, case)
        if rc != 0 or stderr:
            fail("%s: exit %d\n%s" % (" ".join(gen_cmd), rc, stderr))
        code = ["input.avro.h", "input.avro.c"]
        if UPDATE:
            shutil.rmtree(expected_dir, ignore_errors=True)
            os.makedirs(expected_dir)
            for name in got:
                if name != "code":
                    shutil.copy(os.path.join(out, name), os.path.join(expected_dir, name))
            for name in code:
                shutil.copy(os.path.join(code_dir, name), os.path.join(expected_dir, name))
            print("updated %s (%d files)" % (expected_dir, len(got) + 1))
            return
        for name in code:
            a, b = read(os.path.join(code_dir, name)), read(os.path.join(expected_dir, name))
            if a != b:
                subprocess.run(["diff", "-u", os.path.join(expected_dir, name),
                                os.path.join(code_dir, name)])
                fail("generated %s differs from the golden file" % name)
        shutil.rmtree(code_dir)
        want = sorted(os.path.basename(p) for p in glob.glob(os.path.join(expected_dir, "*.avsc")))
        if got != want:
            fail("files differ: got %s, expected %s" % (got, want))
        for name in got:
            a, b = read(os.path.join(out, name)), read(os.path.join(expected_dir, name))
            if a != b:
                subprocess.run(["diff", "-u", os.path.join(expected_dir, name),
                                os.path.join(out, name)])
                fail("%s differs from the golden file" % name)

        # Unchanged outputs are left alone: same inode, no temp files left.
        before = snapshot(out)
        rc, _, stderr = run(cmd, case)
        if rc != 0 or snapshot(out) != before:
            fail("rerun rewrote unchanged files or left files behind: %s" % stderr)

        # Without -o the same schemas go to stdout, each newline-terminated.
        rc, stdout, stderr = run([avrogen, "schema", "input.h"] + gen_args(case) + ["--"]
                                  + case_args(case), case)
        texts = [read(os.path.join(out, n)) for n in got]
        if rc != 0 or len(stdout) != sum(len(t) for t in texts) or any(t not in stdout for t in texts):
            fail("stdout mode does not print the same schemas")
    finally:
        shutil.rmtree(out)


ANNOTATE_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "annotate", "include")


def check_suggested_declarations(case, stderr):
    """Every "declare it 'T x'" a diagnostic suggests (a declaration, not a
    bare type) is a member declaration that compiles, next to the case's types."""
    decls = [d for d in re.findall(r"declare it '([^']*)'", stderr)
             if re.search(r"\w\)?(\[\d+\])*$", d)]
    for i, decl in enumerate(decls):
        src = os.path.join(tempfile.mkdtemp(prefix="avrogen-suggest-"), "s.c")
        with open(src, "w") as f:
            f.write('#include "input.h"\nstruct avrogen_suggestion_%d { %s; };\n' % (i, decl))
        cmd = [os.environ.get("CC", "cc"), "-std=c11", "-fsyntax-only", "-Werror",
               "-I" + case, "-I" + ANNOTATE_INCLUDE, src] + case_args(case)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        shutil.rmtree(os.path.dirname(src))
        if p.returncode != 0:
            fail("the suggested declaration %r is not valid C:\n%s"
                 % (decl, p.stdout.decode("utf-8", "replace")))


def check_diag(avrogen, case):
    expected = os.path.join(case, "expected", "stderr.txt")
    out = tempfile.mkdtemp(prefix="avrogen-diag-")
    try:
        cmd = [avrogen, "schema", "input.h", "-o", out] + gen_args(case) + ["--"] + case_args(case)
        rc, stdout, stderr = run(cmd, case)
        if UPDATE:
            os.makedirs(os.path.dirname(expected), exist_ok=True)
            with open(expected, "w") as f:
                f.write(stderr)
            print("updated " + expected)
        if rc != 1:
            fail("%s: exit %d, expected 1\n%s" % (" ".join(cmd), rc, stderr))
        if stdout or os.listdir(out):
            fail("an erroneous run produced output: %r %s" % (stdout, os.listdir(out)))
        if not UPDATE and stderr != read(expected):
            sys.stdout.write("--- expected\n" + read(expected) + "--- got\n" + stderr)
            fail("diagnostics differ")
        check_suggested_declarations(case, stderr)
        cmd = [avrogen, "generate", "input.h", "-o", out, "--depfile",
               os.path.join(out, "input.d")] + gen_args(case) + ["--"] + case_args(case)
        rc, stdout, stderr = run(cmd, case)
        if rc != 1 or os.listdir(out):
            fail("generate: exit %d, outputs %s" % (rc, os.listdir(out)))
    finally:
        shutil.rmtree(out)


# Golden cases whose schemas python3-avro 1.11.1 reads against the
# specification: both peer checks only require that it still does.
PYTHON_DEVIATES = {
    "namespace_null": 'Python ignores "namespace": "" on a nested type (spec §Names: the empty '
                      'string is the null namespace), so it misnames the type or cannot resolve '
                      'a reference to it',
}


def deviates(path):
    return os.path.basename(os.path.dirname(os.path.dirname(path))) in PYTHON_DEVIATES


def python_rejects(path):
    import avro.schema

    try:
        avro.schema.parse(read(path))
    except Exception:  # noqa: BLE001 - any parser failure
        return True
    return False


def check_python(golden):
    import warnings

    import avro.errors
    import avro.schema

    ignored = set()
    files = sorted(glob.glob(os.path.join(golden, "*", "expected", "*.avsc")))
    if not files:
        fail("no golden schemas under " + golden)
    for path in files:
        if deviates(path) and python_rejects(path):
            continue  # check_canonical shows the deviation is still there
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                s = avro.schema.parse(read(path))
            except Exception as e:  # noqa: BLE001 - report any parser failure
                fail("python3-avro rejects %s: %s" % (path, e))
        # python3-avro 1.11.1 predates some logical types (duration, local-timestamp-*,
        # *-nanos, uuid on fixed); it ignores them and reads the underlying type, as
        # the spec prescribes. Any other warning is a failure.
        for w in caught:
            if not issubclass(w.category, avro.errors.IgnoredLogicalType):
                fail("python3-avro warns on %s: %s" % (path, w.message))
            ignored.add(str(w.message))
        name = os.path.basename(path)[: -len(".avsc")]
        if s.fullname != name:
            fail("%s: python3-avro reads the record as %s" % (path, s.fullname))
    print("python3-avro parsed %d schemas" % len(files))
    for message in sorted(ignored):
        print("  (python3-avro 1.11.1 ignores: %s)" % message)


def check_canonical(avrogen, golden):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
    from schema_kat import python_expected

    files = sorted(glob.glob(os.path.join(golden, "*", "expected", "*.avsc")))
    still = set()
    for path in files:
        if deviates(path):
            rc, out, err = run([avrogen, "canonical", path], golden)
            try:
                theirs = python_expected(path)[0]
            except Exception:  # noqa: BLE001 - the deviation: python3-avro cannot read it
                theirs = None
            if rc != 0:
                fail("%s: avrogen canonical fails: %s" % (path, err))
            if theirs != out.strip():
                still.add(os.path.basename(os.path.dirname(os.path.dirname(path))))
                continue
        want = python_expected(path)[0]
        rc, out, err = run([avrogen, "canonical", path], golden)
        if rc != 0 or out != want + "\n":
            fail("%s: avrogen canonical gives %r (%s), python3-avro %r" % (path, out, err, want))
    for case, why in sorted(PYTHON_DEVIATES.items()):
        if case not in still:
            fail("golden case %s is listed in PYTHON_DEVIATES, but python3-avro reads all its "
                 "schemas as avrogen does now: remove it" % case)
        print("  (%s: %s)" % (case, why))
    print("canonical forms agree with python3-avro on %d schemas" % len(files))


def check_cli(avrogen, case):
    """Usage errors exit 2, bad input 1, with one 'avrogen: ...' line first."""
    out = tempfile.mkdtemp(prefix="avrogen-cli-")
    try:
        cases = [
            (["schema"], 2, "avrogen: error: schema: no header given"),
            (["schema", "input.h", "--bogus"], 2, "avrogen: error: schema: unknown option '--bogus'"),
            (["schema", "input.h", "-o"], 2, "avrogen: error: schema: -o needs a directory"),
            (["generate", "input.h"], 2, "avrogen: error: generate: -o DIR is required"),
            (["schema", "input.h", "--depfile", "x.d"], 2, "avrogen: error: schema: unknown option"),
            (["schema", "input.h", "-o", os.path.join(out, "input.d", "sub")], 1,
             "avrogen: error: cannot create directory"),
            (["schema", "input.h", "-o", os.path.join(out, "input.d")], 1,
             "avrogen: error: '%s' is not a directory" % os.path.join(out, "input.d")),
            (["schema", "no-such-header.h"], 1, "avrogen: error: cannot read 'no-such-header.h'"),
            (["schema", "input.h", "--", "-std=c99"], 0, ""),
        ]
        with open(os.path.join(out, "input.d"), "w"):
            pass  # a file where -o wants a directory
        for args, want_rc, want_err in cases:
            rc, stdout, stderr = run([avrogen] + args, case)
            if rc != want_rc or not stderr.startswith(want_err):
                fail("avrogen %s: exit %d, stderr %r; expected %d, %r"
                     % (" ".join(args), rc, stderr, want_rc, want_err))
        os.remove(os.path.join(out, "input.d"))
        # -o DIR is made when missing, parents too; a failed run makes nothing.
        missing = os.path.join(out, "new", "schemas")
        rc, _, stderr = run([avrogen, "schema", "input.h", "-o", missing], case)
        if rc != 0 or sorted(os.listdir(missing)) != sorted(
                n for n in os.listdir(os.path.join(case, "expected")) if n.endswith(".avsc")):
            fail("schema -o into a missing directory: exit %d\n%s" % (rc, stderr))
        shutil.rmtree(os.path.join(out, "new"))
        rc, _, stderr = run([avrogen, "schema", "input.h", "-o", missing, "--", "-DBROKEN=1",
                             "-include", "no-such-file.h"], case)
        if rc != 1 or os.path.exists(os.path.join(out, "new")):
            fail("a failed run created its output directory: exit %d\n%s" % (rc, stderr))
        # generate writes the schemas, the code and a depfile naming the header.
        dep = os.path.join(out, "input.d")
        rc, _, stderr = run([avrogen, "generate", "input.h", "-o", out, "--depfile", dep], case)
        if rc != 0:
            fail("generate: exit %d\n%s" % (rc, stderr))
        text = read(dep)
        if not text.startswith(out + "/") or " input.h \\\n" not in text:
            fail("unexpected depfile:\n" + text)
        for name in os.listdir(os.path.join(case, "expected")):
            if read(os.path.join(out, name)) != read(os.path.join(case, "expected", name)):
                fail("generate wrote a different " + name)
    finally:
        shutil.rmtree(out)


def check_compile(golden, includes, compiler):
    files = sorted(glob.glob(os.path.join(golden, "*", "expected", "input.avro.c")))
    if not files:
        fail("no golden code under " + golden)
    for path in files:
        case = os.path.dirname(os.path.dirname(path))
        cmd = (compiler + ["-I" + case, "-I" + os.path.dirname(path)]
               + ["-I" + d for d in includes] + case_args(case) + ["-c", path, "-o", os.devnull])
        rc, _, stderr = run(cmd, case)
        if rc != 0:
            fail("%s:\n%s" % (" ".join(cmd), stderr))
    print("%d generated files compile with %s" % (len(files), " ".join(compiler)))


def main():
    mode = sys.argv[1]
    if mode == "compile":
        sep = sys.argv.index("--")
        check_compile(sys.argv[2], sys.argv[3:sep], sys.argv[sep + 1:])
        return
    if mode == "schema":
        check_schema(sys.argv[2], sys.argv[3])
    elif mode == "diag":
        check_diag(sys.argv[2], sys.argv[3])
    elif mode == "python":
        check_python(sys.argv[2])
    elif mode == "canonical":
        check_canonical(sys.argv[2], sys.argv[3])
    elif mode == "cli":
        check_cli(sys.argv[2], sys.argv[3])
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main()
