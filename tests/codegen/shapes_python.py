#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""python3-avro against the known answers of tests/codegen/shapes_cases.c.

    shapes_python.py SHAPES_DUMP

For every line SHAPES_DUMP prints (a record schema, the bytes generated code
writes for a hand-filled struct, the datum they stand for in the Avro JSON
encoding), python3-avro 1.11.1 must decode the bytes to that datum and encode
the decoded datum again to the same bytes. Logical types python3-avro knows
(timestamp-millis/micros, date, time-*, decimal, uuid) come back as Python
objects and are turned back into the Avro JSON form to compare; the ones it
predates (timestamp-nanos, local-timestamp-*) it reads as the plain long, as
the specification prescribes for unknown logical types.
"""
import datetime
import decimal
import io
import json
import subprocess
import sys
import warnings

import avro.errors
import avro.io
import avro.schema

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def branch_name(s):
    return s.fullname if hasattr(s, "fullname") and s.type in ("record", "enum", "fixed") else s.type


def to_json(s, v):
    """The Python datum v of schema s in the Avro JSON encoding's shape."""
    t = s.type
    lt = s.get_prop("logicalType")
    if t == "union":
        if v is None:
            return None
        for b in s.schemas:
            if b.type != "null" and avro.io.validate(b, v):
                return {branch_name(b): to_json(b, v)}
        fail("no branch of %s takes %r" % (s, v))
    if t == "record":
        return {f.name: to_json(f.type, v[f.name]) for f in s.fields}
    if t == "array":
        return [to_json(s.items, x) for x in v]
    if t == "map":
        return {k: to_json(s.values, x) for k, x in v.items()}
    if isinstance(v, datetime.datetime):
        delta = v - EPOCH
        us = (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
        return us // 1000 if lt == "timestamp-millis" else us
    if isinstance(v, datetime.date):
        return (v - EPOCH.date()).days
    if isinstance(v, datetime.time):
        us = ((v.hour * 60 + v.minute) * 60 + v.second) * 1000000 + v.microsecond
        return us // 1000 if lt == "time-millis" else us
    if isinstance(v, decimal.Decimal):
        scale = s.get_prop("scale") or 0
        # In a context as precise as the decimal: the default 28 digits would round.
        prec = max(28, s.get_prop("precision") or 0)
        unscaled = int(v.scaleb(scale, context=decimal.Context(prec=prec)))
        n = max(1, (unscaled.bit_length() + 8) // 8)
        return unscaled.to_bytes(n, "big", signed=True).decode("latin-1")
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return v


def main():
    out = subprocess.run([sys.argv[1]], stdout=subprocess.PIPE, check=True).stdout.decode()
    cases = [json.loads(line) for line in out.splitlines() if line]
    if not cases:
        fail("the dump printed nothing")
    ignored = set()
    for c in cases:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            schema = avro.schema.parse(c["schema"])
        for w in caught:
            if not issubclass(w.category, avro.errors.IgnoredLogicalType):
                fail("%s: python3-avro warns: %s" % (c["label"], w.message))
            ignored.add(str(w.message))
        data = bytes.fromhex(c["hex"])
        dec = avro.io.BinaryDecoder(io.BytesIO(data))
        got = avro.io.DatumReader(schema).read(dec)
        if dec.reader.read() != b"":
            fail("%s: python3-avro leaves bytes unread" % c["label"])
        if to_json(schema, got) != c["datum"]:
            fail("%s: python3-avro decodes\n  %s\nexpected\n  %s"
                 % (c["label"], json.dumps(to_json(schema, got)), json.dumps(c["datum"])))
        buf = io.BytesIO()
        avro.io.DatumWriter(schema).write(got, avro.io.BinaryEncoder(buf))
        if buf.getvalue() != data:
            fail("%s: python3-avro encodes %s, generated code %s"
                 % (c["label"], buf.getvalue().hex(), c["hex"]))
        print("ok: %s (%d bytes)" % (c["label"], len(data)))
    for message in sorted(ignored):
        print("  (python3-avro 1.11.1 ignores: %s)" % message)


if __name__ == "__main__":
    main()
