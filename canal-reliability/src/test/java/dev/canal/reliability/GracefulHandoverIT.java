package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolling restarts behind ZooKeeper (docs/high-availability.md, "Stopping a server"): two packaged daemons serve one
 * destination, the official cluster client follows it, polling as an application does, and a writer inserts a row
 * every 5 ms. The active daemon is stopped with bin/stop.sh (SIGTERM) and started again as the standby (waiting until it
 * readied the destination, as a rolling restart does), several times (3, or {@code -Dreliability.trials=N}). Every row arrives, none twice, the client's connector never fails a
 * call, and the time from the stop to the client's first row from the other daemon is recorded.
 */
class GracefulHandoverIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(GracefulHandoverIT.class);
    private static final String SCHEMA = "rel_handover";
    private static final String DESTINATION = CanalDaemon.DESTINATION;
    /** How long the client sleeps after an empty batch (Canal's example client: 1000 ms). */
    private static final long POLL_MILLIS = 100;
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @Test
    void stoppingTheActiveServerHandsItsDestinationOverWithoutLossOrDuplicate(MySqlServer db) throws Exception {
        int trials = Math.max(3, ResultsTable.trials());
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 2, Duration.ofMillis(5));
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        try (DaemonCluster cluster = DaemonCluster.start(); writer) {
            CanalDaemon first = cluster.join(member("first", db, start));
            first.start();
            first.awaitOrShowLogs("the first daemon holds the destination", PATIENCE,
                    () -> cluster.runningPort(DESTINATION).orElse(-1) == first.port);
            CanalDaemon second = cluster.join(member("second", db, start));
            startAsWarmStandby(second);
            writer.begin();
            try (ClusterClients clients = ClusterClients.start(cluster.zkServers(), POLL_MILLIS, List.of(DESTINATION),
                    home.resolve("client-logs"))) {
                first.awaitOrShowLogs("rows at the client", PATIENCE, () -> clients.count(DESTINATION) >= 100);
                List<Long> moves = new ArrayList<>();
                for (int trial = 1; trial <= trials; trial++) {
                    moves.add(stopTheActiveOne(cluster, clients, first, second, trial));
                }
                writer.close();
                first.awaitOrShowLogs("every row at the client", PATIENCE, () -> DeliveryCheck.of(writer.committed(),
                        clients.rows(DESTINATION)).lost() == 0);

                DeliveryCheck check = DeliveryCheck.of(writer.committed(), clients.rows(DESTINATION));
                ResultsTable.record("active server stopped (bin/stop.sh), destination handed over", trials, check,
                        moves);
                log.info("handover: median {} ms, worst {} ms from the stop to the first row from the other server "
                        + "over {} stops", median(moves), moves.stream().mapToLong(Long::longValue).max().orElse(0),
                        trials);
                assertThat(check.lost()).as("%s", check).isZero();
                assertThat(check.duplicated()).as("%s", check).isZero();
                assertThat(check.orderBreaches()).as("%s", check).isEmpty();
                assertThat(clients.retries()).as("the official connector gave up").isEmpty();
            }
        }
    }

    /**
     * Stops the daemon holding the destination with bin/stop.sh, waits for the client's first row from the other one,
     * starts the stopped one again as the standby; returns the milliseconds from the stop to that row.
     */
    private long stopTheActiveOne(DaemonCluster cluster, ClusterClients clients, CanalDaemon first,
            CanalDaemon second, int trial) throws Exception {
        CanalDaemon active = cluster.holder(DESTINATION);
        CanalDaemon standby = active == first ? second : first;
        int before = clients.count(DESTINATION);
        active.awaitOrShowLogs("rows mid-stream", PATIENCE, () -> clients.count(DESTINATION) >= before + 50);

        long stopping = System.nanoTime();
        FutureTask<Void> stopped = new FutureTask<>(() -> {
            active.stop();
            return null;
        });
        new Thread(stopped, "stop-" + active.port).start(); // not a shared pool, which may be busy
        standby.awaitOrShowLogs("the client's first row from the other daemon", PATIENCE,
                () -> clients.firstFrom(DESTINATION, standby.port, stopping).isPresent());
        long millis = TimeUnit.NANOSECONDS.toMillis(clients.firstFrom(DESTINATION, standby.port, stopping)
                .orElseThrow().row().receivedAtNanos() - stopping);
        stopped.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        log.info("trial {}: stopped the daemon on port {}; first row from port {} after {} ms", trial, active.port,
                standby.port, millis);
        startAsWarmStandby(active); // for the next trial
        return millis;
    }

    /**
     * Starts the daemon while the other one holds the destination and waits until it has readied the destination's
     * instance, as a rolling restart waits before it stops the next server (docs/high-availability.md).
     */
    private static void startAsWarmStandby(CanalDaemon daemon) throws Exception {
        int before = readyLines(daemon);
        daemon.start();
        daemon.awaitOrShowLogs("the standby ready to take over", PATIENCE, () -> readyLines(daemon) > before);
    }

    private static int readyLines(CanalDaemon daemon) {
        return daemon.log("logs/canal/canal.log").split("destination " + DESTINATION + ": ready to take over", -1)
                .length - 1;
    }

    private CanalDaemon member(String name, MySqlServer db, MySqlServer.BinlogCoordinates start) throws Exception {
        Path dir = Files.createDirectories(home.resolve(name));
        return CanalDaemon.unpack(dir, db, db.host(), db.port(), SCHEMA, start);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
