#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""avrogen against Java Avro 1.8.2 (libavro-java), the reference implementation.

usage: java_peer.py --corpus DIR --work DIR --avrogen AVROGEN --peer-tool PEER_TOOL
                    --shapes-peer SHAPES_PEER --source SRC [--testdata DIR]

Compiles java/AvroPeer.java with javac into --work and runs it once, on
every task at the same time, then holds avrogen to what Java did:

  * Java reads every container file avrogen wrote of the corpus
    (peer_corpus.py), in each codec Java has (null, deflate, snappy, bzip2,
    xz), and re-encodes each datum to exactly the reference bytes (maps are
    read in wire order, so equal bytes are equal values); avrogen's
    zstandard files Java 1.8.2 must refuse, as it has no such codec.
  * Java writes every corpus case in each of its codecs, and avrogen decodes
    each file to the reference values: encoded again they are the reference
    datums byte for byte, printed they are the reference JSON lines.
  * Apache Avro's own container files (the test data's MANIFEST): avrogen
    decodes a valid file to values that encode to exactly the datums Java
    re-encodes from it; weather-zstd.avro reads like weather-deflate.avro; of
    a damaged file avrogen reads the datums before the damage (MANIFEST's
    count, which Java also reads, and the same datums) and fails; a rejected
    one fails.
  * The Parsing Canonical Form and the CRC-64-AVRO, MD5 and SHA-256
    fingerprints of every schema of peer_corpus.canonical_inputs equal
    SchemaNormalization's, and those of schema-tests.txt equal the file's.
  * SchemaCompatibility's verdict equals avrogen's for the pairs of
    compat_python.py and EXTRA_PAIRS, except where the two part
    (DIFFERENCES, each with the specification's words): java_deviates()
    leaves the pairs that could hit one out of the comparison, and each
    difference is shown on pairs where Java really gives the other verdict.
  * Generated code (peer_corpus.check_generated): Java decodes what the
    generated encoders of the struct shapes of issue 11, interop.avsc and
    holders write, as datums and in avrogen's container file, to the
    expected values (JsonEncoder's Avro JSON), and encodes them again to the
    same bytes; the generated decoders read Java's datums and container file
    back into structs that encode to exactly Java's bytes.

avrogen's side runs through peer_tool (the runtime calls behind `avrogen
canonical`, `fingerprint`, `compat` and `cat`, in one process per batch); the
CLI itself runs on a sample and must agree.

Java, javac and the jars are installed by scripts/bootstrap. When one is
missing, or the Apache Avro test data or the corpus is, the test does not run:
it says why and exits 77 (tests/notrun.py), a failure under CI. Each group of
checks has a floor of checks that must run. Exit status 0 when everything
agrees, 1 otherwise.
"""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compat_python  # noqa: E402
import peer_corpus as pc  # noqa: E402
from compat_python import array, enum, field, fixed, map_, rec  # noqa: E402

JAVA_CODECS = ["null", "deflate", "snappy", "bzip2", "xz"]
JARS = ["avro", "jackson-core-asl", "jackson-mapper-asl", "paranamer", "snappy-java",
        "commons-compress", "xz", "slf4j-api", "slf4j-nop"]
JAR_DIR = "/usr/share/java"
SYNC = 2000
PENDING = "a change lands"  # what a DIFFERENCES entry whose last column is set waits for
# Schemas of tests/data/schema/pass that Java 1.8.2's parser refuses.
JAVA_PARSE_LIMITS = {
    # Spec, Fixed: "size: an integer, specifying the number of bytes per
    # value"; Java keeps it in an int.
    "fixed_large_size.avsc": "a fixed size above 2^31-1",
    # {"type": "Kind"} naming a defined type: python3-avro and avrogen take it
    # as a reference; Java 1.8.2 looks up only primitive names in that form.
    "type_reference_object_form.avsc": "a named type referenced as {\"type\": \"Kind\"}",
}
# Damaged files Java 1.8.2 reads to the end without an error.
JAVA_QUIET_DAMAGE = {
    # MANIFEST: the file ends inside its only block; DataFileReader.hasNext()
    # treats the short block as the end of the file (silent data loss).
    "lang/c/tests/avro-1238-truncated.avro",
}


# ---- where Java 1.8.2 and avrogen part --------------------------------------------

PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
COMPLEX = {"record", "error", "enum", "fixed", "array", "map"}
# spec, Schema Resolution: the writer type (first) may be promoted to the reader's.
PROMOTIONS = {("int", "long"), ("int", "float"), ("int", "double"), ("long", "float"),
              ("long", "double"), ("float", "double"), ("string", "bytes"), ("bytes", "string")}


def decimal(precision, scale):
    return {"type": "bytes", "logicalType": "decimal", "precision": precision, "scale": scale}


def nodes(schema):
    """(node, the namespace of its name or the one it is in) of a JSON schema."""
    return [(s, inner) for s, _, inner in pc.schema_nodes(schema)]


def definitions(schema):
    """{fullname: (node, its namespace)} of the named types of a JSON schema."""
    return {(ns + "." if ns else "") + s["name"].rpartition(".")[2]: (s, ns) for s, ns in nodes(schema)
            if s.get("type") in ("record", "error", "enum", "fixed") and isinstance(s.get("name"), str)}


def resolve(s, ns, table):
    """(node, namespace) with references followed: a primitive name, a dict or a list."""
    while True:
        if isinstance(s, str) and s not in PRIMITIVES:
            full = s if "." in s else (ns + "." + s if ns else s)
            return table.get(full) or table.get(s) or (s, ns)
        if isinstance(s, dict) and isinstance(s.get("type"), (str, list)) and s["type"] not in COMPLEX:
            s = s["type"]  # {"type": "int", "logicalType": ...}, {"type": "Kind"}
            continue
        return s, ns


def kind(s):
    if isinstance(s, list):
        return "union"
    if isinstance(s, str):
        return s
    return "record" if s.get("type") == "error" else s.get("type")


def java_deviates(rj, wj):
    """The entry of DIFFERENCES this pair could hit, or None. Conservative:
    a pair flagged may well get the same verdict from both."""
    if any(s.get("type") == "enum" and "default" in s for s, _ in nodes(rj)):
        return "enum default"
    rdefs, wdefs = definitions(rj), definitions(wj)
    for rfull, (r, _) in rdefs.items():
        for wfull, (w, _) in wdefs.items():
            if kind(r) == kind(w) and rfull != wfull and \
                    rfull.rpartition(".")[2] == wfull.rpartition(".")[2]:
                return "unqualified names"
            # Reader aliases match by their last part too (Java: by full name).
            if kind(r) == kind(w) and isinstance(r, dict) and any(
                    a.rpartition(".")[2] == wfull.rpartition(".")[2] and a != wfull
                    and f"{rfull.rpartition('.')[0]}.{a}".lstrip(".") != wfull
                    for a in r.get("aliases") or []):
                return "unqualified names"
    rdec, wdec = ({(s.get("precision"), s.get("scale", 0)) for s, _ in nodes(x)
                   if s.get("logicalType") == "decimal"} for x in (rj, wj))
    if rdec and wdec and rdec != wdec:
        return "decimal parameters"
    seen = set()

    def walk(r, rns, w, wns):
        (r, rns), (w, wns) = resolve(r, rns, rdefs), resolve(w, wns, wdefs)
        kr, kw = kind(r), kind(w)
        if kw == "union":
            if kr != "union":
                if len(w) == 1:
                    return walk(r, rns, w[0], wns)
                # Both refuse a branch of another kind; Java refuses the rest too.
                kinds = [kind(resolve(b, wns, wdefs)[0]) for b in w]
                readable = all(k == kr or (k, kr) in PROMOTIONS for k in kinds)
                return "writer union, reader not" if readable else None
            return next((x for x in (walk(r, rns, b, wns) for b in w) if x), None)
        if kr == "union":
            branches = [resolve(b, rns, rdefs) for b in r]
            hits = [(b, bns) for b, bns in branches if kind(b) == kw or (kw, kind(b)) in PROMOTIONS]
            if len(hits) > 1:
                return "reader union, any branch"
            return walk(hits[0][0], hits[0][1], w, wns) if hits else None
        if (id(r), id(w)) in seen:
            return None
        seen.add((id(r), id(w)))
        if kr == kw == "record":
            wfields = {f["name"]: f for f in w.get("fields", [])}
            for f in r.get("fields", []):
                hit = next((n for n in [f["name"]] + list(f.get("aliases") or []) if n in wfields), None)
                if hit is None:
                    continue
                x = walk(f["type"], rns, wfields[hit]["type"], wns)
                if x:
                    return x
        if kr == kw and kr in ("array", "map"):
            key = "items" if kr == "array" else "values"
            return walk(r[key], rns, w[key], wns)
        return None

    return walk(rj, "", wj, "")


# Where SchemaCompatibility 1.8.2 and avrogen give different verdicts, each
# shown on pairs here: (entry, reader, writer, avrogen's verdict, the verdict
# avrogen may still give until PENDING, or None). Java must give the other
# verdict. (None pending: issue 12 item 6 landed.)
DIFFERENCES = [
    # Spec, Schema Resolution, enums: "if the writer's symbol is not found in
    # the reader's enum and the reader has a default value, then that value
    # is used". Enum defaults came with Avro 1.9; 1.8.2 ignores them.
    ("enum default", enum("E", ["A", "B"], default="A"), enum("E", ["A", "B", "C"]), True, None),
    ("enum default", rec("R", field("e", enum("E", ["A"], default="A"))),
     rec("R", field("e", enum("E", ["A", "Z"]))), True, None),
    # Spec, Schema Resolution: "both schemas are records with the same
    # (unqualified) name" (likewise enums and fixed); 1.8.2 compares full names.
    ("unqualified names", fixed("F", 4, namespace="a"), fixed("F", 4, namespace="b"), True, None),
    ("unqualified names", rec("p.q.R", field("x", "int")), rec("x.y.R", field("x", "int")), True, None),
    # Spec, Logical Types, Decimal: "only if their scales and precisions
    # match"; 1.8.2's checker ignores logical types.
    ("decimal parameters", decimal(10, 2), decimal(10, 3), False, None),
    ("decimal parameters", rec("R", field("d", decimal(9, 2))), rec("R", field("d", decimal(12, 2))),
     False, None),
    # Spec, Schema Resolution: "if writer's is a union, but reader's is not:
    # if the reader's schema matches the selected writer's schema, it is
    # recursively resolved against it": every branch the writer can select
    # must be readable. 1.8.2 looks into a writer union against a non-union
    # reader only when it has one branch, and refuses all others.
    ("writer union, reader not", "long", ["int", "long"], True, None),
    ("writer union, reader not", "null", [], True, None),
    ("writer union, reader not", rec("R", field("a", "double")), rec("R", field("a", ["int", "float"])),
     True, None),
    # Spec, Schema Resolution: "if reader's is a union, but writer's is not:
    # the first schema in the reader's union that matches the writer's schema
    # is recursively resolved against it"; 1.8.2 accepts when any branch can
    # read it. (Named types match by name or through the reader's aliases.)
    ("reader union, any branch", [rec("A", field("x", "int"), aliases=["W"]), rec("W")], rec("W"),
     False, None),
    ("reader union, any branch", [enum("X", ["A"], aliases=["E"]), enum("E", ["A", "B"])],
     enum("E", ["A", "B"]), False, None),
]

# Pairs at edges the specification names, beside compat_python.py's.
EXTRA_PAIRS = [
    ("decimal equal", decimal(10, 2), decimal(10, 2)),
    ("decimal fixed equal", dict(fixed("D", 4), logicalType="decimal", precision=6, scale=2),
     dict(fixed("D", 4), logicalType="decimal", precision=6, scale=2)),
    ("enum without default", enum("E", ["A", "B"]), enum("E", ["A", "B", "C"])),
    ("alias with namespace", rec("n.New", field("a", "int"), aliases=["Old"]),
     rec("n.Old", field("a", "int"))),
    ("array of unions", array(["null", "long"]), array(["int", "null"])),
    ("map of records", map_(rec("M", field("a", "long"))), map_(rec("M", field("a", "int")))),
    ("union to union", ["null", "double", "string"], ["string", "int", "null"]),
    # The specification is silent on one writer field matched by several
    # reader fields (by name and aliases): like Java (and Python's checker),
    # avrogen feeds each of them (DESIGN.md, schema evolution).
    ("a writer field feeds two reader fields",
     rec("R", field("old", "int"), field("new", "int", aliases=["old"])), rec("R", field("old", "int"))),
    ("a writer field feeds two reader fields, one it cannot",
     rec("R", field("old", "int"), field("new", "string", aliases=["old"])), rec("R", field("old", "int"))),
    ("namespace null <- no namespace", rec("R", field("a", "int"), namespace=None),
     rec("R", field("a", "int"))),
    ("error <- record", {"type": "error", "name": "R", "fields": [field("a", "int")]},
     rec("R", field("a", "int"))),
]

def compat_pairs(source):
    pairs = compat_python.generated_pairs()
    pairs += compat_python.corpus_pairs(os.path.join(source, "tests", "data", "schema", "pass"))
    pairs += [(f"python quirk {n}", r, w) for n, r, w, _ in compat_python.QUIRKS]
    return pairs + EXTRA_PAIRS


# ---- running Java -------------------------------------------------------------------

def find_java():
    """(java, javac, classpath); Failure naming what bootstrap should have installed."""
    java, javac = shutil.which("java"), shutil.which("javac")
    if not java or not javac:
        pc.notrun.not_run("interop_java", "java/javac not found",
                          "scripts/bootstrap installs default-jdk-headless")
    jars = []
    for j in JARS:
        path = os.path.join(JAR_DIR, j + ".jar")
        if not os.path.exists(path):
            pc.notrun.not_run("interop_java", f"{path} not found",
                              "scripts/bootstrap installs libavro-java")
        jars.append(path)
    return java, javac, ":".join(jars)


def run_java(work, tasks):
    java, javac, cp = find_java()
    classes = os.path.join(work, "classes")
    os.makedirs(classes, exist_ok=True)
    pc.run([javac, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-cp", cp, "-d", classes,
            os.path.join(HERE, "java", "AvroPeer.java")])
    return pc.run_batch([java, "-Xss64m", "-cp", cp + ":" + classes, "AvroPeer"], tasks, work, "java")


# ---- the test -------------------------------------------------------------------------

def test(args, c):
    cases = pc.load_cases(args.corpus)
    corpus = lambda *parts: os.path.join(args.corpus, *parts)  # noqa: E731
    work = lambda *parts: os.path.join(args.work, *parts)  # noqa: E731
    ref_frames = {name: pc.read_frames(corpus(name + ".frames")) for name, _ in cases}

    # What Java does: every task in one run.
    reads = [(name, codec, corpus(f"ours-{name}.{codec}.avro"),
              work(f"java-read-{name}.{codec}.frames"))
             for name, _ in cases for codec in pc.OUR_CODECS]
    writes = [(name, codec, work(f"java-{name}.{codec}.avro"))
              for name, _ in cases for codec in JAVA_CODECS]
    entries = pc.manifest(args.testdata)
    testdata = [(rel, expect, os.path.join(args.testdata, rel),
                 work("java-" + rel.replace("/", "_") + ".frames")) for rel, expect in entries]
    schemas = pc.canonical_inputs(args.source, args.corpus, args.testdata, work("schemas"))
    refused = pc.refused_inputs(args.testdata)
    pairs = write_pairs(work("pairs"), compat_pairs(args.source))
    java = iter(run_java(args.work,
                         [["read", f, out] for _, _, f, out in reads]
                         + [["write", corpus(n + ".avsc"), corpus(n + ".frames"), codec, str(SYNC), out]
                            for n, codec, out in writes]
                         + [["read", f, out] for _, _, f, out in testdata]
                         + [["canon", path] for _, path in schemas + refused]
                         + [["compat", rp, wp] for _, _, _, rp, wp, _ in pairs]
                         + pc.generated_tasks(args.corpus, args.work, "java", "deflate", SYNC)))

    # What avrogen does: peer_tool, one run per kind of task.
    outs = [work("ours-" + os.path.basename(out)) for _, _, out in writes]
    outs += [work("ours-" + rel.replace("/", "_")) for rel, _ in entries]
    ours_reads = [(f, base + ".frames", base + ".jsonl")
                  for f, base in zip([out for _, _, out in writes] + [f for _, _, f, _ in testdata], outs)]
    ours_read_results = pc.peer_tool(args.peer_tool, "read", [list(t) for t in ours_reads], args.work)
    ours_read = iter(ours_read_results)
    ours_canon = pc.peer_tool(args.peer_tool, "canon", [[path] for _, path in schemas], args.work)
    ours_refused = pc.peer_tool(args.peer_tool, "canon", [[path] for _, path in refused], args.work,
                                "-refused")
    ours_compat = pc.peer_tool(args.peer_tool, "compat", [[rp, wp] for _, _, _, rp, wp, _ in pairs],
                               args.work)

    # 1. Java reads avrogen's files.
    for name, codec, _, out in reads:
        res = next(java)
        if codec not in JAVA_CODECS:
            c.check("refused codec", res[0] == "error" and codec in res[1],
                    f"Java 1.8.2 read avrogen's {codec} file of {name}: {res}; it has no such codec "
                    "(update JAVA_CODECS)")
            continue
        same = os.path.exists(out) and pc.read_frames(out) == ref_frames[name]
        c.check("java reads ours", res[:2] == ["ok", codec] and same,
                f"{name} {codec}: Java {res}, and its datums are {'' if same else 'not '}the reference")

    # 2. Java writes, avrogen reads.
    for (name, codec, out), (_, frames, lines) in zip(writes, ours_reads):
        res, ours = next(java), next(ours_read)
        if c.check("java writes", res[0] == "ok", f"{name} {codec}: Java: {res}"):
            c.check("ours reads java", ours == ["ok", codec, str(len(ref_frames[name]))]
                    and pc.read_frames(frames) == ref_frames[name]
                    and pc.read_lines(lines) == pc.read_lines(corpus(name + ".jsonl")),
                    f"{name} {codec}: avrogen: {ours}, and it decodes "
                    f"{'other values than' if ours[0] == 'ok' else 'less than'} the reference")

    # 3. Apache Avro's own container files.
    java_frames = {}
    for (rel, expect, path, out), (_, frames, _) in zip(testdata, ours_reads[len(writes):]):
        res, ours = next(java), next(ours_read)
        java_frames[rel] = out
        theirs = pc.read_frames(out) if os.path.exists(out) else []
        mine = pc.read_frames(frames) if os.path.exists(frames) else []
        if expect.startswith("like "):
            like = expect.split()[1]
            c.check("testdata", res[0] == "error",
                    f"{rel}: Java 1.8.2 reads it ({res}): compare with Java's reading (MANIFEST)")
            c.check("testdata", ours[0] == "ok" and mine == pc.read_frames(java_frames[like]),
                    f"{rel}: avrogen {ours} does not decode what Java decodes of {like}")
        elif expect.startswith("damaged"):
            n, quiet = int(expect.split()[1]), rel in JAVA_QUIET_DAMAGE
            c.check("testdata", (res[0] == "ok") == quiet and len(theirs) >= n,
                    f"{rel}: Java {res} after {len(theirs)} datums; MANIFEST: {expect}"
                    + ("; JAVA_QUIET_DAMAGE says Java reads it without an error" if quiet else ""))
            k = min(len(mine), len(theirs))
            c.check("testdata", ours[0] == "error" and k >= n and mine[:k] == theirs[:k],
                    f"{rel}: avrogen {ours}, {len(mine)} datums; Java {len(theirs)}; MANIFEST: {expect}")
        elif expect.startswith("reject"):
            c.check("testdata", res[0] == "error" and ours[0] == "error",
                    f"{rel}: Java {res}, avrogen {ours}; MANIFEST: {expect}")
        else:
            c.check("testdata", res[0] == "ok" and ours[:3] == res[:3] and mine == theirs,
                    f"{rel}: Java {res}, avrogen {ours}, "
                    f"{'the same datums' if mine == theirs else 'other datums'}")

    # 4. Canonical forms and fingerprints.
    kat = {label: (canon, fp) for label, _, canon, fp in pc.schema_tests(args.testdata)}
    for (label, path), ours in zip(schemas, ours_canon):
        res = next(java)
        if label.rpartition("/")[2] in JAVA_PARSE_LIMITS:
            c.check("java parse limits", res[0] == "error" and ours[0] == "ok",
                    f"{label}: Java {res}, avrogen {ours[0]}; JAVA_PARSE_LIMITS says only Java refuses it")
            continue
        c.check("canonical", res == ours, f"{label}: Java {res}, avrogen {ours}")
        if label in kat:
            canon, fp = kat[label]
            want = (fp % 2 ** 64).to_bytes(8, "little").hex() if fp is not None else None
            c.check("schema-tests.txt", ours[0] == "ok" and (canon is None or ours[1] == canon)
                    and (want is None or ours[2] == want),
                    f"{label}: avrogen {ours[:3]}, the file {canon} {want}")

    for (label, _), ours in zip(refused, ours_refused):
        res = next(java)
        c.check("refused schemas", res[0] == "error" and ours[0] == "error",
                f"{label}: Java {res[0]}, avrogen {ours[0]}; both must refuse it")

    # 5. Compatibility verdicts.
    limits = []
    for f in JAVA_PARSE_LIMITS:
        with open(os.path.join(args.source, "tests", "data", "schema", "pass", f), encoding="utf-8") as fp:
            limits.append(json.load(fp))
    for (name, rj, wj, rp, wp, dev), ours in zip(pairs, ours_compat):
        res = next(java)
        if res[0] != "ok":
            c.check("java parse limits", rj in limits or wj in limits,
                    f"compat {name}: Java cannot parse it ({res[1]}), and it is none of JAVA_PARSE_LIMITS")
            continue
        theirs, mine = res[1] == "COMPATIBLE", ours[:2] == ["ok", "compatible"]
        if dev is not None:
            entry, spec, today = dev
            if today is not None and mine == today != spec:
                c.note(f"compat {name}: avrogen says {today} until {PENDING}, the spec {spec}")
                spec_or_today = today
            else:
                spec_or_today = spec
            c.check("compat differences",
                    java_deviates(rj, wj) == entry and theirs != spec and mine == spec_or_today,
                    f"{name}: java_deviates says {java_deviates(rj, wj)}, the spec {spec}, avrogen {ours}, "
                    f"Java {res[1]}")
            continue
        why = java_deviates(rj, wj)
        if why:
            c.note(f"compat {name}: left out ({why})")
            continue
        c.check("compat", mine == theirs, f"{name}: Java {res[1]}, avrogen {ours}")

    # 6. Generated code: the struct shapes of issue 11, interop.avsc and holders.
    pc.check_generated(c, args, "java", java, lambda schema: True)

    # The CLI agrees with peer_tool on a sample.
    problems = pc.cli_sample(
        args.avrogen, [(path, res) for (_, path), res in list(zip(schemas, ours_canon))[::40]],
        [(f, lines, res) for (f, _, lines), res in list(zip(ours_reads, ours_read_results))[::40]],
        [(rp, wp, res) for (_, _, _, rp, wp, _), res in list(zip(pairs, ours_compat))[::60]])
    c.check("cli", not problems, "; ".join(problems))

    # Floors: what a run does; the test data's part only when it is there.
    c.floor("java reads ours", len(cases) * len(JAVA_CODECS))
    c.floor("java writes", len(cases) * len(JAVA_CODECS))
    c.floor("ours reads java", len(cases) * len(JAVA_CODECS))
    c.floor("refused codec", len(cases))
    c.floor("canonical", 70 + (60 if entries else 0))
    c.floor("compat", 380)
    c.floor("compat differences", len(DIFFERENCES))
    if entries:
        c.floor("refused schemas", 12)
        c.floor("testdata", len(entries))
        c.floor("schema-tests.txt", 30)
    if len(cases) < 20:
        c.failures.append(f"the corpus has {len(cases)} cases, fewer than 20")


def write_pairs(tmp, pairs):
    """[(name, reader, writer, reader path, writer path, difference or None)]:
    the compat pairs and DIFFERENCES, each schema written to
    a file in tmp."""
    os.makedirs(tmp)
    rows = [(n, r, w, None) for n, r, w in pairs]
    rows += [(f"{d} {i}", r, w, (d, ours, today)) for i, (d, r, w, ours, today) in enumerate(DIFFERENCES)]
    out = []
    for i, (name, rj, wj, dev) in enumerate(rows):
        rp, wp = os.path.join(tmp, f"{i}r.avsc"), os.path.join(tmp, f"{i}w.avsc")
        for path, schema in ((rp, rj), (wp, wj)):
            with open(path, "w", encoding="utf-8") as f:
                json.dump(schema, f)
        out.append((name, rj, wj, rp, wp, dev))
    return out

if __name__ == "__main__":
    sys.exit(pc.peer_main("java_peer", sys.argv[1:], test))
