package dev.canal.bench;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import dev.canal.parse.mysql.event.BinlogEvent;
import dev.canal.parse.mysql.event.DecoderContext;
import dev.canal.parse.mysql.event.RowChange;
import dev.canal.parse.mysql.event.RowsDecoder;
import dev.canal.parse.mysql.event.RowsEvent;
import dev.canal.parse.mysql.event.TableMapEvent;
import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stage 2: decoding only. The workload's events are dumped once into memory (not timed), then decoded from
 * those same byte arrays, one whole event at a time, by our {@link DecoderContext} + {@link RowsDecoder} or by
 * mysql-binlog-connector-java's {@link EventDeserializer} (which is what its BinaryLogClient does per packet).
 * Neither verifies checksums here (the dump did). Two untimed passes warm the JIT up first: a decoder in a
 * replica runs for days, and a single cold pass over a binlog decoded in a fraction of a second mostly
 * measures compilation. The timed pass only counts rows; a last, untimed pass digests every row for the
 * content check.
 */
final class DecodeStage {

    /** One of the two decoders, over the whole captured binlog. */
    private interface Decoder {
        /** Decodes every event; digests rows into {@code digest} when it is not null; returns the row count. */
        long decodeAll(List<byte[]> events, RowDigest digest) throws IOException;
    }

    private static final int WARM_UP_PASSES = 2;

    private DecodeStage() {
    }

    static StageResult run(Target target, String variant) throws IOException {
        Decoder decoder = switch (variant) {
            case "ours" -> DecodeStage::ours;
            case "reference" -> (events, digest) -> reference(events, digest, target.mysqlFlavor());
            default -> throw new IllegalArgumentException("decode variant must be ours or reference: " + variant);
        };
        List<byte[]> events = RawDumpStage.capture(target);
        long bytes = events.stream().mapToLong(e -> e.length).sum();
        for (int pass = 0; pass < WARM_UP_PASSES; pass++) {
            decoder.decodeAll(events, null);
        }
        ProcessMeter meter = ProcessMeter.self();
        long cpu = meter.cpuNanos();
        long started = System.nanoTime();
        long rows = decoder.decodeAll(events, null);
        long nanos = System.nanoTime() - started;
        long cpuNanos = meter.cpuNanos() - cpu;
        RowDigest digest = new RowDigest();
        decoder.decodeAll(events, digest);
        if (digest.rows() != rows) {
            throw new IllegalStateException("the " + variant + " decoder gave " + rows + " rows, then "
                    + digest.rows());
        }
        return new StageResult("decode-" + variant, rows, events.size(), bytes, nanos, cpuNanos, meter.peakRssKb(),
                digest.value());
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
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        Map<Long, String> tables = new HashMap<>();
        long rows = 0;
        for (byte[] bytes : events) {
            EventData data = deserializer.nextEvent(new ByteArrayInputStream(bytes)).getData();
            if (data instanceof TableMapEventData map) {
                tables.put(map.getTableId(), map.getDatabase() + "." + map.getTable());
            } else if (data instanceof WriteRowsEventData write) {
                rows += write.getRows().size();
                if (digest != null) {
                    for (Serializable[] after : write.getRows()) {
                        digest.add(tables.get(write.getTableId()), "INSERT", String.valueOf(after[0]), null,
                                BenchTable.referenceImage(after, binaryJson));
                    }
                }
            } else if (data instanceof UpdateRowsEventData update) {
                rows += update.getRows().size();
                if (digest != null) {
                    for (Map.Entry<Serializable[], Serializable[]> row : update.getRows()) {
                        digest.add(tables.get(update.getTableId()), "UPDATE", String.valueOf(row.getValue()[0]),
                                BenchTable.referenceImage(row.getKey(), binaryJson),
                                BenchTable.referenceImage(row.getValue(), binaryJson));
                    }
                }
            } else if (data instanceof DeleteRowsEventData delete) {
                rows += delete.getRows().size();
                if (digest != null) {
                    for (Serializable[] before : delete.getRows()) {
                        digest.add(tables.get(delete.getTableId()), "DELETE", String.valueOf(before[0]),
                                BenchTable.referenceImage(before, binaryJson), null);
                    }
                }
            }
        }
        return rows;
    }
}
