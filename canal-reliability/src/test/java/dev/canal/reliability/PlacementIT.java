package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Balanced placement (docs/high-availability.md, "Spreading destinations over servers"): three packaged daemons share
 * {@code -Dplacement.destinations} destinations (30 by default), each reading a table of its own that a writer inserts
 * into continuously, each followed by an official cluster client. The spread is even after the start, over the two
 * survivors after one daemon is killed with SIGKILL, and over all three again after it restarts; every client
 * receives every row of its table in order (rows delivered twice counted), and the time of every move is recorded.
 * Tagged {@code one-source}: the source's flavour does not matter to it, so the second CI pass, on Oracle MySQL, skips
 * it.
 */
@Tag("one-source")
class PlacementIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(PlacementIT.class);
    private static final String SCHEMA = "rel_placement";
    private static final long POLL_MILLIS = 100;
    private static final Duration PATIENCE = Duration.ofSeconds(180);
    private static final Pattern MOVED = Pattern.compile(
            "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*?placement: moved (\\S+) from (\\S+) to (\\S+) in (\\d+) ms");

    private final long began = System.nanoTime();
    private Map<Integer, Integer> lastSpread = Map.of(); // the awaiting thread's

    @Test
    void destinationsSpreadEvenlyOverTheLiveServersAndEveryClientGetsEveryRow(MySqlServer db) throws Exception {
        int count = Integer.getInteger("placement.destinations", 30);
        List<String> destinations = IntStream.range(0, count).mapToObj(i -> "p" + i).toList();
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, count, Duration.ofMillis(5));
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        try (DaemonCluster cluster = DaemonCluster.start(); writer) {
            List<CanalDaemon> daemons = new ArrayList<>();
            for (String name : List.of("a", "b", "c")) {
                daemons.add(cluster.join(member(name, db, start, destinations)));
            }
            writer.begin();
            long starting = System.nanoTime();
            startAll(daemons);
            log.info("placement: three daemons started in {} s", seconds(starting));
            try (ClusterClients clients = ClusterClients.start(cluster.zkServers(), POLL_MILLIS, destinations,
                    home.resolve("client-logs"))) {
                awaitSpread(cluster, daemons, destinations, "an even spread after the start");
                log.info("placement: even over three daemons {} s after the first start: {}", seconds(starting),
                        cluster.spread(destinations));
                daemons.get(0).awaitOrShowLogs("rows at every client", PATIENCE,
                        () -> destinations.stream().allMatch(d -> clients.count(d) > 0));

                CanalDaemon killed = daemons.get(2);
                long killing = System.nanoTime();
                killed.kill9();
                List<CanalDaemon> survivors = daemons.subList(0, 2);
                awaitSpread(cluster, survivors, destinations, "an even spread over the survivors");
                log.info("placement: even over the two survivors {} s after the kill: {}", seconds(killing),
                        cluster.spread(destinations));

                long restarting = System.nanoTime();
                killed.start();
                awaitSpread(cluster, daemons, destinations, "an even spread after the restart");
                log.info("placement: even over three daemons {} s after the restart: {}", seconds(restarting),
                        cluster.spread(destinations));

                writer.close();
                Map<String, Integer> committed = writer.committed();
                try {
                    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
                            .until(() -> total(checks(destinations, committed, clients)).lost() == 0);
                } catch (ConditionTimeoutException e) {
                    log.warn("not every row arrived within {}", PATIENCE); // the assertions below say which
                }
                Map<String, DeliveryCheck> checks = checks(destinations, committed, clients);
                DeliveryCheck check = total(checks);
                List<Long> moves = moveMillis(daemons);
                ResultsTable.record(count + " destinations spread over 3 daemons, one killed (SIGKILL) and restarted",
                        1, check, moves);
                Map<String, DeliveryCheck> incomplete = new TreeMap<>(checks);
                incomplete.values().removeIf(c -> c.lost() == 0 && c.orderBreaches().isEmpty());
                for (String destination : incomplete.keySet()) {
                    log.warn("placement: {} runs on port {}; its client: {}", destination,
                            cluster.runningPort(destination).orElse(-1), clients.lastDelivery(destination));
                }
                assertThat(incomplete).as("destinations whose client missed rows or got them out of order").isEmpty();
                log.info("placement: {}", check);
                assertThat(moves).as("the moves of the balancing").isNotEmpty();
            }
        }
    }

    /** Starts the daemons at once, as a cluster is brought up, and waits until each serves clients. */
    private static void startAll(List<CanalDaemon> daemons) throws Exception {
        List<FutureTask<Void>> starts = new ArrayList<>();
        for (CanalDaemon daemon : daemons) {
            FutureTask<Void> start = new FutureTask<>(() -> {
                daemon.start();
                return null;
            });
            new Thread(start, "start-" + daemon.port).start();
            starts.add(start);
        }
        for (FutureTask<Void> start : starts) {
            start.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * Waits until every destination is held by one of {@code live}, each holding its share (within one); logs the
     * spread (port: destinations) each time it changes, with the seconds since the test began.
     */
    private void awaitSpread(DaemonCluster cluster, List<CanalDaemon> live, List<String> destinations,
            String what) {
        int even = destinations.size() / live.size();
        live.get(0).awaitOrShowLogs(what, PATIENCE, () -> {
            Map<Integer, Integer> spread = cluster.spread(destinations);
            if (!spread.equals(lastSpread)) {
                lastSpread = spread;
                log.info("placement: spread at {} s: {}", seconds(began), spread);
            }
            return spread.values().stream().mapToInt(Integer::intValue).sum() == destinations.size()
                    && live.stream().allMatch(d -> Math.abs(spread.getOrDefault(d.port, 0) - even) <= 1);
        });
    }

    /** Each destination's client against its own table. */
    private static Map<String, DeliveryCheck> checks(List<String> destinations, Map<String, Integer> committed,
            ClusterClients clients) {
        Map<String, DeliveryCheck> checks = new TreeMap<>();
        for (int i = 0; i < destinations.size(); i++) {
            String table = "t" + i;
            checks.put(destinations.get(i), DeliveryCheck.of(Map.of(table, committed.get(table)),
                    clients.rows(destinations.get(i))));
        }
        return checks;
    }

    private static DeliveryCheck total(Map<String, DeliveryCheck> checks) {
        return checks.values().stream().reduce(DeliveryCheck.none(), DeliveryCheck::plus);
    }

    /** The time of every move the daemons logged, daemon by daemon, each logged here too with the time it ended. */
    private static List<Long> moveMillis(List<CanalDaemon> daemons) {
        List<Long> millis = new ArrayList<>();
        for (CanalDaemon daemon : daemons) {
            Matcher moved = MOVED.matcher(daemon.log("logs/canal/canal.log"));
            while (moved.find()) {
                log.info("placement: move at {} of {} from {} to {} took {} ms", moved.group(1), moved.group(2),
                        moved.group(3), moved.group(4), moved.group(5));
                millis.add(Long.parseLong(moved.group(5)));
            }
        }
        return millis;
    }

    private CanalDaemon member(String name, MySqlServer db, MySqlServer.BinlogCoordinates start,
            List<String> destinations) throws Exception {
        Path dir = Files.createDirectories(home.resolve(name));
        CanalDaemon daemon = CanalDaemon.unpack(dir, db, db.host(), db.port(), SCHEMA, start);
        for (int i = 0; i < destinations.size(); i++) {
            daemon.addDestination(destinations.get(i), SCHEMA + "\\\\.t" + i);
        }
        daemon.set("conf/canal.properties", "canal.destinations", String.join(",", destinations));
        daemon.set("conf/canal.properties", "canal.placement.interval", "300");
        daemon.set("conf/canal.properties", "canal.placement.min.stay", "2000");
        daemon.javaOpts("-Xmx384m -Xms64m");
        return daemon;
    }

    private static String seconds(long sinceNanos) {
        return String.format("%.1f", (System.nanoTime() - sinceNanos) / 1e9);
    }
}
