package dev.canal.bench.jmh;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small real binlog of the benchmark table (captured by {@code CaptureSampleEvents} from the workload with a
 * few hundred rows), shipped as a resource so the JMH benchmarks need no database: whole events, each prefixed
 * with its length (4 bytes, big-endian).
 */
public final class SampleEvents {

    static final String RESOURCE = "sample-events.bin";

    private SampleEvents() {
    }

    /** The captured events in binlog order, starting with the dump's ROTATE and FORMAT_DESCRIPTION. */
    public static List<byte[]> load() {
        try (InputStream in = SampleEvents.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing next to " + SampleEvents.class);
            }
            DataInputStream data = new DataInputStream(in);
            List<byte[]> events = new ArrayList<>();
            while (true) {
                int length;
                try {
                    length = data.readInt();
                } catch (EOFException end) {
                    return events;
                }
                byte[] event = new byte[length];
                data.readFully(event);
                events.add(event);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    public static void write(List<byte[]> events, Path file) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (byte[] event : events) {
            out.writeInt(event.length);
            out.write(event);
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, bytes.toByteArray());
    }
}
