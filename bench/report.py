#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn a bench run into markdown: bench/run calls this.

    report.py BENCH_JSON CALLGRIND_TSV

BENCH_JSON is Google Benchmark's --benchmark_out (aggregates; the medians are
used), CALLGRIND_TSV has one `row<TAB>instructions<TAB>records` line per row
(may be empty). Prints, per workload, the table of rows and the speed-ups of
generated code, the schema-evolution rows (evolve, evolve_c) with their ratios
to the direct generated read and to avro-c, then the targets with what was
measured.
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
    ("sol", "speed of light"),
]
WORKLOADS = ["order", "strings", "unions", "arrays"]
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


def load(json_path, tsv_path):
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
    return doc["context"], runs, reps


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


def main():
    ctx, runs, reps = load(sys.argv[1], sys.argv[2])
    get = lambda wl, d, row, k: runs.get(f"{wl}/{d}/{row}", {}).get(k)
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
    print("\n".join(out))


if __name__ == "__main__":
    main()
