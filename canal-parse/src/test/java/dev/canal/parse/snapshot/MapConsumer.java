package dev.canal.parse.snapshot;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.LogPosition;
import dev.canal.store.Event;
import dev.canal.store.EventStore;
import dev.canal.store.Events;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A consumer that applies every row it takes from a store to a map by primary key (inserts and updates put the
 * after image, deletes remove the before image's key), acking as it goes, and remembers the position of the last
 * transaction end it applied: the cursor a client would have acknowledged.
 */
final class MapConsumer {

    private final String schema;
    private final List<String> keyColumns;
    private final Map<String, Map<String, Map<String, String>>> tables = new HashMap<>();
    private LogPosition cursor;
    private long snapshotRows;
    private long liveRows;

    /** @param keyColumns the primary key's columns; a row's map key is their values joined by '/' */
    MapConsumer(String schema, String... keyColumns) {
        this.schema = schema;
        this.keyColumns = List.of(keyColumns);
    }

    String keyOf(Map<String, String> row) {
        StringBuilder key = new StringBuilder();
        for (String column : keyColumns) {
            key.append(key.length() == 0 ? "" : "/").append(row.get(column));
        }
        return key.toString();
    }

    /** Takes and applies one batch; false when none came within the wait. */
    boolean takeBatch(EventStore store) throws InterruptedException {
        Events batch = store.get(1000, 100, TimeUnit.MILLISECONDS);
        if (batch.events().isEmpty()) {
            return false;
        }
        for (Event e : batch.events()) {
            apply(e);
        }
        store.ack(batch.range().end(), batch.range().endSeq());
        return true;
    }

    private void apply(Event event) {
        CanalEntry.Entry entry = event.parsedEntry();
        if (entry.getEntryType() == CanalEntry.EntryType.TRANSACTIONEND) {
            cursor = event.toLogPosition(false);
            return;
        }
        if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA || !schema.equals(entry.getHeader().getSchemaName())) {
            return;
        }
        boolean snapshot = entry.getHeader().getPropsList().stream()
                .anyMatch(p -> p.getKey().equals("snapshot") && p.getValue().equals("true"));
        CanalEntry.RowChange change;
        try {
            change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Map<String, String>> rows = tables.computeIfAbsent(entry.getHeader().getTableName(),
                t -> new HashMap<>());
        for (CanalEntry.RowData row : change.getRowDatasList()) {
            switch (change.getEventType()) {
                case INSERT, UPDATE -> {
                    if (change.getEventType() == CanalEntry.EventType.UPDATE) {
                        rows.remove(keyOf(values(row.getBeforeColumnsList())));
                    }
                    Map<String, String> after = values(row.getAfterColumnsList());
                    rows.put(keyOf(after), after);
                }
                case DELETE -> rows.remove(keyOf(values(row.getBeforeColumnsList())));
                default -> {
                }
            }
            if (snapshot) {
                snapshotRows++;
            } else {
                liveRows++;
            }
        }
    }

    private static Map<String, String> values(List<CanalEntry.Column> columns) {
        Map<String, String> values = new LinkedHashMap<>();
        for (CanalEntry.Column c : columns) {
            values.put(c.getName(), c.getIsNull() ? null : c.getValue());
        }
        return values;
    }

    Map<String, Map<String, String>> table(String table) {
        return tables.getOrDefault(table, Map.of());
    }

    LogPosition cursor() {
        return cursor;
    }

    long snapshotRows() {
        return snapshotRows;
    }

    long liveRows() {
        return liveRows;
    }
}
