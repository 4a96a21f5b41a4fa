// SPDX-License-Identifier: Apache-2.0
//
// Java Avro 1.8.2 (Debian's libavro-java) as a peer of the interop tests
// (tests/interop/java_peer.py compiles it with javac into the build tree and
// runs it once per test run). It reads tasks, one per line, tab-separated,
// from the file named by its first argument and writes one result line per
// task to the file named by its second, in order:
//
//   read IN.avro OUT.frames         ok CODEC COUNT   every datum of IN, re-encoded by
//                                                    GenericDatumWriter with IN's schema
//   write SCHEMA IN.frames CODEC SYNC OUT.avro       ok COUNT   the datums of IN.frames
//                                                    (decoded with SCHEMA) in a container
//                                                    file, SYNC bytes per block
//   canon SCHEMA                    ok PCF CRC64 MD5 SHA256  SchemaNormalization's
//                                                    Parsing Canonical Form and fingerprints
//   compat READER WRITER            ok COMPATIBLE|INCOMPATIBLE  SchemaCompatibility
//   json SCHEMA IN.frames OUT       ok COUNT   every datum of IN.frames (decoded with
//                                              SCHEMA) in the Avro JSON encoding, a line
//                                              each, in OUT.jsonl (JsonEncoder), and
//                                              re-encoded in OUT.frames
//   dump IN.avro OUT                ok CODEC COUNT   the same for every datum of IN
//
// A task that fails prints "error MESSAGE" (the first line of the exception)
// and, for read, the datums before the failure are in OUT.frames. Frames are
// a 4-byte big-endian length and the datum's bytes. Maps are read into
// LinkedHashMaps so that a datum re-encodes with its entries in wire order.
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

public final class AvroPeer {
    /** GenericDatumReader whose maps keep their entries in wire order. */
    static final class OrderedReader extends GenericDatumReader<Object> {
        OrderedReader() {
        }

        OrderedReader(Schema s) {
            super(s);
        }

        @Override
        protected Object newMap(Object old, int size) {
            return new LinkedHashMap<Object, Object>();
        }
    }

    static Schema parse(String path) throws IOException {
        return new Schema.Parser().parse(new String(Files.readAllBytes(Paths.get(path)),
                StandardCharsets.UTF_8));
    }

