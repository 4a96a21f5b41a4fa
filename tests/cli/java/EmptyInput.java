// SPDX-License-Identifier: Apache-2.0
// What Java Avro (1.8.2) reads from an empty datum input: for each schema on
// stdin, one per line, prints "datum JSON" (GenericData's toString of the
// datum it returns) or "error CLASS" (the exception it throws).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

public class EmptyInput {
    public static void main(String[] args) throws Exception {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null;) {
            Schema schema = new Schema.Parser().parse(line);
            BinaryDecoder d = DecoderFactory.get().binaryDecoder(new byte[0], null);
            try {
                Object datum = new GenericDatumReader<Object>(schema).read(null, d);
                System.out.println("datum " + GenericData.get().toString(datum));
            } catch (Exception e) {
                System.out.println("error " + e.getClass().getSimpleName());
            }
        }
    }
}
