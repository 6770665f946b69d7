package dev.canal.reliability;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The official client in a loop of getWithoutAck, apply, ack, applying every row change of a schema to a map by
 * primary key {@code id} per table (insert and update as upsert, delete as delete, TRUNCATE as emptying the table),
 * as a consumer of snapshots does (docs/snapshots.md). A broken connection (the server was killed) is dropped and the next of the given
 * daemon ports tried, so the consumer follows a restart or a failover.
 */
final class KeyedTableConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeyedTableConsumer.class);

    private final String destination;
    private final String filter;
    private final int[] ports;
    private final Map<String, Map<String, Map<String, String>>> tables = new HashMap<>(); // guarded by this
    private final AtomicLong snapshotRows = new AtomicLong();
    private final AtomicLong truncates = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    KeyedTableConsumer(String schema, int... ports) {
        this(CanalDaemon.DESTINATION, schema, ports);
    }

    KeyedTableConsumer(String destination, String schema, int... ports) {
        this.destination = destination;
        this.filter = schema + "\\..*";
        this.ports = ports.clone();
        this.thread = new Thread(this::consumeUntilClosed, "keyed-consumer-" + schema);
        thread.setDaemon(true);
        thread.start();
    }

    private void consumeUntilClosed() {
        int attempt = 0;
        while (running.get()) {
            CanalConnector connector = CheckingConsumer.connector(ports[attempt++ % ports.length], destination);
            try {
                connector.connect(); // the official client rolls back unacked batches on connect
                connector.subscribe(filter);
                while (running.get()) {
                    Message message = connector.getWithoutAck(1000, 200L, TimeUnit.MILLISECONDS);
                    apply(message.getEntries());
                    if (message.getId() != -1) {
                        connector.ack(message.getId());
                    }
                }
            } catch (RuntimeException e) {
                log.debug("consumer connection broke ({}); reconnecting", e.toString());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            } finally {
                try {
                    connector.disconnect();
                } catch (RuntimeException e) {
                    log.debug("disconnect after a broken connection failed too: {}", e.toString());
                }
            }
        }
    }

    private synchronized void apply(List<CanalEntry.Entry> entries) {
        for (CanalEntry.Entry entry : entries) {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                continue;
            }
            CanalEntry.RowChange change;
            try {
                change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("unreadable row change in " + entry.getHeader(), e);
            }
            boolean snapshot = entry.getHeader().getPropsList().stream()
                    .anyMatch(p -> p.getKey().equals("snapshot") && p.getValue().equals("true"));
            Map<String, Map<String, String>> rows = tables.computeIfAbsent(entry.getHeader().getTableName(),
                    t -> new HashMap<>());
            if (change.getEventType() == CanalEntry.EventType.TRUNCATE) {
                rows.clear();
                truncates.incrementAndGet();
                continue;
            }
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                switch (change.getEventType()) {
                    case INSERT, UPDATE -> {
                        if (row.getBeforeColumnsCount() > 0) {
                            rows.remove(values(row.getBeforeColumnsList()).get("id"));
                        }
                        Map<String, String> after = values(row.getAfterColumnsList());
                        rows.put(after.get("id"), after);
                    }
                    case DELETE -> rows.remove(values(row.getBeforeColumnsList()).get("id"));
                    default -> {
                    }
                }
                if (snapshot) {
                    snapshotRows.incrementAndGet();
                }
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

    /** A copy of what was applied to {@code table}: id -> column -> value. */
    synchronized Map<String, Map<String, String>> table(String table) {
        return new HashMap<>(tables.getOrDefault(table, Map.of()));
    }

    long snapshotRows() {
        return snapshotRows.get();
    }

    /** TRUNCATE entries applied so far. */
    long truncates() {
        return truncates.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}
