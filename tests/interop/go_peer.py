#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""avrogen against goavro 2.10.1 (golang-github-linkedin-goavro-dev).

usage: go_peer.py --corpus DIR --work DIR --avrogen AVROGEN --peer-tool PEER_TOOL
                  --shapes-peer SHAPES_PEER --source SRC [--testdata DIR]

Builds go/main.go offline (a module whose go.mod replaces goavro and
golang/snappy with Debian's sources in /usr/share/gocode; GOPROXY=off) and
runs it once, on every task at the same time, then holds avrogen to it:

  * goavro reads every container file avrogen wrote of the corpus
    (peer_corpus.py) in each codec goavro has (null, deflate, snappy), and
    every datum equals the reference datum at its index, both decoded by
    goavro (floats by their bits, maps whatever their order, logical types
    as goavro's time.Time and *big.Rat by value); avrogen's zstandard, xz and
    bzip2 files goavro must refuse, as it has no such codecs.
  * goavro writes every corpus case in each of its codecs, and avrogen
    decodes each file to the reference values: the reference JSON lines
    (maps compared whatever their order: goavro writes Go maps in random
    order, which Avro allows) and, for schemas without maps, the reference
    datums byte for byte. goavro writes with the schemas' logical types
    removed: it turns them into Go values and back (GO_LOGICAL says what that
    changes), which is goavro's business, not the container file's.
  * Apache Avro's own container files (the test data's MANIFEST): goavro
    reads every datum avrogen reads of a valid file in a codec it has, to
    equal values; of a damaged file it reads at least MANIFEST's count, and
    those agree with avrogen's.
  * goavro's Parsing Canonical Form and CRC-64-AVRO fingerprint of every
    schema of peer_corpus.canonical_inputs equal avrogen's, except where
    goavro breaks the specification's rules (go_canonical_deviates: goavro
    must then differ) or cannot parse what the specification allows
    (GO_PARSE_LIMITS: goavro must refuse it).
  * Generated code (peer_corpus.check_generated): as for Java, goavro's
    values by its TextualFromNative (GO_JSON: where that parts from the
    specification), its bytes compared with the generated code's only for
    schemas without maps (it writes Go maps in random order).

