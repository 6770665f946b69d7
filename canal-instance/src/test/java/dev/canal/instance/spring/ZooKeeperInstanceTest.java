package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.canal.instance.CanalInstance;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.meta.PeriodMixedMetaManager;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.protocol.ClientIdentity;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.ZooKeeperServer;
import dev.canal.testsupport.ZooKeeperServerExtension;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** default-instance.xml against a real ZooKeeper server (curator-test, in this JVM). */
@ExtendWith(ZooKeeperServerExtension.class)
class ZooKeeperInstanceTest {

    @TempDir
    Path conf;

    private ZooKeeperServer zooKeeper;

    @BeforeEach
    void zooKeeper(ZooKeeperServer server) {
        zooKeeper = server;
    }

    private SpringCanalInstanceGenerator generator(String zkServers) throws Exception {
        Files.createDirectories(conf.resolve("example"));
        Files.writeString(conf.resolve("example/instance.properties"), "canal.instance.master.address=127.0.0.1:3306\n");
        Properties p = new Properties();
        p.setProperty("canal.instance.global.spring.xml", "classpath:spring/default-instance.xml");
        p.setProperty("canal.zkServers", zkServers);
        p.setProperty("canal.zookeeper.flush.period", "100");
        return new SpringCanalInstanceGenerator(new Source("canal.properties", p), conf)
                .withAdditionalXml("classpath:probe-parser.xml");
    }

    @Test
    void cursorsArePushedToZooKeeperAndTheClientIsClosedOnStop() throws Exception {
        CanalInstance instance = generator(zooKeeper.connectString()).generate("example");
        assertThat(instance.getMetaManager()).isInstanceOf(PeriodMixedMetaManager.class);
        instance.start();
        ClientIdentity client = new ClientIdentity("example", (short) 1001);
        instance.getMetaManager().subscribe(client);
        instance.getMetaManager().updateCursor(client, SpringCanalInstanceGeneratorTest.ACKED);
        instance.stop();

        try (CuratorFramework reader = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000)) {
            byte[] cursor = reader.getData().forPath("/otter/canal/destinations/example/1001/cursor");
            assertThat(new String(cursor, StandardCharsets.UTF_8)).contains("mysql-bin.000001", "1234");
        }

        CanalInstance again = generator(zooKeeper.connectString()).generate("example");
        again.start();
        try {
            assertThat(again.getMetaManager().getCursor(client)).isEqualTo(SpringCanalInstanceGeneratorTest.ACKED);
        } finally {
            again.stop();
        }
    }

    @Test
    void anInstanceOnTheServersClientPushesThroughItAndLeavesItOpen() throws Exception {
        CuratorFramework shared = zooKeeper.newClient();
        CanalInstance instance = generator(zooKeeper.connectString())
                .withZooKeeper(SharedZooKeeper.of(zooKeeper.connectString(), shared)).generate("example");
        instance.start();
        ClientIdentity client = new ClientIdentity("example", (short) 1001);
        instance.getMetaManager().subscribe(client);
        instance.getMetaManager().updateCursor(client, SpringCanalInstanceGeneratorTest.ACKED);
        instance.stop();

        assertThat(shared.getState()).isEqualTo(CuratorFrameworkState.STARTED);
        byte[] cursor = shared.getData().forPath("/otter/canal/destinations/example/1001/cursor");
        assertThat(new String(cursor, StandardCharsets.UTF_8)).contains("mysql-bin.000001", "1234");
    }

    @Test
    void shippedXmlWiresTheMysqlParser() throws Exception {
        Properties p = new Properties();
        p.setProperty("canal.instance.global.spring.xml", "classpath:spring/default-instance.xml");
        p.setProperty("canal.zkServers", zooKeeper.connectString());
        Files.createDirectories(conf.resolve("example"));
        Files.writeString(conf.resolve("example/instance.properties"), "canal.instance.master.address=127.0.0.1:3306\n");

        CanalInstance instance = new SpringCanalInstanceGenerator(new Source("canal.properties", p), conf).generate("example");

        assertThat(instance.getEventParser()).isInstanceOf(MysqlEventParser.class);
        instance.stop();
    }

    @Test
    void aLocalSchemaHistoryIsNamedAtBuildAsWhatAFailoverServerLacks() throws Exception {
        List<ILoggingEvent> warnings;
        try (LogCapture logs = LogCapture.attach(FailoverHistoryWarning.class.getName())) {
            generator(zooKeeper.connectString()).generate("example").stop();
            warnings = logs.events();
        }
        assertThat(warnings).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage()).contains("destination example", "local files", "canal.instance.tsdb.url");
        });
    }

    @Test
    void unreachableZooKeeperFailsTheBuildNamingTheKey() {
        assertThatThrownBy(() -> ZooKeeperClients.connect("127.0.0.1:1", 500))
                .hasMessageContaining("127.0.0.1:1")
                .hasMessageContaining("canal.zkServers");
    }
}
