#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Headers of long chains of records (issue 12), generated here:

  chain_test.py AVROGEN ANNOTATE_INCLUDE_DIR [CC RUNTIME_INCLUDE_DIR RUNTIME_LIBRARY]

  - 100 records, each holding the next through a nullable pointer: every
    .avsc is linear in its schema (indentation stops growing past 16 levels;
    it grew with depth, and 100 such records wrote 37 MB), and each one parses
    (avrogen canonical) with the canonical form avrogen generate embedded;
  - 10,000 such records: more than JSON parsers take nested (a record takes 4
    levels, jansson 2047), so the run fails, naming the member where the first
    schema crosses, writes nothing, and does so in bounded memory (an address
    space limit of 1 GiB) and time (a timeout well above what it takes, as
    tests assert no times);
  - 250 and 500 such records through generate: the .avro.c is linear in the
    header (twice the records, about twice the bytes, and a bound per header
    byte), though each record's schema text holds every record below it (N^2
    bytes in all, as each record's .avsc file holds it): the texts share
    their nested definitions (gen/emit/emit_c_schema.c). With a compiler and
    the runtime, the 500-record code compiles warning-free and
    avrogen_type_schema and avrogen_type_canonical of r0, r250 and r499
    return exactly their .avsc files and `avrogen canonical` of them;
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


CHECK_TEXTS = r"""
#include <stdio.h>
#include "chain500.avro.h"
int main(void)
{
    const avrogen_type *const types[] = {&r0_avro_type, &r250_avro_type, &r499_avro_type};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        const char *schema = avrogen_type_schema(types[i]);
        const char *canonical = avrogen_type_canonical(types[i]);
        if (schema == NULL || canonical == NULL || avrogen_type_schema(types[i]) != schema)
            return 1;
        printf("%s%c%s%c", schema, 1, canonical, 2);
    }
    return 0;
}
"""


def generated_size(avrogen, include, tmp, n):
    """chain(n) through generate: the header's and the .avro.c's sizes, and the output dir."""
    header = os.path.join(tmp, f"chain{n}.h")
    with open(header, "w") as f:
        f.write(chain(n))
    out = os.path.join(tmp, f"gen{n}")
    p = subprocess.run([avrogen, "generate", header, "-o", out, "--", f"-I{include}"],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail(f"generate of {n} chained records: exit {p.returncode}: {p.stderr[:500]}")
    return os.path.getsize(header), os.path.getsize(os.path.join(out, f"chain{n}.avro.c")), out


def linear_code(avrogen, include, tmp, compiler):
    h250, c250, _ = generated_size(avrogen, include, tmp, 250)
    h500, c500, out = generated_size(avrogen, include, tmp, 500)
    avsc = sum(os.path.getsize(os.path.join(out, f"r{i}.avsc")) for i in range(500))
    # Quadratic code (every record's text in full, as it was: 790 MB at 511
    # records) grows four times as the records double; linear code twice.
    if c500 > 2.3 * c250 or c500 > 300 * h500:
        fail(f".avro.c not linear in the header: {c250} bytes at 250 records, {c500} at 500 "
             f"(header {h500} bytes)")
    print(f"500 chained records: {h500} bytes of header, {c500} of .avro.c ({c250} at 250), "
          f"{avsc} of .avsc files")
    if compiler is None:
        return
    cc, rt_include, rt_lib = compiler
    main_c = os.path.join(tmp, "texts.c")
    with open(main_c, "w") as f:
        f.write(CHECK_TEXTS)
    exe = os.path.join(tmp, "texts")
    p = subprocess.run([cc, "-std=c11", "-O0", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                        f"-I{out}", f"-I{rt_include}", f"-I{include}", f"-I{tmp}", main_c,
                        os.path.join(out, "chain500.avro.c"), rt_lib,
                        f"-Wl,-rpath,{os.path.dirname(rt_lib)}", "-o", exe],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail(f"the code of 500 chained records does not compile: {p.stderr[:2000]}")
    p = subprocess.run([exe], capture_output=True, timeout=60)
    if p.returncode != 0:
        fail(f"avrogen_type_schema of the 500 chained records: exit {p.returncode}")
    texts = p.stdout.decode().split("\x02")
    for k, i in enumerate((0, 250, 499)):
        schema, canonical = texts[k].split("\x01")
        path = os.path.join(out, f"r{i}.avsc")
        with open(path) as f:
            if schema != f.read():
                fail(f"avrogen_type_schema(&r{i}_avro_type) is not r{i}.avsc")
        q = subprocess.run([avrogen, "canonical", path], capture_output=True, text=True)
        if q.returncode != 0 or canonical + "\n" != q.stdout:
            fail(f"avrogen_type_canonical(&r{i}_avro_type) is not the canonical form of r{i}.avsc")
    print("500 chained records: the joined texts are the .avsc files and their canonical forms")


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def main(avrogen, include, compiler=None):
    with tempfile.TemporaryDirectory() as tmp:
        linear_code(avrogen, include, tmp, compiler)

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
    if len(sys.argv) not in (3, 6):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], tuple(sys.argv[3:]) if len(sys.argv) == 6 else None))