Go and goavro are installed by scripts/bootstrap. When one is missing, or the
Apache Avro test data or the corpus is, the test does not run: it says why and
exits 77 (tests/notrun.py), a failure under CI. Each group of checks has a
floor of checks that must run. Exit status 0 when everything agrees, 1 otherwise.
"""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peer_corpus as pc  # noqa: E402
from python_peer import strip_logical  # noqa: E402

GO_CODECS = ["null", "deflate", "snappy"]
GOCODE = "/usr/share/gocode/src"
MODULES = {"github.com/linkedin/goavro/v2": ("github.com/linkedin/goavro", "v2.10.1"),
           "github.com/golang/snappy": ("github.com/golang/snappy", "v0.0.1")}
PER_BLOCK = 40

# goavro 2.10.1's logical types, turned into Go values and back, change what
# some datums hold (none of this is about container files, hence GO_LOGICAL's
# schemas without logical types for writing): time-micros is written back
# through an int32 (logical_type.go, timeMicrosFromNative), a decimal comes
# back in its shortest two's-complement form and 0 as one byte, also in a
# fixed of another size (toSignedBytes, toSignedFixedBytes).
GO_LOGICAL = "logical types removed for goavro's writes"

PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}

# Where goavro 2.10.1's Avro JSON encoding (Codec.TextualFromNative) parts from
# the specification; go_json() in test() takes exactly these differences in
# the values goavro decodes from the generated code's bytes (its bytes, and
# what the generated decoder reads of them, are held to the exact values):
#  * Spec, JSON Encoding: a union value is "a JSON object with one name/value
#    pair whose name is the type's name ... For Avro's named types (record,
#    fixed or enum) the user-specified name is used, for other types the type
#    name is used." goavro names a logical type's branch TYPE.LOGICAL
#    ({"bytes.decimal": ...} for a {"type": "bytes", "logicalType":
#    "decimal"} branch, where the type name is "bytes").
#  * Spec, JSON Encoding: float and double are JSON numbers; NaN and the
#    infinities have none, and the specification says nothing of them (Java
#    prints NaN, Infinity, python3-avro and avrogen the strings "NaN",
#    "Infinity"). goavro prints null, a value no reader can tell from null.
#  Beside those, a bytes decimal goavro read is its value (GO_LOGICAL: it
#  writes it back in its shortest two's-complement form, an empty one as one
#  0 byte): its JSON is compared by the unscaled value, and goavro's bytes
#  with the generated code's only for schemas without decimals (or maps).
GO_JSON = "goavro's JSON encoding: a logical type's union branch, NaN and infinities"

# Schemas goavro 2.10.1 refuses that the specification allows.
GO_PARSE_LIMITS = {
    # Spec, Enums: "symbols: a JSON array, listing symbols"; none is a list too.
    "enum_no_symbols.avsc": "an enum without symbols",
    # Spec, Fixed: "size: an integer"; 0 is one.
    "fixed_zero_size.avsc": "fixed(0)",
    # Spec, Logical Types: "if a logical type is invalid, for example a
    # decimal with scale greater than its precision, then implementations
    # should ignore the logical type and use the underlying Avro type".
    "logical_invalid_is_ignored.avsc": "an invalid decimal is an error, not ignored",
    # Spec, Complex Types, field default: bytes and fixed defaults are strings
    # "where Unicode code points 0-255 are mapped to unsigned 8-bit byte
    # values 0-255"; goavro takes the UTF-8 bytes of "\u00ff\u0001" (3 of them).
    "record_field_defaults.avsc": "a fixed default read as UTF-8",
    # The specification does not ask a union for members.
    "union_empty.avsc": "an empty union",
    "schema-tests.txt 016": "an empty union",
    # Spec, Names: a "namespace": "" definition is in the null namespace, and
    # "Z" names it from outside; goavro cannot find it.
    "namespace_null_enum": "a name in the null namespace",
    "namespace_null_fixed": "a name in the null namespace",
    "namespace_null_record": "a name in the null namespace",
    # The specification is silent on "error" outside protocols; Java 1.8.2 and
    # python3-avro parse it as a record, goavro does not know the type.
    "type_error_is_a_record.avsc": "\"type\": \"error\"",
}


def go_canonical_deviates(schema):
    """Which of the specification's rules goavro 2.10.1's Parsing Canonical Form
    could break for this schema, or None. Conservative: goavro handles some
    of these shapes in some places (a union branch is read one way, a field
    type another), so a flagged schema is only required to differ for a
    floor of them. The rules are those of Spec, Parsing Canonical Form for
    Schemas, and Names."""
    # [PRIMITIVES] "Convert primitive schemas to their simple form (e.g., int
    # instead of {"type":"int"})": goavro keeps the object form when it has
    # other attributes (a logicalType among them), and names a decimal's
    # bytes "bytes.decimal".
    nodes = pc.schema_nodes(schema)
    if any(n.get("type") in PRIMITIVES and len(n) > 1 for n, _, _ in nodes):
        return "a primitive with attributes kept as an object"
    named = [(s, outer, inner) for s, outer, inner in nodes
             if s.get("type") in ("record", "error", "enum", "fixed") and isinstance(s.get("name"), str)]
    for s, outer, inner in named:
        # [FULLNAMES] "Replace short names with fullnames, using applicable
        # namespaces": goavro leaves enum and fixed names short.
        if s["type"] in ("enum", "fixed") and "." not in s["name"] and outer and "namespace" not in s:
            return "enum and fixed names left short"
        # [INTEGERS]: goavro prints numbers as floats, 4294967296 as 4.294967296e+09.
        if s["type"] == "fixed" and isinstance(s.get("size"), int) and s["size"] >= 10 ** 6:
            return "a fixed size printed as a float"
        # Spec, Names: the namespace attribute is a namespace, not a suffix of
        # the enclosing one; goavro appends it to the enclosing namespace.
        if "namespace" in s and "." not in s["name"] and outer:
            return "a namespace attribute appended to the enclosing namespace"
        # Spec, Names: a dotted name's namespace is that of the types defined
        # inside it; goavro leaves them in the enclosing one.
        if "." in s["name"] and s["type"] in ("record", "error") and inner != outer and \
                any(o == inner and "." not in d["name"] and "namespace" not in d for d, o, _ in named):
            return "a dotted name's namespace not passed on"
        # [FULLNAMES] again: goavro qualifies a short name only once it has
        # met the definition's "name" key, and walks the keys in Go's random
        # map order, so a short reference inside its own definition (a
        # recursive type) comes out short or full from one run to the next.
        short = s["name"].rpartition(".")[2]
        if inner and json.dumps(s).count(json.dumps(short)) > 1:
            return "a recursive reference left short, some of the time"
    return None


def find_go():
    go = shutil.which("go")
    if not go:
        pc.notrun.not_run("interop_go", "go not found", "scripts/bootstrap installs golang-go")
    for mod, (path, _) in MODULES.items():
        if not os.path.exists(os.path.join(GOCODE, path, "go.mod")):
            pc.notrun.not_run("interop_go", f"{os.path.join(GOCODE, path)} not found",
                              "scripts/bootstrap installs golang-github-linkedin-goavro-dev")
    return go


def build_go(work, cache):
    """Build go/main.go offline; the path of the executable."""
    go = find_go()
    src = os.path.join(work, "src")
    os.makedirs(src)
    shutil.copy(os.path.join(HERE, "go", "main.go"), src)
    with open(os.path.join(src, "go.mod"), "w", encoding="utf-8") as f:
        f.write("module avrogen.test/gopeer\n\ngo 1.19\n\nrequire (\n")
        f.write("".join(f"\t{m} {v}\n" for m, (_, v) in MODULES.items()))
        f.write(")\n\n")
        f.write("".join(f"replace {m} => {os.path.join(GOCODE, p)}\n" for m, (p, _) in MODULES.items()))
    exe = os.path.join(work, "gopeer")
    env = dict(os.environ, GOPROXY="off", GOFLAGS="-mod=mod", GO111MODULE="on", GOTOOLCHAIN="local",
               CGO_ENABLED="0", GOCACHE=os.path.join(cache, "build"), GOPATH=os.path.join(cache, "path"),
               GOSUMDB="off")
    pc.run([go, "build", "-o", exe, "."], cwd=src, env=env)
    return exe


def run_go(work, cache, tasks):
    return pc.run_batch([build_go(work, cache)], tasks, work, "go")


def has_decimal(schema):
    return any(n.get("logicalType") == "decimal" for n, _, _ in pc.schema_nodes(schema))


def unscaled(text):
    """A bytes decimal's unscaled value, from its Avro JSON string (code points 0-255)."""
    return int.from_bytes(text.encode("latin-1"), "big", signed=True) if isinstance(text, str) else None


