// SPDX-License-Identifier: Apache-2.0
//! peer-rust: apache-avro with serde on the bench Order records, for
//! bench/peers/run. Loads the records from the input container file (not
//! timed), then times encoding all of them into one buffer, decoding them all
//! from it, and for each codec asked for, writing a container file of them and
//! reading it back. One JSON line a phase on stdout (bench/peers/README.md).
//! Both directions go through serde straight against the schema
//! (GenericDatumWriter::write_ser, GenericDatumReader::read_deser,
//! Writer::append_ser, Reader::into_deser_iter), not through `Value`.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::writer::datum::GenericDatumWriter;
use apache_avro::{Codec, DeflateSettings, Reader, Schema, Writer, ZstandardSettings};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Line {
    sku: i64,
    name: String,
    quantity: i32,
    price: f64,
}

/// The map is a BTreeMap: its keys come out sorted, which for the bench's two
/// keys ("channel", "warehouse") is also the order they were written in.
#[derive(Serialize, Deserialize)]
struct Order {
    id: i64,
    customer: String,
    total: f64,
    priority: i32,
    paid: bool,
    note: Option<String>,
    lines: Vec<Line>,
    counters: Vec<i64>,
    tags: BTreeMap<String, i64>,
}

/// What every peer sums over the records it decoded (mod 2^64).
fn digest(o: &Order) -> u64 {
    (o.id as u64)
        .wrapping_add(*o.counters.last().unwrap() as u64)
        .wrapping_add(o.lines.last().unwrap().quantity as u64)
        .wrapping_add(o.customer.len() as u64)
        .wrapping_add(o.note.is_some() as u64)
}

fn cpu_ms() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let us = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    us(ru.ru_utime) + us(ru.ru_stime)
}

struct Clock(Instant, f64);

fn now() -> Clock {
    Clock(Instant::now(), cpu_ms())
}

fn report(t: Clock, op: &str, codec: Option<&str>, extra: &str) {
    let wall = t.0.elapsed().as_secs_f64() * 1e3;
    let cpu = cpu_ms() - t.1;
    let codec = codec.map(|c| format!(", \"codec\": \"{c}\"")).unwrap_or_default();
    println!(
        "{{\"kind\": \"time\", \"op\": \"{op}\"{codec}, \"wall_ms\": {wall:.3}, \"cpu_ms\": {cpu:.3}{extra}}}"
    );
}

fn die(what: &str, err: impl std::fmt::Display) -> ! {
    eprintln!("peer-rust: {what}: {err}");
    std::process::exit(1)
}

fn codec_of(name: &str) -> Codec {
    match name {
        "null" => Codec::Null,
        "deflate" => Codec::Deflate(DeflateSettings::default()),
        "snappy" => Codec::Snappy,
        "zstandard" => Codec::Zstandard(ZstandardSettings::default()),
        _ => die("codec", name),
    }
}

fn main() {
    let (mut input, mut schema_path, mut out) = (String::new(), String::new(), String::new());
    let mut codecs = "null,deflate,snappy,zstandard".to_string();
    let (mut dump, mut warmup, mut block_size) = (false, 50000usize, 64000usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| die(&a, "needs a value"));
        match a.as_str() {
            "--input" => input = val(),
            "--schema" => schema_path = val(),
            "--out" => out = val(),
            "--codecs" => codecs = val(),
            "--warmup" => warmup = val().parse().unwrap_or_else(|e| die("--warmup", e)),
            "--block-size" => block_size = val().parse().unwrap_or_else(|e| die("--block-size", e)),
            "--dump" => dump = true,
            _ => die(&a, "unknown argument"),
        }
    }
    let text = std::fs::read_to_string(&schema_path).unwrap_or_else(|e| die(&schema_path, e));
    let schema = Schema::parse_str(&text).unwrap_or_else(|e| die("schema", e));

    // Load (not timed).
    let f = File::open(&input).unwrap_or_else(|e| die(&input, e));
    let reader = Reader::new(BufReader::with_capacity(1 << 20, f)).unwrap_or_else(|e| die(&input, e));
    let records: Vec<Order> = reader
        .into_deser_iter::<Order>()
        .map(|r| r.unwrap_or_else(|e| die("load", e)))
        .collect();
    println!(
        "{{\"kind\": \"info\", \"peer\": \"apache-avro (Rust)\", \"version\": \"apache-avro {}, serde\", \"records\": {}}}",
        env!("AVRO_CRATE_VERSION"),
        records.len()
    );

    let writer = GenericDatumWriter::builder(&schema).build().unwrap_or_else(|e| die("writer", e));
    let dreader = GenericDatumReader::builder(&schema).build().unwrap_or_else(|e| die("reader", e));

    // Warm-up (not timed).
    let w = warmup.min(records.len());
    let mut buf: Vec<u8> = Vec::new();
    for o in &records[..w] {
        writer.write_ser(&mut buf, o).unwrap_or_else(|e| die("encode", e));
    }
    let mut cur: &[u8] = &buf;
    for _ in 0..w {
        let o: Order = dreader.read_deser(&mut cur).unwrap_or_else(|e| die("decode", e));
        std::hint::black_box(&o);
    }

    let t = now();
    buf.clear();
    for o in &records {
        writer.write_ser(&mut buf, o).unwrap_or_else(|e| die("encode", e));
    }
    report(t, "encode", None, &format!(", \"bytes\": {}", buf.len()));
    if dump {
        std::fs::write(format!("{out}/rust.enc"), &buf).unwrap_or_else(|e| die("dump", e));
    }

    let t = now();
    let mut cur: &[u8] = &buf;
    let mut sum = 0u64;
    for _ in 0..records.len() {
        let o: Order = dreader.read_deser(&mut cur).unwrap_or_else(|e| die("decode", e));
        sum = sum.wrapping_add(digest(&o));
    }
    report(t, "decode", None, &format!(", \"count\": {}, \"digest\": \"{sum}\"", records.len()));
    drop(buf);

    for codec in codecs.split(',') {
        let path = format!("{out}/rust.{codec}.avro");
        let t = now();
        {
            let f = File::create(&path).unwrap_or_else(|e| die(&path, e));
            let mut wr = Writer::builder()
                .schema(&schema)
                .writer(BufWriter::with_capacity(1 << 16, f))
                .codec(codec_of(codec))
                .block_size(block_size)
                .build()
                .unwrap_or_else(|e| die(&path, e));
            for o in &records {
                wr.append_ser(o).unwrap_or_else(|e| die(&path, e));
            }
            let mut inner = wr.into_inner().unwrap_or_else(|e| die(&path, e));
            inner.flush().unwrap_or_else(|e| die(&path, e));
        }
        report(t, "write", Some(codec), &format!(", \"file\": \"{path}\""));

        let t = now();
        let f = File::open(&path).unwrap_or_else(|e| die(&path, e));
        let rd = Reader::new(BufReader::with_capacity(1 << 16, f)).unwrap_or_else(|e| die(&path, e));
        let (mut sum, mut n) = (0u64, 0usize);
        for o in rd.into_deser_iter::<Order>() {
            let o = o.unwrap_or_else(|e| die(&path, e));
            sum = sum.wrapping_add(digest(&o));
            n += 1;
        }
        report(t, "read", Some(codec), &format!(", \"count\": {n}, \"digest\": \"{sum}\""));
    }
}
