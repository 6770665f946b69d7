package dev.canal.parse.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.protocol.position.LogPosition;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots against a real server while a writer keeps changing the table: a consumer applying everything it
 * receives to a map by primary key ends equal to the table. The row count is {@code -Dsnapshot.it.rows}
 * (20000 by default; bench/snapshot-1m.sh runs it with 1M).
 */
@ExtendWith(MySqlServerExtension.class)
class SnapshotIT {

    private static final int ROWS = Integer.getInteger("snapshot.it.rows", 20_000);
    private static final Duration SNAPSHOT_TIMEOUT = Duration.ofSeconds(Math.max(120, ROWS / 1000));

    @TempDir
    Path dataDir;

    private MemoryEventStore store;
    private EntryEventSink sink;
    private MysqlEventParser parser;
    private MemoryLogPositionManager positions = new MemoryLogPositionManager();

    @AfterEach
    void stopAll() {
        stopPipeline();
    }

    @Test
    void initialSnapshotUnderConcurrentWritesEndsEqualToTheTable(MySqlServer db) throws Exception {
        String schema = "snap_initial";
        createFilledTable(db, schema, ROWS);
        MapConsumer consumer = new MapConsumer(schema, "id");
        try (TableWriter writer = new TableWriter(db, schema + ".t", ROWS + ROWS / 5)) {
            startPipeline(db, properties(db, schema, "initial", ""));
            drainUntil(consumer, () -> snapshotDone(2), SNAPSHOT_TIMEOUT);
            assertThat(writer.statements()).as("the writer ran during the snapshot").isPositive();
        }
        catchUp(db, schema, consumer);

        assertThat(consumer.table("t")).isEqualTo(selectAll(db, schema + ".t"));
        assertThat(consumer.snapshotRows()).as("rows came from the snapshot").isGreaterThan(ROWS / 2);
        assertThat(parser.snapshotStats().rowsRead()).isGreaterThanOrEqualTo(parser.snapshotStats().rowsEmitted());
    }

    @Test
    void aSnapshotStoppedMidwayResumesAfterItsLastAcknowledgedChunkAndEndsEqual(MySqlServer db) throws Exception {
        String schema = "snap_restart";
        createFilledTable(db, schema, ROWS);
        MapConsumer consumer = new MapConsumer(schema, "id");
        // a throttled, chunked snapshot, so that it is still running when the parser is stopped
        Properties p = properties(db, schema, "initial", "");
        p.setProperty(SnapshotConfig.CHUNK_SIZE.name(), "500");
        p.setProperty(SnapshotConfig.ROWS_PER_SECOND.name(), Integer.toString(Math.max(5000, ROWS / 4)));
        long firstRun;
        try (TableWriter writer = new TableWriter(db, schema + ".t", ROWS + ROWS / 5)) {
            startPipeline(db, p);
            drainUntil(consumer, () -> parser.snapshotStats().rowsRead() >= ROWS / 3, SNAPSHOT_TIMEOUT);
            firstRun = parser.snapshotStats().rowsRead();
            assertThat(parser.snapshotStats().tablesDone()).as("stopped mid-snapshot of t").isLessThanOrEqualTo(1);

            // the process dies: the store's unconsumed entries are gone, the acked cursor and the progress stay
            LogPosition cursor = consumer.cursor();
            stopPipeline();
            positions = new MemoryLogPositionManager();
            positions.persist("it", cursor);
            startPipeline(db, p);
            // the empty marker table, copied first, may have been acknowledged and so not copied again
            drainUntil(consumer, () -> snapshotDone(1), SNAPSHOT_TIMEOUT);
        }
        catchUp(db, schema, consumer);

        assertThat(consumer.table("t")).isEqualTo(selectAll(db, schema + ".t"));
        assertThat(parser.snapshotStats().rowsRead()).as("the restart did not copy the table again from its start")
                .isLessThan(ROWS - firstRun / 2 + ROWS / 5);
    }

    @Test
    void aSignalRowSnapshotsOneTableWhileAnotherStreams(MySqlServer db) throws Exception {
        String schema = "snap_signal";
        createFilledTable(db, schema, ROWS / 4);
        db.execute("CREATE TABLE " + schema + ".other (id INT PRIMARY KEY, v VARCHAR(40), n INT)",
                "CREATE TABLE " + schema + "_ctl.snapshot_signal (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
                        + "tables VARCHAR(2048) NOT NULL)");
        MapConsumer consumer = new MapConsumer(schema, "id");
        startPipeline(db, properties(db, schema, "never", schema + "_ctl.snapshot_signal"));
        try (TableWriter other = new TableWriter(db, schema + ".other", 1000)) {
            drainUntil(consumer, () -> consumer.liveRows() > 100, Duration.ofSeconds(60));
            assertThat(consumer.table("t")).as("t is not streamed before it is requested").isEmpty();

            db.execute("INSERT INTO " + schema + "_ctl.snapshot_signal (tables) VALUES ('" + schema + ".t')");
            try (TableWriter writer = new TableWriter(db, schema + ".t", ROWS / 4 + ROWS / 20)) {
                drainUntil(consumer, () -> snapshotDone(1), SNAPSHOT_TIMEOUT);
            }
            long liveBefore = consumer.liveRows();
            drainUntil(consumer, () -> consumer.liveRows() > liveBefore + 100, Duration.ofSeconds(60));
        }
        catchUp(db, schema, consumer);

        assertThat(consumer.table("t")).isEqualTo(selectAll(db, schema + ".t"));
        assertThat(consumer.table("other")).isEqualTo(selectAll(db, schema + ".other"));
    }

