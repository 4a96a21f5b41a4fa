// SPDX-License-Identifier: Apache-2.0
// examples/containers' program with serde + apache-avro: 100,000 orders
// written to a zstandard container file, read back and checked. The lines
// between "glue begin" and "glue end" are counted in README.
use apache_avro::{from_value, Codec, Reader, Schema, Writer};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufReader, BufWriter};

const N_ORDERS: i64 = 100_000;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Customer {
    id: i64,
    name: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[allow(clippy::upper_case_acronyms)]
enum Status {
    NEW,
    PAID,
    SHIPPED,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Order {
    id: i64,
    customer: Customer,
    skus: Vec<i64>,
    note: Option<String>,
    status: Status,
    placed_at: i64, // timestamp-micros
}

const SCHEMA: &str = r#"{"type": "record", "name": "Order", "namespace": "shop", "fields": [
  {"name": "id", "type": "long"},
  {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [
    {"name": "id", "type": "long"}, {"name": "name", "type": "string"}]}},
  {"name": "skus", "type": {"type": "array", "items": "long"}},
  {"name": "note", "type": ["null", "string"]},
  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID", "SHIPPED"]}},
  {"name": "placed_at", "type": {"type": "long", "logicalType": "timestamp-micros"}}]}"#;

fn make_order(i: i64) -> Order {
    Order {
        id: i,
        customer: Customer { id: i % 1000, name: format!("customer-{}", i % 1000) },
        skus: (0..i % 4).map(|k| i * 10 + k).collect(),
        note: if i % 3 == 0 { None } else { Some("leave at the door".to_string()) },
        status: [Status::NEW, Status::PAID, Status::SHIPPED].into_iter().nth((i % 3) as usize).unwrap(),
        placed_at: 1_700_000_000_000_000 + i * 1000,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "orders.avro".to_string());
    let mut read = 0;

    // glue begin
    let schema = Schema::parse_str(SCHEMA)?;
    let file = BufWriter::new(File::create(&path)?);
    let mut w = Writer::with_codec(&schema, file, Codec::Zstandard);
    for i in 0..N_ORDERS {
        w.append_ser(make_order(i))?;
    }
    w.into_inner()?;
    let r = Reader::with_schema(&schema, BufReader::new(File::open(&path)?))?;
    for value in r {
        let o: Order = from_value(&value?)?;
        if o != make_order(read) {
            return Err(format!("record {} differs", read).into());
        }
        read += 1;
    }
    // glue end

    if read != N_ORDERS {
        return Err("records lost".into());
    }
    println!("serde: wrote and read back {} orders (zstandard) in {}", N_ORDERS, path);
    Ok(())
}
