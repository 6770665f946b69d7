package dev.canal.bench;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.RowChange;
import dev.canal.binlog.event.RowsDecoder;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.TableMapEvent;
import java.io.IOException;
import java.util.List;

/**
 * Stage 2: decoding only. The workload's events are dumped once into memory (not timed), then decoded from
 * those same byte arrays, one whole event at a time, by our {@link DecoderContext} + {@link RowsDecoder} or by
 * mysql-binlog-connector-java's {@link EventDeserializer} (which is what its BinaryLogClient does per packet).
 * Neither verifies checksums here (the dump did). Two results: the first pass, in a cold JVM (stage
 * {@code decode-X-cold}, what a freshly started replica pays, mostly JIT compilation on a small binlog), and,
 * after one more untimed pass, a warm pass ({@code decode-X}, the decoder's own speed in a replica that runs for
 * days). The timed passes only count rows; a last, untimed pass digests every row for the content check.
 * {@link LiveReferenceStage} measures the reference's client reading from the source instead.
 */
final class DecodeStage {

    /** One of the two decoders, over the whole captured binlog. */
    private interface Decoder {
        /** Decodes every event; digests rows into {@code digest} when it is not null; returns the row count. */
        long decodeAll(List<byte[]> events, RowDigest digest) throws IOException;
    }


    private DecodeStage() {
    }

    static List<StageResult> run(Target target, String variant) throws IOException {
        Decoder decoder = switch (variant) {
            case "ours" -> DecodeStage::ours;
            case "reference" -> (events, digest) -> reference(events, digest, target.binaryJson());
            default -> throw new IllegalArgumentException("decode variant must be ours or reference: " + variant);
        };
        List<byte[]> events = RawDumpStage.capture(target);
        ProcessMeter meter = ProcessMeter.self();
        Pass cold = Pass.timed(decoder, events, meter);
        decoder.decodeAll(events, null);
        Pass warm = Pass.timed(decoder, events, meter);
        RowDigest digest = new RowDigest();
        decoder.decodeAll(events, digest);
        if (digest.rows() != cold.rows() || digest.rows() != warm.rows()) {
            throw new IllegalStateException("the " + variant + " decoder gave " + cold.rows() + ", " + warm.rows()
                    + ", then " + digest.rows() + " rows");
        }
        return List.of(cold.result("decode-" + variant + "-cold", events, meter, digest),
                warm.result("decode-" + variant, events, meter, digest));
    }

    /** One timed pass over all events. */
    private record Pass(long rows, long nanos, long cpuNanos) {

        static Pass timed(Decoder decoder, List<byte[]> events, ProcessMeter meter) throws IOException {
            long cpu = meter.cpuNanos();
            long started = System.nanoTime();
            long rows = decoder.decodeAll(events, null);
            return new Pass(rows, System.nanoTime() - started, meter.cpuNanos() - cpu);
        }

        StageResult result(String stage, List<byte[]> events, ProcessMeter meter, RowDigest digest) {
            long bytes = events.stream().mapToLong(e -> e.length).sum();
            return new StageResult(stage, rows, events.size(), bytes, nanos, cpuNanos, meter.peakRssKb(),
                    digest.value());
        }
    }

    private static long ours(List<byte[]> events, RowDigest digest) {
        DecoderContext context = new DecoderContext();
        long rows = 0;
        for (byte[] bytes : events) {
            BinlogEvent event = context.decode(bytes);
            if (event instanceof RowsEvent rowsEvent) {
                TableMapEvent table = context.tableMap(rowsEvent.tableId());
                List<RowChange> changes = RowsDecoder.decode(rowsEvent, table);
                rows += changes.size();
                if (digest != null) {
                    String type = switch (rowsEvent.kind()) {
                        case WRITE -> "INSERT";
                        case UPDATE, PARTIAL_UPDATE -> "UPDATE";
                        case DELETE -> "DELETE";
                    };
                    for (RowChange change : changes) {
                        Object[] image = change.after() != null ? change.after() : change.before();
                        digest.add(table.qualifiedName(), type, String.valueOf(image[0]),
                                BenchTable.ourImage(change.before()), BenchTable.ourImage(change.after()));
                    }
                }
            }
        }
        return rows;
    }

    private static long reference(List<byte[]> events, RowDigest digest, boolean binaryJson) throws IOException {
        EventDeserializer deserializer = ReferenceRows.newDeserializer();
        ReferenceRows digested = digest == null ? null : new ReferenceRows(digest, binaryJson);
        long rows = 0;
        for (byte[] bytes : events) {
            EventData data = deserializer.nextEvent(new ByteArrayInputStream(bytes)).getData();
            rows += ReferenceRows.count(data);
            if (digested != null) {
                digested.add(data);
            }
        }
        return rows;
    }
}
