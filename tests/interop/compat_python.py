#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check `avrogen compat` against python3-avro 1.11.1's compatibility checker.

usage: compat_python.py AVROGEN SCHEMA_PASS_DIR

For every (reader, writer) pair built below, and for pairs of the schemas in
SCHEMA_PASS_DIR (tests/data/schema/pass), Python's
ReaderWriterCompatibilityChecker().get_compatibility(reader, writer) and
`avrogen compat --reader R --writer W` must agree on

  * the verdict: avrogen exits 0 printing exactly "compatible" when Python
    says compatible, and otherwise exits 1 with one "PATH: KIND: MESSAGE"
    line per incompatibility and one "avrogen: error:" line on stderr;
  * for an incompatible pair, the set of incompatibility kinds (Python's list
    repeats a named pair's kinds each time the pair is met again; avrogen
    reports a pair once, where it first meets it);
  * for a pair with no union on either side, the set of reader paths, against
    Python's locations without "/" (quirk 5).

A sample of the pairs also runs with --mode forward (W reading R's data, each
line prefixed "forward: ") and --mode full (both directions, lines prefixed
"backward: "/"forward: "), and the exit statuses of bad usage (2), unreadable
or invalid schemas and over-deep schemas (1) are checked.

Python's checker deviates from the specification in a few places; the
comparison leaves out every pair that could hit one (python_deviates() finds
them, conservatively, and they are counted as skipped), and QUIRKS shows, one
pair each, that Python really deviates there while avrogen follows the spec:

  1. names: Python compares `reader.name == writer.name`, the "name" attribute
     as written, so "a.B" differs from B in namespace a or b; the
     specification compares unqualified names ("both schemas are records with
     the same (unqualified) name"), so all three match.
  2. aliases: Python looks the writer's fullname up among the reader's aliases
     as written; avrogen matches an alias by its unqualified part, as it
     matches names, so alias "x.Old" (or "Old") names the writer's y.Old.
  3. a reader field without a default, of an enum type that has a default,
     missing from the writer: Python checks that enum against the writer's
     whole record (type_mismatch); it is reader_field_missing_default_value.
  4. a reader union with two named branches that both match a writer type
     (through an alias): Python accepts when any branch can read it; the
     specification resolves against the first that matches.
  5. locations: merging a compatible result into an incompatible one adds "/"
     to Python's locations, and the checks below a union restart at "/"
     (get_compatibility is called there without the location), so locations
     are compared only for union-free pairs, and without "/".
  6. decimals: logical types are removed before Python parses (below), and
     its checker would ignore them anyway; the specification matches two
     decimals only when their scales and precisions match (type_mismatch).
  7. Python's checker raises on records written "type": "error", which its
     parser takes (skipped, not in QUIRKS: there is no verdict to compare).

Logical types are removed before Python parses (python_peer.parse_schema);
both checkers ignore them anyway.

Prints "N passed, M failed, K skipped"; exit status 0 when all pass, 1
otherwise, 2 on bad usage.
"""

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import avro.schema  # noqa: E402
from avro.compatibility import (  # noqa: E402
    ReaderWriterCompatibilityChecker,
    SchemaCompatibilityType,
)

from python_peer import parse_schema  # noqa: E402

KINDS = {"name_mismatch", "fixed_size_mismatch", "missing_enum_symbols",
         "reader_field_missing_default_value", "type_mismatch", "missing_union_branch"}
PRIMITIVES = ["null", "boolean", "int", "long", "float", "double", "bytes", "string"]


# ---- schemas -----------------------------------------------------------------

def rec(name, *fields, **extra):
    return dict({"type": "record", "name": name, "fields": list(fields)}, **extra)


def field(name, type_, **extra):
    return dict({"name": name, "type": type_}, **extra)


def enum(name, symbols, **extra):
    return dict({"type": "enum", "name": name, "symbols": symbols}, **extra)


def fixed(name, size, **extra):
    return dict({"type": "fixed", "name": name, "size": size}, **extra)


def array(items):
    return {"type": "array", "items": items}


def map_(values):
    return {"type": "map", "values": values}


INNER = rec("Inner", field("x", "int"))
INNER_Y = rec("Inner", field("x", "int"), field("y", "int"))
RECORDS = {
    "base": rec("R", field("a", "int"), field("b", "string")),
    "add-default": rec("R", field("a", "int"), field("b", "string"), field("c", "long", default=0)),
    "add-no-default": rec("R", field("a", "int"), field("b", "string"), field("c", "long")),
    "drop-b": rec("R", field("a", "int")),
    "a-long": rec("R", field("a", "long"), field("b", "string")),
    "a-string": rec("R", field("a", "string"), field("b", "string")),
    "b-renamed-alias": rec("R", field("a", "int"), field("bb", "string", aliases=["b"])),
    "b-renamed": rec("R", field("a", "int"), field("bb", "string")),
    "named-S": rec("S", field("a", "int"), field("b", "string")),
    "named-S-alias-R": rec("S", field("a", "int"), field("b", "string"), aliases=["R"]),
    "b-nullable": rec("R", field("a", "int"), field("b", ["null", "string"], default=None)),
    "b-bytes": rec("R", field("a", "int"), field("b", "bytes")),
    "reordered": rec("R", field("b", "string"), field("a", "int")),
    "inner": rec("R", field("a", "int"), field("b", "string"),
                 field("c", INNER, default={"x": 1})),
    "inner-y": rec("R", field("a", "int"), field("b", "string"),
                   field("c", INNER_Y, default={"x": 1, "y": 2})),
}

ENUMS = {
    "abc": enum("E", ["A", "B", "C"]),
    "ab": enum("E", ["A", "B"]),
    "abcd": enum("E", ["A", "B", "C", "D"]),
    "ab-default": enum("E", ["A", "B"], default="A"),
    "cba": enum("E", ["C", "B", "A"]),
    "F-abc": enum("F", ["A", "B", "C"]),
    "F-alias-E": enum("F", ["A", "B"], aliases=["E"]),
    "empty": enum("E", []),
}

FIXEDS = {
    "F4": fixed("F", 4),
    "F8": fixed("F", 8),
    "G4": fixed("G", 4),
    "G4-alias-F": fixed("G", 4, aliases=["F"]),
    "ns.F4": fixed("F", 4, namespace="ns"),
}

UNIONS = {
    "null|int": ["null", "int"],
    "null|long": ["null", "long"],
    "int|string": ["int", "string"],
    "null|string|long": ["null", "string", "long"],
    "float|double": ["float", "double"],
    "bytes": ["bytes"],
    "null|R": ["null", RECORDS["base"]],
    "null|R+c": ["null", RECORDS["add-no-default"]],
    "E|null": [ENUMS["abc"], "null"],
    "null|array<long>": ["null", array("long")],
    "empty": [],
}
PLAIN = {"null": "null", "int": "int", "long": "long", "string": "string",
         "R": RECORDS["base"], "E-ab": ENUMS["ab"], "array<int>": array("int")}

LISTS = {
    "list": rec("L", field("v", "int"), field("next", ["null", "L"])),
    "list-long-tag": rec("L", field("v", "long"), field("next", ["null", "L"]),
                         field("tag", "string", default="")),
    "list-w": rec("L", field("v", "int"), field("w", "int"), field("next", ["null", "L"])),
    "list-string": rec("L", field("v", "string"), field("next", ["null", "L"])),
    "tree": rec("L", field("v", "int"), field("kids", array("L")), field("attrs", map_("L"))),
    "tree-n": rec("L", field("v", "int"), field("kids", array("L")), field("attrs", map_("L")),
                  field("n", "int")),
    "mutual": rec("A", field("b", ["null", rec("B", field("a", ["null", "A"]), field("n", "int"))])),
    "mutual-bool": rec("A", field("b", ["null", rec("B", field("a", ["null", "A"]),
                                                       field("n", "boolean"))])),
    "mutual-plain": rec("A", field("b", rec("B", field("a", ["null", "A"]), field("n", "long")))),
}


def pairs_of(table, names, prefix):
    return [(f"{prefix} {rn} <- {wn}", table[rn], table[wn]) for rn in names for wn in names]


def both_ways(table, a, b, prefix):
    return [(f"{prefix} {a} <- {b}", table[a], table[b]), (f"{prefix} {b} <- {a}", table[b], table[a])]


def generated_pairs():
    out = [(f"{r} <- {w}", r, w) for r in PRIMITIVES for w in PRIMITIVES]
    small = ["int", "long", "string"]
    out += [(f"array<{r}> <- array<{w}>", array(r), array(w)) for r in small for w in small]
    out += [("map<bytes> <- map<string>", map_("bytes"), map_("string")),
            ("map<null> <- map<int>", map_("null"), map_("int")),
            ("array <- map", array("int"), map_("int")), ("map <- array", map_("int"), array("int")),
            ("map<array<long>> <- map<array<int>>", map_(array("long")), map_(array("int"))),
            ("array<map<int>> <- array<map<string>>", array(map_("int")), array(map_("string"))),
            ("array<array<null|long>> <- array<array<int|null|string>>",
             array(array(["null", "long"])), array(array(["int", "null", "string"])))]
    out += pairs_of(RECORDS, ["base", "add-default", "add-no-default", "drop-b", "a-long",
                              "b-renamed-alias", "named-S", "named-S-alias-R"], "record")
    for other in ("a-string", "b-nullable", "b-renamed", "b-bytes", "reordered"):
        out += both_ways(RECORDS, "base", other, "record")
    out += both_ways(RECORDS, "inner", "inner-y", "record")
    out += pairs_of(ENUMS, ["abc", "ab", "abcd", "ab-default", "F-abc", "F-alias-E"], "enum")
    out += both_ways(ENUMS, "abc", "cba", "enum") + both_ways(ENUMS, "ab", "empty", "enum")
    out += pairs_of(FIXEDS, ["F4", "F8", "G4", "G4-alias-F"], "fixed")
    some = ["null|int", "int|string", "null|string|long", "null|R", "null|R+c", "E|null"]
    out += pairs_of(UNIONS, some, "union")
    out += both_ways(UNIONS, "null|int", "null|long", "union")
    for un in some:
        for pn in ("null", "int", "R"):
            out.append((f"union {un} <- {pn}", UNIONS[un], PLAIN[pn]))
            out.append((f"{pn} <- union {un}", PLAIN[pn], UNIONS[un]))
    for un, pn in (("null|array<long>", "array<int>"), ("empty", "null"), ("float|double", "int"),
                   ("bytes", "string"), ("null|string|long", "string")):
        out.append((f"union {un} <- {pn}", UNIONS[un], PLAIN[pn]))
        out.append((f"{pn} <- union {un}", PLAIN[pn], UNIONS[un]))
    out += pairs_of(LISTS, ["list", "list-long-tag", "list-w", "list-string"], "recursive")
    out += pairs_of(LISTS, ["mutual", "mutual-bool"], "recursive")
    out += both_ways(LISTS, "tree", "tree-n", "recursive")
    out += both_ways(LISTS, "mutual", "mutual-plain", "recursive")
    some = ["base", "add-no-default", "named-S"]
    out += [(f"array<{rn}> <- array<{wn}>", array(RECORDS[rn]), array(RECORDS[wn]))
            for rn in some for wn in some]
    out += [(f"map<E-{rn}> <- map<E-{wn}>", map_(ENUMS[rn]), map_(ENUMS[wn]))
            for rn in ("ab", "ab-default") for wn in ("abc", "ab")]
    out += [("record of every kind, promoted <- original",
             rec("K", field("i", "double"), field("s", "bytes"), field("e", ENUMS["abcd"]),
                 field("f", FIXEDS["F4"]), field("m", map_(array("float"))), field("u", ["null", "long"])),
             rec("K", field("i", "int"), field("s", "string"), field("e", ENUMS["abc"]),
                 field("f", FIXEDS["F4"]), field("m", map_(array("long"))), field("u", "int"))),
            ("record of every kind <- all changed",
             rec("K", field("i", "int"), field("s", "int"), field("e", ENUMS["ab"]),
                 field("f", FIXEDS["F8"]), field("m", map_(array("int"))), field("u", ["null", "long"])),
             rec("K", field("i", "long"), field("s", "string"), field("e", ENUMS["abc"]),
                 field("f", FIXEDS["F4"]), field("m", map_(array("long"))), field("u", ["string", "int"])))]
    return out


def corpus_pairs(pass_dir):
    """Every schema with itself, and each with the next of the same root kind, both ways."""
    schemas = {}
    for name in sorted(os.listdir(pass_dir)):
        if name.endswith(".avsc"):
            with open(os.path.join(pass_dir, name), encoding="utf-8") as f:
                schemas[name] = json.load(f)

    def kind(s):
        if isinstance(s, list):
            return "union"
        return s["type"] if isinstance(s, dict) else s

    out = [(f"corpus {a} <- itself", s, s) for a, s in schemas.items()]
    by_kind = {}
    for name, s in schemas.items():
        by_kind.setdefault(kind(s), []).append(name)
    for names in by_kind.values():
        for a, b in zip(names, names[1:]):
            out += both_ways(schemas, a, b, "corpus")
    return out


# Each pair here hits one Python quirk: (quirk number, reader, writer, avrogen's spec verdict).
QUIRKS = [
    (1, fixed("a.F", 4), fixed("F", 4, namespace="b"), True),
    (1, fixed("a.F", 4), fixed("F", 4, namespace="a"), True),
    (2, rec("New", aliases=["Old"], namespace="n"), rec("Old", namespace="n"), True),
    (2, rec("New", aliases=["x.Old"]), rec("Old", namespace="y"), True),
    (6, {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 3},
     {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}, False),
    (3, rec("R", field("e", enum("E", ["A", "B"], default="A"))), rec("R"), False),
    (4, [rec("A", field("x", "int"), aliases=["W"]), rec("W")], rec("W"), False),
]


# ---- Python's side -------------------------------------------------------------

def reachable(schema):
    """Every schema node reachable from `schema`, each named type once."""
    seen, out, to_visit = set(), [], [schema]
    while to_visit:
        s = to_visit.pop()
        if isinstance(s, avro.schema.NamedSchema):
            if s.fullname in seen:
                continue
            seen.add(s.fullname)
        out.append(s)
        if isinstance(s, avro.schema.RecordSchema):
            to_visit.extend(f.type for f in s.fields)
        elif isinstance(s, avro.schema.ArraySchema):
            to_visit.append(s.items)
        elif isinstance(s, avro.schema.MapSchema):
            to_visit.append(s.values)
        elif isinstance(s, avro.schema.UnionSchema):
            to_visit.extend(s.schemas)
    return out


def python_deviates(r, w):
    """The quirk (see the module doc) this pair could hit, or None."""
    rn = [s for s in reachable(r) if isinstance(s, avro.schema.NamedSchema)]
    wn = [s for s in reachable(w) if isinstance(s, avro.schema.NamedSchema)]
    for a in rn:
        for b in wn:
            if a.type != b.type:
                continue
            short = b.fullname.rpartition(".")[2]
            if (a.name == b.name) != (a.fullname.rpartition(".")[2] == short):
                return "1: names compared as written"
            aliases = a.props.get("aliases") or []
            if (b.fullname in aliases) != any(x.rpartition(".")[2] == short for x in aliases):
                return "2: aliases compared as written"
    if any(s.type == "error" for s in reachable(r) + reachable(w)):
        return "7: Python's checker cannot check records written as errors"
    for s in reachable(r):
        if isinstance(s, avro.schema.RecordSchema):
            for f in s.fields:
                if not f.has_default and f.type.type == "enum" and f.type.props.get("default"):
                    return "3: field of an enum type with a default"
        if isinstance(s, avro.schema.UnionSchema):
            named = [b for b in s.schemas if isinstance(b, avro.schema.NamedSchema)]
            for b in named:
                if b.props.get("aliases") and any(c is not b and c.type == b.type for c in named):
                    return "4: union branches of one named kind, with aliases"
    return None


def python_verdict(r, w):
    res = ReaderWriterCompatibilityChecker().get_compatibility(r, w)
    ok = res.compatibility is SchemaCompatibilityType.compatible
    return ok, {k.value for k in res.incompatibilities}, set(res.locations) - {"/"}


def has_union(schema):
    return any(isinstance(s, avro.schema.UnionSchema) for s in reachable(schema))


# ---- avrogen's side -------------------------------------------------------------

def run_avrogen(avrogen, args, stdin=None):
    p = subprocess.run([avrogen, "compat"] + args, input=stdin, capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def parse_output(rc, out, err, prefixes=("",)):
    """avrogen's verdict as {prefix: (kinds, paths)}; raises ValueError if malformed."""
    if rc == 0:
        if out != "compatible\n" or err != "":
            raise ValueError(f"exit 0 but stdout {out!r}, stderr {err!r}")
        return {p: (set(), set()) for p in prefixes}
    if rc != 1:
        raise ValueError(f"exit {rc}, stderr {err!r}")
    lines = err.splitlines()
    if len(lines) != 1 or not lines[0].startswith("avrogen: error: "):
        raise ValueError(f"stderr is not one error line: {err!r}")
    found = {p: (set(), set()) for p in prefixes}
    if not out:
        raise ValueError("incompatible, but no line on stdout")
    for line in out.splitlines():
        prefix = next((p for p in prefixes if p and line.startswith(p)), "")
        if prefix not in found:
            raise ValueError(f"line without a direction: {line!r}")
        parts = line[len(prefix):].split(": ", 2)
        if len(parts) != 3 or not parts[0].startswith("/") or parts[1] not in KINDS or not parts[2]:
            raise ValueError(f"malformed line {line!r}")
        found[prefix][0].add(parts[1])
        found[prefix][1].add(parts[0])
    return found


def schema_arg(tmp, name, schema):
    """Small schemas go on the command line as JSON text, larger ones through a file."""
    text = json.dumps(schema)
    if len(text) < 200:  # a longer argument could exceed NAME_MAX as a file name
        return text
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def compare(expect, got, check_paths):
    ok, kinds, locs = expect
    gkinds, gpaths = got
    if ok != (not gkinds):
        return f"Python says {'compatible' if ok else 'incompatible ' + str(sorted(kinds))}, " \
               f"avrogen {'compatible' if not gkinds else sorted(gkinds)}"
    if gkinds != kinds:
        return f"kinds differ: Python {sorted(kinds)}, avrogen {sorted(gkinds)}"
    if check_paths and gpaths - {"/"} != locs:
        return f"paths differ: Python {sorted(locs)}, avrogen {sorted(gpaths)}"
    return None


def check_pair(avrogen, tmp, index, name, rj, wj, mode):
    r, w = parse_schema(json.dumps(rj)), parse_schema(json.dumps(wj))
    args = ["--reader", schema_arg(tmp, f"{index}r.avsc", rj),
            "--writer", schema_arg(tmp, f"{index}w.avsc", wj)]
    paths = not has_union(r) and not has_union(w)
    if mode == "backward":
        found = parse_output(*run_avrogen(avrogen, args))
        return compare(python_verdict(r, w), found[""], paths)
    if mode == "forward":
        found = parse_output(*run_avrogen(avrogen, args + ["--mode", "forward"]),
                             prefixes=("forward: ",))
        return compare(python_verdict(w, r), found["forward: "], paths)
    found = parse_output(*run_avrogen(avrogen, args + ["--mode", "full"]),
                         prefixes=("backward: ", "forward: "))
    return (compare(python_verdict(r, w), found["backward: "], paths)
            or compare(python_verdict(w, r), found["forward: "], paths))


def decimals(node, out):
    """The (precision, scale) of every decimal in schema JSON `node`, into set `out`."""
    if isinstance(node, list):
        for n in node:
            decimals(n, out)
    elif isinstance(node, dict):
        if node.get("logicalType") == "decimal":
            out.add((node.get("precision"), node.get("scale", 0)))
        for v in node.values():
            decimals(v, out)
    return out


def json_deviates(rj, wj):
    """The quirks only the JSON shows (Python's side never sees logical types)."""
    rd, wd = decimals(rj, set()), decimals(wj, set())
    if rd and wd and rd | wd != rd & wd:
        return "6: decimals of other scales or precisions"
    return None


def check_quirk(avrogen, quirk):
    number, rj, wj, spec_ok = quirk
    r, w = parse_schema(json.dumps(rj)), parse_schema(json.dumps(wj))
    deviates = json_deviates(rj, wj) or python_deviates(r, w)
    if deviates is None or not deviates.startswith(f"{number}:"):
        return f"quirk {number}: python_deviates() does not flag it"
    found = parse_output(*run_avrogen(avrogen, ["--reader", json.dumps(rj), "--writer", json.dumps(wj)]))
    if (not found[""][0]) != spec_ok:
        return f"quirk {number}: avrogen says {sorted(found[''][0]) or 'compatible'}, the spec {spec_ok}"
    py = python_verdict(r, w)
    if py[0] == spec_ok and py[1] == found[""][0]:
        return f"quirk {number}: Python no longer deviates (update the module doc)"
    return None


def chain(n, defs):
    """A record whose field f starts a chain of n records, each naming the next."""
    records = [rec(f"R{n}")] + [rec(f"R{i}", field("f", f"R{i + 1}")) for i in range(n - 1, 0, -1)]
    return rec("R0", field(defs, ["null"] + records, default=None), field("f", "R1"))


def check_statuses(avrogen, tmp):
    """Exit statuses and output shapes outside the pair comparison; a list of problems."""
    good = os.path.join(tmp, "good.avsc")
    with open(good, "w", encoding="utf-8") as f:
        f.write('"long"')
    deep_r, deep_w = os.path.join(tmp, "deep_r.avsc"), os.path.join(tmp, "deep_w.avsc")
    with open(deep_r, "w", encoding="utf-8") as f:
        json.dump(chain(5000, "x"), f)
    with open(deep_w, "w", encoding="utf-8") as f:
        json.dump(chain(5000, "y"), f)
    cases = [
        ([], None, 2),
        (["--reader", good], None, 2),
        (["--writer", good], None, 2),
        (["--reader", good, "--writer"], None, 2),
        (["--reader", good, "--writer", good, "--mode", "sideways"], None, 2),
        (["--reader", good, "--writer", good, "extra"], None, 2),
        (["--reader", "-", "--writer", "-"], '"int"', 2),
        (["--reader", os.path.join(tmp, "missing.avsc"), "--writer", good], None, 1),
        (["--reader", good, "--writer", '{"type":"nope"}'], None, 1),
        (["--reader", good, "--writer", "[1,"], None, 1),
        (["--reader", deep_r, "--writer", deep_w], None, 1),
        (["--reader", good, "--writer", "-"], '"int"', 0),
        (["--reader=-", "--writer=" + good], '"int"', 1),
        (["--reader", good, "--writer", '"int"', "--mode", "backward"], None, 0),
        (["--reader", good, "--writer", '"int"', "--mode=forward"], None, 1),
        (["--reader", good, "--writer", '"int"', "--mode", "full"], None, 1),
        (["--reader", schema_arg(tmp, "c300r.avsc", chain(300, "x")),
          "--writer", schema_arg(tmp, "c300w.avsc", chain(300, "y"))], None, 0),
    ]
    problems = []
    for args, stdin, want in cases:
        rc, out, err = run_avrogen(avrogen, args, stdin)
        where = "avrogen compat " + " ".join(a if len(a) < 60 else a[:57] + "..." for a in args)
        if rc != want:
            problems.append(f"{where}: exit {rc}, expected {want} (stderr {err!r})")
        elif want == 2 and (out or "usage" not in err):
            problems.append(f"{where}: usage error should print only a usage hint: {out!r} {err!r}")
        elif want == 1 and not out and (len(err.splitlines()) != 1 or not err.startswith("avrogen: error: ")):
            problems.append(f"{where}: expected one error line, got {err!r}")
        elif want == 0 and out != "compatible\n":
            problems.append(f"{where}: expected 'compatible', got {out!r}")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    avrogen, pass_dir = argv
    passed, skipped, failures = 0, [], []
    cases = generated_pairs() + corpus_pairs(pass_dir)
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for i, (name, rj, wj) in enumerate(cases):
            try:
                r, w = parse_schema(json.dumps(rj)), parse_schema(json.dumps(wj))
            except Exception as e:  # noqa: BLE001 - a schema Python cannot parse
                skipped.append(f"{name}: Python cannot parse it: {e}")
                continue
            quirk = json_deviates(rj, wj) or python_deviates(r, w) or python_deviates(w, r)
            if quirk:
                skipped.append(f"{name}: quirk {quirk}")
                continue
            # Every tenth pair also runs forward, every tenth full.
            modes = ["backward"] + (["forward"] if i % 10 == 1 else []) + (["full"] if i % 10 == 6 else [])
            jobs += [(i, f"{name} [{mode}]", rj, wj, mode) for mode in modes]

        def job(j):
            i, name, rj, wj, mode = j
            try:
                problem = check_pair(avrogen, tmp, f"{i}{mode}", name, rj, wj, mode)
            except Exception as e:  # noqa: BLE001 - any surprise fails this pair
                problem = f"{type(e).__name__}: {e}"
            return name, problem

        with ThreadPoolExecutor(max_workers=2) as pool:
            for name, problem in pool.map(job, jobs):
                if problem is None:
                    passed += 1
                else:
                    failures.append(f"{name}: {problem}")
        for quirk in QUIRKS:
            problem = check_quirk(avrogen, quirk)
            if problem is None:
                passed += 1
            else:
                failures.append(problem)
        problems = check_statuses(avrogen, tmp)
        failures += problems
        passed += 0 if problems else 1
    # A floor: a case list or peer that went missing must not pass (issue 12).
    if passed < 500:
        print(f"FAIL: only {passed} checks passed, below the floor of 500")
        return 1
    for s in skipped:
        print("skip " + s)
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    print(f"{passed} passed, {len(failures)} failed, {len(skipped)} skipped "
          f"({len(jobs)} avrogen runs over {len(cases) - len(skipped)} pairs)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
