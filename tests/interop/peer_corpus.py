#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The data every peer of the Java and Go interop tests works on (the fixture
interop_peer_corpus; java_peer.py and go_peer.py read it).

usage: peer_corpus.py --work DIR --avrogen AVROGEN --interop-dump DUMP
                      --ocf-tool OCF_TOOL --shapes-peer SHAPES_PEER --source SRC
                      [--testdata DIR]

Writes into DIR, for every case, NAME.avsc (the schema), NAME.frames (the
reference datums: a 4-byte big-endian length, then the datum's bytes),
NAME.jsonl (their Avro JSON encoding, one per line, as avrogen prints it) and
ours-NAME.CODEC.avro (avrogen's container file of those datums in every codec
avrogen has, many blocks each); and cases.tsv listing them. The cases:

  * every case of tests/interop/cases.h (interop_dump: every type, extremes,
    unions, logical types, maps, recursion, unicode, top-level arrays and
    unions), its datums repeated to at least REPEAT_TO;
  * seeded random datums (python3-avro encodes them) for the bench
    workloads' schemas (bench/workloads/*.avsc) and, when the Apache Avro
    test data is there, share/test/schemas/*.avsc (interop.avsc among them).

DIR/gen holds the cases of generated code (generated_cases: the struct
shapes of issue 11 and holders, through tests/codegen/shapes_peer.c), which
the peer tests run through check_generated.

Before anything is written the references are checked: python3-avro decodes
every reference datum and re-encodes it to the same bytes, and `avrogen
tojson` of the datums prints exactly NAME.jsonl (for the random cases that
is Python's JSON of its datums, built by python_peer.avro_json).

Exit status 0 when all is written, 1 otherwise.
"""

import argparse
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "ocf"))
sys.path.insert(0, os.path.join(HERE, ".."))

import notrun  # noqa: E402

import avro.io  # noqa: E402
import avro.schema  # noqa: E402

from interop import read_frames, write_frames  # noqa: E402  (tests/ocf/interop.py)
from python_peer import BranchReader, avro_json, parse_schema  # noqa: E402

OUR_CODECS = ["null", "deflate", "snappy", "zstandard", "xz", "bzip2"]
REPEAT_TO = 60
RANDOM_DATUMS = 300
BLOCK_BYTES = 2000
WORDS = ["", "a", "alpha", "délta", "日本語", "emoji-\U0001f600", "tab\tquote\"", "x" * 70]


class Failure(Exception):
    pass


def random_datum(schema, rng, depth=0):
    """A Python datum of `schema` (a python3-avro schema without logical types)."""
    t = schema.type
    deep = depth >= 4
    if t == "null":
        return None
    if t == "boolean":
        return rng.random() < 0.5
    if t in ("int", "long"):
        bits = 31 if t == "int" else 63
        return rng.choice([0, -1, 1, 63, -64, 2 ** bits - 1, -2 ** bits,
                           rng.randint(-2 ** bits, 2 ** bits - 1), rng.randint(-1000, 1000)])
    if t in ("float", "double"):
        x = rng.choice([0.0, -0.0, float("inf"), float("nan"), 1e-300, rng.uniform(-1e9, 1e9),
                        rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1e9, 1e9)])
        return struct.unpack("<f", struct.pack("<f", x))[0] if t == "float" and abs(x) < 1e38 else x
    if t == "bytes":
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 24)))
    if t == "string":
        return rng.choice(WORDS) + str(rng.randint(0, 99999))
    if t == "fixed":
        return bytes(rng.getrandbits(8) for _ in range(schema.size))
    if t == "enum":
        return rng.choice(schema.symbols)
    if t == "array":
        return [random_datum(schema.items, rng, depth + 1) for _ in range(0 if deep else rng.randint(0, 4))]
    if t == "map":
        n = 0 if deep else rng.randint(0, 4)
        return {rng.choice(WORDS) + str(k): random_datum(schema.values, rng, depth + 1) for k in range(n)}
    if t in ("record", "error"):
        return {f.name: random_datum(f.type, rng, depth + 1) for f in schema.fields}
    if t == "union":
        nulls = [b for b in schema.schemas if b.type == "null"]
        branch = nulls[0] if deep and nulls else rng.choice(schema.schemas)
        return random_datum(branch, rng, depth + 1)
    raise Failure(f"no random datums for type {t}")


def encode(schema, datum):
    buf = io.BytesIO()
    avro.io.DatumWriter(schema).write(datum, avro.io.BinaryEncoder(buf))
    return buf.getvalue()


def python_reads(schema, datum, what):
    """python3-avro's reading of the bytes of one datum, in the Avro JSON
    encoding, unions by the branch the bytes select."""
    stream = io.BytesIO(datum)
    value = BranchReader(schema).read(avro.io.BinaryDecoder(stream))
    if stream.tell() != len(datum):
        raise Failure(f"{what}: python3-avro reads {stream.tell()} of the {len(datum)} bytes of a datum")
    return avro_json(schema, value)


def split_and_check(schema, data, what):
    """The datums of `data` (back to back) as python3-avro delimits them, each
    checked to re-encode to its own bytes; and Python's JSON line of each."""
    reader = avro.io.DatumReader(schema)
    stream = io.BytesIO(data)
    decoder = avro.io.BinaryDecoder(stream)
    frames, lines = [], []
    while stream.tell() < len(data):
        start = stream.tell()
        datum = reader.read(decoder)
        raw = data[start:stream.tell()]
        if encode(schema, datum) != raw:
            raise Failure(f"{what}[{len(frames)}]: python3-avro re-encodes its datum to other bytes")
        frames.append(raw)
        lines.append(json.dumps(avro_json(schema, datum)))
    return frames, lines


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, **kw)
    if p.returncode != 0:
        err = p.stderr if isinstance(p.stderr, str) else p.stderr.decode(errors="replace")
        raise Failure(f"{' '.join(cmd)}: exit {p.returncode}: {err.strip()}")
    return p.stdout


def interop_dump_cases(dump, work):
    """(name, schema text, frames, JSON lines) of every cases.h case, repeated."""
    raw = os.path.join(work, "interop_dump")
    os.makedirs(raw, exist_ok=True)
    run([dump, raw])
    out = []
    for name in sorted(n[:-5] for n in os.listdir(raw) if n.endswith(".avsc")):
        if name.startswith("defaults"):
            continue
        with open(os.path.join(raw, name + ".avsc"), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(raw, name + ".bin"), "rb") as f:
            data = f.read()
        with open(os.path.join(raw, name + ".jsonl"), encoding="utf-8") as f:
            ours = f.read().split("\n")[:-1]
        frames, lines = split_and_check(parse_schema(text), data, name)
        if len(frames) != len(ours):
            raise Failure(f"{name}: python3-avro reads {len(frames)} datums, interop_dump wrote {len(ours)}")
        times = -(-REPEAT_TO // len(frames))
        out.append(("cases." + name, text, frames * times, ours * times, "tests/interop/cases.h"))
    return out


def random_cases(paths):
    out = []
    for label, path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        schema = parse_schema(text)
        rng = random.Random(label)
        data = b"".join(encode(schema, random_datum(schema, rng)) for _ in range(RANDOM_DATUMS))
        frames, lines = split_and_check(schema, data, label)
        out.append((label, text, frames, lines, path))
    return out


# ---- for the peer tests ---------------------------------------------------------

class Checks:
    """Counts what ran, per group, and what failed; a group below its floor fails."""

    def __init__(self, peer):
        self.peer, self.ran, self.failures, self.notes = peer, {}, [], []

    def check(self, group, cond, what):
        self.ran[group] = self.ran.get(group, 0) + 1
        if not cond:
            self.failures.append(f"{group}: {what}")
        return cond

    def note(self, what):
        self.notes.append(what)

    def floor(self, group, n):
        if self.ran.get(group, 0) < n:
            self.failures.append(f"{group}: only {self.ran.get(group, 0)} checks ran, the floor is {n}")

    def finish(self):
        for n in self.notes:
            print("note " + n)
        for f in self.failures:
            print("FAIL " + f, file=sys.stderr)
        print(f"{self.peer}: " + ", ".join(f"{g} {n}" for g, n in sorted(self.ran.items()))
              + f"; {len(self.failures)} failed")
        return 1 if self.failures else 0


def load_cases(corpus):
    """[(name, count)] of the corpus; Failure when the fixture did not write it."""
    path = os.path.join(corpus, "cases.tsv")
    if not os.path.exists(path):
        raise Failure(f"no {path}: the interop_peer_corpus fixture did not run")
    with open(path, encoding="utf-8") as f:
        return [(row[0], int(row[1])) for row in (line.rstrip("\n").split("\t") for line in f)]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def manifest(testdata):
    """[(path, expectation)] of the container files in the Apache Avro test data,
    or [] (with a message) when it is not there."""
    path = os.path.join(testdata or "", "MANIFEST")
    if not testdata or not os.path.exists(path):
        print(f"note: no Apache Avro test data at {testdata}: its files are left out")
        return []
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rel, expect, _ = line.rstrip("\n").split("\t")
            if rel.endswith((".avro", ".avro12")):
                out.append((rel, expect))
    return out


def schema_tests(testdata):
    """[(label, schema text, canonical or None, CRC-64 as a signed int or None)]
    of share/test/data/schema-tests.txt."""
    path = os.path.join(testdata or "", "share", "test", "data", "schema-tests.txt")
    if not testdata or not os.path.exists(path):
        return []
    tests, cur, key, buf = [], None, None, None
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if key is not None:
                if line == key:
                    cur[key.lower()] = "\n".join(buf)
                    key = None
                else:
                    buf.append(line)
                continue
            if line.startswith("// "):
                cur = {"label": "schema-tests.txt " + line[3:].strip()}
                tests.append(cur)
            elif line.startswith("<<"):
                k, _, v = line[2:].partition(" ")
                if v:
                    cur[k.lower()] = v
                else:
                    key, buf = k, []
    return [(t["label"], t["input"], t.get("canonical"),
             int(t["fingerprint"]) if "fingerprint" in t else None)
            for t in tests if "input" in t]


def canonical_inputs(source, corpus, testdata, work):
    """[(label, path)]: every schema whose canonical form and fingerprints the
    peers are held to: tests/data/schema/pass, the corpus, and from the Apache
    Avro test data avro-c's schema_tests/pass, share/test/schemas and the
    inputs of schema-tests.txt (written to files in work)."""
    out = []
    own = os.path.join(source, "tests", "data", "schema", "pass")
    out += [("tests/data/schema/pass/" + n, os.path.join(own, n)) for n in sorted(os.listdir(own))]
    out += [("corpus " + n, os.path.join(corpus, n + ".avsc")) for n, _ in load_cases(corpus)]
    if testdata and os.path.isdir(testdata):
        for d in ("lang/c/tests/schema_tests/pass", "share/test/schemas"):
            full = os.path.join(testdata, d)
            out += [(d + "/" + n, os.path.join(full, n)) for n in sorted(os.listdir(full))]
        os.makedirs(work, exist_ok=True)
        for i, (label, text, _, _) in enumerate(schema_tests(testdata)):
            path = os.path.join(work, f"schema-test-{i:03d}.avsc")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            out.append((label, path))
    return out


def run_batch(cmd, tasks, work, stem):
    """Results (lists of fields) of `cmd TASKS RESULTS` on tasks (lists of
    fields), the files named work/STEM.tasks and work/STEM.results."""
    task_file, result_file = os.path.join(work, stem + ".tasks"), os.path.join(work, stem + ".results")
    with open(task_file, "w", encoding="utf-8") as f:
        f.write("".join("\t".join(t) + "\n" for t in tasks))
    run(cmd + [task_file, result_file])
    results = [line.split("\t") for line in read_lines(result_file)]
    if len(results) != len(tasks):
        raise Failure(f"{os.path.basename(cmd[-1])} answered {len(results)} of {len(tasks)} tasks")
    return results


def refused_inputs(testdata):
    """[(label, path)]: avro-c's schema_tests/fail, which every parser must refuse."""
    d = "lang/c/tests/schema_tests/fail"
    full = os.path.join(testdata or "", d)
    if not testdata or not os.path.isdir(full):
        return []
    return [(d + "/" + n, os.path.join(full, n)) for n in sorted(os.listdir(full))]


def peer_tool(tool, command, tasks, work, stem=""):
    """Results of `peer_tool COMMAND` on tasks."""
    return run_batch([tool, command], tasks, work, f"peer_tool-{command}{stem}")


def parse_args(argv, *required):
    p = argparse.ArgumentParser()
    for opt in required:
        p.add_argument(opt, required=True)
    p.add_argument("--testdata")
    return p.parse_args(argv)


def peer_main(name, argv, test):
    """The command line of java_peer.py and go_peer.py: test(args, checks)."""
    args = parse_args(argv, "--corpus", "--work", "--avrogen", "--peer-tool", "--source",
                      "--shapes-peer")
    test_name = "interop_" + name.replace("_peer", "")
    notrun.require_testdata(test_name, args.testdata)
    if not os.path.isfile(os.path.join(args.corpus, "cases.tsv")):
        notrun.not_run(test_name, f"no corpus in {args.corpus}",
                       "run the interop_peer_corpus test first (ctest runs it as the fixture)")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checks(name)
    try:
        test(args, c)
    except Failure as e:
        c.failures.append(str(e))
    return c.finish()


def schema_nodes(schema):
    """(node, namespace it is in, namespace of its name) for every JSON object
    of a JSON schema; the two namespaces differ only for named types."""
    out, todo = [], [(schema, "")]
    while todo:
        s, ns = todo.pop()
        if isinstance(s, list):
            todo += [(b, ns) for b in s]
            continue
        if not isinstance(s, dict):
            continue
        inner = ns
        if s.get("type") in ("record", "error", "enum", "fixed") and isinstance(s.get("name"), str):
            name = s["name"]
            inner = name.rpartition(".")[0] if "." in name else s.get("namespace", ns) or ""
        out.append((s, ns, inner))
        if isinstance(s.get("type"), (dict, list)):
            todo.append((s["type"], inner))
        for f in s.get("fields", []) if isinstance(s.get("fields"), list) else []:
            todo.append((f.get("type"), inner))
        todo += [(s[k], inner) for k in ("items", "values") if k in s]
    return out


def cli_sample(avrogen, canon, reads, compat):
    """The avrogen CLI on a sample of what peer_tool did, a list of problems:
    `canonical` and `fingerprint` ((path, peer_tool's result) pairs), `cat`
    ((path, JSON lines path, result)), `compat` ((reader, writer, result))."""
    problems = []
    for path, res in canon:
        got = ["ok", run([avrogen, "canonical", path], text=True).rstrip("\n")]
        got += [run([avrogen, "fingerprint", path, "--algo", a], text=True).strip()
                for a in ("crc64", "md5", "sha256")]
        if got != res:
            problems.append(f"avrogen canonical/fingerprint {path}: {got}, peer_tool {res}")
    for path, lines, res in reads:
        p = subprocess.run([avrogen, "cat", path], capture_output=True, text=True)
        if (p.returncode == 0) != (res[0] == "ok") or p.stdout.split("\n")[:-1] != read_lines(lines):
            problems.append(f"avrogen cat {path}: exit {p.returncode}, other lines than peer_tool's")
    for r, w, res in compat:
        p = subprocess.run([avrogen, "compat", "--reader", r, "--writer", w], capture_output=True)
        if p.returncode != (0 if res[:2] == ["ok", "compatible"] else 1):
            problems.append(f"avrogen compat {r} {w}: exit {p.returncode}, peer_tool {res}")
    return problems


# ---- generated code: the struct shapes of issue 11 and holders ---------------

GEN_RANDOM = 20      # seeded random datums of interop.avsc and holders.avsc, beside the fixed ones
# Datums of tests/header/schemas/holders.avsc: arrays of arrays, maps of arrays
# of unions, a union of a map and an array of arrays, arrays of null.
HOLDERS_DATUMS = [
    {"m": [[{"k": [1, -2]}, {}], []], "u": [None, "s", ""], "v": ["a", None, -5],
     "w": {"e": [None, ["x", "y"]], "f": []}, "x": None, "y": [None, None]},
    {"m": [], "u": [], "v": [2 ** 63 - 1], "w": {}, "x": {"a": 1, "b": -2 ** 31}, "y": []},
    {"m": [[{"": []}]], "u": ["日本語"], "v": [None], "w": {"z": [[""]]}, "x": [[1, 2], [], [3]],
     "y": [None]},
]


def generated_cases(tool, source, testdata, work):
    """Write work/gen (gen/cases.tsv: NAME CASE LABEL): for every case,
    NAME.avsc, NAME.frames (what generated code encodes), NAME.jsonl (what each
    of those datums must decode to, in the Avro JSON encoding) and NAME.avro
    (avrogen's container file of the same datums). The cases: the known
    answers of tests/codegen/shapes_cases.c (their structs filled by hand,
    their JSON written by hand); random structs of each of their record types
    (python3-avro's reading of their bytes is the expectation); interop.avsc
    and holders.avsc, whose datums python3-avro encodes (interop.avsc:
    python3-avro's own interop datum, and random ones) and the structs
    `avrogen header` wrote for them decode and encode again: to exactly
    python3-avro's bytes, or Failure."""
    gen = os.path.join(work, "gen")
    shutil.rmtree(gen, ignore_errors=True)
    os.makedirs(gen)
    run([tool, "dump", gen])
    rows = []
    for line in read_lines(os.path.join(gen, "shapes.tsv")):
        name, case, kind, label = line.split("\t")
        base = os.path.join(gen, name)
        if kind == "random":
            with open(base + ".avsc", encoding="utf-8") as f:
                schema = parse_schema(f.read())
            with open(base + ".jsonl", "w", encoding="utf-8") as f:
                f.write("".join(json.dumps(python_reads(schema, d, name)) + "\n"
                                for d in read_frames(base + ".frames")))
        rows.append((name, case, f"shapes_cases.c {case} {label}" if kind == "random" else
                     f"shapes_cases.c {label}"))
    interop = os.path.join(testdata or "", "share", "test", "schemas", "interop.avsc")
    if not testdata or not os.path.exists(interop):
        raise Failure(f"no {interop}: its datums must run through the generated structs")
    from avro.test import gen_interop_data
    headers = [("interop", "Interop", interop, [gen_interop_data.DATUM]),
               ("holders", "Holders", os.path.join(source, "tests", "header", "schemas", "holders.avsc"),
                HOLDERS_DATUMS)]
    recode, files = [], []
    for name, case, path, datums in headers:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        schema = parse_schema(text)
        rng = random.Random(name)
        datums = datums + [random_datum(schema, rng) for _ in range(GEN_RANDOM)]
        base = os.path.join(gen, name)
        with open(base + ".avsc", "w", encoding="utf-8") as f:
            f.write(text)
        # The expected values are python3-avro's reading of its bytes: its
        # writer puts a Python False in a union of boolean and double as 0.0.
        frames, _ = split_and_check(schema, b"".join(encode(schema, d) for d in datums), name)
        write_frames(base + ".python.frames", frames)
        with open(base + ".jsonl", "w", encoding="utf-8") as f:
            f.write("".join(json.dumps(python_reads(schema, d, name)) + "\n" for d in frames))
        recode.append([case, base + ".python.frames", base + ".c"])
        files.append([case, base + ".frames", base + ".avro"])
        rows.append((name, case, os.path.relpath(path, testdata if name == "interop" else source)))
    for (case, frames, out), res in zip(recode, run_batch([tool, "recode"], recode, gen, "recode")):
        if res[0] != "ok" or read_frames(out + ".frames") != read_frames(frames):
            raise Failure(f"{case}: the generated code does not encode python3-avro's datums of "
                          f"{frames} again to the same bytes: {res}")
        os.rename(out + ".frames", frames.replace(".python.frames", ".frames"))
    for (case, _, out), res in zip(files, run_batch([tool, "ocf"], files, gen, "ocf")):
        if res[0] != "ok":
            raise Failure(f"{case}: codegen_shapes_peer cannot write {out}: {res}")
    with open(os.path.join(gen, "cases.tsv"), "w", encoding="utf-8") as f:
        f.write("".join(f"{n}\t{c}\t{label}\n" for n, c, label in rows))
    return rows


def load_generated(corpus):
    """[(name, case, label)] of corpus/gen; Failure when the fixture did not write it."""
    path = os.path.join(corpus, "gen", "cases.tsv")
    if not os.path.exists(path):
        raise Failure(f"no {path}: the interop_peer_corpus fixture did not run")
    return [tuple(line.split("\t")) for line in read_lines(path)]


def full_schema(text):
    """python3-avro's schema of text, logical types kept (their warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return avro.schema.parse(text)


def json_value(line):
    """A JSON line as Python values; the number -0 as the float -0.0, so that
    a double's sign survives a peer that prints it as "-0"."""
    return json.loads(line, parse_int=lambda t: -0.0 if t == "-0" else int(t))


def number(x):
    return float(x) if isinstance(x, (int, float, str)) and not isinstance(x, bool) else None


def json_diff(schema, want, got, quirk=None, path="$"):
    """Where `got` differs from `want`, both the Avro JSON encoding (parsed) of a
    datum of `schema` (full_schema), or None: maps and records whatever their
    order, floats by their 32-bit value, doubles by their 64-bit one (NaN and
    the infinities as the strings the specification's JSON has no number
    for). quirk(what, schema, want, got) says whether a difference is a known
    deviation of the peer's (taken, and counted by the caller): what is
    "union" for the key naming union branch `schema` (want: the expected key),
    "number" for a float or double, "text" for a string, bytes, fixed or
    enum."""
    t = schema.type
    diff = f"{path}: {json.dumps(got)[:200]}, expected {json.dumps(want)[:200]}"
    if t in ("float", "double"):
        if quirk and quirk("number", schema, want, got):
            return None
        a, b = number(want), number(got)
        fmt = "<f" if t == "float" else "<d"
        try:
            return None if struct.pack(fmt, a) == struct.pack(fmt, b) else diff
        except (TypeError, struct.error, OverflowError):
            return diff
    if t in ("int", "long"):
        ok = type(want) is int and type(got) is int and want == got
    elif t == "boolean":
        ok = type(got) is bool and want == got
    elif t == "null":
        ok = want is None and got is None
    elif t in ("string", "bytes", "fixed", "enum"):
        ok = isinstance(got, str) and (want == got or bool(quirk and quirk("text", schema, want, got)))
    elif t == "array":
        if not isinstance(got, list) or len(got) != len(want):
            return diff
        return next((d for i, (w, g) in enumerate(zip(want, got))
                     if (d := json_diff(schema.items, w, g, quirk, f"{path}[{i}]"))), None)
    elif t == "map":
        if not isinstance(got, dict) or set(got) != set(want):
            return diff
        return next((d for k in want if (d := json_diff(schema.values, want[k], got[k], quirk,
                                                         f"{path}[{json.dumps(k)}]"))), None)
    elif t in ("record", "error"):
        if not isinstance(got, dict) or set(got) != {f.name for f in schema.fields}:
            return diff
        return next((d for f in schema.fields
                     if (d := json_diff(f.type, want[f.name], got[f.name], quirk, f"{path}.{f.name}"))),
                    None)
    elif t == "union":
        if want is None or got is None:
            ok = want is None and got is None
        else:
            if not isinstance(got, dict) or len(got) != 1:
                return diff
            (wkey, w), (gkey, g) = next(iter(want.items())), next(iter(got.items()))
            branch = next(b for b in schema.schemas if branch_name(b) == wkey)
            if gkey != wkey and not (quirk and quirk("union", branch, wkey, gkey)):
                return diff
            return json_diff(branch, w, g, quirk, f"{path}<{wkey}>")
    else:
        raise Failure(f"json_diff: no comparison for type {t}")
    return None if ok else diff


def branch_name(schema):
    return schema.fullname if schema.type in ("record", "error", "enum", "fixed") else schema.type


# What a peer's generated_tasks write, per case NAME: (task, stem of its
# outputs STEM.jsonl and STEM.frames, or the container file it writes).
GEN_OUTPUTS = (("json", "{peer}-gen-{name}"), ("dump", "{peer}-genfile-{name}"),
               ("write", "{peer}-gen-{name}.avro"))


def generated_tasks(corpus, work, peer, codec, block):
    """The peer's tasks for every case of corpus/gen, three a case (GEN_OUTPUTS):
    `json` of the generated code's datums, `dump` of its container file,
    `write` of a container file of the datums (CODEC; BLOCK as the peer's
    write takes it)."""
    tasks = []
    for name, _, _ in load_generated(corpus):
        base = os.path.join(corpus, "gen", name)
        out = {task: os.path.join(work, stem.format(peer=peer, name=name)) for task, stem in GEN_OUTPUTS}
        tasks += [["json", base + ".avsc", base + ".frames", out["json"]],
                  ["dump", base + ".avro", out["dump"]],
                  ["write", base + ".avsc", base + ".frames", codec, str(block), out["write"]]]
    return tasks


def json_lines(path):
    return [json_value(line) for line in read_lines(path)] if os.path.exists(path) else []


def check_generated(c, args, peer, results, same_bytes, quirk=None):
    """Hold the generated code of corpus/gen and the peer to each other, given
    the peer's results of generated_tasks (the next ones of the iterator
    `results`):

      * the peer decodes the generated code's datums and container file to
        the expected values (json_diff), and encodes them again to the
        generated code's bytes where same_bytes(the JSON schema) (map entries
        in another order are the same value: Avro leaves their order open);
      * the generated decoder reads what the peer encoded (its datums, its
        container file) into the struct, which encodes again to exactly the
        peer's bytes and holds the expected values.

    quirk goes to json_diff for the values the peer prints."""
    gen = load_generated(args.corpus)
    work = lambda stem: os.path.join(args.work, stem)  # noqa: E731
    outs = [{task: work(stem.format(peer=peer, name=name)) for task, stem in GEN_OUTPUTS}
            for name, _, _ in gen]
    theirs = [next(results) for _ in range(len(GEN_OUTPUTS) * len(gen))]
    # The generated decoder on what the peer wrote (nothing where it failed).
    recode = []
    for (name, case, _), out in zip(gen, outs):
        recode += [[case, out["json"] + ".frames", work(f"ours-{peer}-gen-{name}")],
                   [case, out["dump"] + ".frames", work(f"ours-{peer}-genfile-{name}")],
                   [case, out["write"], work(f"ours-{peer}-write-{name}")]]
    for task, res in zip(recode, theirs):
        task[1] = task[1] if res[0] == "ok" else os.devnull
    ours = run_batch([args.shapes_peer, "recode"], recode, args.work, f"recode-{peer}")

    for i, (name, case, label) in enumerate(gen):
        base = os.path.join(args.corpus, "gen", name)
        with open(base + ".avsc", encoding="utf-8") as f:
            text = f.read()
        schema, exact = full_schema(text), same_bytes(json.loads(text))
        want, frames = json_lines(base + ".jsonl"), read_frames(base + ".frames")
        what = f"{name} ({label})"
        res = theirs[3 * i:3 * i + 3]
        mine = ours[3 * i:3 * i + 3]
        stems = [t[2] for t in recode[3 * i:3 * i + 3]]

        def values(group, path, expect, who):
            got = json_lines(path)
            d = f"{len(got)} datums, expected {len(expect)}" if len(got) != len(expect) else \
                next((d for w, g in zip(expect, got) if (d := json_diff(schema, w, g, quirk))), None)
            c.check(group, d is None, f"{what}: {who}: {d}")

        # The peer reads the generated code's datums (json) and file (dump).
        for k, task in enumerate(("json", "dump")):
            head = ["ok", str(len(frames))] if task == "json" else ["ok", "deflate", str(len(frames))]
            if not c.check(f"{peer} decodes generated", res[k] == head, f"{what}: {peer} {task}: {res[k]}"):
                continue
            stem = outs[i][task]
            values(f"{peer} decodes generated", stem + ".jsonl", want, f"{peer}'s {task}")
            peer_frames = read_frames(stem + ".frames")
            if exact:
                c.check(f"{peer} encodes as generated", peer_frames == frames,
                        f"{what}: {peer} encodes the datums of its {task} to other bytes than generated code")
            c.check("generated decodes peer", mine[k] == ["ok", str(len(peer_frames))]
                    and read_frames(stems[k] + ".frames") == peer_frames,
                    f"{what}: {case}_avro_decode on {peer}'s bytes of its {task}: {mine[k]}, "
                    "and the struct does not encode to exactly those bytes")
            values("generated decodes peer", stems[k] + ".jsonl", want,
                   f"{case}_avro_decode on {peer}'s bytes of its {task}")
        # The generated decoder reads the peer's container file.
        if c.check(f"{peer} writes generated", res[2] == ["ok", str(len(frames))],
                   f"{what}: {peer} write: {res[2]}"):
            c.check("generated reads peer's file", mine[2] == ["ok", str(len(frames))]
                    and (not exact or read_frames(stems[2] + ".frames") == frames),
                    f"{what}: {case} through avrogen_ocf_reader_next_as on {peer}'s file: {mine[2]}")
            values("generated reads peer's file", stems[2] + ".jsonl", want,
                   f"{case} through avrogen_ocf_reader_next_as on {peer}'s file")
        if not exact:
            c.note(f"{what}: {peer}'s bytes compared by value (maps)")

    names = {case for _, case, _ in gen}
    for case in ("Interop", "Holders", "hd_grid", "nic_stats", "mqtt_msg", "mp_object", "packed_status"):
        if case not in names:
            c.failures.append(f"generated code: no case {case} in {args.corpus}/gen")
    for group in (f"{peer} decodes generated", "generated decodes peer"):
        c.floor(group, 4 * len(gen))
    c.floor(f"{peer} writes generated", len(gen))
    c.floor("generated reads peer's file", 2 * len(gen))


def main(argv):
    args = parse_args(argv, "--work", "--avrogen", "--interop-dump", "--ocf-tool", "--source",
                      "--shapes-peer")
    # The corpus holds Apache's schemas and the generated code of interop.avsc,
    # and the peers' floors count on them: without the data it is not built.
    notrun.require_testdata("interop_peer_corpus", args.testdata)
    os.makedirs(args.work, exist_ok=True)
    try:
        cases = interop_dump_cases(args.interop_dump, args.work)
        workloads = os.path.join(args.source, "bench", "workloads")
        schemas = [("bench." + n[:-5], os.path.join(workloads, n))
                   for n in sorted(os.listdir(workloads)) if n.endswith(".avsc")]
        shared = os.path.join(args.testdata or "", "share", "test", "schemas")
        if args.testdata and os.path.isdir(shared):
            schemas += [("avro." + n[:-5], os.path.join(shared, n))
                        for n in sorted(os.listdir(shared)) if n.endswith(".avsc")]
        else:
            print(f"peer_corpus: no Apache Avro test data at {args.testdata}: "
                  "share/test/schemas left out")
        cases += random_cases(schemas)

        rows = []
        for name, text, frames, lines, origin in cases:
            base = os.path.join(args.work, name)
            with open(base + ".avsc", "w", encoding="utf-8") as f:
                f.write(text)
            write_frames(base + ".frames", frames)
            with open(base + ".jsonl", "w", encoding="utf-8") as f:
                f.write("".join(line + "\n" for line in lines))
            bin_path = base + ".bin"
            with open(bin_path, "wb") as f:
                f.write(b"".join(frames))
            printed = run([args.avrogen, "tojson", "--schema", base + ".avsc", bin_path], text=True)
            if printed.split("\n")[:-1] != lines:
                raise Failure(f"{name}: avrogen tojson does not print the reference JSON lines")
            for codec in OUR_CODECS:
                out = os.path.join(args.work, f"ours-{name}.{codec}.avro")
                run([args.ocf_tool, "write", base + ".avsc", codec, str(BLOCK_BYTES), base + ".frames", out])
                got = os.path.join(args.work, "check.frames")
                run([args.ocf_tool, "read", out, got])
                if read_frames(got) != frames:
                    raise Failure(f"{out}: avrogen does not read back its own datums")
            rows.append(f"{name}\t{len(frames)}\t{origin}\n")
        with open(os.path.join(args.work, "cases.tsv"), "w", encoding="utf-8") as f:
            f.write("".join(rows))
        gen = generated_cases(args.shapes_peer, args.source, args.testdata, args.work)
    except Failure as e:
        print(f"FAIL {e}", file=sys.stderr)
        return 1
    print(f"peer_corpus: {len(rows)} cases, {sum(len(c[2]) for c in cases)} datums, "
          f"{len(rows) * len(OUR_CODECS)} container files written by avrogen; "
          f"{len(gen)} cases of generated code")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
