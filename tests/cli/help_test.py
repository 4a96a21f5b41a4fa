#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Per-command help, the man page and the docs agree with the binary.

usage: help_test.py AVROGEN MAN_PAGE REPO_ROOT

* every command `avrogen --help` lists answers `avrogen help CMD` and
  `avrogen CMD --help` with the same text (exit 0, stdout): a usage line, its
  options, an example that runs that command;
* MAN_PAGE (the avrogen.1 the build wrote, which is installed) is exactly
  what `avrogen help --man` prints, groff formats it without a warning, and the
  formatted page holds every command's synopsis, description, options and
  examples word for word;
* README.md's command list and DESIGN.md's command-line contract name every
  command;
* usage errors point at the command's --help.
"""

import os
import re
import shutil
import subprocess
import sys

import clitest
from clitest import check

def run(args):
    return clitest.run(args, text=True)


def words(text):
    return " ".join(text.split())


def commands():
    p = run(["--help"])
    check(p.returncode == 0 and p.stderr == "", f"--help: exit {p.returncode}, {p.stderr!r}")
    body = p.stdout.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
    names = [line.split()[0] for line in body.splitlines()]
    check(len(names) >= 10, f"--help lists the commands: {names}")
    return names


def help_sections(text):
    """usage line, description, option lines, example lines of one command's help."""
    usage, rest = text.split("\n\n", 1)
    rest, example = rest.split("\nexample:\n", 1)
    desc, _, opts = rest.partition("\noptions:\n")
    return usage, desc, opts, example


def test_commands(man_text):
    for name in commands():
        a, b = run(["help", name]), run([name, "--help"])
        check(a.returncode == 0 and a.stderr == "", f"help {name}: exit {a.returncode}")
        check(b.returncode == 0 and b.stderr == "", f"{name} --help: exit {b.returncode}")
        check(a.stdout == b.stdout, f"help {name} == {name} --help")
        text = a.stdout
        check(text.startswith(f"usage: avrogen {name} "), f"{name}: usage line: {text[:60]!r}")
        check("\nexample:\n" in text, f"{name}: has an example")
        usage, desc, opts, example = help_sections(text)
        ex_lines = [line.strip() for line in example.splitlines() if line.strip()]
        check(ex_lines and all(line.startswith(f"avrogen {name}") for line in ex_lines),
              f"{name}: every example runs avrogen {name}: {ex_lines}")
        # The man page says the same, word for word.
        synopsis = usage[len("usage: "):]
        check(words(synopsis) in man_text, f"man page has the synopsis of {name}")
        check(words(desc) in man_text, f"man page has the description of {name}")
        for line in ex_lines:
            check(words(line) in man_text, f"man page has {name}'s example {line!r}")
        # Option lines: "  SPELLING  text..." with continuation lines indented.
        entries = re.split(r"\n(?=  \S)", "\n" + opts.strip("\n"))
        for e in entries:
            e = e.strip()
            if not e:
                continue
            spelling = re.split(r"\s{2,}", e, 1)[0]
            check(words(spelling) in man_text, f"man page has {name} option {spelling!r}")
            check(words(e[len(spelling):]) in man_text,
                  f"man page explains {name} option {spelling!r}")


def test_man_page(man_page):
    with open(man_page) as f:
        built = f.read()
    p = run(["help", "--man"])
    check(p.returncode == 0 and p.stdout == built,
          "the built avrogen.1 is what 'avrogen help --man' prints")
    check(built.startswith(".\\\"") and "\n.TH AVROGEN 1 " in built, "avrogen.1 is a man page")
    g = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", man_page],
                       capture_output=True, text=True)
    check(g.returncode == 0 and g.stderr == "", f"groff -ww: {g.stderr!r}")
    env = dict(os.environ, MANWIDTH="10000", MAN_KEEP_FORMATTING="")
    m = subprocess.run(["man", "-E", "ascii", "-l", man_page], capture_output=True, env=env)
    check(m.returncode == 0, f"man -l: {m.stderr!r}")
    plain = re.sub(rb".\x08", b"", m.stdout).decode("ascii", "replace")
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "FILES"):
        check(re.search(rf"^{section}$", plain, re.M), f"man page section {section}")
    return words(plain)


def test_docs(root):
    names = commands()
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(root, "docs", "DESIGN.md")) as f:
        design = f.read()
    contract = design.split("## The command-line contract", 1)[1].split("\n## ", 1)[0]
    for name in names:
        check(re.search(rf"^avrogen {name} ", readme, re.M),
              f"README's command list shows avrogen {name}")
        check(f"`avrogen {name}" in contract, f"DESIGN.md's command-line contract has {name}")


def test_usage_errors():
    p = run(["help", "nosuch"])
    check(p.returncode == 2, f"help nosuch: exit 2, got {p.returncode}")
    p = run(["cat", "--bogus"])
    check(p.returncode == 2 and "avrogen cat --help" in p.stderr,
          f"a usage error points at the command's --help: {p.stderr!r}")
    p = run([])
    check(p.returncode == 2 and "commands:" in p.stderr, "no command: the list, exit 2")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN, MAN_PAGE, ROOT = sys.argv[1:]
    if shutil.which("groff") is None or shutil.which("man") is None:
        print("help_test: groff and man are needed (scripts/bootstrap installs them)")
        sys.exit(1)
    man_text = test_man_page(MAN_PAGE)
    test_commands(man_text)
    test_docs(ROOT)
    test_usage_errors()
    sys.exit(clitest.summary("cli help"))
