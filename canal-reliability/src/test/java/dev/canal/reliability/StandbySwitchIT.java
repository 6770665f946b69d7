package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TestDatabases;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby-source switch (docs/high-availability.md): the daemon reads a primary that has a replica with
 * log_slave_updates on, configured as {@code canal.instance.standby.address} with heartbeat HA on. Rows are
 * written on the primary and consumed by the official client; the primary is killed with SIGKILL; rows are then
 * written on the replica. The heartbeat finds the primary down, the parser switches to the replica and locates its
 * start there by the last delivered event's time less the fallback interval (by GTID set on MySQL, where the
 * fixture's servers run with GTIDs): every row arrives, none is lost, and the duplicates that the fallback
 * interval re-delivers are counted and reported (by GTID set there are none). Each trial uses a new pair of private servers of the fixture's
 * kind ({@code CANAL_TEST_MYSQLD} picks another binary, e.g. Oracle MySQL).
 */
class StandbySwitchIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(StandbySwitchIT.class);
    private static final String SCHEMA = "rel_standby";
    private static final String TABLE = "t0";
    private static final int ROWS_ON_PRIMARY = 200;
    private static final int ROWS_ON_REPLICA = 100;
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Test
    void killingThePrimarySwitchesToTheReplicaAndLosesNoRow() throws Exception {
        int trials = ResultsTable.trials();
        DeliveryCheck total = DeliveryCheck.none();
        List<Long> switchMillis = new ArrayList<>();
        for (int trial = 1; trial <= trials; trial++) {
            if (daemon != null) {
                daemon.stop();
            }
            MySqlServer primary = TestDatabases.startPrivate();
            MySqlServer replica = TestDatabases.startPrivateReplicaOf(primary);
            DatabaseProcess primaryProcess = DatabaseProcess.of(primary).orElseThrow(
                    () -> new AssertionError("no process of this JVM serves " + primary));
            primary.recreateDatabase(SCHEMA);
            primary.execute("CREATE TABLE " + SCHEMA + "." + TABLE + " (id INT PRIMARY KEY, v VARCHAR(40))");
            await().atMost(PATIENCE).until(() -> rowsOn(replica) == 0);

            boolean gtids = !primary.isMariaDb();
            daemon = CanalDaemon.unpack(Files.createDirectories(home.resolve("trial-" + trial)), primary,
                    primary.host(), primary.port(), SCHEMA, primary.currentBinlogPosition());
            daemon.set("conf/example/instance.properties", "canal.instance.standby.address",
                    replica.host() + ":" + replica.port());
            daemon.set("conf/canal.properties", "canal.instance.detecting.enable", "true");
            daemon.set("conf/canal.properties", "canal.instance.detecting.interval.time", "1");
            daemon.set("conf/canal.properties", "canal.instance.detecting.heartbeatHaEnable", "true");
            if (gtids) {
                daemon.set("conf/example/instance.properties", "canal.instance.gtidon", "true");
                daemon.set("conf/example/instance.properties", "canal.instance.master.gtid",
                        primary.variable("gtid_executed").replace("\n", ""));
            }
            daemon.start();

            try (CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 0)) {
                insert(primary, 1, ROWS_ON_PRIMARY);
                daemon.awaitOrShowLogs("the rows written on the primary", PATIENCE,
                        () -> consumer.distinctReceived() >= ROWS_ON_PRIMARY);
                await().atMost(PATIENCE).until(() -> rowsOn(replica) == ROWS_ON_PRIMARY);
                int receivedBeforeKill = consumer.rows().size();

                long killedAt = System.nanoTime();
                primaryProcess.crash();
                insert(replica, ROWS_ON_PRIMARY + 1, ROWS_ON_REPLICA);
                int written = ROWS_ON_PRIMARY + ROWS_ON_REPLICA;
                daemon.awaitOrShowLogs("the rows written on the replica after the primary was killed", PATIENCE,
                        () -> consumer.distinctReceived() >= written);
                consumer.close();

                ReceivedRow first = consumer.firstReceivedAfter(killedAt).orElseThrow();
                long switchTook = TimeUnit.NANOSECONDS.toMillis(first.receivedAtNanos() - killedAt);
                switchMillis.add(switchTook);
                DeliveryCheck check = DeliveryCheck.of(Map.of(TABLE, written), consumer.rows());
                log.info("trial {} ({}): first row from the standby {} ms after the primary was killed; {} rows had "
                        + "arrived before; {}", trial, primary, switchTook, receivedBeforeKill, check);
                assertThat(daemon.log("logs/example/example.log")).as("the switch raises an alarm")
                        .contains("ALARM").contains("switching to " + replica.host() + ":" + replica.port());
                assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
                assertThat(check.orderBreaches()).as("rows that were never committed")
                        .noneMatch(b -> b.contains("never committed"));
                if (gtids) {
                    assertThat(check.duplicated()).as("resuming by GTID set re-delivers nothing: %s", check).isZero();
                }
                total = total.plus(check);
            }
        }
        ResultsTable.record("primary SIGKILL, switch to its replica (standby source)", trials, total, switchMillis);
        log.info("standby switch: {} trial(s), first row from the standby after {} ms, {}", trials, switchMillis, total);
    }

    /** Rows {@code from} .. {@code from + count - 1}, one transaction each. */
    private static void insert(MySqlServer db, int from, int count) throws SQLException {
        try (Connection c = db.adminConnection(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + SCHEMA + "." + TABLE + " (id, v) VALUES (?, ?)")) {
            for (int id = from; id < from + count; id++) {
                insert.setInt(1, id);
                insert.setString(2, "row " + id);
                insert.executeUpdate();
            }
        }
    }

    private static int rowsOn(MySqlServer db) {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + SCHEMA + "." + TABLE)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            return -1; // the table has not been replicated yet
        }
    }
}
