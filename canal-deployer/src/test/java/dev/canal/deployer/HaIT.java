package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.exception.CanalClientException;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.ZooKeeperServer;
import dev.canal.testsupport.ZooKeeperServerExtension;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launchers sharing a ZooKeeper (curator-test's real server in this JVM) elect one of them per destination
 *: the destination runs on exactly one, the other registers and stands by, and takes over
 * when the active one shuts down. Parsers read no database.
 */
@Tag("source-independent")
@ExtendWith(ZooKeeperServerExtension.class)
class HaIT {

    private static final String TEST_PARSER = "classpath:test-parser.xml";
    private static final String DESTINATION = "example";

    @TempDir
    Path home;

    private ZooKeeperServer zooKeeper;
    private final List<CanalController> controllers = new ArrayList<>();
    /** Settings every launcher of the test gets on top of the common ones. */
    private final Properties settings = new Properties();

    @BeforeEach
    void clearEvents(ZooKeeperServer server) {
        RecordingEventParser.EVENTS.clear();
        zooKeeper = server;
    }

    @AfterEach
    void stopAll() {
        controllers.forEach(CanalController::stop);
    }

    @Test
    void twoLaunchersOnOneZooKeeperRunTheDestinationOnExactlyOne() throws Exception {
        CanalController first = launch("first", zooKeeper.connectString());
        CanalController second = launch("second", zooKeeper.connectString());

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> runningOn().size() == 1);
        CanalController active = runningOn().get(0);
        CanalController standby = active == first ? second : first;
        assertThat(standby.deployedDestinations()).containsExactly(DESTINATION);
        try (CuratorFramework zk = zooKeeper.newClient()) {
            String cluster = "/otter/canal/destinations/" + DESTINATION + "/cluster";
            assertThat(zk.getChildren().forPath(cluster)).hasSize(2);
            String running = new String(zk.getData().forPath("/otter/canal/destinations/" + DESTINATION + "/running"),
                    StandardCharsets.UTF_8);
            assertThat(running).contains(":" + active.port() + "\"");
        }

        active.stop(); // releases the destination
        await().atMost(Duration.ofSeconds(30)).until(() -> standby.server().isStart(DESTINATION));
        assertThat(runningOn()).containsExactly(standby);
    }

    /**
     * Cursors in ZooKeeper (default-instance.xml) for three destinations, the election and the registration all
     * go through the server's one client: ZooKeeper sees a single session from the server.
     */
    @Test
    void everyDestinationOfAServerSharesItsOneZooKeeperSession() throws Exception {
        List<String> destinations = List.of("one", "two", "three");
        CanalController controller = launch("shared", zooKeeper.connectString(), destinations,
                "classpath:spring/default-instance.xml");
        await().atMost(Duration.ofSeconds(30)).until(() -> destinations.stream()
                .allMatch(d -> controller.server().isStart(d)));

        assertThat(zooKeeper.connectedSessions()).hasSize(1);
        try (CuratorFramework zk = zooKeeper.newClient()) {
            for (String destination : destinations) {
                assertThat(zk.checkExists().forPath("/otter/canal/destinations/" + destination + "/running")).isNotNull();
            }
        }
    }

    @Test
    void unreachableZooKeeperStopsStartUpNamingTheKey() throws Exception {
        String nowhere = "127.0.0.1:" + TcpPorts.free();

        assertThatThrownBy(() -> launch("alone", nowhere))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("canal.zkServers")
                .hasMessageContaining(nowhere);
        assertThat(RecordingEventParser.EVENTS).isEmpty();
    }

    /**
     * A client that never hears of a move (here a single connector, which has no ZooKeeper node the new holder could
     * delete) is answered with nothing by the server that handed its destination over, then, once
     * {@code canal.handover.client.timeout} has passed, told that the destination does not run there, so that it
     * connects again instead of waiting there for ever.
     */
    @Test
    void aClientLeftOnTheServerThatHandedItsDestinationOverIsToldToConnectAgain() throws Exception {
        settings.setProperty("canal.handover.client.timeout", "500");
        CanalController first = launch("first", zooKeeper.connectString());
        CanalController second = launch("second", zooKeeper.connectString());
        await().atMost(Duration.ofSeconds(10)).until(() -> runningOn().size() == 1);
        CanalController active = runningOn().get(0);
        CanalController standby = active == first ? second : first;
        CanalConnector client = CanalConnectors.newSingleConnector(
                new InetSocketAddress("127.0.0.1", active.port()), DESTINATION, "", "");
        try {
            client.connect();
            client.subscribe();
            assertThat(client.getWithoutAck(10).getId()).isEqualTo(-1L);

            assertThat(active.destinations().release(DESTINATION)).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> standby.server().isStart(DESTINATION));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThatThrownBy(
                    () -> client.getWithoutAck(10)).isInstanceOf(CanalClientException.class) // "deserializer failed"
                    .rootCause().hasMessageContaining("destination:" + DESTINATION + " should start first"));
        } finally {
            client.disconnect();
        }
    }

    private List<CanalController> runningOn() {
        return controllers.stream().filter(c -> c.isRunning() && c.server().isStart(DESTINATION)).toList();
    }

    private CanalController launch(String name, String zkServers) throws IOException {
        return launch(name, zkServers, List.of(DESTINATION), null);
    }

    private CanalController launch(String name, String zkServers, List<String> destinations, String springXml)
            throws IOException {
        Path conf = Files.createDirectories(home.resolve(name));
        for (String destination : destinations) {
            Files.createDirectories(conf.resolve(destination));
            Files.writeString(conf.resolve(destination).resolve("instance.properties"),
                    "canal.instance.master.address=127.0.0.1:3306\n");
        }
        Properties p = new Properties();
        p.putAll(settings);
        if (springXml != null) {
            p.setProperty("canal.instance.global.spring.xml", springXml);
        }
        p.setProperty("canal.port", "0");
        p.setProperty("canal.register.ip", "127.0.0.1");
        p.setProperty("canal.metrics.pull.port", "0");
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", "${canal.conf.dir}");
        p.setProperty("canal.destinations", String.join(",", destinations));
        p.setProperty("canal.zkServers", zkServers);
        CanalController controller = CanalLauncher.start(new Source(conf.resolve("canal.properties").toString(), p),
                TEST_PARSER);
        controllers.add(controller);
        return controller;
    }
}
