package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 4 (docs/reliability.md): while the daemon is stopped, the source purges the binlog file that holds its
 * acked cursor and the rows after it. On restart the instance must raise an alarm naming the problem and stop,
 * not jump ahead to the oldest binlog left: no row from behind the gap reaches a client, and meta.dat keeps the
 * old cursor.
 */
class PurgedBinlogIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(PurgedBinlogIT.class);
    private static final String SCHEMA = "rel_purged";
    private static final int ROWS_PER_STEP = 10;

    @Test
    void restartFromAPurgedCursorRaisesAnAlarmAndDeliversNothingPastTheGap(MySqlServer db) throws Exception {
        int trials = ResultsTable.trials();
        DeliveryCheck beforeTheGap = DeliveryCheck.none();
        for (int trial = 1; trial <= trials; trial++) {
            String schema = SCHEMA + "_" + trial;
            if (daemon != null) {
                daemon.stop();
            }
            db.recreateDatabase(schema);
            RowWriter writer = RowWriter.create(db, schema, 1, Duration.ZERO);
            MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
            daemon = CanalDaemon.unpack(Files.createDirectories(home.resolve("trial-" + trial)), db, db.host(),
                    db.port(), schema, start);
            daemon.start();
            writer.writeNow(ROWS_PER_STEP);
            try (CheckingConsumer consumer = new CheckingConsumer(daemon.port, schema, 0)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= ROWS_PER_STEP);
                consumer.close();
                beforeTheGap = beforeTheGap.plus(DeliveryCheck.of(writer.committed(), consumer.rows()));
            }
            daemon.stop();
            BinlogPoint cursor = daemon.persistedCursor().orElseThrow(
                    () -> new AssertionError("no cursor in meta.dat after acking; logs:\n" + daemon.logs()));
            assertThat(cursor.file()).isEqualTo(start.file());

            writer.writeNow(ROWS_PER_STEP); // behind the cursor, in the file about to be purged
            db.execute("FLUSH BINARY LOGS");
            writer.writeNow(ROWS_PER_STEP); // in the next file, which stays
            String oldest = db.currentBinlogPosition().file();
            db.execute("PURGE BINARY LOGS TO '" + oldest + "'");
            assertThat(binaryLogs(db)).as("binlogs after the purge").doesNotContain(cursor.file());
            log.info("trial {}: purged up to {}, cursor {} is gone", trial, oldest, cursor);

            daemon.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> daemon.log("logs/example/example.log").contains("ALARM"));
            assertThat(daemon.log("logs/example/example.log")).as("the alarm names the problem")
                    .containsPattern("ALARM: .*binlog");
            assertThat(rowsOfferedTo(schema)).as("rows from behind the gap or after it").isEmpty();
            assertThat(daemon.persistedCursor()).as("meta.dat keeps the cursor, never silently reset").contains(cursor);
        }
        // rows written: those before the gap; the rows behind and after it are withheld, as they must be
        ResultsTable.record("source purged the binlog of the cursor (restart)", trials, beforeTheGap, List.of());
        assertThat(beforeTheGap.lost()).as("%s", beforeTheGap).isZero();
    }

    /** What a client gets from the stopped instance: rows, if it wrongly jumped ahead (an error is fine). */
    private List<ReceivedRow> rowsOfferedTo(String schema) {
        CanalConnector connector = CheckingConsumer.connector(daemon.port);
        List<ReceivedRow> rows = new ArrayList<>();
        try {
            connector.connect();
            connector.subscribe(schema + "\\..*");
            for (int i = 0; i < 5; i++) {
                Message message = connector.getWithoutAck(16, 300L, TimeUnit.MILLISECONDS);
                rows.addAll(CheckingConsumer.insertedRows(message, 0));
            }
        } catch (RuntimeException e) {
            log.info("a client of the stopped instance is refused: {}", e.toString());
        } finally {
            connector.disconnect();
        }
        return rows;
    }

    private static List<String> binaryLogs(MySqlServer db) throws SQLException {
        List<String> files = new ArrayList<>();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                files.add(rs.getString(1));
            }
        }
        return files;
    }
}
