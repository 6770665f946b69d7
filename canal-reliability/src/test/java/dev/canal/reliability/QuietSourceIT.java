package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A destination whose tables see no writes does not strand its clients (docs/operations.md, "Quiet sources"). The
 * packaged daemon reads one table while the source writes row changes only to another, then idles and rotates its
 * binlog a few times: the heartbeats of the idle source move the official client's acked cursor to the end of the
 * binlog each time, so a restart re-reads almost nothing, and a restart after the old binlog files were purged
 * resumes in the newest one, with no alarm and without losing the row written while the daemon was stopped.
 *
 * <p>{@code mvn verify} runs it with 5,000 row changes, an idle stretch of 3 s and heartbeats every second;
 * {@code bench/quiet-source.sh} with a million row changes and an hour at the default heartbeat period
 * ({@code -Dquiet.rows}, {@code -Dquiet.idle.seconds}, {@code -Dquiet.heartbeat.seconds}).
 */
class QuietSourceIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(QuietSourceIT.class);
    private static final String SCHEMA = "rel_quiet";
    private static final String OTHER = "rel_quiet_other";
    private static final int ROWS = Integer.getInteger("quiet.rows", 5_000);
    private static final long IDLE_SECONDS = Long.getLong("quiet.idle.seconds", 3);
    private static final long HEARTBEAT_SECONDS = Long.getLong("quiet.heartbeat.seconds", 1);
    private static final int ROWS_PER_STATEMENT = 1_000;
    private static final int ROTATIONS = 3;
    /** More than the last event of a transaction (its XID), less than a transaction of those tables. */
    private static final long LAST_EVENT_BYTES = 100;
    /** Binlog a restart may re-read: the dump's first events, the selected row, a few heartbeats. */
    private static final long REREAD_LIMIT = 16 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(60 + 3 * HEARTBEAT_SECONDS + ROWS / 5_000);

    @Test
    void restartsAfterUnselectedChangesAndAfterRotationsAndPurgesOfAQuietSourceResumeAtTheEnd(MySqlServer db)
            throws Exception {
        db.recreateDatabase(SCHEMA);
        db.recreateDatabase(OTHER);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(40))",
                "CREATE TABLE " + OTHER + ".busy (id INT PRIMARY KEY, v VARCHAR(200))");
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set("conf/canal.properties", "canal.instance.network.heartbeatPeriod", Long.toString(HEARTBEAT_SECONDS));
        daemon.start();

        try (KeyedTableConsumer consumer = new KeyedTableConsumer(SCHEMA, daemon.port)) {
            insertSelected(db, 1);
            daemon.awaitOrShowLogs("the first row", WAIT, () -> consumer.table("t").containsKey("1"));

            MySqlServer.BinlogCoordinates before = db.currentBinlogPosition();
            writeUnselected(db);
            MySqlServer.BinlogCoordinates end = db.currentBinlogPosition();
            daemon.awaitOrShowLogs("the cursor at the end of the changes it does not select", WAIT,
                    () -> cursorIn(end.file(), end.position() - LAST_EVENT_BYTES));
            long afterChanges = restartAndDeliver(db, consumer, 2);
            record(ROWS + " row changes to a table not selected", bytesBetween(db, before, end), afterChanges);

            for (int i = 0; i < ROTATIONS; i++) {
                // the idle stretch is the scenario: the source writes nothing while time passes
                TimeUnit.SECONDS.sleep(Math.max(1, IDLE_SECONDS / ROTATIONS));
                db.execute("FLUSH BINARY LOGS");
            }
            String head = db.currentBinlogPosition().file();
            daemon.awaitOrShowLogs("the cursor in the newest binlog file", WAIT, () -> cursorIn(head, 0));
            daemon.stop();
            db.execute("PURGE BINARY LOGS TO '" + head + "'");
            long afterIdle = restartAndDeliver(db, consumer, 3);
            record(IDLE_SECONDS + " s idle, " + ROTATIONS + " rotations, purged to the newest file", 0, afterIdle);

            assertThat(consumer.table("t")).as("every selected row, none lost").containsOnlyKeys("1", "2", "3");
            assertThat(afterChanges).as("binlog bytes read after the restart that followed the changes")
                    .isLessThan(REREAD_LIMIT);
            assertThat(afterIdle).as("binlog bytes read after the restart in the newest file")
                    .isLessThan(REREAD_LIMIT);
        }
        assertThat(daemon.log("logs/example/example.log")).doesNotContain("ALARM");
    }

    /**
     * Stops the daemon, writes selected row {@code id} while it is stopped, starts it and waits until the consumer
     * has the row; returns the binlog bytes the daemon read since it started.
     */
    private long restartAndDeliver(MySqlServer db, KeyedTableConsumer consumer, int id) throws Exception {
        daemon.stop();
        insertSelected(db, id);
        daemon.start();
        daemon.awaitOrShowLogs("the row written while the daemon was stopped", WAIT,
                () -> consumer.table("t").containsKey(Integer.toString(id)));
        return (long) new DaemonMetrics(daemon).value("canal_instance_received_binlog_bytes");
    }

    private static void insertSelected(MySqlServer db, int id) {
        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
    }

    /** {@link #ROWS} inserted rows of a table the destination does not select, a statement per 1,000. */
    private static void writeUnselected(MySqlServer db) {
        String[] statements = new String[(ROWS + ROWS_PER_STATEMENT - 1) / ROWS_PER_STATEMENT];
        for (int s = 0; s < statements.length; s++) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + OTHER + ".busy VALUES ");
            for (int id = s * ROWS_PER_STATEMENT + 1; id <= Math.min(ROWS, (s + 1) * ROWS_PER_STATEMENT); id++) {
                sql.append(id % ROWS_PER_STATEMENT == 1 ? "" : ",").append('(').append(id).append(", '")
                        .append("x".repeat(100)).append("')");
            }
            statements[s] = sql.toString();
        }
        db.execute(statements);
    }

    /** Binlog bytes from {@code from} to {@code to}, across the files between. */
    private static long bytesBetween(MySqlServer db, MySqlServer.BinlogCoordinates from,
            MySqlServer.BinlogCoordinates to) throws SQLException {
        long bytes = to.position() - from.position();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                String file = rs.getString(1);
                if (file.compareTo(from.file()) >= 0 && file.compareTo(to.file()) < 0) {
                    bytes += rs.getLong(2); // a whole file before the last one
                }
            }
        }
        return bytes;
    }

    /** Whether meta.dat's cursor is in {@code file}, past {@code offset}. */
    private boolean cursorIn(String file, long offset) throws Exception {
        Optional<BinlogPoint> cursor = daemon.persistedCursor();
        return cursor.isPresent() && cursor.get().file().equals(file) && cursor.get().offset() > offset;
    }

    /** One measurement: the binlog the scenario wrote, and what the restart after it read. */
    private static void record(String scenario, long written, long reread) {
        log.info("RESULT | quiet source: {} | binlog written {} B | read after the restart {} B | heartbeat every {} s |",
                scenario, written, reread, HEARTBEAT_SECONDS);
    }
}
