// SPDX-License-Identifier: Apache-2.0
// peer-js: avsc on the bench Order records, for bench/peers/run. Loads the
// records from the input container file (not timed), then times encoding all
// of them into one buffer (Type#encode into a preallocated Buffer), decoding
// them all from it (Type#decode), and for each codec avsc has built in (null,
// deflate), writing a container file (createFileEncoder) and reading it back
// (createFileDecoder). Longs are BigInts (a LongType of avsc's documented
// __with hook): the counters use every varint length, past 2^53. One JSON
// line a phase on stdout (bench/peers/README.md).
'use strict';
const fs = require('fs');
const path = require('path');
const avro = require('avsc');

const args = {codecs: 'null,deflate', warmup: 50000, 'block-size': 64000};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i].replace(/^--/, '');
  if (a === 'dump') args.dump = true;
  else args[a] = process.argv[++i];
}

const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(n); return b; },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});
const schema = JSON.parse(fs.readFileSync(args.schema, 'utf8'));
const type = avro.Type.forSchema(schema, {registry: {long: longType}});
const MASK = (1n << 64n) - 1n;
const digest = (o) => o.id + o.counters[o.counters.length - 1] +
    BigInt(o.lines[o.lines.length - 1].quantity) + BigInt(Buffer.byteLength(o.customer)) +
    (o.note !== null ? 1n : 0n);
// The union ["null","string"] without wrapping: avsc's default for a union of null and one type.

const clock = () => [process.hrtime.bigint(), process.cpuUsage()];
function report(t0, op, codec, extra) {
  const wall = Number(process.hrtime.bigint() - t0[0]) / 1e6;
  const c = process.cpuUsage(t0[1]);
  const line = {kind: 'time', op};
  if (codec) line.codec = codec;
  Object.assign(line, {wall_ms: wall, cpu_ms: (c.user + c.system) / 1e3}, extra);
  console.log(JSON.stringify(line));
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const out = [];
    avro.createFileDecoder(file, {readerSchema: type})
        .on('data', (o) => out.push(o)).on('end', () => resolve(out)).on('error', reject);
  });
}

async function main() {
  const records = await readFile(args.input); // load, not timed
  const version = require(path.join(path.dirname(require.resolve('avsc')), '..', 'package.json')).version;
  console.log(JSON.stringify({kind: 'info', peer: 'avsc',
    version: `avsc ${version}, Node.js ${process.version}`, records: records.length}));

  let size = 0; // encode into nothing: minus the bytes it needs
  for (const o of records) size -= type.encode(o, Buffer.alloc(0), 0);
  const buf = Buffer.alloc(size + 1024);
  const w = Math.min(Number(args.warmup), records.length); // warm-up, not timed
  let pos = 0;
  for (let i = 0; i < w; i++) pos = type.encode(records[i], buf, pos);
  pos = 0;
  for (let i = 0; i < w; i++) pos = type.decode(buf, pos).offset;

  let t = clock();
  pos = 0;
  for (const o of records) pos = type.encode(o, buf, pos);
  report(t, 'encode', null, {bytes: pos});
  if (pos < 0) throw new Error('buffer too small');
  const len = pos;
  if (args.dump) fs.writeFileSync(path.join(args.out, 'js.enc'), buf.subarray(0, len));

  t = clock();
  pos = 0;
  let sum = 0n;
  for (let i = 0; i < records.length; i++) {
    const r = type.decode(buf, pos);
    sum += digest(r.value);
    pos = r.offset;
  }
  report(t, 'decode', null, {count: records.length, digest: String(sum & MASK)});

  for (const codec of args.codecs.split(',')) {
    const file = path.join(args.out, `js.${codec}.avro`);
    t = clock();
    await new Promise((resolve, reject) => {
      // createFileEncoder's stream, with a handle on the file stream to wait for.
      const enc = new avro.streams.BlockEncoder(type,
          {codec, blockSize: Number(args['block-size'])});
      const out = fs.createWriteStream(file);
      enc.pipe(out);
      enc.on('error', reject);
      out.on('finish', resolve).on('error', reject);
      let i = 0;
      (function more() {
        while (i < records.length) if (!enc.write(records[i++])) return enc.once('drain', more);
        enc.end();
      })();
    });
    report(t, 'write', codec, {file});
    t = clock();
    sum = 0n;
    let n = 0;
    await new Promise((resolve, reject) => {
      avro.createFileDecoder(file, {readerSchema: type})
          .on('data', (o) => { sum += digest(o); n++; })
          .on('end', resolve).on('error', reject);
    });
    report(t, 'read', codec, {count: n, digest: String(sum & MASK)});
  }
}
main().catch((e) => { console.error('peer-js:', e); process.exit(1); });
