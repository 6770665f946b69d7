package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon with {@code canal.instance.snapshot.mode=initial}: the unmodified official client receives the table's
 * rows as INSERT entries marked {@code snapshot=true}, between the live changes written meanwhile, and applying
 * everything by primary key ends equal to the table (docs/snapshots.md).
 */
@ExtendWith(MySqlServerExtension.class)
class SnapshotOfficialClientIT {

    private static final String SCHEMA = "deployer_snapshot";
    private static final String DESTINATION = "snapshot";
    private static final int ROWS = 3000;
    private static final long RECEIVE_NANOS = TimeUnit.SECONDS.toNanos(120);

    @TempDir
    Path conf;

    private CanalController controller;
    private final Map<String, Map<String, Map<String, String>>> tables = new HashMap<>();
    private long snapshotRows;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.stop();
        }
    }

    @Test
    void officialClientReceivesSnapshotRowsMarkedAmongLiveChangesAndEndsEqualToTheTable(MySqlServer db)
            throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(40), n INT)",
                "CREATE TABLE " + SCHEMA + ".marker (id INT PRIMARY KEY)");
        StringBuilder fill = new StringBuilder("INSERT INTO " + SCHEMA + ".t VALUES ");
        for (int id = 1; id <= ROWS; id++) {
            fill.append(id == 1 ? "" : ",").append('(').append(id).append(", 'r").append(id).append("', 0)");
        }
        db.execute(fill.toString());
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA, "canal.instance.snapshot.mode=initial",
                "canal.instance.snapshot.chunk.size=250");
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION));

        CanalConnector connector = CanalConnectors.newSingleConnector(
                new InetSocketAddress("127.0.0.1", controller.port()), DESTINATION, "", "");
        connector.connect();
        try (Connection writer = db.adminConnection(); Statement st = writer.createStatement()) {
            connector.subscribe(SCHEMA + "\\..*");
            Random random = new Random(42);
            long deadline = System.nanoTime() + RECEIVE_NANOS;
            // live changes while the snapshot runs, until its progress beside meta.dat says both tables are done
            while (!snapshotDone() && System.nanoTime() < deadline) {
                int id = 1 + random.nextInt(ROWS + 200);
                st.execute(switch (random.nextInt(3)) {
                    case 0 -> "UPDATE " + SCHEMA + ".t SET n = n + 1, v = 'u" + random.nextInt() + "' WHERE id = " + id;
                    case 1 -> "DELETE FROM " + SCHEMA + ".t WHERE id = " + id;
                    default -> "REPLACE INTO " + SCHEMA + ".t VALUES (" + id + ", 'i', 1)";
                });
                takeAndApply(connector, 50L);
            }
            st.execute("INSERT INTO " + SCHEMA + ".marker VALUES (1)");
            while (!table("marker").containsKey("1") && System.nanoTime() < deadline) {
                takeAndApply(connector, 200L);
            }
        } finally {
            connector.disconnect();
        }

        assertThat(snapshotRows).as("rows marked snapshot=true").isGreaterThan(ROWS / 2);
        assertThat(table("t")).isEqualTo(selectAll(db));
    }

    private boolean snapshotDone() throws java.io.IOException {
        Path progress = conf.resolve(DESTINATION).resolve("snapshot.properties");
        return java.nio.file.Files.isRegularFile(progress)
                && java.nio.file.Files.readAllLines(progress).stream().filter(l -> l.contains(".done=")).count() == 2;
    }

    private Map<String, Map<String, String>> table(String name) {
        return tables.computeIfAbsent(name, t -> new HashMap<>());
    }

    private void takeAndApply(CanalConnector connector, long timeoutMillis) throws Exception {
        Message message = connector.getWithoutAck(1000, timeoutMillis, TimeUnit.MILLISECONDS);
        for (CanalEntry.Entry entry : message.getEntries()) {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                continue;
            }
            boolean snapshot = entry.getHeader().getPropsList().stream()
                    .anyMatch(p -> p.getKey().equals("snapshot") && p.getValue().equals("true"));
            CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            Map<String, Map<String, String>> rows = table(entry.getHeader().getTableName());
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                switch (change.getEventType()) {
                    case INSERT, UPDATE -> {
                        rows.remove(values(row.getBeforeColumnsList()).get("id"));
                        Map<String, String> after = values(row.getAfterColumnsList());
                        rows.put(after.get("id"), after);
                    }
                    case DELETE -> rows.remove(values(row.getBeforeColumnsList()).get("id"));
                    default -> {
                    }
                }
                if (snapshot) {
                    assertThat(change.getEventType()).isEqualTo(CanalEntry.EventType.INSERT);
                    snapshotRows++;
                }
            }
        }
        if (message.getId() != -1) {
            connector.ack(message.getId());
        }
    }

    private static Map<String, String> values(List<CanalEntry.Column> columns) {
        Map<String, String> values = new LinkedHashMap<>();
        for (CanalEntry.Column c : columns) {
            values.put(c.getName(), c.getIsNull() ? null : c.getValue());
        }
        return values;
    }

    private static Map<String, Map<String, String>> selectAll(MySqlServer db) {
        return db.rowsByKey("SELECT id, v, n FROM " + SCHEMA + ".t");
    }
}
