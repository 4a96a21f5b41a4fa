#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Clear words for the refusals of issue 26 item 7 that are the CLI's own.

usage: refusals_test.py AVROGEN

* random on a schema whose smallest record is larger than random makes (a
  fixed of 2^31-1 bytes, one of 300 MiB, an array of them) says the schema
  asks too much and names the limit, and suggests no option; where
  --max-length does help (an array of 100 MB fixeds), it says so, and
  --max-length 0 then succeeds; a decimal wider than random makes says so.
* header refuses a schema whose namespace (or name) makes a file name that
  `avrogen generate` of its header would write longer than NAME_MAX (255)
  less the suffix of the temporary name generate writes it through: exit 1,
  naming the schema file, the record and the file; nothing written. At
  exactly the limit, header and then generate succeed.
* concat refuses inputs whose record fields differ only in their `order`
  attribute (the Parsing Canonical Form drops it): exit 1, one error line
  naming both files and the field, and no output file; the same order is
  accepted.
"""

import json
import os
import sys
import tempfile

import clitest
from clitest import check, one_error_line, run


def fixed(size, name="F"):
    return {"type": "fixed", "name": name, "size": size}


def test_random(tmp):
    out = os.path.join(tmp, "r.avro")
    for what, schema in (
            ("a fixed of 2^31-1 bytes", fixed(2**31 - 1)),
            ("a fixed of 300 MiB", fixed(300 << 20)),
            ("a record of two fixeds of 200 MiB", {
                "type": "record", "name": "R", "fields": [
                    {"name": "a", "type": fixed(200 << 20)},
                    {"name": "b", "type": fixed(200 << 20, "G")}]})):
        for extra in ([], ["--max-length", "0"], ["--max-length", "1000"]):
            p = run(["random", "--schema", json.dumps(schema), "--count", "1"] + extra + [out])
            line = one_error_line(p, f"random, {what} {extra}")
            check("the schema asks too much" in line and "256 MiB" in line and
                  "--max-length" not in line and "smallest record" in line,
                  f"random, {what}: says the schema asks too much, no option: {line}")
            check(not os.path.exists(out), f"random, {what}: no output")
    # An array of 100 MB fixeds: --max-length does change the outcome, and says so.
    schema = json.dumps({"type": "record", "name": "R", "fields": [
        {"name": "a", "type": {"type": "array", "items": fixed(100_000_000)}}]})
    line = one_error_line(run(["random", "--schema", schema, "--count", "5", "--seed", "3", out]),
                          "random, array of big fixeds")
    check("(lower --max-length)" in line and "256 MiB" in line, f"suggests --max-length: {line}")
    p = run(["random", "--schema", schema, "--count", "2", "--seed", "3", "--max-length", "0",
             out])
    check(p.returncode == 0, f"random --max-length 0 on an array of big fixeds: {p.stderr!r}")
    # A decimal wider than random makes: the limit, and no option.
    schema = json.dumps({"type": "fixed", "name": "D", "size": 600, "logicalType": "decimal",
                         "precision": 1400})
    line = one_error_line(run(["random", "--schema", schema, "--count", "1", out]),
                          "random, a wide decimal")
    check("decimal D takes 600 bytes" in line and "at most 512 bytes" in line and
          "--max-length" not in line, f"random, a wide decimal: {line}")


def test_header_names(tmp):
    def schema(ns):
        return json.dumps({"type": "record", "name": "Rec", "namespace": ns, "fields": [
            {"name": "a", "type": "int"},
            {"name": "b", "type": {"type": "record", "name": "Sub", "fields": [
                {"name": "x", "type": "long"}]}}]})

    probe = run(["header", schema("t")])
    if probe.returncode != 0 and b"generator" in probe.stderr:
        print("refusals_test: header: this build has no generator; not tested")
        return
    # "<ns>.Rec.avsc" of 243 bytes fits (generate writes "<name>.tmp.<pid>" first, NAME_MAX
    # 255); one more does not ("<ns>.Sub.avsc" alike).
    for ns_len, fits in ((234, True), (235, False)):
        ns = "n" + "x" * (ns_len - 1)
        path = os.path.join(tmp, f"ns{ns_len}.avsc")
        with open(path, "w") as f:
            f.write(schema(ns))
        out = os.path.join(tmp, f"header{ns_len}")
        p = run(["header", path, "-o", out])
        if fits:
            check(p.returncode == 0, f"header, a file name of 243 bytes: {p.stderr!r}")
            gen = os.path.join(tmp, f"gen{ns_len}")
            p = run(["generate", os.path.join(out, f"ns{ns_len}.h"), "-o", gen])
            check(p.returncode == 0 and os.path.exists(os.path.join(gen, f"{ns}.Rec.avsc")),
                  f"generate of that header: {p.stderr!r}")
            continue
        lines = p.stderr.decode().splitlines()
        check(p.returncode == 1 and len(lines) == 3, f"header, too long a name: {lines}")
        for name, line in zip(("Rec", "Sub"), lines):
            check(line.startswith(f"avrogen: error: {path}: record '{ns}.{name}': `avrogen "
                                  f"generate` of its header would write '{ns}.{name}.avsc', a "
                                  f"file name of 244 bytes, more than the 243 it may have (NAME_MAX, 255") and
                  "shorten its namespace or name" in line, f"header names it: {line}")
        check(lines[-1:] == [f"avrogen: error: {path}: no header written"], f"{lines[-1:]}")
        check(not os.path.exists(out), "header, too long a name: nothing written")


def test_concat_order(tmp):
    def record(order):
        field = {"name": "id", "type": "long"}
        if order is not None:
            field["order"] = order
        return json.dumps({"type": "record", "name": "R", "namespace": "t", "fields": [
            {"name": "s", "type": "string"}, field]})

    paths = {}
    for order in (None, "descending", "ignore", "ascending"):
        path = os.path.join(tmp, f"order-{order}.avro")
        p = run(["random", "--schema", record(order), "--count", "3", "--seed", "1", path])
        check(p.returncode == 0, f"random with order {order}: {p.stderr!r}")
        paths[order] = path
    out = os.path.join(tmp, "cat.avro")
    for a, b, x, y in ((None, "descending", "ascending", "descending"),
                       ("ignore", "ascending", "ignore", "ascending"),
                       ("descending", "ignore", "descending", "ignore")):
        p = run(["concat", paths[a], paths[b], out])
        line = one_error_line(p, f"concat of order {a} and {b}")
        check(f"{paths[b]}: its schema differs from {paths[a]}'s (R.id: order {x} in {paths[a]}, "
              f"order {y} in {paths[b]})" in line, f"concat names both files and the field: {line}")
        check(not os.path.exists(out), f"concat of order {a} and {b}: no output")
    # "ascending" is the default: the same order, written or not.
    p = run(["concat", paths[None], paths["ascending"], out])
    check(p.returncode == 0, f"concat of the same order: {p.stderr!r}")


def main():
    clitest.AVROGEN = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_random(tmp)
        test_header_names(tmp)
        test_concat_order(tmp)
    return clitest.summary("refusals_test")


if __name__ == "__main__":
    sys.exit(main())
