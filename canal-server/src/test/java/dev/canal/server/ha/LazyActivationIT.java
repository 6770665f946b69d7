package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.client.impl.ClusterCanalConnector;
import com.alibaba.otter.canal.protocol.Message;
import com.alibaba.otter.canal.protocol.exception.CanalClientException;
import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.TestEntries;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.netty.CanalNettyServer;
import dev.canal.server.ServerConfig;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.ZooKeeperServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two servers wired as the launcher wires them with ZooKeeper (TCP server activating through the election)
 * and the official client over TCP: a lazy destination starts where the first subscription wins the election
 * and nowhere else.
 */
@Tag("source-independent")
class LazyActivationIT {

    private static final String DESTINATION = "example";
    private static final Duration SESSION = Duration.ofSeconds(2);
    private static final Duration CONNECT_WAIT = Duration.ofSeconds(3);
    private static final Duration DELAY = Duration.ofMillis(500);

    private ZooKeeperServer zooKeeper;
    private CuratorFramework observer;
    private final List<Server> servers = new ArrayList<>();
    private final List<CanalConnector> connectors = new ArrayList<>();

    /** One server: embedded server over test instances, election, TCP server activating through it. */
    private record Server(EmbeddedCanalServer embedded, ConcurrentMap<String, TestInstance> instances,
            ServerRunningMonitors monitors, CanalNettyServer tcp) {

        InetSocketAddress address() {
            return new InetSocketAddress("127.0.0.1", tcp.port());
        }

        void close() {
            monitors.stop();
            tcp.stop();
            embedded.stop();
        }
    }

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = ZooKeeperServer.start(ZooKeeperServer.SHORT_TICK);
        observer = session();
    }

    @AfterEach
    void stopAll() throws Exception {
        connectors.forEach(CanalConnector::disconnect);
        servers.forEach(Server::close);
        zooKeeper.close();
    }

    @Test
    void lazyDestinationStartsOnlyOnTheServerWhoseSubscriptionWinsTheElection() throws Exception {
        Server a = server();
        Server b = server();
        // registered for the destination, so a client can find both, but nothing runs yet
        assertThat(observer.getChildren().forPath(ClusterPaths.destinationCluster(DESTINATION)))
                .containsExactlyInAnyOrder(addressOf(a), addressOf(b));
        assertThat(observer.checkExists().forPath(ClusterPaths.running(DESTINATION))).isNull();

        CanalConnector first = connect(CanalConnectors.newSingleConnector(a.address(), DESTINATION, "", ""));
        // quirk 11: the rollback-on-connect's error is read as the subscription's reply, though the subscription
        // itself won the election and started the instance; a new connection (the cluster client's retry) works
        assertThatThrownBy(first::subscribe).isInstanceOf(CanalClientException.class)
                .hasMessageContaining("destination:example should start first");
        await().atMost(Duration.ofSeconds(20)).until(() -> a.embedded().isStart(DESTINATION));
        CanalConnector atA = connect(CanalConnectors.newSingleConnector(a.address(), DESTINATION, "", ""));
        atA.subscribe();
        a.instances().get(DESTINATION).put(TestEntries.transaction(100, 1));
        Message batch = atA.getWithoutAck(10);

        assertThat(batch.getEntries()).hasSize(3);
        assertThat(a.embedded().isStart(DESTINATION)).isTrue();
        assertThat(ServerRunningData.fromJson(observer.getData().forPath(ClusterPaths.running(DESTINATION))))
                .isEqualTo(ServerRunningData.activeAt(addressOf(a)));

        CanalConnector atB = connect(CanalConnectors.newSingleConnector(b.address(), DESTINATION, "", ""));
        assertThatThrownBy(atB::subscribe).isInstanceOf(CanalClientException.class)
                .hasMessageContaining("destination:example should start first");
        assertThat(b.embedded().isStart(DESTINATION)).isFalse();
        assertThat(b.instances()).doesNotContainKey(DESTINATION); // never built, so never connected to a source
    }

    /** A static address list starting with the standby: the standby refuses, the connector moves on. */
    @Test
    void staticClusterClientMovesFromTheStandbyToTheActiveServer() {
        Server a = server();
        Server b = server();
        a.monitors().start(DESTINATION); // non-lazy at boot: a wins
        b.monitors().start(DESTINATION);
        a.instances().get(DESTINATION).put(TestEntries.transaction(100, 1));

        ClusterCanalConnector cluster = (ClusterCanalConnector) CanalConnectors.newClusterConnector(
                List.of(b.address(), a.address()), DESTINATION, "", "");
        cluster.setRetryInterval(100);
        connect(cluster);
        cluster.subscribe();

        assertThat(cluster.getWithoutAck(10).getEntries()).extracting(e -> e.getHeader().getLogfileOffset())
                .containsExactly(100L, 101L, 102L);
        assertThat(b.embedded().isStart(DESTINATION)).isFalse();
    }

    private CanalConnector connect(CanalConnector connector) {
        connector.connect();
        connectors.add(connector);
        return connector;
    }

    private Server server() {
        ConcurrentMap<String, TestInstance> instances = new ConcurrentHashMap<>();
        EmbeddedCanalServer embedded = new EmbeddedCanalServer(destination -> instances.computeIfAbsent(destination,
                d -> new TestInstance(d, StoreConfig.itemSize(64), new MemoryMetaManager())));
        embedded.start();
        int port = TcpPorts.free(); // the election names the server by the port it listens on
        ServerRunningMonitors monitors = new ServerRunningMonitors(session(), "127.0.0.1:" + port,
                ServerRunningListener.embedded(embedded), DELAY);
        monitors.start();
        monitors.register(DESTINATION);
        CanalNettyServer tcp = new CanalNettyServer(ServerConfig.open(port), embedded, monitors.activator(),
                DESTINATION::equals, new ClientMetrics(), true);
        tcp.start();
        Server server = new Server(embedded, instances, monitors, tcp);
        servers.add(server);
        return server;
    }

    private static String addressOf(Server server) {
        return "127.0.0.1:" + server.tcp().port();
    }

    /** A session through the election's own client, closed with the server. */
    private CuratorFramework session() {
        return zooKeeper.closedWithServer(ZooKeeperConnections.connect(zooKeeper.connectString(), SESSION,
                CONNECT_WAIT));
    }
}
