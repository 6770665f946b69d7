package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.ZooKeeperServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three servers electing six destinations over a real ZooKeeper in this JVM with balanced placement on
 * (docs/high-availability.md, "Spreading destinations over servers"); the instances are the {@link ServingLog}'s.
 */
@Tag("source-independent")
class BalancedPlacementIT {

    private static final String A = "127.0.0.1:11111";
    private static final String B = "127.0.0.1:11112";
    private static final String C = "127.0.0.1:11113";
    private static final List<String> DESTINATIONS = IntStream.range(0, 6).mapToObj(i -> "d" + i).toList();
    private static final Duration SESSION = Duration.ofSeconds(2);
    private static final Duration DELAY = Duration.ofMillis(500);
    private static final PlacementConfig BALANCED = weighing(1);
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private ZooKeeperServer zooKeeper;
    private CuratorFramework observer;
    private final ServingLog serving = new ServingLog();
    private final List<ServerRunningMonitors> servers = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = ZooKeeperServer.start(ZooKeeperServer.SHORT_TICK);
        observer = session();
    }

    @AfterEach
    void stopAll() throws Exception {
        servers.forEach(ServerRunningMonitors::stop);
        zooKeeper.close();
    }

    @Test
    void serversThatJoinReceiveDestinationsUntilTheSpreadIsEvenAndALeavingServersGoToTheOthers() throws Exception {
        ServerRunningMonitors a = server(A);
        assertThat(spread()).as("alone, a server takes everything").isEqualTo(Map.of(A, 6));

        ServerRunningMonitors b = server(B);
        ServerRunningMonitors c = server(C);
        await().atMost(PATIENCE).until(() -> spread().equals(Map.of(A, 2, B, 2, C, 2)));
        // the metrics follow a moment after the running nodes: a move is counted once the mover saw the new holder
        await().atMost(PATIENCE).untilAsserted(() -> {
            long moves = a.placementMetrics().moves().getOrDefault("over share", 0L);
            assertThat(moves).as("from six to two").isGreaterThanOrEqualTo(4);
            assertThat(Arrays.stream(a.placementMetrics().moveBucketCounts()).sum()).as("every move timed")
                    .isEqualTo(moves);
            assertThat(List.of(a, b, c)).allMatch(s -> s.placementMetrics().running() == 2);
        });

        c.stop();
        servers.remove(c);
        await().atMost(PATIENCE).until(() -> spread().equals(Map.of(A, 3, B, 3)));
    }

    @Test
    void theDestinationsOfAServerWhoseSessionEndsSpreadOverTheSurvivors() throws Exception {
        server(A);
        server(B);
        CuratorFramework lost = session();
        server(C, BALANCED, lost);
        await().atMost(PATIENCE).until(() -> spread().equals(Map.of(A, 2, B, 2, C, 2)));

        servers.remove(servers.size() - 1); // it cannot leave: its session is gone, as after a crash
        lost.close(); // its running nodes go at once, without a handover note: the survivors wait their delay
        await().atMost(PATIENCE).until(() -> spread().equals(Map.of(A, 3, B, 3)));
    }

    @Test
    void aServerOfWeightTwoRunsTwiceTheDestinationsOfAServerOfWeightOne() throws Exception {
        server(B);
        assertThat(spread()).isEqualTo(Map.of(B, 6));

        server(A, weighing(2));
        await().atMost(PATIENCE).until(() -> spread().equals(Map.of(A, 4, B, 2)));
        assertThat(observer.getData().forPath(ClusterPaths.serverNode(A))).as("the weight, published")
                .isEqualTo(ServerWeight.encode(2));
    }

    @Test
    void withoutBalancingTheFirstServerKeepsEveryDestination() throws Exception {
        server(A, PlacementConfig.FIRST_COME);
        server(B, PlacementConfig.FIRST_COME);
        await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(() -> spread().equals(Map.of(A, 6)));
    }

    private static PlacementConfig weighing(int weight) {
        return new PlacementConfig(true, 0, Duration.ofMillis(100), Duration.ZERO, weight);
    }

    private ServerRunningMonitors server(String address) throws Exception {
        return server(address, BALANCED);
    }

    /** A server deploying every destination, competing for each at once. */
    private ServerRunningMonitors server(String address, PlacementConfig placement) throws Exception {
        return server(address, placement, session());
    }

    private ServerRunningMonitors server(String address, PlacementConfig placement, CuratorFramework zk) {
        ServerRunningMonitors server = new ServerRunningMonitors(zk, address, serving.listener(address), DELAY,
                HandoverConfig.DEFAULT, placement);
        server.start();
        servers.add(server);
        DESTINATIONS.forEach(server::register); // all known before any competes, as a server boots
        DESTINATIONS.forEach(server::start);
        return server;
    }

    /** How many destinations each server holds, from the running nodes. */
    private Map<String, Integer> spread() throws Exception {
        Map<String, Integer> spread = new TreeMap<>();
        for (String destination : DESTINATIONS) {
            try {
                byte[] data = observer.getData().forPath(ClusterPaths.running(destination));
                spread.merge(ServerRunningData.fromJson(data).address(), 1, Integer::sum);
            } catch (KeeperException.NoNodeException none) {
                // no holder right now
            }
        }
        return spread;
    }

    private CuratorFramework session() {
        return zooKeeper.closedWithServer(ZooKeeperConnections.connect(zooKeeper.connectString(), SESSION,
                Duration.ofSeconds(3)));
    }
}
