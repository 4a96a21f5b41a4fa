#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Only the verbs that parse C load libclang (cli/generator.h):

  startup_test.py AVROGEN CC

1. Every verb `avrogen --help` lists runs once, successfully, with the
   dynamic loader tracing the files it maps (glibc's LD_DEBUG=files). schema,
   generate and header must map the generator module and libclang; every other
   verb must map neither, nor must --help, --version, `help generate`,
   `generate --help` and `help --man`. A verb this test has no command line
   for is a failure, so a new verb gets checked too. No verb maps libcurl
   but `registry` (its module, cli/registry_verbs.h), which does when it talks
   to a registry.
2. The binary copied alone into a folder (no module beside it): the data
   verbs still run; schema, generate and header each exit 2 with one
   "avrogen: error:" line naming the module's paths, and write nothing.
3. A module there whose libclang is gone (a stand-in built by CC with
   DT_NEEDED on a library then deleted): the same, with the loader's reason;
   a module of another avrogen version is refused by name.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

AVROGEN = os.path.abspath(sys.argv[1])
CC = sys.argv[2]
GENERATOR_VERBS = {"schema", "generate", "header"}
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


def verbs(avrogen):
    out = subprocess.run([avrogen, "--help"], capture_output=True, text=True, check=True).stdout
    return [m.group(1) for m in re.finditer(r"^  ([a-z]+) ", out, re.M)]


def fixtures(d):
    schema = {"type": "record", "name": "P", "fields": [
        {"name": "x", "type": "long"}, {"name": "s", "type": "string"}]}
    with open(os.path.join(d, "p.avsc"), "w") as f:
        json.dump(schema, f)
    with open(os.path.join(d, "p.jsonl"), "w") as f:
        for i in range(3):
            f.write(json.dumps({"x": i, "s": "v%d" % i}) + "\n")
    with open(os.path.join(d, "p.h"), "w") as f:
        f.write("#include <stdint.h>\n#include <avrogen/annotate.h>\n"
                "struct AVRO_RECORD() p { int64_t x; int32_t y; };\n")
    subprocess.run([AVROGEN, "write", "--schema", "p.avsc", "p.jsonl", "p.avro"], cwd=d, check=True)
    with open(os.path.join(d, "p.bin"), "wb") as f:
        subprocess.run([AVROGEN, "fromjson", "--schema", "p.avsc", "p.jsonl"], cwd=d, stdout=f,
                       check=True)


# One successful command line per verb, run in the fixtures' folder.
COMMANDS = {
    "schema": ["schema", "p.h"],
    "generate": ["generate", "p.h", "-o", "gen"],
    "header": ["header", "p.avsc"],
    "canonical": ["canonical", "p.avsc"],
    "fingerprint": ["fingerprint", "p.avsc"],
    "tojson": ["tojson", "--schema", "p.avsc", "p.bin"],
    "fromjson": ["fromjson", "--schema", "p.avsc", "p.jsonl"],
    "cat": ["cat", "p.avro"],
    "head": ["head", "p.avro"],
    "count": ["count", "p.avro"],
    "getschema": ["getschema", "p.avro"],
    "getmeta": ["getmeta", "p.avro"],
    "write": ["write", "--schema", "p.avsc", "p.jsonl", "w.avro"],
    "concat": ["concat", "p.avro", "p.avro", "c.avro"],
    "recodec": ["recodec", "--codec", "deflate", "p.avro", "r.avro"],
    "repair": ["repair", "p.avro", "f.avro"],
    "validate": ["validate", "p.avro"],
    "random": ["random", "--schema", "p.avsc", "--count", "3", "x.avro"],
    "compat": ["compat", "--reader", "p.avsc", "--writer", "p.avsc"],
    # Its own help needs no module; what it loads is checked below.
    "registry": ["registry", "--help"],
}

# A registry nothing listens on: the registry module and libcurl load, the call fails (exit 1).
REGISTRY_RUN = ["registry", "subjects", "--url", "http://127.0.0.1:1", "-X", "max.retries=0"]


def mapped_files(avrogen, args, d):
    """Run avrogen ARGS in d under LD_DEBUG=files; (process, every file the loader mapped)."""
    trace = os.path.join(d, "ld-trace")
    for f in os.listdir(d):
        if f.startswith("ld-trace."):
            os.unlink(os.path.join(d, f))
    env = dict(os.environ, LD_DEBUG="files", LD_DEBUG_OUTPUT=trace)
    p = subprocess.run([avrogen] + args, cwd=d, capture_output=True, env=env)
    files = []
    for f in os.listdir(d):
        if f.startswith("ld-trace."):
            with open(os.path.join(d, f), errors="replace") as t:
                files += re.findall(r"\bfile=(\S+)", t.read())
    return p, files


def is_libclang(f):
    return re.search(r"libclang|libLLVM|avrogen-generator", os.path.basename(f)) is not None


def is_libcurl(f):
    return re.search(r"libcurl|avrogen-registry", os.path.basename(f)) is not None


def test_which_verbs_load_libclang(d):
    listed = verbs(AVROGEN)
    check(GENERATOR_VERBS <= set(listed), "avrogen --help lists schema, generate, header")
    for verb in listed:
        if not check(verb in COMMANDS, f"{verb}: startup_test.py has no command line for it"):
            continue
        p, files = mapped_files(AVROGEN, COMMANDS[verb], d)
        if not check(p.returncode == 0, f"{verb}: exit {p.returncode}: {p.stderr.decode()!r}"):
            continue
        # The trace works: libc is in every process.
        check(any(os.path.basename(f).startswith("libc.so") for f in files),
              f"{verb}: LD_DEBUG=files traced nothing: {files}")
        clang = sorted({f for f in files if is_libclang(f)})
        curl = sorted({f for f in files if is_libcurl(f)})
        check(not curl, f"{verb} loaded {curl}")
        if verb in GENERATOR_VERBS:
            check(any("avrogen-generator" in f for f in clang) and
                  any("libclang" in f for f in clang),
                  f"{verb}: the generator module and libclang were not loaded: {files}")
        else:
            check(not clang, f"{verb} loaded {clang}")
    # Only `registry` maps libcurl, through its module, when the build has one.
    if "registry" in listed:
        p, files = mapped_files(AVROGEN, REGISTRY_RUN, d)
        module = os.path.join(os.path.dirname(AVROGEN), "avrogen-registry.so")
        if os.path.exists(module):
            check(p.returncode == 1 and "http://127.0.0.1:1/subjects" in p.stderr.decode(),
                  f"registry: exit {p.returncode}: {p.stderr.decode()!r}")
            check(any("avrogen-registry" in f for f in files) and
                  any("libcurl" in f for f in files) and
                  not any(is_libclang(f) for f in files),
                  f"registry: the registry module and libcurl, not libclang: {files}")
        else:
            check(p.returncode == 2 and b"without it (no libcurl)" in p.stderr,
                  f"registry in a build without libcurl: {p.stderr!r}")
    # Help, even a generator verb's, is the binary's own.
    for args in (["--help"], ["--version"], ["help", "generate"], ["generate", "--help"],
                 ["help", "--man"]):
        p, files = mapped_files(AVROGEN, args, d)
        clang = sorted({f for f in files if is_libclang(f)})
        check(p.returncode == 0 and any(os.path.basename(f).startswith("libc.so") for f in files)
              and not clang, f"avrogen {' '.join(args)}: exit {p.returncode}, loaded {clang}")


def test_module_missing_or_broken(d):
    alone = os.path.join(d, "alone")
    os.mkdir(alone)
    exe = os.path.join(alone, "avrogen")
    shutil.copy2(AVROGEN, exe)
    module = os.path.join(alone, "avrogen-generator.so")

    def expect_refusal(what, reason):
        for verb in sorted(GENERATOR_VERBS):
            out = os.path.join(d, "gen-" + verb)
            shutil.rmtree(os.path.join(d, "gen"), ignore_errors=True)
            args = [a if a != "gen" else out for a in COMMANDS[verb]]
            p = subprocess.run([exe] + args, cwd=d, capture_output=True, text=True)
            lines = p.stderr.splitlines()
            check(p.returncode == 2, f"{what}: {verb}: exit 2, got {p.returncode}")
            check(len(lines) == 1 and lines[0].startswith("avrogen: error: " + verb + " "),
                  f"{what}: {verb}: one 'avrogen: error: {verb} ...' line, got {lines!r}")
            check(reason in p.stderr, f"{what}: {verb}: {reason!r} not in {p.stderr!r}")
            check(p.stdout == "" and not os.path.exists(out), f"{what}: {verb} wrote output")
        # The verbs that do not parse C do not care.
        for verb in ("count", "cat", "validate", "canonical"):
            p = subprocess.run([exe] + COMMANDS[verb], cwd=d, capture_output=True, text=True)
            check(p.returncode == 0 and p.stderr == "", f"{what}: {verb}: {p.stderr!r}")

    expect_refusal("no module", "is not installed: no " + os.path.realpath(alone))

    # A module that needs a library the loader cannot find, as a module whose
    # libclang was uninstalled does.
    src = os.path.join(d, "stub.c")
    with open(src, "w") as f:
        f.write("int gone(void);\nint stub(void) { return gone(); }\n")
    gone = os.path.join(alone, "libavrogen_gone_clang.so")
    subprocess.run([CC, "-shared", "-fPIC", "-x", "c", "-", "-o", gone], check=True,
                   input=b"int gone(void) { return 0; }\n")
    subprocess.run([CC, "-shared", "-fPIC", src, "-o", module, "-L" + alone, "-lavrogen_gone_clang"],
                   check=True)
    os.unlink(gone)
    expect_refusal("libclang missing",
                   "needs libclang: %s did not load: libavrogen_gone_clang.so: cannot open shared "
                   "object file" % os.path.realpath(module))

    # A module of another avrogen.
    with open(src, "w") as f:
        f.write("struct g { const char *version; int (*run)(int, char **); };\n"
                "__attribute__((visibility(\"default\"))) const struct g avrogen_generator_entry "
                "= {\"0.0.0-other\", 0};\n")
    subprocess.run([CC, "-shared", "-fPIC", src, "-o", module], check=True)
    expect_refusal("another version", "%s is that of avrogen 0.0.0-other" % os.path.realpath(module))


def main():
    with tempfile.TemporaryDirectory() as d:
        fixtures(d)
        test_which_verbs_load_libclang(d)
        test_module_missing_or_broken(d)
    if failures:
        print(f"{failures} failure(s)")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
