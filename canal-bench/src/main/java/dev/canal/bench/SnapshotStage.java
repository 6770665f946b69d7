package dev.canal.bench;

import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.parse.snapshot.SnapshotConfig;
import dev.canal.parse.snapshot.SnapshotStats;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The snapshot stage (docs/snapshots.md): a parser with {@code canal.instance.snapshot.mode=initial} copies the
 * bench table as the workload left it, into Canal's default store, with one consumer that takes and acks batches.
 * Reports the table's rows per second from the parser's start to the last snapshot row taken; the content check
 * is that the snapshot rows taken equal the table's row count (the source is idle meanwhile).
 *
 * <p>The driver starts the parser at a small transaction it wrote after the workload, so the stream has a
 * transaction end to place the chunks after (docs/snapshots.md, "Limits").
 */
final class SnapshotStage {

    private static final int BATCH = 1000;
    private static final long TIMEOUT_MINUTES = 20;

    private SnapshotStage() {
    }

    static StageResult run(Target target, int chunkSize) throws Exception {
        long expected = tableRows(target);
        Properties p = target.parserProperties(true);
        p.setProperty(SnapshotConfig.MODE.name(), "initial");
        p.setProperty(SnapshotConfig.CHUNK_SIZE.name(), Integer.toString(chunkSize));
        MemoryEventStore store = new MemoryEventStore(StoreConfig.defaults());
        EntryEventSink sink = new EntryEventSink(store, false);
        MysqlEventParser parser = new MysqlEventParser("bench", MysqlParserConfig.fromProperties(p), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.fromProperties(p));
        parser.setSnapshotConfig(SnapshotConfig.fromProperties(p));
        ProcessMeter meter = ProcessMeter.self();
        long cpu = meter.cpuNanos();
        long started = System.nanoTime();
        store.start();
        sink.start();
        parser.start();
        long rows = 0;
        long deadline = started + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        while (!finished(parser.snapshotStats(), rows)) {
            if (parser.failure() != null || System.nanoTime() > deadline) {
                throw new IllegalStateException("snapshot stage: " + rows + " of " + expected + " rows taken",
                        parser.failure());
            }
            Events batch = store.get(BATCH, 100, TimeUnit.MILLISECONDS);
            for (Event e : batch.events()) {
                if (isSnapshot(e.parsedEntry())) {
                    rows += e.rowsCount();
                }
            }
            if (!batch.isEmpty()) {
                store.ack(batch.range().end(), batch.range().endSeq());
            }
        }
        long nanos = System.nanoTime() - started;
        long cpuNanos = meter.cpuNanos() - cpu;
        long peakRssKb = meter.peakRssKb();
        parser.stop();
        sink.stop();
        store.stop();
        String check = rows == expected ? "-" : "snapshot rows " + rows + " against " + expected + " in the table";
        return new StageResult("snapshot", rows, 0, 0, nanos, cpuNanos, peakRssKb, check);
    }

    private static boolean finished(SnapshotStats stats, long rowsTaken) {
        return stats != null && stats.tablesPending() == 0 && stats.tablesDone() > 0
                && rowsTaken >= stats.rowsEmitted();
    }

    private static boolean isSnapshot(CanalEntry.Entry entry) {
        return entry.getEntryType() == CanalEntry.EntryType.ROWDATA && entry.getHeader().getPropsList().stream()
                .anyMatch(pair -> pair.getKey().equals("snapshot") && pair.getValue().equals("true"));
    }

    private static long tableRows(Target target) throws Exception {
        String url = "jdbc:mysql://" + target.host() + ":" + target.port() + "/?allowPublicKeyRetrieval=true";
        try (Connection c = DriverManager.getConnection(url, target.user(), target.password());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + BenchTable.QUALIFIED)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