    static List<byte[]> readFrames(String path) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new FileInputStream(path))) {
            while (true) {
                int n;
                try {
                    n = in.readInt();
                } catch (EOFException e) {
                    return out;
                }
                byte[] b = new byte[n];
                in.readFully(b);
                out.add(b);
            }
        }
    }

    static String read(String in, String out) throws IOException {
        OrderedReader reader = new OrderedReader();
        long count = 0;
        try (DataFileReader<Object> r = new DataFileReader<>(new File(in), reader);
                DataOutputStream frames = new DataOutputStream(new FileOutputStream(out))) {
            Schema s = r.getSchema();
            GenericDatumWriter<Object> w = new GenericDatumWriter<>(s);
            String codec = r.getMetaString("avro.codec");
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            BinaryEncoder enc = null;
            while (r.hasNext()) {
                Object datum = r.next();
                buf.reset();
                enc = EncoderFactory.get().binaryEncoder(buf, enc);
                w.write(datum, enc);
                enc.flush();
                frames.writeInt(buf.size());
                buf.writeTo(frames);
                count++;
            }
            return "ok\t" + (codec == null ? "null" : codec) + "\t" + count;
        }
    }

    static String write(String schemaPath, String in, String codec, int sync, String out)
            throws IOException {
        Schema s = parse(schemaPath);
        OrderedReader reader = new OrderedReader(s);
        BinaryDecoder dec = null;
        try (DataFileWriter<Object> w = new DataFileWriter<>(new GenericDatumWriter<>(s))) {
            // xz at preset 1: the files do not depend on the preset, and Java's
            // default (6) sets up an 8 MiB dictionary for every small block.
            w.setCodec(codec.equals("xz") ? CodecFactory.xzCodec(1) : CodecFactory.fromString(codec));
            w.setSyncInterval(sync);
            w.create(s, new File(out));
            long count = 0;
            for (byte[] datum : readFrames(in)) {
                dec = DecoderFactory.get().binaryDecoder(datum, dec);
                w.append(reader.read(null, dec));
                if (!dec.isEnd())
                    throw new IOException("datum " + count + " of " + in + " has bytes left over");
                count++;
            }
            return "ok\t" + count;
        }
    }

    /** Where json and dump put each datum: its JSON line and its bytes again. */
    static final class Dumper implements AutoCloseable {
        final GenericDatumWriter<Object> writer;
        final Schema schema;
        final FileOutputStream json;
        final DataOutputStream frames;
        final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        BinaryEncoder enc;
        long count;

        Dumper(Schema s, String out) throws IOException {
            schema = s;
            writer = new GenericDatumWriter<>(s);
            json = new FileOutputStream(out + ".jsonl");
            frames = new DataOutputStream(new FileOutputStream(out + ".frames"));
        }

        void put(Object datum) throws IOException {
            buf.reset();
            JsonEncoder j = EncoderFactory.get().jsonEncoder(schema, buf);
            writer.write(datum, j);
            j.flush();
            buf.write('\n');
            buf.writeTo(json);
            buf.reset();
            enc = EncoderFactory.get().binaryEncoder(buf, enc);
            writer.write(datum, enc);
            enc.flush();
            frames.writeInt(buf.size());
            buf.writeTo(frames);
            count++;
        }

        @Override
        public void close() throws IOException {
            try {
                json.close();
            } finally {
                frames.close();
            }
        }
    }

    static String json(String schemaPath, String in, String out) throws IOException {
        Schema s = parse(schemaPath);
        OrderedReader reader = new OrderedReader(s);
        BinaryDecoder dec = null;
        try (Dumper d = new Dumper(s, out)) {
            for (byte[] datum : readFrames(in)) {
                dec = DecoderFactory.get().binaryDecoder(datum, dec);
                d.put(reader.read(null, dec));
                if (!dec.isEnd())
                    throw new IOException("datum " + d.count + " of " + in + " has bytes left over");
            }
            return "ok\t" + d.count;
        }
    }

    static String dump(String in, String out) throws IOException {
        try (DataFileReader<Object> r = new DataFileReader<>(new File(in), new OrderedReader());
                Dumper d = new Dumper(r.getSchema(), out)) {
            String codec = r.getMetaString("avro.codec");
            while (r.hasNext())
                d.put(r.next());
            return "ok\t" + (codec == null ? "null" : codec) + "\t" + d.count;
        }
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b)
            sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
    }

    static String canon(String path) throws Exception {
        Schema s = parse(path);
        return "ok\t" + SchemaNormalization.toParsingForm(s) + "\t"
                + hex(SchemaNormalization.parsingFingerprint("CRC-64-AVRO", s)) + "\t"
                + hex(SchemaNormalization.parsingFingerprint("MD5", s)) + "\t"
                + hex(SchemaNormalization.parsingFingerprint("SHA-256", s));
    }

    static String compat(String reader, String writer) throws IOException {
        return "ok\t" + SchemaCompatibility.checkReaderWriterCompatibility(parse(reader),
                parse(writer)).getType();
    }

    static String run(String[] t) throws Exception {
        switch (t[0]) {
        case "read":
            return read(t[1], t[2]);
        case "write":
            return write(t[1], t[2], t[3], Integer.parseInt(t[4]), t[5]);
        case "canon":
            return canon(t[1]);
        case "compat":
            return compat(t[1], t[2]);
        case "json":
            return json(t[1], t[2], t[3]);
        case "dump":
            return dump(t[1], t[2]);
        default:
            throw new IllegalArgumentException("unknown task " + t[0]);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: AvroPeer TASKS RESULTS");
            System.exit(2);
        }
        try (BufferedReader tasks = new BufferedReader(new InputStreamReader(
                     new FileInputStream(args[0]), StandardCharsets.UTF_8));
                PrintWriter results = new PrintWriter(new OutputStreamWriter(
                        new FileOutputStream(args[1]), StandardCharsets.UTF_8))) {
            String line;
            while ((line = tasks.readLine()) != null) {
                String result;
                try {
                    result = run(line.split("\t", -1));
                } catch (Exception | StackOverflowError e) {
                    String msg = String.valueOf(e.getMessage()).split("\n", 2)[0];
                    result = "error\t" + e.getClass().getSimpleName() + ": " + msg;
                }
                results.println(result);
            }
        }
    }
}
