package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code canal.instance.snapshot.mode=when_needed} (docs/operations.md, "A purged position"): the packaged daemon
 * copies the selected tables at its first start, is stopped, and the source purges the binlog its cursor needs while
 * rows are updated, deleted and inserted. At the restart the destination reads on from the source's current
 * position and copies its tables again, each after a reset, while a writer keeps changing the table; an alarm, a
 * log line and a metric say so, and the official client applying everything by primary key ends equal to
 * {@code SELECT *}. By file and position on MariaDB, by GTID set on MySQL (one mode per server keeps the test short).
 */
class PurgedPositionRecoveryIT extends DaemonScenario {

    private static final String SCHEMA = "rel_recover";
    private static final int ROWS = 2_000;
    private static final Duration COPY_WAIT = Duration.ofSeconds(120);

    @Test
    void aPurgedPositionIsRecoveredByCopyingTheTablesAgainAndTheConsumerEndsEqualToThem(MySqlServer db)
            throws Exception {
        boolean gtidMode = !db.isMariaDb();
        KeyedTable table = new KeyedTable(db, SCHEMA);
        MySqlServer.BinlogCoordinates start = table.fill(ROWS);
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, start);
        daemon.set("conf/example/instance.properties", "canal.instance.gtidon", Boolean.toString(gtidMode));
        daemon.edit("conf/example/instance.properties", text -> text + "\ncanal.instance.snapshot.mode = when_needed\n"
                + "canal.instance.snapshot.chunk.size = 500\n");
        daemon.set("conf/canal.properties", "canal.instance.network.heartbeatPeriod", "1");
        daemon.start();
        DaemonMetrics metrics = new DaemonMetrics(daemon);

        try (KeyedTableConsumer consumer = new KeyedTableConsumer(SCHEMA, daemon.port)) {
            // a chunk joins the stream after an event of it: one to begin with (docs/snapshots.md, "Limits")
            table.catchUp(1, daemon, consumer);
            daemon.awaitOrShowLogs("the copy at the first start, with no position to resume from", COPY_WAIT,
                    () -> consumer.snapshotRows() >= ROWS);
            table.catchUp(2, daemon, consumer);
            assertThat(consumer.table("t")).isEqualTo(table.selectAll());
            daemon.stop();
            String cursorFile = daemon.persistedCursor().orElseThrow().file();

            ChangingWriter.changeNow(db, SCHEMA, ROWS, 300, 7); // lost with the purged binlog
            db.execute("FLUSH BINARY LOGS");
            ChangingWriter.changeNow(db, SCHEMA, ROWS, 300, 8);
            String head = db.currentBinlogPosition().file();
            db.execute("PURGE BINARY LOGS TO '" + head + "'");
            assertThat(cursorFile).as("the cursor's binlog is purged").isLessThan(head);

            daemon.start();
            try (ChangingWriter writer = new ChangingWriter(db, SCHEMA, ROWS)) {
                daemon.awaitOrShowLogs("the tables copied again after their reset", COPY_WAIT,
                        () -> consumer.truncates() >= 2 && metrics.value("canal_instance_snapshot_tables_pending") == 0
                                && metrics.value("canal_instance_snapshot_tables_done") >= 2);
                assertThat(writer.statements()).as("the writer ran during the copy").isPositive();
            }
            table.catchUp(3, daemon, consumer);
            assertThat(consumer.table("t")).isEqualTo(table.selectAll());
        }
        assertThat(daemon.log("logs/example/example.log"))
                .contains("ALARM: the source cannot serve the binlog we need")
                .contains("canal.instance.snapshot.mode is when_needed");
        assertThat(metrics.value("canal_instance_snapshot_recoveries")).isEqualTo(1);
    }
}
