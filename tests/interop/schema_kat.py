#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check avrogen's schema parser against python3-avro 1.11.1 on the corpus.

usage: schema_kat.py [AVROGEN] CORPUS_DIR [--test-source FILE]
       schema_kat.py --print-kat FILE.avsc...

For every CORPUS_DIR/pass/*.avsc, Python's avro computes the Parsing Canonical
Form and we derive the CRC-64-AVRO, MD5 and SHA-256 fingerprints from it; when
AVROGEN (the avrogen binary) is given, `avrogen canonical` and `avrogen
fingerprint --algo crc64|md5|sha256` must print the same. For every
CORPUS_DIR/fail/*.avsc, Python must reject it too, unless the file is listed in
PYTHON_LENIENT with the reason, and avrogen must exit 1 with an error line.
The known-answer table of tests/runtime/test_schema.c (between KAT-BEGIN and
KAT-END) is rechecked against Python as well, so the C test never carries a
number that no peer produced.

Conventions: python3-avro 1.11.1 has no Schema.fingerprint(); we compute the
fingerprints here, CRC-64-AVRO from the spec's algorithm. `avrogen fingerprint
--algo crc64` prints the 64-bit value as its 8 little-endian bytes in hex (the
order of the single-object encoding header, and what newer python-avro's
fingerprint() returns); md5 and sha256 print the digest bytes in hex.

Python 1.11.1's canonical form departs from the specification in two ways that
we correct (spec_fixups) before comparing: a primitive written as an object
with other attributes (a logicalType, a custom property) comes out as
{"type":"int"} instead of "int" ([PRIMITIVES], [STRIP]), and a fixed type is
written in full at every occurrence instead of by fullname after the first.

Exit status 0 when everything agrees, 1 on any mismatch, 2 on bad usage.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import warnings

import avro.errors
import avro.schema

# Fail-corpus files that python3-avro 1.11.1 accepts, and why we reject them.
PYTHON_LENIENT = {
    "json_duplicate_key.avsc": "Python's json keeps the last duplicate key; we reject the ambiguity",
    "enum_symbols_not_array.avsc": "Python iterates a string as a sequence of one-letter symbols",
    "field_name_invalid.avsc": "Python 1.11.1 does not validate field names",
    "field_doc_not_string.avsc": "Python does not check that doc is a string",
    "field_aliases_not_array.avsc": "Python does not validate aliases",
    "field_alias_invalid.avsc": "Python does not validate aliases",
    "named_alias_invalid.avsc": "Python does not validate aliases",
    "redefine_primitive_in_namespace.avsc":
        "spec: primitive names may not be defined in any namespace; Python only checks the null namespace",
    "union_duplicate_named.avsc": "Python does not notice the same named type twice in a union",
}
# Every fail/default_* file: Field.__init__ in 1.11.1 has "TODO(hammer): check
# to ensure default is valid" and validates no default at all.
PYTHON_LENIENT_PREFIX = ("default_", "Python 1.11.1 does not validate field defaults")

# Pass-corpus files where Python is wrong by the specification; avrogen's
# output is still checked for self-consistency (fingerprints of its own text).
PYTHON_DEVIATES = {
    "type_reference_object_form.avsc":
        "Python rejects {\"type\": \"Kind\"} naming a defined type; Java reads it as a reference",
    "namespace_nested_null_namespace.avsc":
        "Python ignores \"namespace\": \"\" on a nested type (spec: the empty string is the null namespace)",
    "type_error_is_a_record.avsc":
        "Python's canonical form keeps \"type\": \"error\"; Java's SchemaNormalization writes "
        "\"record\", and fingerprints follow Java",
}

PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
CRC64_EMPTY = 0xC15D213AA4D7A795


def crc64_avro(data):
    """spec §Schema Fingerprints: the 64-bit Rabin fingerprint."""
    table = []
    for i in range(256):
        fp = i
        for _ in range(8):
            fp = (fp >> 1) ^ (CRC64_EMPTY & -(fp & 1))
        table.append(fp)
    fp = CRC64_EMPTY
    for byte in data:
        fp = (fp >> 8) ^ table[(fp ^ byte) & 0xFF]
    return fp


def spec_fixups(canonical):
    """Correct python3-avro 1.11.1's two departures from the spec's PCF."""
    seen = set()

    def walk(node):
        if isinstance(node, list):
            return [walk(n) for n in node]
        if isinstance(node, dict):
            if list(node) == ["type"] and node["type"] in PRIMITIVES:
                return node["type"]
            if node.get("type") in ("record", "enum", "fixed") and "name" in node:
                if node["name"] in seen:
                    return node["name"]
                seen.add(node["name"])
            return {k: walk(v) for k, v in node.items()}
        return node

    return json.dumps(walk(json.loads(canonical)), separators=(",", ":"))


def python_expected(path):
    """(canonical, crc64, md5 hex, sha256 hex) for a schema file, per Python + the spec."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ignored logical types warn
        schema = avro.schema.from_path(path)
    canonical = spec_fixups(schema.canonical_form)
    raw = canonical.encode("utf-8")
    return (canonical, crc64_avro(raw), hashlib.md5(raw).hexdigest(),
            hashlib.sha256(raw).hexdigest())


def python_rejects(path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            avro.schema.from_path(path)
    except (avro.errors.AvroException, ValueError, TypeError, RecursionError):
        return True  # SchemaParseException and InvalidName are AvroExceptions; JSON errors ValueErrors
    return False


def run(avrogen, *args):
    proc = subprocess.run([avrogen, *args], capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("MISMATCH: " + what)


def check_avrogen_pass(t, avrogen, path, canonical, crc, md5, sha):
    name = os.path.basename(path)
    rc, out, err = run(avrogen, "canonical", path)
    t.check(rc == 0 and out == canonical + "\n",
            f"{name}: avrogen canonical -> rc {rc}, {out.strip()!r} {err.strip()!r}; want {canonical!r}")
    for algo, want in (("crc64", crc.to_bytes(8, "little").hex()), ("md5", md5), ("sha256", sha)):
        rc, out, err = run(avrogen, "fingerprint", path, "--algo", algo)
        t.check(rc == 0 and out == want + "\n",
                f"{name}: avrogen fingerprint --algo {algo} -> rc {rc}, {out.strip()!r} "
                f"{err.strip()!r}; want {want}")


def check_corpus(t, avrogen, corpus):
    for name in sorted(os.listdir(os.path.join(corpus, "pass"))):
        if not name.endswith(".avsc"):
            continue
        path = os.path.join(corpus, "pass", name)
        if name in PYTHON_DEVIATES:
            print(f"note: {name}: {PYTHON_DEVIATES[name]}")
            if avrogen:
                rc, out, err = run(avrogen, "canonical", path)
                t.check(rc == 0, f"{name}: avrogen canonical failed: {err.strip()}")
                raw = out.rstrip("\n").encode("utf-8")
                check_avrogen_pass(t, avrogen, path, raw.decode("utf-8"), crc64_avro(raw),
                                   hashlib.md5(raw).hexdigest(), hashlib.sha256(raw).hexdigest())
            continue
        try:
            expected = python_expected(path)
        except Exception as e:  # noqa: BLE001 - any failure is a corpus mismatch
            t.check(False, f"{name}: python3-avro rejects a pass schema: {e}")
            continue
        t.check(True, name)
        if avrogen:
            check_avrogen_pass(t, avrogen, path, *expected)

    for name in sorted(os.listdir(os.path.join(corpus, "fail"))):
        if not name.endswith(".avsc"):
            continue
        path = os.path.join(corpus, "fail", name)
        reason = PYTHON_LENIENT.get(name)
        if reason is None and name.startswith(PYTHON_LENIENT_PREFIX[0]):
            reason = PYTHON_LENIENT_PREFIX[1]
        rejected = python_rejects(path)
        if reason is not None:
            # A listed leniency that Python fixed would make the list stale.
            t.check(not rejected, f"{name}: listed as Python-lenient but Python rejects it")
            print(f"note: {name}: Python accepts it: {reason}")
        else:
            t.check(rejected, f"{name}: python3-avro accepts a fail schema")
        if avrogen:
            rc, out, err = run(avrogen, "canonical", path)
            t.check(rc == 1 and err.startswith("avrogen: error:") and out == "",
                    f"{name}: avrogen canonical -> rc {rc}, stdout {out!r}, stderr {err!r}")


C_STRING = r'"(?:[^"\\\n]|\\.)*"'
KAT_ROW = re.compile(
    r"\{\s*(" + C_STRING + r")\s*,\s*((?:" + C_STRING + r"\s*)+),\s*UINT64_C\((0x[0-9a-f]{16})\)\s*,"
    r"\s*\"([0-9a-f]{32})\"\s*,\s*\"([0-9a-f]{64})\"\s*\}")


def c_unquote(literals):
    """The value of adjacent C string literals using only \\" and \\\\ escapes."""
    parts = re.findall(C_STRING, literals)
    return "".join(re.sub(r"\\(.)", r"\1", p[1:-1]) for p in parts)


def check_kat_table(t, corpus, source):
    with open(source, encoding="utf-8") as f:
        text = f.read()
    begin, end = text.find("/* KAT-BEGIN */"), text.find("/* KAT-END */")
    if begin < 0 or end < begin:
        t.check(False, f"{source}: no KAT-BEGIN/KAT-END table")
        return
    rows = KAT_ROW.findall(text[begin:end])
    t.check(len(rows) > 0, f"{source}: KAT table has no rows")
    for file_lit, canon_lit, crc, md5, sha in rows:
        name = c_unquote(file_lit)
        canonical, want_crc, want_md5, want_sha = python_expected(os.path.join(corpus, "pass", name))
        row = (c_unquote(canon_lit), int(crc, 16), md5, sha)
        t.check(row == (canonical, want_crc, want_md5, want_sha),
                f"KAT {name}: test_schema.c has {row}, Python gives "
                f"{(canonical, want_crc, want_md5, want_sha)}")


