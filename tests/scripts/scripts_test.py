#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The scripts a newcomer runs first, where they can break without a build.

usage: scripts_test.py format-export|build-dirs|layout|fresh-clone --source DIR --work DIR

  format-export  scripts/format (the format step of scripts/test) in an export
                 of the tree without .git and with no git on PATH: it checks
                 exactly the C sources git tracks, skips build trees (a folder
                 with a CMakeCache.txt, such as README's build/) and hidden
                 folders, passes on the tree as it is and fails on a file that
                 is not formatted. The export holds the files git tracks or
                 would add, as they are in the working tree; in a tree that is
                 already an export (no .git) the test runs on a copy of it.
  build-dirs     in such an export, beside the Makefiles build/ README has
                 users create, scripts/demo, scripts/test and bench/run run
                 with a cmake that records where it is asked to build and
                 fails every build like a compiler error: each configures only
                 its own tree under .build/ (or AVROGEN_BUILD_ROOT), never
                 touches build/, and scripts/demo and scripts/test show the
                 compiler's error.
  layout         scripts/check-layout (a step of scripts/test) passes on the
                 tree, and in an export fails on each forbidden include edge
                 planted in turn (the runtime reaching gen/ or cli/, gen/
                 reaching cli/, clang-c or jansson outside their folder, a
                 layer of the generator reaching one above it, an include that
                 names no file), naming the file, the line and the rule.
  fresh-clone    a `git clone` of the checkout with no Apache Avro test data
                 beside it: configuring says so, the tests that need the data
                 (NEEDS_TESTDATA) are reported by ctest as not run, each saying
                 why and how to fix it, scripts/test-summary counts them as
                 skipped and never as passed; under CI=1 they fail; a
                 Python without python3-avro makes the Python tests say they
                 did not run; and AVROGEN_TESTDATA in the environment names
                 another folder.
"""

import argparse
import os
import re
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cmake"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cmake_test import Failure, check, run  # noqa: E402


def tracked_files(source):
    """The files of the checkout: tracked, or untracked and not ignored (what
    `git add -A` would commit), as they are in the working tree; None without git."""
    if not os.path.isdir(os.path.join(source, ".git")) and \
            not os.path.isfile(os.path.join(source, ".git")):
        return None
    if not shutil.which("git"):
        return None
    out = subprocess.run(["git", "-C", source, "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    # A nested repository or worktree shows up as "dir/": not a file to copy.
    return [f for f in out.split("\0")
            if f and not f.endswith("/") and os.path.lexists(os.path.join(source, f))]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def export(args):
    """A fresh --work holding tree/, the source tree without .git; the files
    of the checkout (or None when the source is no checkout)."""
    shutil.rmtree(args.work, ignore_errors=True)
    tree = os.path.join(args.work, "tree")
    files = tracked_files(args.source)
    if files is None:
        print("no git checkout: exporting the whole source tree as it is")

        def build_trees(d, names):
            return [n for n in names if os.path.exists(os.path.join(d, n, "CMakeCache.txt"))]
        shutil.copytree(args.source, tree, symlinks=True, ignore=build_trees)
    else:
        for f in files:
            dst = os.path.join(tree, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(args.source, f), dst, follow_symlinks=False)
    check(not os.path.exists(os.path.join(tree, ".git")), "the export has a .git")
    return tree, files


def shims(args, tools):
    """Environment whose PATH starts with --work/bin, holding a shell script
    per tool; git, if anything calls it, fails loudly."""
    tools = dict(tools, git="echo 'git called in a git-less export' >&2\nexit 127")
    shim = os.path.join(args.work, "bin")
    for name, body in tools.items():
        write(os.path.join(shim, name), "#!/bin/sh\n" + body + "\n")
        os.chmod(os.path.join(shim, name), stat.S_IRWXU)
    return {"PATH": shim + os.pathsep + os.environ.get("PATH", ""), "GIT_CEILING_DIRECTORIES": args.work}


def cmd_format_export(args):
    tree, files = export(args)
    env = shims(args, {})

    # Not sources: README's build tree, a hidden folder.
    ugly = "int  f( void ){return 0 ;}\n"
    write(os.path.join(tree, "build", "CMakeCache.txt"), "# a user's build tree\n")
    write(os.path.join(tree, "build", "gen", "x.avro.c"), ugly)
    write(os.path.join(tree, "examples", "telemetry", "out", "CMakeCache.txt"), "\n")
    write(os.path.join(tree, "examples", "telemetry", "out", "y.c"), ugly)
    write(os.path.join(tree, ".cache", "z.h"), ugly)

    fmt = os.path.join(tree, "scripts", "format")
    listed = run([fmt, "--list"], cwd=tree, extra_env=env).splitlines()
    check(len(listed) > 50, "scripts/format lists only %d files" % len(listed))
    stray = [f for f in listed if f.startswith(("build/", ".cache/", "examples/telemetry/out/"))]
    check(not stray, "scripts/format lists files of build trees or hidden folders: %s" % stray)
    if files is not None:
        want = sorted(f for f in files if f.endswith((".c", ".h", ".cc")))
        check(listed == want, "scripts/format --list differs from git ls-files: only listed %s, "
              "only tracked %s" % (sorted(set(listed) - set(want))[:5],
                                   sorted(set(want) - set(listed))[:5]))
    run([fmt], cwd=tree, extra_env=env)

    # A source that is not formatted fails the check, and --fix repairs it.
    bad = os.path.join(tree, "runtime", "src", "zz_unformatted.c")
    write(bad, ugly)
    out = run([fmt], cwd=tree, extra_env=env, fail=True)
    check("zz_unformatted.c" in out, "the failing check does not name the file")
    run([fmt, "--fix"], cwd=tree, extra_env=env)
    run([fmt], cwd=tree, extra_env=env)


def cmd_build_dirs(args):
    tree, _ = export(args)
    # The build/ README's "Using it in a CMake project" makes (Makefiles).
    readme_build = os.path.join(tree, "build")
    write(os.path.join(readme_build, "CMakeCache.txt"),
          "CMAKE_GENERATOR:INTERNAL=Unix Makefiles\nCMAKE_HOME_DIRECTORY:INTERNAL=%s\n" % tree)
    before = open(os.path.join(readme_build, "CMakeCache.txt")).read()
    log = os.path.join(args.work, "cmake.log")
    env = shims(args, {"cmake": f"""echo "$*" >> '{log}'
case " $* " in
*" --build "*)
    echo "[1/2] Building C object runtime/x.o"
    echo "FAILED: runtime/x.o"
    echo "x.c:1:1: error: boom from the fake compiler"
    echo "ninja: build stopped: subcommand failed."
    exit 1 ;;
