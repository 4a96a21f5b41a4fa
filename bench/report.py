#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn a bench run into markdown: bench/run calls this.

    report.py DIR [DIR...]

Each DIR is one build's results: bench.json (Google Benchmark's
--benchmark_out, aggregates; the medians are used), callgrind.tsv (one
`row<TAB>instructions<TAB>records` line per row, may be empty) and
functions.tsv (`row<TAB>group<TAB>instructions<TAB>records`: the bulk varint
codecs, the UTF-8 validators and the size functions, bench/functions.awk).
For one DIR it prints, per workload, the table of rows and the speed-ups of
generated code; the costs of sizes, of arrays of longs per value and of UTF-8
validation per byte; the schema-evolution rows (evolve, evolve_c) with their
ratios to the direct generated read and to avro-c; then the targets with what
was measured. For several, first the issue-13 targets of every build side by
side, then each build's report.
"""
import json
import sys

ROWS = [
    ("avroc_best", "avro-c, best"),
    ("avroc_struct", "avro-c, struct path"),
    ("generic", "generic runtime"),
    ("generic_zc", "generic runtime, zero-copy"),
    ("gen", "generated"),
    ("gen_view", "generated, views"),
    ("gen_sized", "generated, size then encode"),
    ("gen_view_sized", "generated, views, size then encode"),
    ("sol", "speed of light"),
]
WORKLOADS = ["order", "strings", "strings_utf8", "unions", "arrays", "text"]
# Items of the arrays workload's long array, and bytes of the text workload's string.
ARRAY_LONGS = 4096
TEXT_BYTES = 4096
DIRS = ["write", "read"]
# Schema evolution (wl_evolve.c): the rows of its two workloads, in order.
EVOLVE_WORKLOADS = [
    ("evolve", "writer order_v0: int id, no paid (default), two extra fields"),
    ("evolve_c", "writer order_v0_paid: the same with paid, the pair avro-c can resolve"),
]
EVOLVE_ROWS = [
    ("write", "avroc", "avro-c writes the writer's schema"),
    ("write", "generic", "generic runtime writes the writer's schema"),
    ("read", "gen_plan", "generated, type plan"),
    ("read", "gen_aot", "generated, ahead-of-time decoder"),
    ("read", "gen_decode_as", "generated, avrogen_decode_as (cache)"),
    ("read", "generic_resolved", "generic resolver"),
    ("read", "avroc_resolved", "avro-c resolved reader"),
]


def load(d):
    json_path, tsv_path, fn_path = (f"{d}/{n}" for n in ("bench.json", "callgrind.tsv",
                                                          "functions.tsv"))
    with open(json_path) as f:
        doc = json.load(f)
    runs = {}
    reps = 1
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        reps = b.get("repetitions", reps)
        rec = b["records"]
        runs[b["run_name"]] = {
            "ns": b["cpu_time"] / rec,
            "mbs": b["bytes_per_second"] / 1e6,
            "bytes": b["bytes_per_record"],
            "allocs": b["allocs_per_record"],
        }
    with open(tsv_path) as f:
        for line in f:
            name, ir, records = line.split()
            runs.setdefault(name, {})["ir"] = int(ir) / int(records)
    funcs = {}
    try:
        with open(fn_path) as f:
            for line in f:
                name, group, ir, records = line.split()
                funcs[(name, group)] = int(ir) / int(records)
    except FileNotFoundError:
        pass
    return doc["context"], runs, reps, funcs


def fmt(v, digits=0):
    if v is None:
        return "–"
    return f"{v:,.{digits}f}"


def ratio(num, den):
    if num is None or den is None or den == 0:
        return None
    return num / den


def fmt_ratio(r):
    return "–" if r is None else f"{r:.2f}×"


def evolution(p, get):
    """The "Schema evolution" section: the evolve rows, then the ratios."""
    if not any(get(wl, d, k, "ns") is not None or get(wl, d, k, "ir") is not None
               for wl, _ in EVOLVE_WORKLOADS for d, k, _ in EVOLVE_ROWS):
        return
    direct = {k: get("order", "read", "gen", k) for k in ("ns", "ir", "bytes")}
    p("## Schema evolution\n")
    p("The order workload's records written with an earlier Order schema "
      "(bench/workloads/earlier) and read as today's `order_t`. The direct read, "
      "`order/read/gen`, decodes the order workload's own encoding of the same records "
      f"({fmt(direct['bytes'], 1)} bytes per record; its ids are longs of 3 to 6 bytes), "
      "so the ratios to it compare per-record costs of different bytes.\n")
    p("| workload | row | bytes | ns | MB/s | Ir | allocs |")
    p("|---|---|---:|---:|---:|---:|---:|")
    p(f"| order | generated, direct read (baseline) | {fmt(direct['bytes'], 1)} | "
      f"{fmt(direct['ns'])} | {fmt(get('order', 'read', 'gen', 'mbs'))} | "
      f"{fmt(direct['ir'])} | {fmt(get('order', 'read', 'gen', 'allocs'), 2)} |")
    for wl, _ in EVOLVE_WORKLOADS:
        for d, k, label in EVOLVE_ROWS:
            if get(wl, d, k, "ns") is None and get(wl, d, k, "ir") is None:
                continue
            p(f"| {wl} | {d}: {label} | {fmt(get(wl, d, k, 'bytes'), 1)} | "
              f"{fmt(get(wl, d, k, 'ns'))} | {fmt(get(wl, d, k, 'mbs'))} | "
              f"{fmt(get(wl, d, k, 'ir'))} | {fmt(get(wl, d, k, 'allocs'), 2)} |")
    p("")
    for wl, what in EVOLVE_WORKLOADS:
        p(f"- {wl}: {what}")
    p("")
    p("| ratio | workload | ns | Ir | target |")
    p("|---|---|---:|---:|---|")

    def line(label, wl, num, den, target):
        cells = [fmt_ratio(ratio(get(*num, k), get(*den, k))) for k in ("ns", "ir")]
        if any(c != "–" for c in cells):
            p(f"| {label} | {wl} | {cells[0]} | {cells[1]} | {target} |")

    for wl, _ in EVOLVE_WORKLOADS:
        d = ("order", "read", "gen")
        line("plan / direct", wl, (wl, "read", "gen_plan"), d, "≤ 1.5×")
        line("aot / direct", wl, (wl, "read", "gen_aot"), d, "≤ 1.1×")
        line("decode_as / aot", wl, (wl, "read", "gen_decode_as"), (wl, "read", "gen_aot"), "")
        line("generic resolver / plan", wl, (wl, "read", "generic_resolved"),
             (wl, "read", "gen_plan"), "")
    for avroc in ("avroc_resolved",):
        for row in ("gen_plan", "gen_aot"):
            line(f"{avroc} / {row.replace('gen_', '')}", "evolve_c",
                 ("evolve_c", "read", avroc), ("evolve_c", "read", row), "≥ 5×")
    p("")


def build_name(ctx):
    comp = ctx.get("bench_compiler", "?").split()[0].replace("GNU", "gcc").replace("Clang", "clang")
    flags = ctx.get("bench_c_flags", "")
    opt = next((f for f in flags.split() if f.startswith("-O")), "-O?")
    return f"{comp} {opt}"


# The shapes whose size functions are measured: (workload, encode row, sized row).
SIZED = [(wl, row, f"{row}_sized") for wl in WORKLOADS for row in ("gen", "gen_view")]


def issue13(get, fn):
    """The measures of issue 13, as (target, workload, what, measured, limit, met)."""
    rows = []

    def add(target, wl, what, value, text, ok):
        if value is not None:
            rows.append((target, wl, what, text, ok))

    for d in DIRS:
        r = ratio(get("order", d, "gen", "ir"), get("order", d, "sol", "ir"))
        add("generated ≤ 1.0× speed of light (Ir)", "order", d, r, fmt_ratio(r),
            r is not None and r <= 1.0)
        r = ratio(get("order", d, "gen_view", "ir"), get("order", d, "sol", "ir"))
        add("generated, views ≤ 1.0× speed of light (Ir)", "order", d, r, fmt_ratio(r),
            r is not None and r <= 1.0)
    for wl, enc, sized in SIZED:
        size = fn(f"{wl}/write/{sized}", "size")
        e = get(wl, "write", enc, "ir")
        r = ratio(size, e)
        add("size ≤ 25% of encode (Ir)", wl, "views" if enc == "gen_view" else "structs", r,
            "–" if r is None else f"{100 * r:.0f}% ({fmt(size)} of {fmt(e)})",
            r is not None and r <= 0.25)
    per = fn("arrays/read/gen", "get_longs")
    per = per / ARRAY_LONGS if per is not None else None
    loop = fn("arrays/read/sol", "sol_get_longs")
    loop = loop / ARRAY_LONGS if loop is not None else None
    add("array of longs ≤ 25 Ir per value", "arrays", "read", per,
        "–" if per is None else f"{per:.1f}", per is not None and per <= 25)
    r = ratio(loop, per)
    add("array of longs ≥ 2× fewer Ir than the byte loop", "arrays", "read", r,
        "–" if r is None else f"{r:.2f}× ({per:.1f} vs {loop:.1f})", r is not None and r >= 2)
    put = fn("arrays/write/gen", "put_longs")
    sol_put = fn("arrays/write/sol", "sol_put_longs")
    r = ratio(sol_put, put)
    add("array of longs encode vs the byte loop (Ir per value)", "arrays", "write", r,
        "–" if r is None else f"{r:.2f}× ({put / ARRAY_LONGS:.1f} vs {sol_put / ARRAY_LONGS:.1f})",
        r is not None and r >= 1.5)
    r = ratio(get("arrays", "write", "sol", "ns"), get("arrays", "write", "gen", "ns"))
    add("arrays encode vs the byte loop (ns)", "arrays", "write", r, fmt_ratio(r),
        r is not None and r >= 1.5)
    for row in ("gen", "gen_view", "generic", "generic_zc"):
        ir = get("text", "read", row, "ir")
        per = ir / TEXT_BYTES if ir is not None else None
        add("UTF-8 read ≤ 3 Ir per byte (30% non-ASCII, the whole read)", "text", row, per,
            "–" if per is None else f"{per:.2f}", per is not None and per <= 3)
    r = ratio(get("strings", "write", "generic", "ir"), get("strings", "write", "gen", "ir"))
    rn = ratio(get("strings", "write", "generic", "ns"), get("strings", "write", "gen", "ns"))
    add("generated char * ≥ 2× generic", "strings", "write", r,
        f"{fmt_ratio(rn)} ns, {fmt_ratio(r)} Ir", (rn or 0) >= 2 and (r or 0) >= 2)
    return rows


def details(p, get, fn):
    """Sizes, arrays of longs and UTF-8: what the issue-13 targets are made of."""
    p("## Sizes, arrays of longs, UTF-8\n")
    p("Size: the instructions of `<p>_avro_size` (with what it calls: strlen for `char *`) "
      "per record, measured inside the `*_sized` rows, against the plain encode row.\n")
    p("| workload | shape | encode Ir | size Ir | size / encode | size then encode Ir |")
    p("|---|---|---:|---:|---:|---:|")
    for wl, enc, sized in SIZED:
        size = fn(f"{wl}/write/{sized}", "size")
        if size is None:
            continue
        e = get(wl, "write", enc, "ir")
        r = ratio(size, e)
        p(f"| {wl} | {'views' if enc == 'gen_view' else 'structs'} | {fmt(e)} | {fmt(size)} | "
          f"{'–' if r is None else f'{100 * r:.0f}%'} | {fmt(get(wl, 'write', sized, 'ir'))} |")
    p("")
    p(f"Arrays of longs: the instructions of the bulk codec (varint.c) and of the byte loop "
      f"(the arrays workload's sol rows) per value, {ARRAY_LONGS} longs a record.\n")
    p("| direction | generated Ir/value | byte loop Ir/value | generated row ns | byte loop row ns |")
    p("|---|---:|---:|---:|---:|")
    for d, mine, loop in (("read", "get_longs", "sol_get_longs"),
                          ("write", "put_longs", "sol_put_longs")):
        a, b = fn(f"arrays/{d}/gen", mine), fn(f"arrays/{d}/sol", loop)
        if a is None and b is None:
            continue
        p(f"| {d} | {fmt(a / ARRAY_LONGS if a else None, 1)} | "
          f"{fmt(b / ARRAY_LONGS if b else None, 1)} | {fmt(get('arrays', d, 'gen', 'ns'))} | "
          f"{fmt(get('arrays', d, 'sol', 'ns'))} |")
    p("")
    p(f"UTF-8: the text workload's read rows per byte of its {TEXT_BYTES}-byte string (about "
      "30% of the characters not ASCII); the validators' own instructions (utf8.c) per byte, "
      "and per record in the strings workloads.\n")
    p("| workload | row | row Ir/byte | validator Ir/byte | validator Ir/record |")
    p("|---|---|---:|---:|---:|")
    for wl in ("text", "strings", "strings_utf8"):
        for row in ("gen", "gen_view", "generic", "generic_zc"):
            ir, v = get(wl, "read", row, "ir"), fn(f"{wl}/read/{row}", "utf8")
            if ir is None:
                continue
            per = (lambda x: fmt(x / TEXT_BYTES, 2) if x is not None else "–") \
                if wl == "text" else (lambda x: "–")
            p(f"| {wl} | {row} | {per(ir)} | {per(v)} | {fmt(v)} |")
    p("")


def summary(dirs):
    """The issue-13 targets of several builds side by side."""
    out = []
    p = out.append
    builds = []
    for d in dirs:
        ctx, runs, reps, funcs = load(d)
        get = (lambda runs: lambda wl, dr, row, k: runs.get(f"{wl}/{dr}/{row}", {}).get(k))(runs)
        fn = (lambda funcs: lambda row, g: funcs.get((row, g)))(funcs)
        builds.append((build_name(ctx), issue13(get, fn)))
    p("## Issue 13 targets, every build\n")
    p("| target | workload | what | " + " | ".join(b for b, _ in builds) + " |")
    p("|---|---|---|" + "---:|" * len(builds))
    keys = []
    for _, rows in builds:
        for t, wl, what, _, _ in rows:
            if (t, wl, what) not in keys:
                keys.append((t, wl, what))
    for key in keys:
        cells = []
        for _, rows in builds:
            m = next(((text, ok) for t, wl, what, text, ok in rows if (t, wl, what) == key), None)
            cells.append("–" if m is None else m[0] + ("" if m[1] else " **no**"))
        p(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(cells) + " |")
    p("")
    return "\n".join(out)


def main():
    if len(sys.argv) > 2:
        print(summary(sys.argv[1:]))
    for d in sys.argv[1:]:
        if len(sys.argv) > 2:
            print(f"# Build {build_name(load(d)[0])}\n")
        print(report(d))


def report(d):
    ctx, runs, reps, funcs = load(d)
    get = lambda wl, d, row, k: runs.get(f"{wl}/{d}/{row}", {}).get(k)
    fn = lambda row, g: funcs.get((row, g))
    out = []
    p = out.append

    p("## Machine and build\n")
    p(f"- avrogen {ctx.get('bench_avrogen', '?')}, {ctx.get('bench_compiler', '?')}, "
      f"{ctx.get('bench_build_type', '?')} (`{ctx.get('bench_c_flags', '').strip()}`)")
    p(f"- CPU: {ctx.get('bench_cpu', '?')}, {ctx.get('num_cpus', '?')} cores at "
      f"{ctx.get('mhz_per_cpu', '?')} MHz; load average at the start "
      f"{', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}")
    p(f"- avrogen runtime loaded from {ctx.get('bench_runtime', '?')}")
    p(f"- avro-c {ctx.get('bench_avro_c', '?')}")
    p(f"- {reps} repetitions per row, randomly interleaved; medians. ns = CPU time per record, "
      "Ir = instructions per record under callgrind (exact, immune to the noise), "
      "allocs = heap allocations per record in steady state.\n")

    for wl in WORKLOADS:
        present = [(k, label) for k, label in ROWS
                   if any(f"{wl}/{d}/{k}" in runs for d in DIRS)]
        if not present:
            continue
        nbytes = next((get(wl, d, k, "bytes") for k, _ in present for d in DIRS
                       if get(wl, d, k, "bytes") is not None), None)
        p(f"## {wl} ({fmt(nbytes, 1)} bytes per record)\n")
        p("| row | write ns | write MB/s | write Ir | write allocs "
          "| read ns | read MB/s | read Ir | read allocs |")
        p("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for k, label in present:
            cells = []
            for d in DIRS:
                cells += [fmt(get(wl, d, k, "ns")), fmt(get(wl, d, k, "mbs")),
                          fmt(get(wl, d, k, "ir")), fmt(get(wl, d, k, "allocs"), 2)]
            p(f"| {label} | " + " | ".join(cells) + " |")
        p("")
        p("Speed-up of generated code (other row's cost / generated's; time, then instructions):\n")
        p("| generated vs | write (ns) | write (Ir) | read (ns) | read (Ir) |")
        p("|---|---:|---:|---:|---:|")
        pairs = [("avroc_best", "gen", "avro-c, best"),
                 ("avroc_struct", "gen", "avro-c, struct path"),
                 ("generic", "gen", "generic runtime"),
                 ("generic_zc", "gen_view", "generic zero-copy (views vs views)"),
                 ("sol", "gen", "speed of light")]
        for other, mine, label in pairs:
            cells = []
            for d in DIRS:
                for k in ("ns", "ir"):
                    cells.append(fmt_ratio(ratio(get(wl, d, other, k), get(wl, d, mine, k))))
            if any(c != "–" for c in cells):
                p(f"| {label} | " + " | ".join(cells) + " |")
        p("")

    details(p, get, fn)
    evolution(p, get)

    p("## Targets\n")
    p("| target | workload | direction | measured (ns) | measured (Ir) | met |")
    p("|---|---|---|---:|---:|---|")

    def target(name, wl, d, r_ns, r_ir, ok):
        if r_ns is None and r_ir is None:
            return
        verdict = "–" if r_ns is None and r_ir is None else ("yes" if ok else "**no**")
        p(f"| {name} | {wl} | {d} | {fmt_ratio(r_ns)} | {fmt_ratio(r_ir)} | {verdict} |")

    for d in DIRS:
        r_ns = ratio(get("order", d, "gen", "ns"), get("order", d, "sol", "ns"))
        r_ir = ratio(get("order", d, "gen", "ir"), get("order", d, "sol", "ir"))
        target("generated ≤ 1.15× speed of light (Ir)", "order", d, r_ns, r_ir,
               r_ir is not None and r_ir <= 1.15)
    for wl in WORKLOADS:
        for d in DIRS:
            r_ns = ratio(get(wl, d, "generic", "ns"), get(wl, d, "gen", "ns"))
            r_ir = ratio(get(wl, d, "generic", "ir"), get(wl, d, "gen", "ir"))
            target("generated ≥ 2× generic", wl, d, r_ns, r_ir,
                   (r_ns or 0) >= 2 and (r_ir is None or r_ir >= 2))
    # Schema evolution: resolved reads against the direct generated read (of
    # the order workload's own bytes) and against avro-c (of the same bytes).
    direct = lambda k: get("order", "read", "gen", k)
    for wl in ("evolve", "evolve_c"):
        for row, limit in (("gen_plan", 1.5), ("gen_aot", 1.1)):
            r_ns = ratio(get(wl, "read", row, "ns"), direct("ns"))
            r_ir = ratio(get(wl, "read", row, "ir"), direct("ir"))
            target(f"{row} ≤ {limit}× order/read/gen", wl, "read", r_ns, r_ir,
                   r_ns is not None and r_ns <= limit and (r_ir is None or r_ir <= limit))
    for avroc in ("avroc_resolved",):
        for row in ("gen_plan", "gen_aot"):
            r_ns = ratio(get("evolve_c", "read", avroc, "ns"), get("evolve_c", "read", row, "ns"))
            r_ir = ratio(get("evolve_c", "read", avroc, "ir"), get("evolve_c", "read", row, "ir"))
            target(f"{row} ≥ 5× {avroc}", "evolve_c", "read", r_ns, r_ir,
                   (r_ns or 0) >= 5 and (r_ir is None or r_ir >= 5))
    for wl in WORKLOADS:
        for d in DIRS:
            for other in ("avroc_best", "avroc_struct"):
                r_ns = ratio(get(wl, d, other, "ns"), get(wl, d, "generic", "ns"))
                r_ir = ratio(get(wl, d, other, "ir"), get(wl, d, "generic", "ir"))
                target(f"generic ≥ 2× {other.replace('_', ' ').replace('avroc', 'avro-c')}",
                       wl, d, r_ns, r_ir, (r_ns or 0) >= 2 and (r_ir is None or r_ir >= 2))
    p("")
    p("| allocations per record | workload | direction | generated | generated, views | met |")
    p("|---|---|---|---:|---:|---|")
    for wl in WORKLOADS:
        for d in DIRS:
            a = get(wl, d, "gen", "allocs")
            v = get(wl, d, "gen_view", "allocs")
            if a is None and v is None:
                continue
            ok = (a or 0) == 0 and (v or 0) == 0
            what = "encode" if d == "write" else "decode, reused arena"
            p(f"| generated {what}: 0 | {wl} | {d} | {fmt(a, 2)} | {fmt(v, 2)} | "
              f"{'yes' if ok else '**no**'} |")
    p("")
    p("| issue 13 target | workload | what | measured | met |")
    p("|---|---|---|---:|---|")
    for t, wl, what, text, ok in issue13(get, fn):
        p(f"| {t} | {wl} | {what} | {text} | {'yes' if ok else '**no**'} |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
