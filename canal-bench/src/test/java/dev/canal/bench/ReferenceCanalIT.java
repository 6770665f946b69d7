package dev.canal.bench;

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
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Canal 1.1.7 (module canal-reference, in its own JVM) against the fixture database, read with the
 * official client: it catches up on rows written before it started and follows rows written after, and serves
 * each with the values the database holds.
 */
@ExtendWith(MySqlServerExtension.class)
class ReferenceCanalIT {

    private static final String SCHEMA = "reference_it";
    private static final long DEADLINE_MILLIS = 60_000;

    @Test
    void theReferenceServesEveryRowWrittenBeforeAndAfterItStarted(MySqlServer db, @TempDir Path work)
            throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id BIGINT PRIMARY KEY, name VARCHAR(64), amount DECIMAL(10,2),"
                + " at DATETIME(3))");
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        long startMillis = nowMillis(db);
        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (1, 'one', 1.50, '2024-01-02 03:04:05.678'),"
                        + " (2, 'two', 2.00, '2024-01-02 03:04:06.000'), (3, NULL, NULL, NULL)",
                "UPDATE " + SCHEMA + ".t SET name = 'TWO', amount = 20.25 WHERE id = 2",
                "DELETE FROM " + SCHEMA + ".t WHERE id = 3");

        ReferenceCanal.Destination destination = new ReferenceCanal.Destination("it", db.host(), db.port(),
                db.replicationUser(), db.replicationPassword(), start.file(), start.position(), startMillis,
                SCHEMA + "\\..*", 1024, 64_125);
        List<String> rows = new ArrayList<>();
        try (ReferenceCanal canal = ReferenceCanal.start(destination, List.of("-Xms256m", "-Xmx512m"), work)) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (4, 'four', 4.44, '2024-01-02 03:04:07.100')");
            CanalConnector connector = CanalConnectors.newSingleConnector(
                    new InetSocketAddress("127.0.0.1", canal.port()), "it", "", "");
            connector.connect();
            try {
                connector.subscribe();
                long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
                while (rows.size() < 6 && System.currentTimeMillis() < deadline) {
                    Message message = connector.getWithoutAck(100, 1000L, TimeUnit.MILLISECONDS);
                    for (CanalEntry.Entry entry : message.getEntries()) {
                        rows.addAll(describe(entry));
                    }
                    if (message.getId() != -1) {
                        connector.ack(message.getId());
                    }
                }
            } finally {
                connector.disconnect();
            }
        }

        // 2.00 arrives as 2.0: Canal 1.1.7 drops the scale of a DECIMAL whose fraction is zero (docs/compatibility.md)
        assertThat(rows).containsExactly(
                "INSERT 1 after=[1, one, 1.50, 2024-01-02 03:04:05.678]",
                "INSERT 2 after=[2, two, 2.0, 2024-01-02 03:04:06.000]",
                "INSERT 3 after=[3, null, null, null]",
                "UPDATE 2 before=[2, two, 2.0, 2024-01-02 03:04:06.000] after=[2, TWO, 20.25, 2024-01-02 03:04:06.000]",
                "DELETE 3 before=[3, null, null, null]",
                "INSERT 4 after=[4, four, 4.44, 2024-01-02 03:04:07.100]");
    }

    private static List<String> describe(CanalEntry.Entry entry) throws Exception {
        List<String> rows = new ArrayList<>();
        if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA
                || !entry.getHeader().getTableName().equals("t")) {
            return rows;
        }
        CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        for (CanalEntry.RowData row : change.getRowDatasList()) {
            String type = change.getEventType().name();
            List<CanalEntry.Column> key = row.getAfterColumnsCount() > 0 ? row.getAfterColumnsList()
                    : row.getBeforeColumnsList();
            StringBuilder text = new StringBuilder(type).append(' ').append(key.get(0).getValue());
            if (row.getBeforeColumnsCount() > 0) {
                text.append(" before=").append(values(row.getBeforeColumnsList()));
            }
            if (row.getAfterColumnsCount() > 0) {
                text.append(" after=").append(values(row.getAfterColumnsList()));
            }
            rows.add(text.toString());
        }
        return rows;
    }

    private static List<String> values(List<CanalEntry.Column> columns) {
        return columns.stream().map(c -> c.getIsNull() ? "null" : c.getValue()).toList();
    }

    private static long nowMillis(MySqlServer db) throws Exception {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
