package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.meta.ZooKeeperPaths;
import dev.canal.testsupport.ChildJvm;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.OfficialClientClassPath;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.ZooKeeperServer;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two named consumers of one destination (docs/consumers.md), each the official cluster connector in a JVM of its
 * own subscribed to {@code failover@a} or {@code failover@b} (their nodes created in ZooKeeper first), follow the destination across a failover between two
 * servers in JVMs of their own over a real ZooKeeper and database: each finds the active server through the running
 * node mirrored under its consumer name, and after the active server stops, each continues from its own cursor in
 * ZooKeeper with every row in order.
 */
@ExtendWith(MySqlServerExtension.class)
class ConsumersFailoverIT {

    private static final String DESTINATION = "failover";
    private static final String SCHEMA = "ha_consumers";
    private static final List<String> CONSUMERS = List.of(DESTINATION + "@a", DESTINATION + "@b");
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final Path LOGS = Path.of("target", "consumers-failover-logs");
    /** At most one client batch comes again after a graceful handover. */
    private static final int CLIENT_BATCH_ENTRIES = 100;

    @TempDir
    Path dir;

    private ZooKeeperServer zooKeeper;
    private final Map<Integer, ChildJvm> nodes = new HashMap<>();
    private final List<ChildJvm> clients = new ArrayList<>();
    private final Map<String, List<Long>> received = new HashMap<>(); // guarded by itself

    @AfterEach
    void stopAll() throws Exception {
        for (ChildJvm client : clients) {
            client.close();
        }
        for (ChildJvm node : nodes.values()) {
            node.close();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void eachNamedConsumerFollowsTheFailoverFromItsOwnCursor(MySqlServer db) throws Exception {
        zooKeeper = ZooKeeperServer.start(ZooKeeperServer.SHORT_TICK);
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id BIGINT PRIMARY KEY)");
        Path conf = springConf(db);
        int portA = TcpPorts.free();
        int portB = TcpPorts.free();
        startNode(portA, conf);
        startNode(portB, conf);
        try (CuratorFramework zk = zooKeeper.newClient()) {
            for (String consumer : CONSUMERS) {
                // the cluster connector needs the consumer's node before it starts: created once, as docs/consumers.md says
                zk.create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.destination(consumer));
                await().atMost(PATIENCE).until(() -> zk.checkExists().forPath(ClusterPaths.running(consumer)) != null);
                startClient(consumer);
            }
        }
        insert(db, 1, 100);
        await().atMost(PATIENCE).until(() -> CONSUMERS.stream().allMatch(c -> maxReceived(c) >= 100));
        int active = activePort();
        Map<String, Integer> beforeStop = new HashMap<>();
        CONSUMERS.forEach(c -> beforeStop.put(c, receivedCount(c)));

        nodes.get(active).stopGracefully();
        insert(db, 101, 200);
        await().atMost(PATIENCE).until(() -> CONSUMERS.stream().allMatch(c -> maxReceived(c) >= 200));

        assertThat(activePort()).isNotEqualTo(active);
        try (CuratorFramework zk = zooKeeper.newClient()) {
            for (String consumer : CONSUMERS) {
                assertThat(zk.checkExists().forPath(ZooKeeperPaths.cursor(consumer, (short) 1001)))
                        .as("cursor of %s in ZooKeeper", consumer).isNotNull();
            }
        }
        for (String consumer : CONSUMERS) {
            List<Long> rows = rows(consumer);
            long max = 0;
            for (long row : rows) {
                assertThat(row).as("%s: a row after row %d was skipped", consumer, max).isLessThanOrEqualTo(max + 1);
                max = Math.max(max, row);
            }
            assertThat(max).isEqualTo(200);
            assertThat(rows.size() - 200).as("%s: rows delivered again after the handover", consumer)
                    .isLessThanOrEqualTo(CLIENT_BATCH_ENTRIES);
            assertThat(rows.subList(0, beforeStop.get(consumer))).as("%s before the handover", consumer)
                    .isSorted().doesNotHaveDuplicates();
        }
    }

    private Path springConf(MySqlServer db) throws IOException {
        return HaServerNode.springConf(dir, db, DESTINATION, SCHEMA);
    }

    private void startNode(int port, Path conf) throws Exception {
        nodes.put(port, HaServerNode.startChild("consumers-server-" + port, zooKeeper.connectString(), port,
                DESTINATION, "spring:" + conf, ZooKeeperConnections.DEFAULT_SESSION_TIMEOUT,
                ServerRunningMonitors.DEFAULT_TAKEOVER_DELAY, LOGS, line -> { }));
    }

    private void startClient(String consumer) throws Exception {
        synchronized (received) {
            received.put(consumer, new ArrayList<>());
        }
        clients.add(ChildJvm.start("client-" + consumer, OfficialClientClassPath.with(OfficialClusterClient.class), List.of(),
                OfficialClusterClient.class, List.of(zooKeeper.connectString(), consumer, "id"), LOGS, line -> {
                    if (line.text().startsWith("ROW ")) {
                        synchronized (received) {
                            received.get(consumer).add(Long.parseLong(line.text().substring(4).trim()));
                        }
                    }
                }));
    }

    private static void insert(MySqlServer db, long from, long to) throws SQLException {
        try (Connection c = db.adminConnection(); Statement s = c.createStatement()) {
            for (long id = from; id <= to; id++) {
                s.execute("INSERT INTO " + SCHEMA + ".t (id) VALUES (" + id + ")");
            }
        }
    }

    private List<Long> rows(String consumer) {
        synchronized (received) {
            return List.copyOf(received.get(consumer));
        }
    }

    private long maxReceived(String consumer) {
        return rows(consumer).stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private int receivedCount(String consumer) {
        return rows(consumer).size();
    }

    private int activePort() throws Exception {
        try (CuratorFramework zk = zooKeeper.newClient()) {
            String address = ServerRunningData.fromJson(zk.getData().forPath(ClusterPaths.running(DESTINATION)))
                    .address();
            return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        }
    }
}
