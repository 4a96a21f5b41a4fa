// SPDX-License-Identifier: Apache-2.0
package avrogen.peers;

import bench.Line;
import bench.Order;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * peer-java: Java Avro 1.12 on the bench Order records, through the SpecificRecord class
 * avro-maven-plugin generates from bench/workloads/order.avsc (its custom coders: hasCustomCoders
 * is true). Loads the records from the input container file (not timed), then times encoding all of
 * them into one buffer, decoding them all from it, and for each codec, writing a container file and
 * reading it back. One JSON line a phase on stdout (bench/peers/README.md).
 */
public final class Peer {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  static long digest(Order o) {
    List<Long> c = o.getCounters();
    List<Line> l = o.getLines();
    CharSequence cu = o.getCustomer();
    int len = cu instanceof org.apache.avro.util.Utf8 ? ((org.apache.avro.util.Utf8) cu).getByteLength()
        : cu.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    return o.getId() + c.get(c.size() - 1) + l.get(l.size() - 1).getQuantity() + len
        + (o.getNote() != null ? 1 : 0);
  }

  static long[] now() {
    return new long[] {System.nanoTime(), OS.getProcessCpuTime()};
  }

  static void report(long[] t0, String op, String codec, String extra) {
    double wall = (System.nanoTime() - t0[0]) / 1e6, cpu = (OS.getProcessCpuTime() - t0[1]) / 1e6;
    StringBuilder b = new StringBuilder("{\"kind\": \"time\", \"op\": \"").append(op).append('"');
    if (codec != null) b.append(", \"codec\": \"").append(codec).append('"');
    b.append(String.format(", \"wall_ms\": %.3f, \"cpu_ms\": %.3f", wall, cpu));
    if (extra != null) b.append(", ").append(extra);
    System.out.println(b.append('}'));
  }

  static CodecFactory codec(String name) {
    switch (name) {
      case "null": return CodecFactory.nullCodec();
      case "deflate": return CodecFactory.deflateCodec(6);
      case "snappy": return CodecFactory.snappyCodec();
      case "zstandard": return CodecFactory.zstandardCodec(3);
      default: throw new IllegalArgumentException(name);
    }
  }

  public static void main(String[] argv) throws Exception {
    String input = null, out = null, codecs = "null,deflate,snappy,zstandard";
    boolean dump = false;
    int warmup = 50000, blockSize = 64000;
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--input": input = argv[++i]; break;
        case "--out": out = argv[++i]; break;
        case "--schema": ++i; break; // the generated class carries it
        case "--codecs": codecs = argv[++i]; break;
        case "--warmup": warmup = Integer.parseInt(argv[++i]); break;
        case "--block-size": blockSize = Integer.parseInt(argv[++i]); break;
        case "--dump": dump = true; break;
        default: throw new IllegalArgumentException(argv[i]);
      }
    }
    Schema schema = Order.getClassSchema();
    List<Order> records = new ArrayList<>();
    try (DataFileReader<Order> r =
        new DataFileReader<>(new File(input), new SpecificDatumReader<>(Order.class))) {
      for (Order o : r) {
        // Maps in the order they were read (Avro decodes into a HashMap).
        o.setTags(new LinkedHashMap<>(o.getTags()));
        records.add(o);
      }
    }
    System.out.println("{\"kind\": \"info\", \"peer\": \"Java Avro\", \"version\": \"avro "
        + Schema.class.getPackage().getImplementationVersion() + " SpecificRecord, custom coders, Java "
        + System.getProperty("java.version") + "\", \"records\": " + records.size() + "}");
    SpecificDatumWriter<Order> writer = new SpecificDatumWriter<>(Order.class);
    SpecificDatumReader<Order> reader = new SpecificDatumReader<>(Order.class);

    ByteArrayOutputStream bos = new ByteArrayOutputStream(1 << 20);
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bos, null);
    int w = Math.min(warmup, records.size());
    for (int i = 0; i < w; i++) writer.write(records.get(i), enc);
    enc.flush();
    byte[] warm = bos.toByteArray();
    BinaryDecoder dec = DecoderFactory.get().binaryDecoder(warm, null);
    for (int i = 0; i < w; i++) reader.read(null, dec);

    long[] t = now();
    bos.reset();
    enc = EncoderFactory.get().binaryEncoder(bos, enc);
    for (Order o : records) writer.write(o, enc);
    enc.flush();
    byte[] data = bos.toByteArray();
    report(t, "encode", null, "\"bytes\": " + data.length);
    if (dump) {
      try (FileOutputStream f = new FileOutputStream(new File(out, "java.enc"))) {
        f.write(data);
      }
    }
    bos = null;

    t = now();
    dec = DecoderFactory.get().binaryDecoder(data, dec);
    long sum = 0;
    for (int i = 0; i < records.size(); i++) sum += digest(reader.read(null, dec));
    report(t, "decode", null,
        "\"count\": " + records.size() + ", \"digest\": \"" + Long.toUnsignedString(sum) + "\"");
    data = null;

    for (String c : codecs.split(",")) {
      File file = new File(out, "java." + c + ".avro");
      t = now();
      try (DataFileWriter<Order> fw = new DataFileWriter<>(new SpecificDatumWriter<>(Order.class))) {
        fw.setCodec(codec(c));
        fw.setSyncInterval(blockSize);
        fw.create(schema, file);
        for (Order o : records) fw.append(o);
      }
      report(t, "write", c, "\"file\": \"" + file.getPath() + "\"");
      t = now();
      sum = 0;
      long n = 0;
      try (DataFileReader<Order> r = new DataFileReader<>(file, new SpecificDatumReader<>(Order.class))) {
        Order o = null;
        while (r.hasNext()) {
          o = r.next(null);
          sum += digest(o);
          n++;
        }
      }
      report(t, "read", c, "\"count\": " + n + ", \"digest\": \"" + Long.toUnsignedString(sum) + "\"");
    }
  }
}
