package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A destination whose tables see no writes does not strand its clients (docs/operations.md, "Quiet sources"): while
 * the source writes only to other tables and then only rotates its binlog, the heartbeats of the idle source move
 * the official client's acked cursor to the newest binlog file, so a restart after those files were purged resumes
 * there, with no alarm and no row lost, re-reading little.
 */
class QuietSourceIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(QuietSourceIT.class);
    private static final String SCHEMA = "rel_quiet";
    private static final String OTHER = "rel_quiet_other";
    private static final int UNSELECTED_TRANSACTIONS = 2_000;
    /** More than an XID event, less than a transaction of those tables. */
    private static final long LAST_EVENT_BYTES = 100;

    @Test
    void aRestartAfterRotationsAndPurgesOfTheBinlogResumesAtItsHeadWithoutAGap(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.recreateDatabase(OTHER);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(40))",
                "CREATE TABLE " + OTHER + ".busy (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(200))");
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set("conf/canal.properties", "canal.instance.network.heartbeatPeriod", "1");
        daemon.start();

        String head;
        MySqlServer.BinlogCoordinates afterUnselected;
        try (KeyedTableConsumer consumer = new KeyedTableConsumer(SCHEMA, daemon.port)) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (1, 'before')");
            daemon.awaitOrShowLogs("the first row", Duration.ofSeconds(60), () -> consumer.table("t").size() == 1);
            writeUnselected(db);
            afterUnselected = db.currentBinlogPosition();
            // the heartbeat transaction names the last event of the last unselected transaction
            daemon.awaitOrShowLogs("the cursor past the transactions the destination does not select",
                    Duration.ofSeconds(60), () -> cursorIsAt(afterUnselected.file(),
                            afterUnselected.position() - LAST_EVENT_BYTES));
            db.execute("FLUSH BINARY LOGS", "FLUSH BINARY LOGS");
            head = db.currentBinlogPosition().file();
            daemon.awaitOrShowLogs("the cursor in the newest binlog file", Duration.ofSeconds(60),
                    () -> cursorIsAt(head, 0));
        }
        daemon.stop();
        db.execute("PURGE BINARY LOGS TO '" + head + "'");
        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (2, 'while stopped')");
        daemon.start();

        try (KeyedTableConsumer consumer = new KeyedTableConsumer(SCHEMA, daemon.port)) {
            daemon.awaitOrShowLogs("the row written while the daemon was stopped", Duration.ofSeconds(60),
                    () -> consumer.table("t").containsKey("2"));
            assertThat(consumer.table("t")).as("the acked row is not sent again").containsOnlyKeys("2");
        }
        assertThat(daemon.log("logs/example/example.log")).doesNotContain("ALARM");
        long reread = (long) new DaemonMetrics(daemon).value("canal_instance_received_binlog_bytes");
        long unselectedBytes = afterUnselected.position();
        log.info("bytes read after the restart: {} (the unselected transactions took {} bytes of binlog)", reread,
                unselectedBytes);
        assertThat(reread).as("binlog bytes read after the restart").isLessThan(unselectedBytes / 10);
    }

    /** Transactions on a table the destination does not select. */
    private static void writeUnselected(MySqlServer db) {
        String[] inserts = new String[UNSELECTED_TRANSACTIONS];
        for (int i = 0; i < inserts.length; i++) {
            inserts[i] = "INSERT INTO " + OTHER + ".busy (v) VALUES ('" + "x".repeat(100) + "')";
        }
        db.execute(inserts);
    }

    /** Whether meta.dat's cursor is in {@code file}, past {@code offset}. */
    private boolean cursorIsAt(String file, long offset) throws Exception {
        Optional<BinlogPoint> cursor = daemon.persistedCursor();
        return cursor.isPresent() && cursor.get().file().equals(file) && cursor.get().offset() > offset;
    }
}