def c_literals(text, width=88):
    """`text` as adjacent C string literals of at most `width` characters each."""
    escaped = [c if c not in '"\\' else "\\" + c for c in text]
    lines, cur = [], ""
    for piece in escaped:
        if len(cur) + len(piece) > width - 2:
            lines.append('"' + cur + '"')
            cur = ""
        cur += piece
    lines.append('"' + cur + '"')
    return "\n     ".join(lines)


def print_kat(paths):
    """Rows for the KAT table of test_schema.c, from Python (see the module doc)."""
    for path in paths:
        canonical, crc, md5, sha = python_expected(path)
        print(f'    {{"{os.path.basename(path)}",\n     {c_literals(canonical)},\n'
              f'     UINT64_C(0x{crc:016x}), "{md5}",\n     "{sha}"}},')


def main(argv):
    if argv[:1] == ["--print-kat"]:
        print_kat(argv[1:])
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "..", "runtime", "test_schema.c")
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--test-source" and i + 1 < len(argv):
            source = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) not in (1, 2):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    avrogen = args[0] if len(args) == 2 else None
    corpus = args[-1]

    t = Tally()
    check_corpus(t, avrogen, corpus)
    check_kat_table(t, corpus, source)
    if avrogen is None:
        print("note: no avrogen binary given; checked the corpus and KAT table against Python only")
    # A floor: a case list or peer that went missing must not pass (issue 12).
    if t.passed < 400:
        print(f"FAIL: only {t.passed} checks passed, below the floor of 400")
        return 1
    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