esac"""})

    def trees():
        """The -B folders the scripts gave cmake since the last call."""
        with open(log) as f:
            lines = f.read().splitlines()
        os.remove(log)
        return [ln.split()[ln.split().index("-B") + 1] for ln in lines if "-B" in ln.split()]

    # scripts/demo: its own tree, and the compiler's error when the build fails.
    out = run([os.path.join(tree, "scripts", "demo")], cwd=tree, extra_env=env, fail=True)
    check("error: boom from the fake compiler" in out and "FAILED: runtime/x.o" in out,
          "scripts/demo does not show the failing build's output")
    got = trees()
    check(got == [os.path.join(tree, ".build", "default")], f"scripts/demo configured {got}")

    # scripts/test: the format step, then its own tree.
    out = run([os.path.join(tree, "scripts", "test")], cwd=tree, extra_env=env, fail=True)
    check("== format" in out and "error: boom from the fake compiler" in out,
          "scripts/test did not run the format step, or hid the build's output")
    got = trees()
    check(got == [os.path.join(tree, ".build", "default")], f"scripts/test configured {got}")

    # AVROGEN_BUILD_ROOT moves them; bench/run has its tree and makes it with Ninja.
    elsewhere = os.path.join(args.work, "elsewhere")
    run([os.path.join(tree, "scripts", "demo")], cwd=tree, extra_env=dict(env, AVROGEN_BUILD_ROOT=elsewhere),
        fail=True)
    got = trees()
    check(got == [os.path.join(elsewhere, "default")], f"AVROGEN_BUILD_ROOT: scripts/demo configured {got}")
    run([os.path.join(tree, "bench", "run"), "--no-callgrind"], cwd=tree, extra_env=env, fail=True)
    with open(log) as f:
        configure = f.readline().split()
    got = trees()
    check(got == [os.path.join(tree, ".build", "bench")] and "Ninja" in configure,
          f"bench/run configured {got} ({' '.join(configure)})")

    with open(os.path.join(readme_build, "CMakeCache.txt")) as f:
        check(f.read() == before and os.listdir(readme_build) == ["CMakeCache.txt"],
              "a script touched README's build/")


# (file, line to append, words the message must carry): each a forbidden edge.
PLANTED = [
    ("runtime/src/arena.c", '#include "cli.h"', "the runtime never includes gen/ or cli/"),
    ("runtime/include/avrogen/ocf.h", '#include "model/model.h"',
     "the runtime never includes gen/ or cli/"),
    ("gen/driver.c", '#include "cli.h"', "gen/ never includes cli/"),
    ("gen/model/model.c", "#include <clang-c/Index.h>", "only gen/parse includes clang-c"),
    ("gen/model/model_map.c", "#include <jansson.h>", "only gen/emit includes jansson"),
    ("gen/parse/annot.c", '#include "model/model.h"', "sits below the model"),
    ("gen/model/model_leaf.c", '#include "emit/emit_c.h"', "gen/model sits below the emitters"),
    ("gen/emit/emit_c.c", '#include "parse/parse.h"', "not on the C front end"),
    ("gen/diag.h", '#include "model/model.h"', "it includes no subfolder"),
    ("annotate/include/avrogen/annotate.h", '#include "avrogen/status.h"',
     "annotate/ includes no header of the project"),
    ("cli/main.c", '#include "no_such_header.h"', "is no file of the tree"),
    ("runtime/src/framing.c", '#include "avrogen/registry.h"',
     "runtime/, gen/ and annotate/ never include registry/"),
    ("gen/driver.c", '#include "registry_internal.h"',
     "runtime/, gen/ and annotate/ never include registry/"),
    ("registry/src/cache.c", '#include "schema_internal.h"',
     "registry/ includes its own files and the runtime's public headers only"),
    ("registry/src/http.c", '#include "cli.h"',
     "registry/ includes its own files and the runtime's public headers only"),
]


def cmd_layout(args):
    check_layout = os.path.join(args.source, "scripts", "check-layout")
    out = run([check_layout, args.source])
    check(" 0 forbidden" in out, "check-layout on the tree: " + out)
    tree, _ = export(args)
    for rel, line, why in PLANTED:
        path = os.path.join(tree, rel)
        with open(path) as f:
            before = f.read()
        with open(path, "a") as f:
            f.write(line + "\n")
        n = before.count("\n") + 1
        out = run([check_layout, tree], fail=True)
        want = "%s:%d:" % (rel, n)
        check(want in out and why in out and " 1 forbidden" in out,
              "check-layout did not refuse %s in %s (want '%s' and '%s'):\n%s"
              % (line, rel, want, why, out))
        with open(path, "w") as f:
            f.write(before)
    out = run([check_layout, tree])
    check(" 0 forbidden" in out, "the export, restored, does not pass: " + out)


# The tests that need Apache Avro's test data, and what ctest must build for them.
NEEDS_TESTDATA = ["interop_peer_corpus", "interop_java", "interop_go", "header_roundtrip"]
FRESH_TARGETS = ["avrogen", "avrogen_runtime_shared", "codegen_shapes_peer", "interop_dump",
                 "ocf_tool", "peer_tool"]


def cmd_fresh_clone(args):
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    if not os.path.exists(os.path.join(args.source, ".git")) or not shutil.which("git"):
        import notrun
        notrun.not_run("scripts_fresh_clone", "%s is no git checkout, or git is missing"
                       % args.source, "run it in a clone")
    clone = os.path.join(args.work, "clone")
    run(["git", "clone", "--quiet", args.source, clone])
    check(not os.path.exists(os.path.join(args.work, "shared")), "test data beside the clone")
    env = {"CI": "", "AVROGEN_TESTDATA": ""}
    b = os.path.join(args.work, "build")
    out = run(["cmake", "-S", clone, "-B", b, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug"],
              extra_env=env)
    missing = os.path.join(args.work, "shared", "apache-avro-testdata")
    check("no Apache Avro test data at " + missing in out,
          "configuring a fresh clone does not say the test data is missing:\n" + out)
    run(["cmake", "--build", b, "-j", "2", "--target"] + FRESH_TARGETS, extra_env=env)

    junit = os.path.join(args.work, "junit.xml")
    pattern = "^(%s)$" % "|".join(NEEDS_TESTDATA)
    run(["ctest", "--test-dir", b, "-R", pattern, "--output-junit", junit], extra_env=env)
    summary = run([os.path.join(args.source, "scripts", "test-summary"), junit])
    check("summary: 0 passed, 0 failed, %d skipped" % len(NEEDS_TESTDATA) in summary,
          "the tests without data were not all counted as skipped:\n" + summary)
    for name in NEEDS_TESTDATA:
        check(re.search(r"NOT RUN: %s: no Apache Avro test data at %s; .*AVROGEN_TESTDATA"
                        % (re.escape(name), re.escape(missing)), summary),
              "%s does not say why it did not run:\n%s" % (name, summary))

    out = run(["ctest", "--test-dir", b, "-R", pattern, "--output-on-failure"],
              extra_env={"CI": "1", "AVROGEN_TESTDATA": ""}, fail=True)
    failed = out[out.find("The following tests FAILED"):]
    check(all(re.search(r"\b%s \(" % name, failed) for name in NEEDS_TESTDATA)
          and "(CI is set: every test must run)" in out,
          "under CI, the tests without data do not all fail:\n" + out)

    # A Python without python3-avro: its tests say so by script name, never pass.
    venv = os.path.join(args.work, "venv")
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    b3 = os.path.join(args.work, "build-nopy")
    out = run(["cmake", "-S", clone, "-B", b3, "-G", "Ninja",
               "-DAVROGEN_PYTHON=" + os.path.join(venv, "bin", "python3")], extra_env=env)
    check("has no avro module" in out, "configuring with a Python without avro does not say so")
    junit3 = os.path.join(args.work, "junit-nopy.xml")
    run(["ctest", "--test-dir", b3, "-R", "^(interop_python_values|cli_friendly)$",
         "--output-junit", junit3], extra_env=env)
    summary = run([os.path.join(args.source, "scripts", "test-summary"), junit3])
    check("summary: 0 passed, 0 failed, 2 skipped" in summary
          and "NOT RUN: python_peer.py: " in summary and "has no avro module" in summary,
          "the Python tests without python3-avro were not reported as not run:\n" + summary)

    elsewhere = os.path.join(args.work, "elsewhere")
    b2 = os.path.join(args.work, "build-env")
    run(["cmake", "-S", clone, "-B", b2, "-G", "Ninja"], extra_env={"AVROGEN_TESTDATA": elsewhere})
    with open(os.path.join(b2, "CMakeCache.txt")) as f:
        check("AVROGEN_TESTDATA:PATH=%s\n" % elsewhere in f.read(),
              "AVROGEN_TESTDATA from the environment is not the test data's folder")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["format-export", "build-dirs", "layout", "fresh-clone"])
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    args = p.parse_args()
    try:
        {"format-export": cmd_format_export, "build-dirs": cmd_build_dirs,
         "layout": cmd_layout, "fresh-clone": cmd_fresh_clone}[args.command](args)
    except Failure as e:
        print("FAIL: " + str(e))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