    @Test
    void aTableWithACompositeKeyIsCopiedChunkByChunkInKeyOrder(MySqlServer db) throws Exception {
        String schema = "snap_composite";
        db.recreateDatabase(schema);
        db.recreateDatabase(schema + "_ctl");
        db.execute("CREATE TABLE " + schema + ".c (a INT, b VARCHAR(10), v INT, PRIMARY KEY (a, b))",
                "CREATE TABLE " + schema + ".marker (id INT PRIMARY KEY)");
        StringBuilder fill = new StringBuilder("INSERT INTO " + schema + ".c VALUES ");
        for (int a = 0; a < 30; a++) {
            for (int b = 0; b < 50; b++) {
                fill.append(a + b == 0 ? "" : ",").append('(').append(a).append(", 'k").append(b).append("', ")
                        .append(a * b).append(')');
            }
        }
        db.execute(fill.toString());
        MapConsumer consumer = new MapConsumer(schema, "a", "b");
        Properties p = properties(db, schema, "initial", "");
        p.setProperty(SnapshotConfig.CHUNK_SIZE.name(), "97");
        startPipeline(db, p);
        // a transaction after the dump began, for the chunks to follow (docs/snapshots.md, "Limits")
        await().atMost(Duration.ofSeconds(30)).until(() -> parser.receivedBinlogBytes() > 0);
        db.execute("UPDATE " + schema + ".c SET v = -1 WHERE a = 0 AND b = 'k0'");
        drainUntil(consumer, () -> snapshotDone(2), SNAPSHOT_TIMEOUT);
        catchUp(db, schema, consumer);

        Map<String, Map<String, String>> expected = new HashMap<>();
        for (Map<String, String> row : selectRows(db, schema + ".c")) {
            expected.put(consumer.keyOf(row), row);
        }
        assertThat(consumer.table("c")).hasSize(1500).isEqualTo(expected);
        assertThat(parser.snapshotStats().rowsRead()).isEqualTo(1500);
    }

    private boolean snapshotDone(int tables) {
        SnapshotStats stats = parser.snapshotStats();
        boolean done = stats != null && stats.tablesDone() >= tables && stats.tablesPending() == 0;
        if (done) {
            System.out.println("snapshot done: " + stats);
        }
        return done;
    }

    private void createFilledTable(MySqlServer db, String schema, int rows) {
        db.recreateDatabase(schema);
        db.recreateDatabase(schema + "_ctl");
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v VARCHAR(40), n INT)",
                "CREATE TABLE " + schema + ".marker (id INT PRIMARY KEY)");
        int batch = 1000;
        for (int from = 1; from <= rows; from += batch) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + schema + ".t VALUES ");
            for (int id = from; id < Math.min(rows + 1, from + batch); id++) {
                sql.append(id == from ? "" : ",").append('(').append(id).append(", 'row ").append(id)
                        .append("', ").append(id % 7 == 0 ? "NULL" : "0").append(')');
            }
            db.execute(sql.toString());
        }
    }

    private Properties properties(MySqlServer db, String schema, String mode, String signal) {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", db.host() + ":" + db.port());
        p.setProperty("canal.instance.dbUsername", db.replicationUser());
        p.setProperty("canal.instance.dbPassword", db.replicationPassword());
        p.setProperty("canal.instance.filter.regex", schema + "\\..*");
        p.setProperty("canal.file.data.dir", dataDir.toString()); // the schema history's folder, not ../conf
        p.setProperty("canal.instance.parser.parallelThreadSize", "2");
        p.setProperty(SnapshotConfig.MODE.name(), mode);
        p.setProperty(SnapshotConfig.SIGNAL_TABLE.name(), signal);
        p.setProperty(SnapshotConfig.SIGNAL_POLL.name(), "200");
        return p;
    }

    private void startPipeline(MySqlServer db, Properties p) {
        store = new MemoryEventStore(StoreConfig.itemSize(4096));
        store.start();
        sink = new EntryEventSink(store, false);
        sink.start();
        parser = new MysqlEventParser("it", MysqlParserConfig.fromProperties(p), sink, positions,
                SinkFilterConfig.fromProperties(p));
        parser.setSnapshotConfig(SnapshotConfig.fromProperties(p));
        parser.setSnapshotProgressStore(new FileSnapshotProgressStore(dataDir, "it"));
        parser.start();
    }

    private void stopPipeline() {
        if (parser != null) {
            parser.stop();
        }
        if (sink != null) {
            sink.stop();
        }
        if (store != null) {
            store.stop();
        }
    }

    private void drainUntil(MapConsumer consumer, BooleanSupplier done, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(1)).until(() -> {
            while (consumer.takeBatch(store)) {
                if (done.getAsBoolean()) {
                    return true;
                }
            }
            assertThat(parser.failure()).isNull();
            return done.getAsBoolean();
        });
    }

    /** Writes a marker row after the writers stopped and takes everything up to it. */
    private void catchUp(MySqlServer db, String schema, MapConsumer consumer) {
        db.execute("INSERT INTO " + schema + ".marker VALUES (1)");
        drainUntil(consumer, () -> !consumer.table("marker").isEmpty(), Duration.ofSeconds(60));
    }

    private static Map<String, Map<String, String>> selectAll(MySqlServer db, String table) throws Exception {
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (Map<String, String> row : selectRows(db, table)) {
            rows.put(row.get("id"), row);
        }
        return rows;
    }

    private static java.util.List<Map<String, String>> selectRows(MySqlServer db, String table) throws Exception {
        java.util.List<Map<String, String>> rows = new java.util.ArrayList<>();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.put(md.getColumnName(i), rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
