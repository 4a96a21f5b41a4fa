#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Headers of long chains of records (issue 12), generated here:

  chain_test.py AVROGEN ANNOTATE_INCLUDE_DIR

  - 100 records, each holding the next through a nullable pointer: every
    .avsc is linear in its schema (indentation stops growing past 16 levels;
    it grew with depth, and 100 such records wrote 37 MB), and each one parses
    (avrogen canonical) with the canonical form avrogen generate embedded;
  - 10,000 such records: more than JSON parsers take nested (a record takes 4
    levels, jansson 2047), so the run fails, naming the member where the first
    schema crosses, writes nothing, and does so in bounded memory (an address
    space limit of 1 GiB) and time (a timeout well above what it takes, as
    tests assert no times);
  - the fanout T40 (T<i> holds two nullable T<i-1>): 2^40 records as a tree,
    41 as a schema. The gate (--compat-with an earlier T40) and its
    ahead-of-time decoder take time linear in the schema (each walk visited
    shared records again: 2^40 steps), and a break deep inside is reported
    once per member of T40 that reaches it.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile


def chain(n):
    lines = ["#include <stdint.h>", "#include <avrogen/annotate.h>",
             "struct AVRO_RECORD() r0 { int32_t v; };"]
    lines += [f"struct AVRO_RECORD() r{i} {{ int32_t v; struct r{i - 1} *next AVRO_NULLABLE; }};"
              for i in range(1, n)]
    return "\n".join(lines) + "\n"


def fanout(n):
    lines = ["#include <stdint.h>", "#include <avrogen/annotate.h>",
             "struct AVRO_RECORD() T0 { int32_t x; };"]
    lines += [f"struct AVRO_RECORD() T{i} {{ struct T{i - 1} *a AVRO_NULLABLE; "
              f"struct T{i - 1} *b AVRO_NULLABLE; }};" for i in range(1, n + 1)]
    return "\n".join(lines) + "\n"


def edit_t0(schema, change):
    """The schema with T0's definition changed by change(fields)."""
    if isinstance(schema, dict):
        if schema.get("name") == "T0":
            change(schema["fields"])
        for v in schema.values():
            edit_t0(v, change)
    elif isinstance(schema, list):
        for v in schema:
            edit_t0(v, change)
    return schema


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def main(avrogen, include):
    with tempfile.TemporaryDirectory() as tmp:
        header = os.path.join(tmp, "chain100.h")
        with open(header, "w") as f:
            f.write(chain(100))
        out = os.path.join(tmp, "out100")
        p = subprocess.run([avrogen, "schema", header, "-o", out, "--", f"-I{include}"],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            fail(f"schema of 100 chained records: exit {p.returncode}: {p.stderr}")
        sizes = [os.path.getsize(os.path.join(out, f"r{i}.avsc")) for i in range(100)]
        total = sum(sizes)
        # r<i> holds i + 1 records. Past the indentation cap (16 levels, four
        # records deep) each record more adds the same bytes: linear. Growing
        # indentation made the step grow with the depth (r99 was 634 KB).
        steps = {sizes[i] - sizes[i - 1] for i in range(10, 100)}
        if len(steps) != 1 or sizes[99] > 1000 * 100:
            fail(f".avsc not linear in the schema: steps {sorted(steps)[:5]}, r99 {sizes[99]} bytes")
        for i in (0, 50, 99):
            p = subprocess.run([avrogen, "canonical", os.path.join(out, f"r{i}.avsc")],
                               capture_output=True, text=True)
            if p.returncode != 0 or not p.stdout.startswith('{"name":"r%d"' % i):
                fail(f"r{i}.avsc does not parse: {p.stderr}")
        print(f"100 chained records: {total} bytes of .avsc")

        header = os.path.join(tmp, "chain10000.h")
        with open(header, "w") as f:
            f.write(chain(10000))
        out = os.path.join(tmp, "out10000")
        p = subprocess.run([avrogen, "generate", header, "-o", out, "--", f"-I{include}"],
                           capture_output=True, text=True, timeout=120, preexec_fn=limit_memory)
        errors = p.stderr.splitlines()
        first = "chain10000.h:4:49: error: the schema of 'r512' nests JSON more than 2047 levels " \
                "deep at member 'next' of 'struct r1'"
        if p.returncode != 1 or not errors or first not in errors[0]:
            fail(f"10000 chained records: exit {p.returncode}, stderr starts {errors[:2]}")
        if not errors[-1].endswith("9480 more records nest their schemas too deep"):
            fail(f"10000 chained records: last line {errors[-1]!r}")
        if os.path.exists(out) and os.listdir(out):
            fail(f"10000 chained records: wrote {os.listdir(out)} despite the errors")
        print(f"10000 chained records: refused ({len(errors)} lines)")

        header = os.path.join(tmp, "fan.h")
        with open(header, "w") as f:
            f.write(fanout(40))
        out = os.path.join(tmp, "fan")
        p = subprocess.run([avrogen, "schema", header, "-o", out, "--", f"-I{include}"],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            fail(f"fanout schema: {p.stderr}")
        with open(os.path.join(out, "T40.avsc")) as f:
            t40 = json.load(f)
        earlier = os.path.join(tmp, "earlier")
        os.mkdir(earlier)
        # An earlier T40 whose T0 had one more field: compatible, an AOT decoder.
        with open(os.path.join(earlier, "T40.avsc"), "w") as f:
            json.dump(edit_t0(json.loads(json.dumps(t40)),
                              lambda fs: fs.append({"name": "y", "type": "string"})), f)
        gen = os.path.join(tmp, "gen")
        p = subprocess.run([avrogen, "generate", header, "-o", gen, "--compat-with", earlier, "--",
                            f"-I{include}"], capture_output=True, text=True, timeout=60)
        code = open(os.path.join(gen, "fan.avro.c")).read() if p.returncode == 0 else ""
        if p.returncode != 0 or "T40_avro_decode_from_" not in code:
            fail(f"fanout gate, compatible: exit {p.returncode}: {p.stderr[:500]}")
        # One whose T0.x was a string: through the nullable unions this is
        # Java's and Python's missing_union_branch, once per member of T40.
        with open(os.path.join(earlier, "T40.avsc"), "w") as f:
            json.dump(edit_t0(json.loads(json.dumps(t40)),
                              lambda fs: fs.__setitem__(0, {"name": "x", "type": "string"})), f)
        p = subprocess.run([avrogen, "generate", header, "-o", gen, "--compat-with", earlier, "--",
                            f"-I{include}"], capture_output=True, text=True, timeout=60)
        errors = [line for line in p.stderr.splitlines() if ": error: " in line]
        if p.returncode != 1 or len(errors) != 2 or "member 'a' of 'struct T40'" not in errors[0] \
                or "member 'b' of 'struct T40'" not in errors[1] or "missing_union_branch" not in errors[0]:
            fail(f"fanout gate, incompatible: exit {p.returncode}, errors {errors[:3]}")
        print("fanout T40: gate and ahead-of-time decoder in linear time")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
