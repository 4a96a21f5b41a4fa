#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""examples/containers' program with fastavro: 100,000 orders written to a
zstandard container file, read back and checked. The lines between "glue
begin" and "glue end" are counted in README. Needs fastavro and zstandard
(pip; zstandard through backports.zstd on Python < 3.14); not run by scripts/test.

    python3 fastavro_orders.py /tmp/orders-fastavro.avro
"""
import sys
from datetime import datetime, timedelta, timezone

import fastavro

N_ORDERS = 100_000
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

SCHEMA = {"type": "record", "name": "Order", "namespace": "shop", "fields": [
    {"name": "id", "type": "long"},
    {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [
        {"name": "id", "type": "long"}, {"name": "name", "type": "string"}]}},
    {"name": "skus", "type": {"type": "array", "items": "long"}},
    {"name": "note", "type": ["null", "string"]},
    {"name": "status", "type": {"type": "enum", "name": "Status",
                                "symbols": ["NEW", "PAID", "SHIPPED"]}},
    {"name": "placed_at", "type": {"type": "long", "logicalType": "timestamp-micros"}}]}


def make_order(i):
    return {"id": i, "customer": {"id": i % 1000, "name": "customer-%d" % (i % 1000)},
            "skus": [i * 10 + k for k in range(i % 4)],
            "note": None if i % 3 == 0 else "leave at the door",
            "status": ("NEW", "PAID", "SHIPPED")[i % 3],
            "placed_at": EPOCH + timedelta(microseconds=1_700_000_000_000_000 + i * 1000)}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "orders.avro"
    read = 0

    # glue begin
    schema = fastavro.parse_schema(SCHEMA)
    with open(path, "wb") as out:
        fastavro.writer(out, schema, (make_order(i) for i in range(N_ORDERS)), codec="zstandard")
    with open(path, "rb") as f:
        for o in fastavro.reader(f):
            if o != make_order(read):
                sys.exit("record %d differs" % read)
            read += 1
    # glue end

    if read != N_ORDERS:
        sys.exit("records lost")
    print("fastavro: wrote and read back %d orders (zstandard) in %s" % (N_ORDERS, path))


if __name__ == "__main__":
    main()
