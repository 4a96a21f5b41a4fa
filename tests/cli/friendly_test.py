#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A friendly command line (issue 24 item 5).

usage: friendly_test.py AVROGEN

* progress: with stderr on a terminal (a pty) a long run shows one line,
  rewritten with \\r, with records, bytes (of the total, the percentage and the
  time left for a regular file; no total from a pipe), rates and the time
  taken, and clears it at the end and before an error line; on a pipe it
  shows nothing; --progress shows it on a pipe, --no-progress hides it on a
  terminal; stdout is byte for byte the same either way;
* an unknown command or option names the closest one, when one is close;
* tojson --pretty prints what cat --pretty prints;
* getmeta prints the schema indented;
* a malformed number names its option (head -n abc);
* schema and generate show their steps (parsing, building the model, writing
  the schemas and the code) the same way, cleared before a diagnostic.
"""

import json
import os
import subprocess
import sys
import tempfile

import clitest
from clitest import check

SCHEMA = {"type": "record", "name": "Event", "namespace": "test.friendly",
          "fields": [{"name": "id", "type": "long"}, {"name": "name", "type": "string"},
                     {"name": "tags", "type": {"type": "array", "items": "string"}}]}


def progress_lines(shown):
    return [part for part in shown.split("\r") if part.startswith("avrogen: ")]


def test_progress(tmp):
    schema = os.path.join(tmp, "event.avsc")
    with open(schema, "w") as f:
        json.dump(SCHEMA, f)
    path = os.path.join(tmp, "events.avro")
    p = clitest.run(["random", "--schema", schema, "--count", "60000", "--seed", "5", path])
    check(p.returncode == 0, f"random: {p.stderr!r}")
    plain = clitest.run(["cat", path])
    check(plain.returncode == 0 and len(plain.stdout) > 1 << 20, "cat: over a MiB of JSON")
    data = open(path, "rb").read()

    # A regular file on a terminal: the total, the percentage and the time left.
    rc, out, shown = clitest.run_watched(["cat", path])
    lines = progress_lines(shown)
    check(rc == 0 and out == plain.stdout, "cat on a terminal: stdout as without progress")
    check(lines and all(" records" in x and " MB" in x and "records/s" in x and "MB/s" in x and
                        "elapsed" in x for x in lines),
          f"cat FILE on a terminal: records, bytes, rates, time: {shown[:300]!r}")
    total = f" of {len(data) / 1e6:.1f} MB"
    check(lines and total in lines[0] and "%)" in lines[0] and " left" in lines[0],
          f"cat FILE: of the file's size, the percentage and the time left: {lines[:1]!r}")
    check(shown.endswith("\r\033[K"), f"cat FILE: the line cleared at the end: {shown[-40:]!r}")

    # Standard input: bytes read, no total, so no percentage and no time left.
    rc, out, shown = clitest.run_watched(["cat", "-"], stdin=data)
    lines = progress_lines(shown)
    check(rc == 0 and out == plain.stdout, "cat - on a terminal: stdout as without progress")
    check(lines and all(" MB," in x and "%" not in x and " left" not in x for x in lines),
          f"cat - on a terminal: bytes without a total: {lines[:2]!r}")
    check(shown.endswith("\r\033[K"), "cat -: the line cleared at the end")

    # A pipe shows nothing, unless --progress; --no-progress wins over a terminal.
    rc, out, shown = clitest.run_watched(["cat", path], tty=False)
    check(rc == 0 and out == plain.stdout and shown == "", f"cat on a pipe: no progress: {shown!r}")
    rc, out, shown = clitest.run_watched(["cat", "--progress", path], tty=False)
    check(rc == 0 and out == plain.stdout and progress_lines(shown) and
          shown.endswith("\r\033[K"), f"cat --progress on a pipe shows it: {shown[:100]!r}")
    rc, out, shown = clitest.run_watched(["cat", path, "--no-progress"])
    check(rc == 0 and out == plain.stdout and shown == "",
          f"cat --no-progress on a terminal: none: {shown!r}")
    rc, out, shown = clitest.run_watched(["cat", "--no-progress", "--progress", path], tty=False)
    check(rc == 0 and progress_lines(shown), "the last of --progress/--no-progress wins")

    # Before an error line the progress line goes.
    blocks = clitest.blocks_of(path)
    cut = clitest.damaged_copy(path, os.path.join(tmp, "cut.avro"), cut=blocks[-2][0] + 20)
    rc, out, shown = clitest.run_watched(["cat", cut])
    check(rc == 1 and progress_lines(shown) and "\r\033[Kavrogen: error: " in shown and
          shown.endswith("\n"), f"an error clears the progress line first: {shown[-200:]!r}")

    # The other long verbs, from a pipe and to a file or a pipe.
    jsonl = plain.stdout
    datums = clitest.run(["fromjson", "--schema", schema, "-"], stdin=jsonl).stdout
    out_path = os.path.join(tmp, "out.avro")
    for args, stdin, verb in ((["tojson", "--schema", schema], datums, "printed"),
                              (["fromjson", "--schema", schema], jsonl, "converted"),
                              (["write", "--schema", schema, "-", out_path], jsonl, "wrote"),
                              (["validate", "-"], data, "validated")):
        rc, out, shown = clitest.run_watched(args, stdin=stdin)
        quiet = subprocess.run([clitest.AVROGEN] + args + ["--no-progress"], input=stdin,
                               capture_output=True)
        check(rc == 0 and f"avrogen: {verb} " in shown and shown.endswith("\r\033[K"),
              f"{args[0]} on a terminal shows progress: {shown[:200]!r}")
        check(out == quiet.stdout and quiet.stderr == b"",
              f"{args[0]}: stdout the same with and without progress")
    rc, out, shown = clitest.run_watched(["random", "--schema", schema, "--count", "100000", "--seed", "5",
                               "--format", "json", "-"])
    lines = progress_lines(shown)
    check(rc == 0 and lines and " of 100000" in lines[0] and "%)" in lines[0],
          f"random: records of the count, the percentage: {lines[:1]!r}")
    # Verbs that take no --progress refuse it.
    p = clitest.run(["compat", "--progress", "--reader", schema, "--writer", schema])
    check(p.returncode == 2, "compat takes no --progress")


def first_line(p):
    return p.stderr.decode().splitlines()[0] if p.stderr else ""


def test_suggestions(tmp):
    for args, want in (
            (["tojsn"], "avrogen: error: unknown command 'tojsn'; did you mean 'tojson'?"),
            (["ct", "x"], "avrogen: error: unknown command 'ct'; did you mean 'cat'?"),
            (["vaildate", "x"], "avrogen: error: unknown command 'vaildate'; did you mean "
                                "'validate'?"),
            (["help", "recodc"], "avrogen: error: help: unknown command 'recodc'; did you mean "
                                 "'recodec'?"),
            (["xyzzy"], "avrogen: error: unknown command 'xyzzy'"),
            (["cat", "--pretyy", "x"], "avrogen: error: cat: unknown option '--pretyy'; did you "
                                       "mean '--pretty'?"),
            (["head", "--limt=3", "x"], "avrogen: error: head: unknown option '--limt=3'; did "
                                        "you mean '--limit'?"),
            (["cat", "-pretty", "x"], "avrogen: error: cat: unknown option '-pretty'; did you "
                                      "mean '--pretty'?"),
            (["tojson", "--prety"], "avrogen: error: tojson: unknown option '--prety'; did you "
                                    "mean '--pretty'?"),
            (["fingerprint", "--alog", "x"], "avrogen: error: fingerprint: unknown option "
                                             "'--alog'; did you mean '--algo'?"),
            (["random", "--cuont", "3"], "avrogen: error: random: unknown option '--cuont'; did "
                                         "you mean '--count'?"),
            (["recodec", "--progres", "a", "b"], "avrogen: error: recodec: unknown option "
                                                 "'--progres'; did you mean '--progress'?"),
            (["cat", "--zz", "x"], "avrogen: error: cat: unknown option '--zz'"),
            (["count", "--bogus", "x"], "avrogen: error: count: unknown option '--bogus'"),
            # The verbs that run in a module take their options from module_options.c.
            (["generate", "x.h", "--outptu", "d"], "avrogen: error: generate: unknown option "
                                                   "'--outptu'; did you mean '--output'?"),
            (["schema", "--compat-wiht", "d", "x.h"], "avrogen: error: schema: unknown option "
                                                      "'--compat-wiht'; did you mean "
                                                      "'--compat-with'?"),
            (["generate", "-Iinclude", "x.h"], "avrogen: error: generate: unknown option "
                                               "'-Iinclude' (clang arguments go after '--')"),
            (["header", "--veiws", "x.avsc"], "avrogen: error: header: unknown option "
                                              "'--veiws'; did you mean '--views'?")):
        p = clitest.run(args)
        line = first_line(p)
        check(p.returncode == 2 and line == want, f"{args}: exit 2, {want!r}; got "
              f"{p.returncode}, {line!r}")


def test_pretty_and_getmeta(tmp):
    schema = os.path.join(tmp, "event.avsc")
    path = os.path.join(tmp, "small.avro")
    p = clitest.run(["random", "--schema", schema, "--count", "20", "--seed", "3", path])
    check(p.returncode == 0, "random: a small file")
    lines = clitest.run(["cat", path]).stdout
    datums = clitest.run(["fromjson", "--schema", schema, "-"], stdin=lines).stdout
    pretty = clitest.run(["cat", "--pretty", path]).stdout
    p = clitest.run(["tojson", "--schema", schema, "--pretty", "-"], stdin=datums)
    check(p.returncode == 0 and p.stdout == pretty and pretty != lines,
          "tojson --pretty prints what cat --pretty prints")
    want = "".join(json.dumps(json.loads(x), indent=2) + "\n" for x in lines.decode().splitlines())
    check(p.stdout.decode() == want, "tojson --pretty: json.dumps(indent=2)")
    p = clitest.run(["getmeta", path])
    out = p.stdout.decode()
    indented = json.dumps(SCHEMA, indent=2).replace("\n", "\n  ")
    check(p.returncode == 0 and f"\nmetadata:\n  avro.schema: {indented}\n  avro.codec: null\n"
          in out, f"getmeta: the schema indented: {out!r}")
    p = clitest.run(["getmeta", "--key", "avro.schema", path])
    check(json.loads(p.stdout) == SCHEMA and b"\n " not in p.stdout,
          "getmeta --key avro.schema: as stored")


def test_numbers(tmp):
    path = os.path.join(tmp, "small.avro")
    schema = os.path.join(tmp, "event.avsc")
    for args, want in (
            (["head", "-n", "abc", path], "head: -n needs a number of records, not 'abc'"),
            (["head", "--limit", "1x", path], "head: --limit needs a number of records, not '1x'"),
            (["head", "--limit=-3", path], "head: --limit needs a number of records, not '-3'"),
            (["cat", "--offset", "x", path], "cat: --offset needs a number of records, not 'x'"),
            (["random", "--schema", schema, "--count", "ten", "-"],
             "random: --count needs a number of records, not 'ten'"),
            (["recodec", "--block-size", "big", path, "-"],
             "recodec: --block-size needs a number of bytes, not 'big'"),
            (["validate", "--max-depth", "deep", path],
             "validate: --max-depth needs a number of levels, not 'deep'")):
        p = clitest.run(args)
        line = first_line(p)
        check(p.returncode == 2 and line == "avrogen: error: " + want,
              f"{args}: exit 2, {want!r}; got {p.returncode}, {line!r}")


def test_generate_progress(tmp):
    header = os.path.join(tmp, "wide.h")
    with open(header, "w") as f:
        f.write("#include <stdint.h>\n#include <avrogen/annotate.h>\n"
                "struct AVRO_RECORD() wide {\n")
        f.write("".join("    int64_t m%d;\n" % i for i in range(2000)))
        f.write("};\n")
    out = os.path.join(tmp, "gen")
    steps = ["parsing (libclang)", "building the model", "writing the schemas",
             "writing the code"]
    rc, _, shown = clitest.run_watched(["generate", header, "-o", out])
    lines = progress_lines(shown)
    check(rc == 0, f"generate: exit {rc}: {shown!r}")
    for step in steps:
        check(any(l.startswith(f"avrogen: generate: {header}: {step}, ") for l in lines),
              f"generate on a terminal: no '{step}' step in {lines!r}")
    check(shown.endswith("\r\033[K"), f"generate: the line is not cleared at the end: {shown!r}")
    rc, _, shown = clitest.run_watched(["generate", header, "-o", out], tty=False)
    check(rc == 0 and shown == "", f"generate on a pipe showed {shown!r}")
    rc, _, shown = clitest.run_watched(["generate", "--progress", header, "-o", out], tty=False)
    check(rc == 0 and "writing the code" in shown, f"generate --progress on a pipe: {shown!r}")
    rc, _, shown = clitest.run_watched(["generate", header, "-o", out, "--no-progress"])
    check(rc == 0 and progress_lines(shown) == [], f"generate --no-progress: {shown!r}")
    rc, _, shown = clitest.run_watched(["schema", header])
    check(rc == 0 and any(l.startswith("avrogen: schema: ") for l in progress_lines(shown)),
          f"schema on a terminal: {shown!r}")

    # A diagnostic starts on a line of its own: the step line is cleared first.
    with open(header, "a") as f:
        f.write("struct AVRO_RECORD() bad { long double x; };\n")
    rc, _, shown = clitest.run_watched(["generate", header, "-o", out])
    at = shown.find(header + ":2005:")
    check(rc == 1 and at > 0 and shown[:at].endswith("\r\033[K")
          and "building the model" in shown[:at],
          f"generate with an error: the error line does not start clean: {shown!r}")


def test_refusals(tmp):
    """Clear words for refusals that were obscure (issue 26 item 7)."""
    schema = os.path.join(tmp, "event.avsc")
    with open(schema, "w") as f:
        json.dump(SCHEMA, f)
    path = os.path.join(tmp, "few.avro")
    p = clitest.run(["random", "--schema", schema, "--count", "3", "--seed", "1", path])
    check(p.returncode == 0, f"random: {p.stderr.decode()!r}")
    out = os.path.join(tmp, "recoded.avro")
    for args, want in (
            (["recodec", "--codec", "snappy", "--level", "5", path, out],
             "avrogen: error: recodec: codec snappy takes no --level"),
            (["recodec", "--codec", "xz", "--level", "12", path, out],
             "avrogen: error: recodec: codec xz takes --level 1 to 9, not 12")):
        p = clitest.run(args)
        check(p.returncode == 2 and first_line(p) == want and not os.path.exists(out),
              f"{args}: exit 2, {want!r}, no OUT; got {p.returncode}, {first_line(p)!r}")
    header = os.path.join(tmp, "p.h")
    with open(header, "w") as f:
        f.write("#include <avrogen/annotate.h>\nstruct AVRO_RECORD() p { int x; };\n")
    gen = os.path.join(tmp, "gen-refused")
    for bad, what in (("a\nb.h", "control character or line break"), ('a"b.h', "double quote")):
        p = clitest.run(["generate", header, "-o", gen, "--include-as", bad])
        check(p.returncode == 2 and "cannot be written in an #include" in p.stderr.decode()
              and what in p.stderr.decode() and not os.path.exists(gen),
              f"--include-as {bad!r}: exit 2 naming it; got {p.returncode}, {p.stderr.decode()!r}")
    p = clitest.run(["generate", header, "-o", gen, "--include-as", "/abs/p.h"])
    check(p.returncode == 2 and "needs a relative path" in p.stderr.decode(),
          f"--include-as /abs/p.h: {p.returncode}, {p.stderr.decode()!r}")
    p = clitest.run(["schema", header, "--", "-x", "c++"])
    check(p.returncode == 1 and "'-x c++' after '--' asks clang to parse" in p.stderr.decode()
          and "(error 4)" not in p.stderr.decode(), f"schema -- -x c++: {p.returncode}, {p.stderr.decode()!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_progress(tmp)
        test_suggestions(tmp)
        test_pretty_and_getmeta(tmp)
        test_numbers(tmp)
        test_generate_progress(tmp)
        test_refusals(tmp)
    sys.exit(clitest.summary("cli friendly"))
