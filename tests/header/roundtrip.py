#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The `avrogen header` round trip over every schema we can find.

Schemas: every valid example of python3-avro's own test_schema.py, Apache
Avro's shared test schemas and avro-c's schema suite (../shared/apache-avro-
testdata), the embedded schemas of its container files, this project's
tests/data/schema/pass, the schemas its golden, codegen, CMake and fuzz tests
derive or hold, and the bench workloads. A schema whose root is not a
record must be refused (a header holds records); it is then wrapped as the one
field of a record, which encodes the same, and that must round trip.

For each schema that should round trip:
  1. `avrogen header` writes the header (it proves the round trip itself; this
     test checks the proof independently);
  2. the schema the generator derives from the header (the .avsc `avrogen
     generate` writes, the same as `avrogen schema`'s) has the input's
     Parsing Canonical Form as
     python3-avro computes it, and the same doc, aliases, defaults, orders and
     logical types (compared here, in Python, from the JSON);
  3. the header and the code `avrogen generate` writes for it compile with
     -Wall -Wextra -Wpedantic -Wconversion -Werror as C11 (gcc, clang) and
     C++17 (g++, clang++);
  4. datums python3-avro writes (random ones for every schema, plus the real
     data files: weather, the container files, and python3-avro's interop
     datum for interop.avsc, which must be there) decode through the
     generated code and re-encode to the same bytes.

A schema that cannot be represented must be refused with the reason listed in
UNREPRESENTABLE; the test fails if one of them gets a header, if any other
schema does not, or if a listed reason is not what avrogen says. Every
invalid schema of tests/data/schema/fail must be an error naming its file.

The steps run over all cases at once (see "running the tools" below): about
350 cases in well under a minute of two cores.
"""
import argparse
import concurrent.futures
import datetime
import decimal
import glob
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
import warnings

import avro.datafile
import avro.errors
import avro.io
import avro.schema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import notrun  # noqa: E402



class Strict(str):
    """A reason avrogen's schema parser gives where python3-avro 1.11.1 and Java
    accept the schema. Expected while `avrogen canonical` refuses the schema;
    once the parser accepts it (issue 12: "namespace": null as none given,
    "error" as a record), the case must round trip like any other."""


# Schemas with no header, and the words avrogen's reason must contain.
NULL_NAMESPACE = Strict('"namespace" must be a string, not null')
UNREPRESENTABLE = {
    # The project's schema parser follows the specification where python3-avro
    # 1.11.1 is lenient: these are not valid schemas.
    "test_schema.py[18]": NULL_NAMESPACE,
    "test_schema.py[18] (wrapped)": NULL_NAMESPACE,
    "test_schema.py[29]": "is a primitive type name and cannot be redefined",
    "test_schema.py[29] (wrapped)": "is a primitive type name and cannot be redefined",
    "test_schema.py[30]": "is a primitive type name and cannot be redefined",
    "test_schema.py[30] (wrapped)": "is a primitive type name and cannot be redefined",
    "test_schema.py[33]": "is a primitive type name and cannot be redefined",
    "test_schema.py[36]": Strict("unknown type 'error'"),  # a protocol's error type
    # No finite value exists: a record holds itself with no null, array or map between.
    "lang/c/tests/schema_tests/pass/namespace_fullname": "no finite value",
    "lang/c/tests/schema_tests/pass/namespace_null_record": "no finite value",
    "lang/c/tests/schema_tests/pass/namespace_simple": "no finite value",
    "tests/data/schema/pass/enum_no_symbols.avsc (wrapped)": "without symbols",
    "tests/data/schema/pass/union_empty.avsc (wrapped)": "empty union",
    "tests/data/schema/pass/fixed_zero_size.avsc (wrapped)": "size 0",
    # What the C -> Avro mapping cannot express.
    # "Plain" inside namespace ns means ns.Plain (spec §Names); Java's lookup and
    # avrogen's parser fall back to the null namespace, the generator writes none.
    "tests/data/schema/pass/namespace_nested_null_namespace.avsc": "referred to again from inside",
    "tests/data/schema/pass/string_escapes.avsc": "U+0000",
    "tests/data/schema/pass/record_field_defaults.avsc": "U+0000",
    # Arrays of arrays 200 and 300 deep: holders nest at most 32 deep (clang
    # takes 256 levels of brackets, C11 promises 127 levels of blocks).
    "tests/data/schema/pass/nesting_200_levels.avsc (wrapped)": "nested more than 32 deep",
    "tests/data/schema/pass/nesting_300_levels.avsc (wrapped)": "nested more than 32 deep",
}

PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


# ---- the corpus ---------------------------------------------------------------

class Case:
    def __init__(self, name, text, data=None, container=None):
        self.name = name          # how the report names it
        self.text = text          # schema JSON
        self.data = data or []    # python values of the root type (real data)
        self.container = container  # the .avro file the schema came from (--from-file)
        self.fail = None          # why the case failed (the first failure only)
        self.done = None          # why the case ended early, as it must
        self.notes = []
        self.blobs = None


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def container_data(path):
    """The schema and records of a container file, as python3-avro reads them."""
    with open(path, "rb") as f, avro.datafile.DataFileReader(f, avro.io.DatumReader()) as r:
        schema = r.meta["avro.schema"].decode()
        return schema, list(r)


def header_schema(path):
    """A container file's schema, read by python3-avro's own header schema."""
    with open(path, "rb") as f:
        header = avro.io.DatumReader(avro.datafile.META_SCHEMA).read(avro.io.BinaryDecoder(f))
    return header["meta"]["avro.schema"].decode()


def collect(repo, testdata):
    cases = []
    from avro.test import test_schema
    for i, ex in enumerate(test_schema.VALID_EXAMPLES):
        cases.append(Case(f"test_schema.py[{i}]", str(ex)))
    share = os.path.join(testdata, "share/test")
    for path in sorted(glob.glob(os.path.join(share, "schemas/*.avsc"))):
        cases.append(Case(os.path.relpath(path, testdata), read(path)))
    for path in sorted(glob.glob(os.path.join(share, "data/schemas/*/schema.json"))):
        _, records = container_data(os.path.join(os.path.dirname(path), "data.avro"))
        cases.append(Case(os.path.relpath(path, testdata), read(path), records))
    path = os.path.join(share, "data/messageV1/test_schema.avsc")
    cases.append(Case(os.path.relpath(path, testdata), read(path)))
    for path in sorted(glob.glob(os.path.join(testdata, "lang/c/tests/schema_tests/pass/*"))):
        cases.append(Case(os.path.relpath(path, testdata), read(path)))
    # Container files: the header comes from the file (--from-file), the data too.
    for rel in ["share/test/data/weather.avro", "share/test/data/weather-deflate.avro",
                "share/test/data/syncInMeta.avro", "share/test/data/weather-sorted.avro",
                "lang/js/test/dat/person-10.avro",
                "lang/c/tests/avro-1237-good.avro", "lang/c/tests/avro-1238-good.avro",
                "lang/c/tests/avro-1279-codec.avro", "lang/c/tests/avro-1279-no-codec.avro"]:
        path = os.path.join(testdata, rel)
        schema, records = container_data(path)
        cases.append(Case(rel, schema, records, container=path))
    # Codecs python3-avro cannot decompress here (no python3-snappy or zstandard):
    # the schema from the file's header as python3-avro reads it, the records
    # those of weather.avro, which the Avro project wrote the same.
    _, weather = container_data(os.path.join(share, "data/weather.avro"))
    for rel in ["share/test/data/weather-snappy.avro", "share/test/data/weather-zstd.avro"]:
        path = os.path.join(testdata, rel)
        cases.append(Case(rel, header_schema(path), weather, container=path))
    for path in sorted(glob.glob(os.path.join(repo, "tests/data/schema/pass/*.avsc"))):
        cases.append(Case(os.path.relpath(path, repo), read(path)))
    # The project's own schemas: the golden tests' derived ones, the earlier
    # versions of the codegen and CMake tests, the fuzz seed, and the header tests'.
    for pattern in ["tests/header/schemas/*.avsc", "tests/golden/*/expected/*.avsc",
                    "tests/codegen/earlier/*.avsc", "tests/fuzz/corpus/*.avsc",
                    "tests/cmake/projects/*/schemas/*.avsc",
                    "tests/cmake/projects/*/schemas/*/*.avsc"]:
        for path in sorted(glob.glob(os.path.join(repo, pattern))):
            cases.append(Case(os.path.relpath(path, repo), read(path)))
    for path in sorted(glob.glob(os.path.join(repo, "bench/workloads/*.avsc")) +
                       glob.glob(os.path.join(repo, "bench/workloads/earlier/*.avsc"))):
        cases.append(Case(os.path.relpath(path, repo), read(path)))
    # The interop datum python3-avro's own interop generator writes.
    from avro.test import gen_interop_data
    interop = [c for c in cases if c.name == "share/test/schemas/interop.avsc"]
    if not interop:
        sys.exit("FAIL: no share/test/schemas/interop.avsc among the schemas: its datum must run")
    for c in interop:
        c.data.append(gen_interop_data.DATUM)
    return cases


def wrapped(case):
    """A non-record root as the one field of a record: the same binary encoding."""
    inner = json.loads(case.text)
    names = set(re.findall(r'"name"\s*:\s*"([^"]*)"', case.text))
    name = "Wrapper"
    while name in names:
        name += "_"
    text = json.dumps({"type": "record", "name": name, "fields": [{"name": "value", "type": inner}]})
    return Case(case.name + " (wrapped)", text, [{"value": d} for d in case.data])


# ---- the JSON facts a round trip keeps ----------------------------------------

def decimal_ok(j, kind, size):
    p, s = j.get("precision"), j.get("scale", 0)
    if not isinstance(p, int) or isinstance(p, bool) or p <= 0:
        return False
    if not isinstance(s, int) or isinstance(s, bool) or s < 0 or s > p:
        return False
    if kind == "fixed":
        import math
        return p <= math.floor(math.log10(2) * (8 * size - 1))
    return kind == "bytes"


def logical(j, kind, size=None):
    """The logical type of a schema object if the specification keeps it (spec
    §Logical Types: one that does not fit is ignored), with its attributes."""
    lt = j.get("logicalType")
    fits = {
        "date": kind == "int", "time-millis": kind == "int",
        "time-micros": kind == "long", "timestamp-millis": kind == "long",
        "timestamp-micros": kind == "long", "timestamp-nanos": kind == "long",
        "local-timestamp-millis": kind == "long", "local-timestamp-micros": kind == "long",
        "local-timestamp-nanos": kind == "long",
        "uuid": kind == "string" or (kind == "fixed" and size == 16),
        "duration": kind == "fixed" and size == 12,
    }
    if lt == "decimal" and decimal_ok(j, kind, size):
        return {"logicalType": "decimal", "precision": j["precision"], "scale": j.get("scale", 0)}
    if isinstance(lt, str) and fits.get(lt):
        return {"logicalType": lt}
    return {}


def normalize(text):
    """The schema as a tree of exactly what a header must carry: full names,
    qualified aliases, docs, defaults (as JSON), non-default orders, and the
    logical types the specification keeps. Named types appear once, then as
    {"ref": fullname}."""
    defined = set()

    def fullname(name, space):
        if "." in name:
            return name
        return f"{space}.{name}" if space else name

    def ref(name, space):
        if name in PRIMITIVES:
            return name
        full = fullname(name, space)
        # Java's lookup, which the project's parser follows: the null namespace next.
        return {"ref": full if full in defined or "." in name else name}

    def named(j, space):
        name = j["name"]
        if "." in name:
            own = name.rsplit(".", 1)[0]
        elif j.get("namespace") is not None:  # null: none given (Java, Python)
            own = j["namespace"] or None
        else:
            own = space
        full = fullname(name.rsplit(".", 1)[-1], own)
        defined.add(full)
        out = {"type": "record" if j["type"] == "error" else j["type"], "name": full}
        if "doc" in j:
            out["doc"] = j["doc"]
        if j.get("aliases"):
            out["aliases"] = [fullname(a, own) for a in j["aliases"]]
        return out, own

    def norm(j, space):
        if isinstance(j, str):
            return ref(j, space)
        if isinstance(j, list):
            return [norm(b, space) for b in j]
        t = j["type"]
        if not isinstance(t, str):
            return norm(t, space)
        if t in ("record", "error"):
            out, own = named(j, space)
            fields = []
            for f in j["fields"]:
                nf = {"name": f["name"], "type": norm(f["type"], own)}
                for k in ("doc",):
                    if k in f:
                        nf[k] = f[k]
                if f.get("aliases"):
                    nf["aliases"] = list(f["aliases"])
                if "default" in f:
                    nf["default"] = json.dumps(f["default"])
                if f.get("order", "ascending") != "ascending":
                    nf["order"] = f["order"]
                fields.append(nf)
            out["fields"] = fields
            return out
        if t == "enum":
            out, _ = named(j, space)
            out["symbols"] = j["symbols"]
            if "default" in j:
                out["default"] = j["default"]
            return out
        if t == "fixed":
            out, _ = named(j, space)
            out["size"] = j["size"]
            out.update(logical(j, "fixed", j["size"]))
            return out
        if t == "array":
            return {"type": "array", "items": norm(j["items"], space)}
        if t == "map":
            return {"type": "map", "values": norm(j["values"], space)}
        if t in PRIMITIVES:
            lt = logical(j, t)
            return dict({"type": t}, **lt) if lt else t
        return ref(t, space)

    return norm(json.loads(text), None)


def first_difference(a, b, path="schema"):
    if type(a) != type(b):
        return f"{path}: {json.dumps(a)[:200]} became {json.dumps(b)[:200]}"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}: {'missing' if k not in b else 'added'} in the derived schema"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} elements became {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} became {b!r}"


# ---- random datums ------------------------------------------------------------

def random_string(rng, n):
    # Any Unicode scalar value but NUL (a char * cannot hold it) and the surrogates.
    out = []
    for _ in range(n):
        c = rng.choice([rng.randint(1, 0x7F), rng.randint(0x80, 0x7FF), rng.randint(0x800, 0xD7FF),
                        rng.randint(0xE000, 0x10FFFF)])
        out.append(chr(c))
    return "".join(out)


def random_value(rng, s, depth):
    t = s.type
    lt = getattr(s, "logical_type", None)
    deep = depth > 5
    if t == "null":
        return None
    if t == "boolean":
        return rng.random() < 0.5
    # python3-avro takes the logical types it knows only as Python objects.
    if lt == "date":
        return datetime.date(1970, 1, 1) + datetime.timedelta(days=rng.randint(-719162, 2932896))
    if lt in ("time-millis", "time-micros"):
        us = rng.randint(0, 86399999) * 1000 if lt == "time-millis" else rng.randint(0, 86399999999)
        return (datetime.datetime(2000, 1, 1) + datetime.timedelta(microseconds=us)).time()
    if lt in ("timestamp-millis", "timestamp-micros"):
        us = rng.randint(-62135596800000000, 253402300799999999)
        if lt == "timestamp-millis":
            us -= us % 1000
        return EPOCH + datetime.timedelta(microseconds=us)
    if t == "int":
        return rng.choice([0, -1, 1, 63, -64, 2**31 - 1, -2**31, rng.randint(-2**31, 2**31 - 1)])
    if t == "long":
        return rng.choice([0, -1, 2**63 - 1, -2**63, rng.randint(-2**63, 2**63 - 1)])
    if t == "float":
        return rng.choice([0.0, -1.5, 3.25, 1e-3, 1e30])
    if t == "double":
        return rng.choice([0.0, -1.5, 1e300, rng.uniform(-1e9, 1e9)])
    if t == "bytes":
        if lt == "decimal":
            # The generated code holds decimal bytes in an int64_t and writes the
            # shortest two's complement; python3-avro writes one byte more for
            # -2^k (e.g. -128 as ff 80): such values are left out (DESIGN.md).
            p = min(s.get_prop("precision"), 18)
            while True:
                v = rng.randint(-(10**p - 1), 10**p - 1)
                if not (v < 0 and (-v & (-v - 1)) == 0):
                    break
            return decimal.Decimal(v).scaleb(-s.get_prop("scale") or 0)
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
    if t == "string":
        if lt == "uuid":
            return str(uuid.UUID(int=rng.getrandbits(128)))
        return random_string(rng, rng.randint(0, 8))
    if t == "fixed":
        if lt == "decimal":
            p = s.get_prop("precision")
            v = rng.randint(-(10**p - 1), 10**p - 1)
            return decimal.Decimal(v).scaleb(-(s.get_prop("scale") or 0))
        return bytes(rng.randrange(256) for _ in range(s.size))
    if t == "enum":
        return rng.choice(s.symbols)
    if t == "array":
        return [random_value(rng, s.items, depth + 1) for _ in range(0 if deep else rng.randint(0, 3))]
    if t == "map":
        n = 0 if deep else rng.randint(0, 3)
        return {random_string(rng, rng.randint(0, 5)) + str(i): random_value(rng, s.values, depth + 1)
                for i in range(n)}
    if t == "union" or t == "error_union":
        branches = s.schemas
        if deep and any(b.type == "null" for b in branches):
            return None
        return random_value(rng, rng.choice(branches), depth + 1)
    if t in ("record", "error", "request"):
        return {f.name: random_value(rng, f.type, depth + 1) for f in s.fields}
    raise ValueError(f"no random value for {t}")


def encode(schema, value):
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # logical types given as plain ints
        avro.io.DatumWriter(schema).write(value, avro.io.BinaryEncoder(out))
    return out.getvalue()


def too_big(j, seen=None):
    """Whether a schema has a fixed too large to make random values of."""
    if isinstance(j, list):
        return any(too_big(b) for b in j)
    if isinstance(j, dict):
        if j.get("type") == "fixed" and j.get("size", 0) > 65536:
            return True
        return any(too_big(v) for k, v in j.items() if k in ("type", "items", "values", "fields"))
    return False


def datums(case, text, count=40):
    """python3-avro's encodings of the case's real data, then random values,
    for the schema `text` (the case's own, or the derived one when python3-avro
    cannot parse the case's)."""
    schema = avro.schema.parse(text)
    if too_big(json.loads(case.text)):
        count = 0
    rng = random.Random(case.name)
    out = [encode(schema, v) for v in case.data]
    tries = 0
    while len(out) < len(case.data) + count and tries < count * 5:
        tries += 1
        try:
            out.append(encode(schema, random_value(rng, schema, 0)))
        except (avro.errors.AvroException, RecursionError, IndexError):
            continue  # a value python3-avro will not write, or no value at all
        except (AttributeError, TypeError):
            # python3-avro 1.11.1 bug: validating a union with a uuid branch
            # calls uuid.UUID() on whatever the value is (an int, say) and
            # raises; it cannot write such values at all.
            continue
    return out


def full_root_name(root):
    name = root["name"]
    if "." in name or not root.get("namespace"):
        return name
    return f"{root['namespace']}.{name}"


def simple_primitives(j):
    if isinstance(j, list):
        return [simple_primitives(x) for x in j]
    if isinstance(j, dict):
        if list(j) == ["type"] and j["type"] in PRIMITIVES:
            return j["type"]
        return {k: "record" if k == "type" and v == "error" else simple_primitives(v)
                for k, v in j.items()}
    return j


def python_pcf(text):
    """python3-avro's Parsing Canonical Form. 1.11.1 keeps a primitive that had
    other attributes (an ignored logicalType, say) as {"type": "string"};
    spec [PRIMITIVES] makes it "string", which this corrects. It also keeps a
    protocol's "error" type, which Java's SchemaNormalization (and avrogen)
    write as "record"; that is taken as "record" too."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pcf = avro.schema.parse(text).canonical_form
    return json.dumps(simple_primitives(json.loads(pcf)), separators=(",", ":"))


def avrogen_pcf(env, text):
    rc, out, err = run([env.avrogen, "canonical", "-"], input_text=text)
    return out.strip() if rc == 0 else f"(avrogen canonical failed: {err.strip()})"


# ---- running the tools --------------------------------------------------------

# ---- running the tools --------------------------------------------------------
#
# Every step runs over all cases at once, in as few processes as it can: one
# `avrogen header` for every schema that should get a header, one `avrogen
# generate` per group of headers whose record names do not collide, one
# compiler run per compiler and chunk of files, and one executable that holds
# every case's generated code (each case's object keeps only its entry point
# global, so the cases' functions of the same name do not collide) and runs the
# cases one child process each. A batch that fails is rerun case by case, so a
# failure is always reported against its schema.

JOBS = os.cpu_count() or 2
CHUNK = 24


def run(cmd, cwd=None, input_text=None):
    p = subprocess.run(cmd, cwd=cwd, input=input_text, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def pool_map(fn, items):
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        return list(pool.map(fn, items))


def chunks(items, n=CHUNK):
    return [items[i:i + n] for i in range(0, len(items), n)]


class Env:
    def __init__(self, args):
        self.avrogen = os.path.abspath(args.avrogen)
        self.include = os.path.abspath(args.include)
        self.include_flags = ["-I" + self.include, "-I" + os.path.abspath(args.runtime_include)]
        self.runtime_lib = os.path.abspath(args.runtime_lib)
        self.driver = os.path.abspath(args.driver)
        self.main_c = os.path.join(os.path.dirname(self.driver), "main.c")
        self.compilers = []
        for cc, lang in (("gcc", "c"), ("clang", "c"), ("g++", "cxx"), ("clang++", "cxx")):
            path = shutil.which(cc)
            if path:
                self.compilers.append((cc, path, lang))
            elif cc == "gcc":
                sys.exit("roundtrip: gcc is needed")
        self.warnings = ["-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Wshadow",
                         "-Wcast-qual", "-Wundef", "-Werror"]

    def lang_flags(self, lang):
        # Every case compiles after the C library's and POSIX's headers, with
        # their macros (EINVAL, SEEK_SET, NAN, I, O_RDONLY, M_PI...) defined:
        # no name of a header may be one of them (issue 26).
        std = ["-D_DEFAULT_SOURCE"] + [f for h in STD_HEADERS for f in ("-include", h)]
        if lang == "c":
            return ["-std=c11", "-Wmissing-prototypes", "-Wstrict-prototypes"] + std + \
                ["-include", "complex.h"]
        return ["-x", "c++", "-std=c++17"] + std


# The standard headers every generated header must compile after (C and C++;
# C adds <complex.h>, whose I is a macro there only).
STD_HEADERS = ["errno.h", "stdio.h", "stdlib.h", "math.h", "signal.h", "fcntl.h", "limits.h",
               "float.h", "inttypes.h", "time.h", "locale.h", "fenv.h", "sys/stat.h"]


def fail(case, msg):
    if case.fail is None:
        case.fail = msg


def live(cases):
    return [c for c in cases if c.fail is None and c.done is None]


def root_tag(header, fullname):
    """The C tag of the root record, from its AVRO_RECORD line."""
    name = fullname.rsplit(".", 1)[-1]
    space = fullname.rsplit(".", 1)[0] if "." in fullname else None
    want = f'name = "{name}"' + (f', namespace = "{space}"' if space else "")
    for m in re.finditer(r"struct AVRO_RECORD\((.*?)\)\s+(\w+) \{", header, re.S):
        opts = m.group(1)
        if opts == want or opts.startswith(want + ","):
            return m.group(2)
    return None


def record_names(tree, out=None):
    """The full names of the records a normalized schema defines."""
    out = set() if out is None else out
    if isinstance(tree, list):
        for b in tree:
            record_names(b, out)
    elif isinstance(tree, dict):
        if tree.get("type") == "record" and "fields" in tree:
            out.add(tree["name"])
            for f in tree["fields"]:
                record_names(f["type"], out)
        for k in ("items", "values"):
            if k in tree:
                record_names(tree[k], out)
    return out


# 1. avrogen header: the refusals one by one, the rest in one run.
def step_header(env, cases, work):
    os.makedirs(os.path.join(work, "in"))
    for c in cases:
        if c.container:
            c.input = f"in/{c.id}.avro"
            shutil.copyfile(c.container, os.path.join(work, c.input))
        else:
            c.input = f"in/{c.id}.avsc"
            with open(os.path.join(work, c.input), "w") as f:
                f.write(c.text)

    def args(c):
        return ["--from-file", c.input] if c.container else [c.input]

    def refusal(c):
        rc, _, err = run([env.avrogen, "header"] + args(c) + ["-o", f"refused/{c.id}"], cwd=work)
        if c.expect is not None:
            if rc == 0:
                fail(c, f"listed as unrepresentable ({c.expect}) but got a header")
            elif rc != 1 or c.expect not in err:
                fail(c, f"refused (rc {rc}), but not because {c.expect!r}:\n{err}")
            else:
                c.done = f"refused as listed: {c.expect}"
        elif rc != 1 or "not a record" not in err:
            fail(c, f"a non-record root must be refused (rc {rc}): {err.strip()}")
        else:
            c.done = "refused (not a record); wrapped below"

    pool_map(refusal, [c for c in cases if c.refuse])
    good = [c for c in cases if not c.refuse]
    if not good:
        return
    cmd = [env.avrogen, "header"] + [a for c in good for a in args(c)] + ["-o", "h"]
    rc, _, err = run(cmd, cwd=work)
    for c in good:
        c.header = os.path.join(work, "h", c.id + ".h")
        warned = [ln for ln in err.splitlines() if f" {c.input}:" in ln and "warning:" in ln]
        if warned:
            c.notes.append(f"{len(warned)} dropped attribute(s) warned")
    if rc == 0:
        extra = set(os.listdir(os.path.join(work, "h"))) - {c.id + ".h" for c in good}
        if extra:
            for c in good:
                fail(c, f"avrogen header wrote more than one header per schema: {sorted(extra)}")
        return

    def alone(c):
        d = f"alone/{c.id}"
        rc, _, e = run([env.avrogen, "header"] + args(c) + ["-o", d], cwd=work)
        if rc != 0:
            fail(c, f"no header (rc {rc}):\n{e}")
        else:
            shutil.copyfile(os.path.join(work, d, c.id + ".h"), c.header)

    os.makedirs(os.path.join(work, "h"), exist_ok=True)

    pool_map(alone, good)
    if not any(c.fail for c in good):
        for c in good:
            fail(c, f"avrogen header fails on all schemas at once (rc {rc}), on none alone:\n{err}")


# 2. avrogen generate: code and derived schemas, one run per group of headers
# whose record names differ (one run refuses two different records of a name).
def step_generate(env, cases, work):
    groups = []
    for c in live(cases):
        if not os.path.exists(c.header):
            fail(c, f"no header at {c.header}")
            continue
        names = record_names(normalize(c.text))
        for taken, members in groups:
            if not taken & names:
                taken |= names
                members.append(c)
                break
        else:
            groups.append((set(names), [c]))

    def generate(members, out):
        cmd = [env.avrogen, "generate"] + [c.header for c in members] + \
            ["-o", out, "--", "-I" + env.include]
        return run(cmd, cwd=work)

    def group(k):
        members = groups[k][1]
        out = os.path.join(work, "g", str(k))
        rc, _, err = generate(members, out)
        if rc == 0:
            for c in members:
                c.gen_dir = out
            return
        for c in members:
            c.gen_dir = os.path.join(work, "g", c.id)
            rc1, _, err1 = generate([c], c.gen_dir)
            if rc1 != 0:
                fail(c, f"avrogen generate of the header failed:\n{err1}")
        if not any(c.fail for c in members):
            for c in members:
                fail(c, f"avrogen generate fails on its group of headers, alone on none:\n{err}")

    pool_map(group, range(len(groups)))
    return len(groups)


# 3. The derived schema against python3-avro's canonical form and the JSON facts.
def step_compare(env, cases):
    for c in live(cases):
        root = json.loads(c.text)
        c.fullname = full_root_name(root)
        spath = os.path.join(c.gen_dir, c.fullname + ".avsc")
        if not os.path.exists(spath):
            fail(c, f"no derived schema for {c.fullname} in {os.listdir(c.gen_dir)}")
            continue
        derived = read(spath)
        try:
            want_pcf = python_pcf(c.text)
        except avro.errors.SchemaParseException as e:
            # python3-avro 1.11.1 cannot parse {"type": "Name"} for a named type;
            # the specification allows it. avrogen's canonical form stands in.
            c.notes.append(f"python3-avro cannot parse the input ({str(e)[:60]}...): canonical "
                           "form by avrogen")
            want_pcf = avrogen_pcf(env, c.text)
            got_pcf = avrogen_pcf(env, derived)
            c.python_text = derived
        else:
            c.python_text = c.text
            got_pcf = python_pcf(derived)
        if want_pcf != got_pcf:
            fail(c, f"canonical forms differ\n  input:   {want_pcf}\n  derived: {got_pcf}")
            continue
        diff = first_difference(normalize(c.text), normalize(derived))
        if diff:
            fail(c, diff)
            continue
        c.tag = root_tag(read(c.header), c.fullname)
        if not c.tag:
            fail(c, f"cannot find the root struct of {c.fullname} in {c.header}")


def include_flags(env, work):
    return ["-I" + os.path.join(work, "h")] + env.include_flags


# 4. The generated code in clang (C11), g++ and clang++ (C++17); gcc compiles
# it with the data driver in step 5, under the same warnings.
def step_compile(env, cases, work):
    jobs = [(comp, chunk) for comp in env.compilers if comp[0] != "gcc"
            for chunk in chunks(live(cases))]

    def compile_chunk(job):
        (cc, path, lang), members = job
        base = [path] + env.lang_flags(lang) + env.warnings + include_flags(env, work) + \
            ["-fsyntax-only"]
        rc, _, err = run(base + [os.path.join(c.gen_dir, c.id + ".avro.c") for c in members])
        if rc == 0:
            return
        flags = " ".join(env.lang_flags(lang))
        for c in members:
            rc1, _, err1 = run(base + [os.path.join(c.gen_dir, c.id + ".avro.c")])
            if rc1 != 0:
                fail(c, f"{cc} {flags} rejects the code:\n{err1[:3000]}")
        if not any(c.fail for c in members):
            for c in members:
                fail(c, f"{cc} rejects a chunk of files, none alone:\n{err[:3000]}")

    pool_map(compile_chunk, jobs)


# 5. python3-avro's datums through the generated code, byte for byte.
def step_data(env, cases, work):
    for c in live(cases):
        try:
            blobs = datums(c, c.python_text)
        except avro.errors.SchemaParseException as e:
            # python3-avro 1.11.1 reads "namespace": "" on a nested type as the
            # enclosing namespace and then cannot resolve a reference to the type.
            c.notes.append(f"no datums: python3-avro cannot parse the derived schema either ({e})")
            c.blobs = None
            continue
        if not blobs and not too_big(json.loads(c.text)):
            fail(c, "python3-avro wrote no datum of the schema")
            continue
        if not blobs:
            c.notes.append("no datums (the schema has a fixed too large for random values)")
        c.blobs = blobs
    for sub in ("w", "o", "d"):
        os.makedirs(os.path.join(work, sub))
    todo = live(cases)
    for c in todo:
        with open(os.path.join(work, "w", c.id + ".c"), "w") as f:
            f.write(f'#include "{os.path.join(c.gen_dir, c.id + ".avro.c")}"\n'
                    f"#define ROOT_TYPE struct {c.tag}\n#define ROOT_PREFIX {c.tag}\n"
                    f"#define CASE_FN avrogen_case_{c.id}\n#include \"{env.driver}\"\n")
        if c.blobs:
            with open(os.path.join(work, "d", c.id + ".bin"), "wb") as f:
                for b in c.blobs:
                    f.write(len(b).to_bytes(4, "little") + b)
    gcc = [path for cc, path, _ in env.compilers if cc == "gcc"][0]
    base = [gcc] + env.lang_flags("c") + env.warnings + include_flags(env, work) + ["-O0", "-c"]

    def build_chunk(members):
        odir = os.path.join(work, "o")
        rc, _, err = run(base + [os.path.join(work, "w", c.id + ".c") for c in members], cwd=odir)
        if rc != 0:
            for c in members:
                rc1, _, err1 = run(base + [os.path.join(work, "w", c.id + ".c")], cwd=odir)
                if rc1 != 0:
                    fail(c, f"gcc {' '.join(env.lang_flags('c'))} rejects the code or the data "
                         f"driver:\n{err1[:3000]}")
            if not any(c.fail for c in members):
                for c in members:
                    fail(c, f"gcc rejects a chunk of files, none alone:\n{err[:3000]}")
        for c in members:
            if c.fail is None:
                obj = os.path.join(odir, c.id + ".o")
                rc1, _, err1 = run(["objcopy", "-G", f"avrogen_case_{c.id}", obj])
                if rc1 != 0:
                    fail(c, f"objcopy: {err1}")

    pool_map(build_chunk, chunks(todo))
    todo = live(cases)
    if not todo:
        return
    with open(os.path.join(work, "cases.inc"), "w") as f:
        f.writelines(f"CASE({c.id})\n" for c in todo)
    exe = os.path.join(work, "roundtrip_data")
    rc, _, err = run([gcc, "-std=c11", "-O0", "-I" + work, '-DCASES="cases.inc"', env.main_c] +
                     [os.path.join(work, "o", c.id + ".o") for c in todo] +
                     [env.runtime_lib, "-Wl,-rpath," + os.path.dirname(env.runtime_lib), "-o", exe])
    if rc != 0:
        for c in todo:
            fail(c, f"the data driver does not link:\n{err[:3000]}")
        return
    with_data = [c for c in todo if c.blobs]
    rc, out, err = run([exe, os.path.join(work, "d")] + [c.id for c in with_data])
    results = {}
    for line in out.splitlines():
        cid, _, rest = line.partition(" ")
        results[cid] = rest
    for c in with_data:
        res = results.get(c.id)
        if res is None:
            fail(c, f"the data driver reported nothing (rc {rc}): {err.strip()[:500]}")
        elif not res.startswith("ok "):
            fail(c, f"python3-avro datums do not round trip: {res}")
        else:
            c.notes.append(res[3:] + (f" ({len(c.data)} from real data)" if c.data else ""))


def cli_checks(env, work):
    """The command line around the round trip: outputs, errors, no-op runs."""
    d = os.path.join(work, "cli")
    os.makedirs(d)
    good = os.path.join(d, "good.avsc")
    bad = os.path.join(d, "bad.avsc")
    with open(good, "w") as f:
        f.write('{"type": "record", "name": "Good", "fields": [{"name": "s", "type": "string"}]}')
    with open(bad, "w") as f:
        f.write('{"type": "record", "name": "Bad", "fields": [{"name": "n", "type": '
                '{"type": "fixed", "name": "Z", "size": 0}}]}')
    fails = []

    def expect(what, ok):
        if not ok:
            fails.append(f"FAIL cli: {what}")

    rc, out, err = run([env.avrogen, "header", good])
    expect("one schema without -o prints its header", rc == 0 and "struct AVRO_RECORD(name = "
           '"Good")' in out and "char *s;" in out and "GOOD_AVSC_H" in out)
    rc, out, err = run([env.avrogen, "header", good, "--views"])
    expect("--views maps strings to avrogen_str", rc == 0 and "avrogen_str s;" in out)
    rc, out, err = run([env.avrogen, "header", "-"], input_text=read(good))
    expect("a schema on stdin", rc == 0 and "struct AVRO_RECORD" in out)
    rc, out, err = run([env.avrogen, "header", good, bad, "-o", os.path.join(d, "mixed")])
    expect("a schema with no header fails the run and nothing is written",
           rc == 1 and not os.path.exists(os.path.join(d, "mixed", "good.h")) and
           "bad.avsc: Bad.n: fixed 'Z' has size 0" in err)
    rc, out, err = run([env.avrogen, "header", good, bad])
    expect("two schemas without -o is a usage error", rc == 2)
    rc, out, err = run([env.avrogen, "header"])
    expect("no schema is a usage error", rc == 2)
    rc, out, err = run([env.avrogen, "header", "--bogus", good])
    expect("an unknown option is a usage error", rc == 2)
    rc, out, err = run([env.avrogen, "header", os.path.join(d, "missing.avsc")])
    expect("a missing file is bad input naming it", rc == 1 and "missing.avsc" in err)
    rc, out, err = run([env.avrogen, "header", "{\"type\": \"record\""])
    expect("malformed JSON is bad input", rc == 1 and "error" in err)
    invalid = sorted(glob.glob(os.path.join(env.repo, "tests/data/schema/fail/*.avsc")))
    rc, out, err = run([env.avrogen, "header"] + invalid + ["-o", os.path.join(d, "invalid")])
    unnamed = [p for p in invalid if f"avrogen: error: {p}:" not in err]
    expect(f"every invalid schema of tests/data/schema/fail ({len(invalid)}) is an error naming "
           f"its file, and nothing is written, not even -o DIR (rc {rc}; not named: "
           f"{unnamed[:3]})",
           len(invalid) > 50 and rc == 1 and not unnamed and
           not os.path.exists(os.path.join(d, "invalid")))
    nested = os.path.join(d, "a", "b")
    rc, out, err = run([env.avrogen, "header", good, "-o", nested])
    hpath = os.path.join(nested, "good.h")
    expect("-o creates missing directories", rc == 0 and os.path.exists(hpath))
    if os.path.exists(hpath):
        os.utime(hpath, (1, 1))
        rc, out, err = run([env.avrogen, "header", good, "-o", nested])
        expect("an unchanged header is left untouched", rc == 0 and os.stat(hpath).st_mtime == 1)
    return fails



def main():
    warnings.simplefilter("ignore", avro.errors.IgnoredLogicalType)
    ap = argparse.ArgumentParser()
    ap.add_argument("--avrogen", required=True)
    ap.add_argument("--include", required=True, help="annotate.h's directory")
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--runtime-lib", required=True, help="libavrogen.so or .a")
    ap.add_argument("--driver", required=True, help="driver.c (main.c beside it)")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--only", help="run the cases whose name contains this")
    args = ap.parse_args()
    notrun.require_testdata("header_roundtrip", args.testdata)
    env = Env(args)
    env.repo = os.path.abspath(args.repo)
    cases = collect(args.repo, args.testdata)
    cases += [wrapped(c) for c in cases
              if not (isinstance(json.loads(c.text), dict)
                      and json.loads(c.text).get("type") in ("record", "error"))]
    unused = set(UNREPRESENTABLE) - {c.name for c in cases}
    strict = {}  # schema text -> whether avrogen's parser refuses it
    if args.only:
        cases = [c for c in cases if args.only in c.name]
    for i, c in enumerate(cases):
        c.id = f"c{i:03d}"
        c.expect = UNREPRESENTABLE.get(c.name)
        if isinstance(c.expect, Strict):
            if c.text not in strict:
                strict[c.text] = run([env.avrogen, "canonical", "-"], input_text=c.text)[0] != 0
            if not strict[c.text]:
                c.expect = None
                c.notes.append("avrogen's parser accepts it now")
        root = json.loads(c.text)
        is_record = isinstance(root, dict) and root.get("type") in ("record", "error")
        c.refuse = c.expect is not None or not (is_record or c.name.endswith("(wrapped)"))
    work = os.path.abspath(args.keep or tempfile.mkdtemp(prefix="avrogen-header-"))
    os.makedirs(work, exist_ok=True)
    failures = []
    timings = []
    try:
        for name, step in (("header", lambda: step_header(env, cases, work)),
                           ("generate", lambda: step_generate(env, cases, work)),
                           ("compare", lambda: step_compare(env, cases)),
                           ("compile", lambda: step_compile(env, cases, work)),
                           ("data", lambda: step_data(env, cases, work))):
            t = time.monotonic()
            extra = step()
            timings.append(f"{name} {time.monotonic() - t:.1f}s" +
                           (f" ({extra} generate runs)" if extra else ""))
        for c in cases:
            if c.fail is not None:
                failures.append(f"FAIL {c.name} [{c.id}]: {c.fail}")
                print(failures[-1])
            else:
                print(f"{c.name}: {c.done or 'ok: ' + '; '.join(c.notes)}")
        if not args.only:
            t = time.monotonic()
            for f in cli_checks(env, work):
                failures.append(f)
                print(f)
            timings.append(f"cli {time.monotonic() - t:.1f}s")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if unused and not args.only:
        failures.append(f"FAIL UNREPRESENTABLE lists cases that do not exist: {sorted(unused)}")
        print(failures[-1])
    tripped = sum(1 for c in cases if c.fail is None and c.done is None)
    print(f"{len(cases)} cases: {tripped} round trip, "
          f"{sum(1 for c in cases if c.done)} refused as they must be, {len(failures)} failed")
    print("time: " + ", ".join(timings))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
