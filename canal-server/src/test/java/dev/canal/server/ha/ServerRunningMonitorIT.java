package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.server.CanalServerException;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Two or three servers electing over a real ZooKeeper in this JVM, each with its own session. */
@Tag("source-independent")
class ServerRunningMonitorIT {

    private static final String DESTINATION = "example";
    private static final String A = "127.0.0.1:11111";
    private static final String B = "127.0.0.1:11112";
    private static final String C = "127.0.0.1:11113";
    private static final Duration SESSION = Duration.ofSeconds(2);
    private static final Duration CONNECT_WAIT = Duration.ofSeconds(3);
    private static final Duration DELAY = Duration.ofMillis(500);
    /** A takeover delay no handover may wait for: what happens within half of it happened without it. */
    private static final Duration LONG_DELAY = Duration.ofSeconds(30);
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private ZooKeeperServer zooKeeper;
    private final ServingLog serving = new ServingLog();
    private final List<ServerRunningMonitors> registries = new ArrayList<>();
    private CuratorFramework observer;
    private ZooKeeperPartition partition;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = ZooKeeperServer.start(ZooKeeperServer.SHORT_TICK);
        observer = session();
    }

    @AfterEach
    void stopAll() throws Exception {
        if (partition != null) {
            partition.heal(); // so the cut-off server can leave cleanly instead of retrying until its timeout
        }
        registries.forEach(ServerRunningMonitors::stop);
        zooKeeper.close();
        if (partition != null) {
            partition.close();
        }
    }

    @Test
    void exactlyOneServerStartsTheInstanceAndTheNodesHaveCanalsPathsAndShape() throws Exception {
        ServerRunningMonitor a = server(A, session()).register(DESTINATION);
        ServerRunningMonitor b = server(B, session()).register(DESTINATION);
        a.start();
        b.start();

        assertThat(List.of(a.isActive(), b.isActive())).containsExactlyInAnyOrder(true, false);
        String winner = a.isActive() ? A : B;
        assertThat(serving.startsOf(a.isActive() ? B : A)).isZero();
        assertThat(dataOf("/otter/canal/destinations/example/running"))
                .isEqualTo("{\"active\":true,\"address\":\"" + winner + "\"}");
        assertThat(observer.getChildren().forPath("/otter/canal/cluster")).containsExactlyInAnyOrder(A, B);
        assertThat(observer.getChildren().forPath("/otter/canal/destinations/example/cluster"))
                .containsExactlyInAnyOrder(A, B);
        for (String path : List.of("/otter/canal/destinations/example/running", "/otter/canal/cluster/" + A,
                "/otter/canal/destinations/example/cluster/" + B)) {
            assertThat(stat(path).getEphemeralOwner()).as("%s is ephemeral", path).isNotZero();
        }
        assertThat(a.activeData()).isEqualTo(ServerRunningData.activeAt(winner));
        assertThat(b.activeData()).isEqualTo(ServerRunningData.activeAt(winner));
    }

    @Test
    void releaseHandsTheDestinationToTheStandbyWithoutItsTakeoverDelay() {
        ServerRunningMonitors serverA = server(A, session(), LONG_DELAY);
        serverA.start(DESTINATION);
        ServerRunningMonitor b = server(B, session(), LONG_DELAY).register(DESTINATION);
        b.start();
        assertThat(b.isActive()).isFalse();

        assertThat(serverA.release(DESTINATION)).isTrue();

        await().atMost(LONG_DELAY.dividedBy(2)).until(b::isActive);
        assertThat(serverA.find(DESTINATION).orElseThrow().isActive()).isFalse();
        await().atMost(PATIENCE).until(() -> serverA.find(DESTINATION).orElseThrow().activeData(),
                data -> data.equals(ServerRunningData.activeAt(B)));
        serving.assertNeverTwoServing();
    }

    /**
     * A note from an earlier handover names the running node it was about: when a later holder crashes, the
     * standby still waits its takeover delay, which fencing counts on.
     */
    @Test
    void aHandoverNoteLeftFromAnEarlierNodeDoesNotShortenTheWaitAfterACrash() throws Exception {
        Duration delay = Duration.ofSeconds(3);
        ServerRunningMonitor a = server(A, session(), delay).register(DESTINATION);
        a.start();
        long nodeOfA = stat("/otter/canal/destinations/example/running").getCzxid();
        CuratorFramework sessionOfB = session();
        ServerRunningMonitor b = server(B, sessionOfB, delay).register(DESTINATION);
        b.start();
        a.release();
        await().atMost(PATIENCE).until(b::isActive);
        a.stop(); // C is the only standby left
        ServerRunningMonitor c = server(C, session(), delay).register(DESTINATION);
        c.start();
        observer.create().forPath("/otter/canal/destinations/example/handover",
                new HandoverNote(nodeOfA, A).toJson());

        long crashed = System.nanoTime();
        sessionOfB.close(); // B's session ends as a crashed server's does, without a note

        await().atMost(PATIENCE).until(c::isActive);
        assertThat(serving.lastChange(C, true) - crashed).isGreaterThanOrEqualTo(delay.toNanos());
    }

    @Test
    void theServerTakingOverAHandoverMakesTheOfficialClientsReconnect() throws Exception {
        ServerRunningMonitors serverA = server(A, session(), LONG_DELAY);
        serverA.start(DESTINATION);
        ServerRunningMonitor b = server(B, session(), LONG_DELAY).register(DESTINATION);
        b.start();
        List<String> clientNodes = List.of("/otter/canal/destinations/example/1001/running",
                "/otter/canal/destinations/example@billing/1001/running");
        for (String path : clientNodes) {
            observer.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path,
                    "{\"active\":true,\"address\":\"127.0.0.1:40000\",\"clientId\":1001}".getBytes(StandardCharsets.UTF_8));
        }
        observer.create().forPath("/otter/canal/destinations/example/1002"); // subscribed, not connected

        serverA.release(DESTINATION);

        await().atMost(PATIENCE).until(() -> stat(clientNodes.get(0)) == null && stat(clientNodes.get(1)) == null);
        assertThat(b.isActive()).isTrue();
    }

    @Test
    void aTakeoverAfterACrashLeavesTheOfficialClientsAlone() throws Exception {
        CuratorFramework sessionOfA = session();
        ServerRunningMonitor a = server(A, sessionOfA).register(DESTINATION);
        a.start();
        ServerRunningMonitor b = server(B, session()).register(DESTINATION);
        b.start();
        String clientNode = "/otter/canal/destinations/example/1001/running";
        observer.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(clientNode);

        sessionOfA.close();

        await().atMost(PATIENCE).until(b::isActive);
        await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> stat(clientNode) != null);
    }

    @Test
    void stoppedServerLeavesTheDestinationClusterAndHandsOver() throws Exception {
        ServerRunningMonitors serverA = server(A, session());
        serverA.start(DESTINATION);
        ServerRunningMonitor b = server(B, session()).register(DESTINATION);
        b.start();

        serverA.stop();

        await().atMost(PATIENCE).until(b::isActive);
        assertThat(observer.getChildren().forPath("/otter/canal/destinations/example/cluster")).containsExactly(B);
        assertThat(observer.getChildren().forPath("/otter/canal/cluster")).containsExactly(B);
        serving.assertNeverTwoServing();
    }

    @Test
    void holderWhoseNodeVanishesWithoutReleaseTakesItBackAtOnce() throws Exception {
        ServerRunningMonitor a = server(A, session()).register(DESTINATION);
        a.start();
        ServerRunningMonitor b = server(B, session()).register(DESTINATION);
        b.start();

        observer.delete().forPath("/otter/canal/destinations/example/running");

        await().atMost(PATIENCE).until(() -> stat("/otter/canal/destinations/example/running") != null);
        assertThat(dataOf("/otter/canal/destinations/example/running")).contains(A);
        // B's delayed attempt finds A's node again and stays standby
        await().during(DELAY.multipliedBy(3)).atMost(PATIENCE).until(() -> a.isActive() && !b.isActive());
        assertThat(serving.startsOf(B)).isZero();
    }

    /**
     * The network between A and ZooKeeper goes silent: A's client notices by its read timeout (2/3 of the
     * session), stops serving, and only after the session expired and the delay passed does B start.
     */
    @Test
    void serverCutOffFromZooKeeperStopsServingBeforeAnotherTakesOverAndRejoinsAsStandby() throws Exception {
        ActiveAndStandby servers = activeBehindPartition();
        ServerRunningMonitor a = servers.active();
        ServerRunningMonitor b = servers.standby();
        assertThat(a.isActive()).isTrue();

        partition.blackHole();
        await().atMost(PATIENCE).until(b::isActive);

        assertThat(a.isActive()).isFalse();
        serving.assertNeverTwoServing();
        long margin = serving.lastChange(B, true) - serving.lastChange(A, false);
        System.out.printf("A stopped serving %d ms before B started%n", margin / 1_000_000);

        partition.heal();
        await().atMost(PATIENCE).until(() -> ServerRunningData.activeAt(B).equals(a.activeData())
                && observer.getChildren().forPath("/otter/canal/destinations/example/cluster").contains(A));
        assertThat(observer.getChildren().forPath("/otter/canal/cluster")).contains(A, B);
        assertThat(a.isActive()).isFalse();
        assertThat(b.isActive()).isTrue();
        serving.assertNeverTwoServing();
    }

    /**
     * A connection reset within the session: A keeps serving if it is back within the fencing delay, else stops
     * while in doubt; either way it finds its node again and serves, and B never does.
     */
    @Test
    void serverReconnectingWithinItsSessionKeepsTheDestination() throws Exception {
        ActiveAndStandby servers = activeBehindPartition();
        ServerRunningMonitor a = servers.active();
        ServerRunningMonitor b = servers.standby();

        partition.dropConnections();

        // past the client's reconnection (up to 1 s of random back-off) and the fencing delay
        await().pollDelay(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> observer.getChildren()
                .forPath("/otter/canal/destinations/example/cluster").contains(A) && a.isActive());
        assertThat(serving.changes()).extracting(ServingLog.Change::server).containsOnly(A);
        assertThat(b.isActive()).isFalse();
    }

    /** Lazy start on a standby: the activation competes and loses, so the subscription is refused (quirk 11). */
    @Test
    void activationOnAStandbyLeavesTheInstanceStoppedAndTheSubscriptionRefused() {
        EmbeddedCanalServer embeddedA = embeddedServer();
        EmbeddedCanalServer embeddedB = embeddedServer();
        ServerRunningMonitors serverA = server(A, session(),
                ServerRunningListener.embedded(embeddedA));
        ServerRunningMonitors serverB = server(B, session(),
                ServerRunningListener.embedded(embeddedB));
        ClientIdentity client = new ClientIdentity(DESTINATION, (short) 1001, "");

        serverA.activator().activate(DESTINATION);
        serverB.activator().activate(DESTINATION);

        assertThat(embeddedA.isStart(DESTINATION)).isTrue();
        assertThat(embeddedB.isStart(DESTINATION)).isFalse();
        embeddedA.subscribe(client);
        assertThatThrownBy(() -> embeddedB.subscribe(client)).isInstanceOf(CanalServerException.class)
                .hasMessage("destination:example should start first");

        serverA.release(DESTINATION);
        await().atMost(PATIENCE).until(() -> embeddedB.isStart(DESTINATION));
        assertThat(embeddedA.isStart(DESTINATION)).isFalse();
    }

    @Test
    void unreachableZooKeeperFailsNamingTheKey() {
        assertThatThrownBy(() -> ZooKeeperConnections.connect("127.0.0.1:1", SESSION, Duration.ofMillis(500)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot reach ZooKeeper at 127.0.0.1:1 (canal.zkServers) within 500 ms");
    }

    @Test
    void electionRefusesToStartWithoutAZooKeeperConnection() {
        try (CuratorFramework nowhere = CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(10))) {
            nowhere.start();
            ServerRunningMonitors registry = new ServerRunningMonitors(nowhere, A, serving.listener(A), DELAY);

            assertThatThrownBy(registry::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("127.0.0.1:1 (canal.zkServers)");
        }
    }

    @Test
    void runningDataReadsWhatCanalWrites() {
        assertThat(ServerRunningData.fromJson("{\"active\":false,\"address\":\"10.0.0.1:11111\"}"
                .getBytes(StandardCharsets.UTF_8))).isEqualTo(new ServerRunningData(false, "10.0.0.1:11111"));
        assertThat(ServerRunningData.fromJson("{\"address\":\"10.0.0.2:11111\"}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(ServerRunningData.activeAt("10.0.0.2:11111"));
        assertThatThrownBy(() -> ServerRunningData.fromJson("{}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("no address");
    }

    private ServerRunningMonitors server(String address, CuratorFramework zk) {
        return started(new ServerRunningMonitors(zk, address, serving.listener(address), DELAY));
    }

    private ServerRunningMonitors server(String address, CuratorFramework zk, Duration takeoverDelay) {
        return started(new ServerRunningMonitors(zk, address, serving.listener(address), takeoverDelay));
    }

    private ServerRunningMonitors server(String address, CuratorFramework zk, ServerRunningListener listener) {
        return started(new ServerRunningMonitors(zk, address, serving.listener(address, listener), DELAY));
    }

    private record ActiveAndStandby(ServerRunningMonitor active, ServerRunningMonitor standby) {
    }

    /** A reaches ZooKeeper through a new {@link #partition} and starts first, so it is active; B goes direct. */
    private ActiveAndStandby activeBehindPartition() throws Exception {
        partition = new ZooKeeperPartition(zooKeeper.port());
        ServerRunningMonitor a = server(A, session(partition.connectString())).register(DESTINATION);
        a.start();
        ServerRunningMonitor b = server(B, session()).register(DESTINATION);
        b.start();
        return new ActiveAndStandby(a, b);
    }

    private ServerRunningMonitors started(ServerRunningMonitors registry) {
        registry.start();
        registries.add(registry);
        return registry;
    }

    private static EmbeddedCanalServer embeddedServer() {
        EmbeddedCanalServer server = new EmbeddedCanalServer(
                destination -> new TestInstance(destination, StoreConfig.itemSize(16), new MemoryMetaManager()));
        server.start();
        return server;
    }

    private String dataOf(String path) throws Exception {
        return new String(observer.getData().forPath(path), StandardCharsets.UTF_8);
    }

    private Stat stat(String path) throws Exception {
        return observer.checkExists().forPath(path);
    }

    /** A session through the election's own client, closed with the server. */
    private CuratorFramework session() {
        return session(zooKeeper.connectString());
    }

    private CuratorFramework session(String connectString) {
        return zooKeeper.closedWithServer(ZooKeeperConnections.connect(connectString, SESSION, CONNECT_WAIT));
    }
}