def has_map(schema):
    return any(n.get("type") == "map" for n, _, _ in pc.schema_nodes(schema))


def values(lines):
    """JSON lines as Python values: maps compare whatever their order, numbers
    by their text (avrogen prints each value one way)."""
    return [json.loads(line, parse_float=str, parse_int=str) for line in lines]


def test(args, c):
    cache = os.path.join(os.path.dirname(os.path.abspath(args.work)), "go-cache")
    cases = pc.load_cases(args.corpus)
    corpus = lambda *parts: os.path.join(args.corpus, *parts)  # noqa: E731
    work = lambda *parts: os.path.join(args.work, *parts)  # noqa: E731

    # avrogen's reading of the test data is goavro's reference there.
    entries = pc.manifest(args.testdata)
    testdata = [(rel, expect, os.path.join(args.testdata, rel), work("ours-" + rel.replace("/", "_")))
                for rel, expect in entries]
    ours_testdata = pc.peer_tool(args.peer_tool, "read", [[f, base + ".frames", base + ".jsonl"]
                                                          for _, _, f, base in testdata], args.work)

    plain, maps = {}, {}
    for name, _ in cases:
        with open(corpus(name + ".avsc"), encoding="utf-8") as f:
            schema = json.load(f)
        plain[name], maps[name] = work(name + ".plain.avsc"), has_map(schema)
        with open(plain[name], "w", encoding="utf-8") as f:
            json.dump(strip_logical(schema), f)
    reads = [(name, codec) for name, _ in cases for codec in pc.OUR_CODECS]
    writes = [(name, codec, work(f"go-{name}.{codec}.avro")) for name, _ in cases for codec in GO_CODECS]
    schemas = pc.canonical_inputs(args.source, args.corpus, args.testdata, work("schemas"))
    refused = pc.refused_inputs(args.testdata)
    go = iter(run_go(args.work, cache,
                     [["read", corpus(f"ours-{n}.{codec}.avro"), corpus(n + ".frames")] for n, codec in reads]
                     + [["write", plain[n], corpus(n + ".frames"), codec, str(PER_BLOCK), out]
                        for n, codec, out in writes]
                     + [["read", f, base + ".frames"] for _, _, f, base in testdata]
                     + [["canon", path] for _, path in schemas + refused]
                     + pc.generated_tasks(args.corpus, args.work, "go", "deflate", PER_BLOCK)))
    ours_reads = [(out, out + ".frames", out + ".jsonl") for _, _, out in writes]
    ours_read = iter(pc.peer_tool(args.peer_tool, "read", [list(t) for t in ours_reads], args.work))
    ours_canon = pc.peer_tool(args.peer_tool, "canon", [[path] for _, path in schemas], args.work)
    ours_refused = pc.peer_tool(args.peer_tool, "canon", [[path] for _, path in refused], args.work,
                                "-refused")
    counts = dict(cases)

    # 1. goavro reads avrogen's files.
    for name, codec in reads:
        res = next(go)
        if codec not in GO_CODECS:
            c.check("refused codec", res[0] == "error" and codec in res[-1],
                    f"goavro read avrogen's {codec} file of {name}: {res}; it has no such codec "
                    "(update GO_CODECS)")
            continue
        c.check("go reads ours", res[:5] == ["ok", codec, str(counts[name]), "-1", ""],
                f"{name} {codec}: goavro {res}")

    # 2. goavro writes, avrogen reads.
    for (name, codec, out), (_, frames, lines) in zip(writes, ours_reads):
        res, ours = next(go), next(ours_read)
        if not c.check("go writes", res[0] == "ok", f"{name} {codec}: goavro: {res}"):
            continue
        ref_lines = pc.read_lines(corpus(name + ".jsonl"))
        same = ours == ["ok", codec, str(counts[name])] and \
            values(pc.read_lines(lines)) == values(ref_lines)
        if same and not maps[name]:
            same = pc.read_frames(frames) == pc.read_frames(corpus(name + ".frames"))
        c.check("ours reads go", same, f"{name} {codec}: avrogen {ours}, and it decodes "
                f"{'other values than' if ours[0] == 'ok' else 'less than'} the reference")

    # 3. Apache Avro's own container files.
    for (rel, expect, path, base), ours in zip(testdata, ours_testdata):
        res = next(go)
        mine = len(pc.read_frames(base + ".frames")) if os.path.exists(base + ".frames") else 0
        codec = res[1] if len(res) > 2 else None
        if len(res) == 2 or (codec not in GO_CODECS and res[0] == "error"):
            c.check("testdata", ours[0] == "error" or ours[1] not in GO_CODECS,
                    f"{rel}: goavro cannot read it ({res}), avrogen {ours}")
            c.note(f"{rel}: goavro refuses it: {res[-1]}")
            continue
        n, mismatch = int(res[2]), int(res[3])
        if expect.startswith("damaged"):
            want = int(expect.split()[1])
            agree = mismatch < 0 or mismatch >= min(n, mine)
            c.check("testdata", res[0] == "error" and n >= want and agree,
                    f"{rel}: goavro {res}, avrogen read {mine} datums; MANIFEST: {expect}")
        elif expect.startswith("reject"):
            c.check("testdata", res[0] == "error", f"{rel}: goavro {res}; MANIFEST: {expect}")
        else:
            c.check("testdata", res[0] == "ok" and ours[0] == "ok" and n == mine and mismatch == -1,
                    f"{rel}: goavro {res}, avrogen {ours}")

    # 4. Canonical forms and CRC-64-AVRO.
    for (label, path), ours in zip(schemas, ours_canon):
        res = next(go)
        limit = next((why for key, why in GO_PARSE_LIMITS.items() if label.endswith(key)), None)
        if limit is not None:
            c.check("go parse limits", res[0] == "error" and ours[0] == "ok",
                    f"{label}: goavro {res}, avrogen {ours[0]}; GO_PARSE_LIMITS says only goavro refuses it "
                    f"({limit})")
            continue
        with open(path, encoding="utf-8") as f:
            why = go_canonical_deviates(json.load(f))
        if why is not None:
            if res[0] == "ok" and res != ours[:3]:
                c.check("go canonical differences", True, label)
            else:
                c.note(f"canonical {label}: goavro {res[0]}, and agrees with avrogen although it may "
                       f"break a rule here ({why})")
            continue
        c.check("canonical", ours[:3] == res, f"{label}: goavro {res}, avrogen {ours[:3]}")

    for (label, _), ours in zip(refused, ours_refused):
        res = next(go)
        c.check("refused schemas", res[0] == "error" and ours[0] == "error",
                f"{label}: goavro {res[0]}, avrogen {ours[0]}; both must refuse it")

    # 5. Generated code: the struct shapes of issue 11, interop.avsc and holders.
    quirks = []

    def go_json(what, schema, want, got):
        """GO_JSON: where goavro's JSON encoding parts from the specification,
        and GO_LOGICAL's decimals, compared by value."""
        hit = (what == "union" and got == f"{schema.type}.{schema.get_prop('logicalType')}") or \
            (what == "number" and got is None and want in ("NaN", "Infinity", "-Infinity")) or \
            (what == "text" and schema.get_prop("logicalType") == "decimal" and schema.type == "bytes"
             and unscaled(want) == unscaled(got))
        quirks.extend([(what, got)] if hit else [])
        return hit

    pc.check_generated(c, args, "go", go, lambda schema: not has_map(schema) and not has_decimal(schema),
                       go_json)
    for what, example in (("union", "a logical type's union branch named TYPE.LOGICAL"),
                          ("number", "NaN or an infinity printed as null"),
                          ("text", "a decimal's bytes in another form")):
        c.check("go json differences", any(w == what for w, _ in quirks),
                f"goavro's JSON showed no {example}: update GO_JSON")

    # Floors: what a run does; the test data's part only when it is there.
    c.floor("go reads ours", len(cases) * len(GO_CODECS))
    c.floor("go writes", len(cases) * len(GO_CODECS))
    c.floor("ours reads go", len(cases) * len(GO_CODECS))
    c.floor("refused codec", len(cases) * (len(pc.OUR_CODECS) - len(GO_CODECS)))
    c.floor("canonical", 40 + (20 if entries else 0))
    c.floor("go canonical differences", 10 + (15 if entries else 0))
    if entries:
        c.floor("refused schemas", 12)
        c.floor("testdata", len(entries))
    if len(cases) < 20:
        c.failures.append(f"the corpus has {len(cases)} cases, fewer than 20")


if __name__ == "__main__":
    sys.exit(pc.peer_main("go_peer", sys.argv[1:], test))
