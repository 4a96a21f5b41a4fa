#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The scripts a newcomer runs first, where they can break without a build.

usage: scripts_test.py format-export --source DIR --work DIR

  format-export  scripts/format (the format step of scripts/test) in an export
                 of the tree without .git and with no git on PATH: it checks
                 exactly the C sources git tracks, skips build trees (a folder
                 with a CMakeCache.txt, such as README's build/) and hidden
                 folders, passes on the tree as it is and fails on a file that
                 is not formatted. The export holds the files git tracks or
                 would add, as they are in the working tree; in a tree that is
                 already an export (no .git) the test runs on a copy of it.
"""

import argparse
import os
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cmake"))
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
    return [f for f in out.split("\0") if f and os.path.lexists(os.path.join(source, f))]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def cmd_format_export(args):
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

    # git, if anything calls it, fails loudly.
    shim = os.path.join(args.work, "bin")
    write(os.path.join(shim, "git"),
          "#!/bin/sh\necho 'git called in a git-less export' >&2\nexit 127\n")
    os.chmod(os.path.join(shim, "git"), stat.S_IRWXU)
    env = {"PATH": shim + os.pathsep + os.environ.get("PATH", ""),
           "GIT_CEILING_DIRECTORIES": args.work}

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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["format-export"])
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    args = p.parse_args()
    try:
        {"format-export": cmd_format_export}[args.command](args)
    except Failure as e:
        print("FAIL: " + str(e))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
