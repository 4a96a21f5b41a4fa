#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Big headers stay fast (issue 26), generated here:

  big_test.py AVROGEN ANNOTATE_INCLUDE_DIR CC RUNTIME_INCLUDE_DIR RUNTIME_LIBRARY

  - a struct of 100,000 members of mixed types (scalars, strings, fixed,
    nullable, counted arrays, an enum, a nested record by value and behind a
    nullable pointer) through `avrogen generate`: every member is a field of
    the .avsc, in order;
  - an enum of 100,000 consecutive symbols, one of 1,000 symbols declared out
    of value order with negative values, and one of 3 symbols, in a record
    through `avrogen generate`. The big enums' code is tables (a values array,
    arithmetic or a binary search for the index), not a switch per symbol:
    the .avro.c stays small, and compiled with -Wall -Wextra -Wpedantic
    -Wconversion -Werror it encodes a few symbols of each to exactly their
    index (compared with the runtime's avrogen_write_int), decodes them back,
    and refuses a value that is no enumerator and an index past the last;
  - `avrogen header` on a record schema whose enum has 100,000 symbols and
    one of 100,000 fields.

Nothing asserts a time: each run has a timeout far above what linear
generation takes, and the ctest TIMEOUT catches a quadratic step (a struct of
100,000 members did not finish in 200 s, a 100,000-symbol enum took 26 s in
`header`, and its 23 MB .c two minutes in gcc -O0).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

N = 100000


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(argv, what, timeout=600):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        fail(f"{what}: exit {p.returncode}: {p.stderr[:2000]}")
    return p


def wide_struct():
    lines = ["#include <stdbool.h>", "#include <stddef.h>", "#include <stdint.h>",
             "#include <avrogen/annotate.h>",
             'enum AVRO_ENUM(namespace = "big", strip_prefix = "COLOR_") color '
             "{ COLOR_RED, COLOR_GREEN };",
             'struct AVRO_RECORD(namespace = "big") point { int32_t x; int32_t y; };',
             'struct AVRO_RECORD(namespace = "big") wide {']
    fields = []
    shapes = ["int32_t m{}", "int64_t m{}", "double m{}", "float m{}", "bool m{}", "char *m{}",
              "uint8_t m{}[4]", "char *m{} AVRO_NULLABLE", "counted", "enum color m{}",
              "struct point m{}", "struct point *m{} AVRO_NULLABLE"]
    i = 0
    while len(fields) < N:
        shape = shapes[i % len(shapes)]
        if shape == "counted":
            lines.append(f"    int64_t *m{i} AVRO_ARRAY(n_m{i});")
            lines.append(f"    size_t n_m{i};")
        else:
            lines.append("    " + shape.format(i) + ";")
        fields.append(f"m{i}")
        i += 1
    lines.append("};")
    return "\n".join(lines) + "\n", fields


def enums(sparse):
    lines = ["#include <stdint.h>", "#include <avrogen/annotate.h>",
             'enum AVRO_ENUM(namespace = "big", strip_prefix = "BIG_") big {']
    lines += [f"    BIG_S{i}," for i in range(N)]
    lines += ["};", 'enum AVRO_ENUM(namespace = "big", strip_prefix = "SP_") sparse {']
    lines += [f"    SP_V{k} = {v}," for k, v in enumerate(sparse)]
    lines += ["};",
              'enum AVRO_ENUM(namespace = "big", strip_prefix = "SMALL_") small '
              "{ SMALL_A, SMALL_B, SMALL_C };",
              'struct AVRO_RECORD(namespace = "big") holder {',
              "    enum big b;", "    enum sparse s;", "    enum small m;", "    int32_t x;", "};"]
    return "\n".join(lines) + "\n"


ROUNDTRIP = r"""
#include <stdio.h>
#include <string.h>

#include "enums.avro.h"

struct one_case {
    enum big b;
    int32_t bi;
    enum sparse s;
    int32_t si;
    enum small m;
    int32_t mi;
};

static const struct one_case cases[] = {
@CASES@
};

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct one_case *c = &cases[i];
        struct holder v = {c->b, c->s, c->m, (int32_t)i - 3};
        uint8_t buf[64], want[64];
        avrogen_writer w, x;
        avrogen_writer_init_fixed(&w, buf, sizeof buf);
        if (holder_avro_encode(&w, &v) != AVROGEN_OK) {
            printf("case %zu: encode failed\n", i);
            return 1;
        }
        avrogen_writer_init_fixed(&x, want, sizeof want);
        avrogen_write_int(&x, c->bi);
        avrogen_write_int(&x, c->si);
        avrogen_write_int(&x, c->mi);
        avrogen_write_int(&x, v.x);
        if (avrogen_writer_len(&w) != avrogen_writer_len(&x) ||
            memcmp(buf, want, avrogen_writer_len(&x)) != 0) {
            printf("case %zu: encoded to other indexes than %d, %d, %d\n", i, (int)c->bi,
                   (int)c->si, (int)c->mi);
            return 1;
        }
        struct holder back;
        avrogen_reader r;
        avrogen_reader_init(&r, buf, avrogen_writer_len(&w));
        if (holder_avro_decode(&r, &back, NULL) != AVROGEN_OK || back.b != v.b ||
            back.s != v.s || back.m != v.m || back.x != v.x) {
            printf("case %zu: decoded another value\n", i);
            return 1;
        }
    }
    /* A value that is no enumerator does not encode; an index past the last
     * symbol does not decode. */
    struct holder bad = {(enum big)@N@, SP_V0, SMALL_A, 0};
    uint8_t buf[64];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    if (holder_avro_encode(&w, &bad) == AVROGEN_OK) {
        printf("big = %d encoded\n", @N@);
        return 1;
    }
    bad = (struct holder){BIG_S0, (enum sparse)@NOT_SPARSE@, SMALL_A, 0};
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    if (holder_avro_encode(&w, &bad) == AVROGEN_OK) {
        printf("sparse = %d encoded\n", @NOT_SPARSE@);
        return 1;
    }
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_write_int(&w, @N@);
    avrogen_write_int(&w, 0);
    avrogen_write_int(&w, 0);
    avrogen_write_int(&w, 0);
    struct holder back;
    avrogen_reader r;
    avrogen_reader_init(&r, buf, avrogen_writer_len(&w));
    if (holder_avro_decode(&r, &back, NULL) == AVROGEN_OK) {
        printf("index %d decoded\n", @N@);
        return 1;
    }
    printf("%zu cases round-trip\n", sizeof cases / sizeof *cases);
    return 0;
}
"""


def check_wide(avrogen, include, tmp):
    text, fields = wide_struct()
    header = os.path.join(tmp, "wide.h")
    with open(header, "w") as f:
        f.write(text)
    out = os.path.join(tmp, "wide")
    run([avrogen, "generate", header, "-o", out, "--", f"-I{include}"],
        f"generate of a struct of {N} members")
    with open(os.path.join(out, "big.wide.avsc")) as f:
        schema = json.load(f)
    names = [fd["name"] for fd in schema["fields"]]
    if names != fields:
        fail(f"the .avsc of {N} members has {len(names)} fields, not the members in order")
    print(f"a struct of {N} members: generated, {len(names)} fields in order")


def check_enums(avrogen, include, tmp, cc, rt_include, rt_lib):
    rnd = random.Random(26)
    sparse = rnd.sample(range(-5000, 5000, 3), 1000)  # declaration order is not value order
    header = os.path.join(tmp, "enums.h")
    with open(header, "w") as f:
        f.write(enums(sparse))
    out = os.path.join(tmp, "enums")
    run([avrogen, "generate", header, "-o", out, "--", f"-I{include}"],
        f"generate of an enum of {N} symbols")
    code = os.path.join(out, "enums.avro.c")
    with open(code) as f:
        source = f.read()
    if "case BIG_S" in source or "case SP_V" in source:
        fail("the big enums' code is a switch per symbol, not tables")
    if "case SMALL_A:" not in source:
        fail("the 3-symbol enum's code is no longer a switch")
    # A values array, the descriptor's symbols and values, the schema texts:
    # about 200 bytes a symbol, linear.
    if os.path.getsize(code) > 400 * N:
        fail(f"{code} has {os.path.getsize(code)} bytes for {N} symbols")
    picks = [0, 1, 2, 4999, N - 2, N - 1]
    cases = []
    for k, bi in enumerate(picks):
        si = [0, 999, 500, rnd.randrange(1000), rnd.randrange(1000), 1][k]
        mi = k % 3
        cases.append(f"        {{BIG_S{bi}, {bi}, SP_V{si}, {si}, SMALL_{'ABC'[mi]}, {mi}}},")
    not_sparse = next(v for v in range(-5000, 5000) if v not in set(sparse))
    main_c = os.path.join(tmp, "roundtrip.c")
    with open(main_c, "w") as f:
        f.write(ROUNDTRIP.replace("@CASES@", "\n".join(cases)).replace("@N@", str(N))
                .replace("@NOT_SPARSE@", str(not_sparse)))
    exe = os.path.join(tmp, "roundtrip")
    run([cc, "-std=c11", "-O0", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Werror",
         f"-I{out}", f"-I{tmp}", f"-I{rt_include}", f"-I{include}", main_c, code, rt_lib,
         f"-Wl,-rpath,{os.path.dirname(rt_lib)}", "-o", exe],
        f"compile of the code of an enum of {N} symbols")
    p = run([exe], "the enum round trip", timeout=60)
    print(f"enums of {N}, 1000 (sparse) and 3 symbols: {os.path.getsize(code)} bytes of .avro.c, "
          + p.stdout.strip())


def check_header(avrogen, tmp):
    symbols = {"type": "record", "name": "holder", "namespace": "big",
               "fields": [{"name": "e", "type": {"type": "enum", "name": "Big",
                                                 "symbols": [f"S{i}" for i in range(N)]}}]}
    types = ["int", "long", "double", "float", "boolean", "string", "bytes", ["null", "string"],
             {"type": "array", "items": "long"}]
    fields = {"type": "record", "name": "wide", "namespace": "big",
              "fields": [{"name": f"f{i}", "type": types[i % len(types)]} for i in range(N)]}
    # 6,400 fields that squeeze to one C stem ("a_b": leading and doubled underscores go), and
    # as many enum symbols ("A_B"): each is numbered, a_b_2 ... a_b_6400. Numbering from 2 for
    # each took n^2/2 tries (fuzz_names: 3,600 such names, 21 s in header); the stem remembers.
    stems = [("_" * i, "_" * j) for i in range(80) for j in range(1, 81)]
    stem = {"type": "record", "name": "stem", "namespace": "big",
            "fields": [{"name": f"{a}a{b}b", "type": "int"} for a, b in stems] +
                      [{"name": "e", "type": {"type": "enum", "name": "Stems",
                                              "symbols": [f"{a}A{b}B" for a, b in stems]}}]}
    for name, schema in (("symbols", symbols), ("fields", fields), ("stem", stem)):
        path = os.path.join(tmp, f"{name}.avsc")
        with open(path, "w") as f:
            json.dump(schema, f)
        out = os.path.join(tmp, f"header_{name}")
        # The stem case takes 0.3 s now and minutes when quadratic: a minute is its bound.
        run([avrogen, "header", path, "-o", out], f"header of a record of {N} {name}",
            timeout=60 if name == "stem" else 600)
        if not os.path.exists(os.path.join(out, f"{name}.h")):
            fail(f"header of {N} {name}: no {name}.h")
    print(f"avrogen header: an enum of {N} symbols, a record of {N} fields, {len(stems)} fields "
          f"and symbols on one stem")


def main(avrogen, include, cc, rt_include, rt_lib):
    with tempfile.TemporaryDirectory() as tmp:
        check_wide(avrogen, include, tmp)
        check_enums(avrogen, include, tmp, cc, rt_include, rt_lib)
        check_header(avrogen, tmp)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
