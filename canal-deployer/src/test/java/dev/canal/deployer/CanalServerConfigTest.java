package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.connector.mq.MqModes;
import dev.canal.instance.spring.InstanceProperties.Source;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CanalServerConfigTest {

    private static final String FILE = "/etc/canal/canal.properties";

    static Source source(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new Source(FILE, p);
    }

    @Test
    void absentKeysTakeCanalsDefaults() {
        CanalServerConfig config = CanalServerConfig.load(source());

        assertThat(config.tcp().port()).isEqualTo(11111);
        assertThat(config.tcp().ip()).isEmpty();
        assertThat(config.serverMode()).isEqualTo(ServerMode.TCP);
        assertThat(config.withoutNetty()).isFalse();
        assertThat(config.zkServers()).isEmpty();
        assertThat(config.zkSessionTimeout()).hasMillis(4000);
        assertThat(config.meta().fileDataDir()).isEqualTo(Path.of("../conf").toAbsolutePath().normalize());
        assertThat(config.meta().fileFlushPeriodMillis()).isEqualTo(1000);
        assertThat(config.meta().zooKeeperFlushPeriodMillis()).isEqualTo(1000);
        assertThat(config.destinations()).isEmpty();
        assertThat(config.confDir()).isEqualTo(Path.of("../conf").toAbsolutePath().normalize()); // as messages print it
        assertThat(config.autoScan()).isFalse();
        assertThat(config.autoScanIntervalSeconds()).isEqualTo(5);
        assertThat(config.globalLazy()).isFalse();
        assertThat(config.globalSpringXml()).isEqualTo("classpath:spring/file-instance.xml");
        assertThat(config.metricsPort()).isEqualTo(11112);
        assertThat(config.tcp().authTimeoutMillis()).isEqualTo(10_000);
        assertThat(config.tcp().maxConnections()).isEqualTo(4096);
    }

    @Test
    void zooKeeperSessionTimeoutIsReadAndKnown() {
        CanalServerConfig config = CanalServerConfig.load(source("canal.zookeeper.session.timeout", "30000"));

        assertThat(config.zkSessionTimeout()).hasSeconds(30);
        assertThat(config.unusedKeys().keys()).doesNotContain("canal.zookeeper.session.timeout");
    }

    @Test
    void clientPortGuardsAreReadAndKnown() {
        CanalServerConfig config = CanalServerConfig.load(source("canal.client.auth.timeout", "2500",
                "canal.client.max.connections", "100"));

        assertThat(config.tcp().authTimeoutMillis()).isEqualTo(2500);
        assertThat(config.tcp().maxConnections()).isEqualTo(100);
        assertThat(config.unusedKeys().keys()).doesNotContain("canal.client.auth.timeout", "canal.client.max.connections");
    }

    /** Canal's names of its MQ modes, read ignoring case as Canal does. */
    @ParameterizedTest(name = "{0} selects {1}")
    @CsvSource({"Kafka, kafka", "kafka, kafka", "rabbitMQ, rabbitMQ", "RABBITMQ, rabbitMQ", "PulsarMQ, pulsarMQ",
            "pulsarmq, pulsarMQ", "RocketMQ, rocketMQ", "rocketmq, rocketMQ"})
    void anMqModeIsReadCaseInsensitivelyAndRunsNoTcpServer(String written, String mode) {
        CanalServerConfig config = CanalServerConfig.load(source("canal.serverMode", written, "canal.withoutNetty",
                "false"));

        assertThat(config.serverMode().name()).isEqualTo(mode);
        assertThat(config.serverMode().isTcp()).isFalse();
        assertThat(config.withoutNetty()).isTrue();
    }

    @Test
    void tcpModeIsReadCaseInsensitively() {
        assertThat(CanalServerConfig.load(source("canal.serverMode", "TCP")).serverMode().isTcp()).isTrue();
    }

    @Test
    void anUnknownModeIsRejectedListingTheBrokersFound() {
        assertThatThrownBy(() -> CanalServerConfig.load(source("canal.serverMode", "activeMQ")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("canal.serverMode")
                .hasMessageContaining("'activeMQ'")
                .hasMessageContaining(MqModes.names().toString());
    }

    @Test
    void registeredAddressPrefersRegisterIpThenCanalIpAndTheBoundPort() {
        CanalServerConfig both = CanalServerConfig.load(source("canal.register.ip", "10.0.0.5", "canal.ip", "10.0.0.6"));
        CanalServerConfig ipOnly = CanalServerConfig.load(source("canal.ip", "10.0.0.6", "canal.port", "0"));

        assertThat(both.registerAddress(-1)).isEqualTo("10.0.0.5:11111");
        assertThat(ipOnly.registerAddress(40000)).isEqualTo("10.0.0.6:40000");
    }

    @Test
    void dataDirFollowsTheConfDirThroughItsPlaceholder() {
        CanalServerConfig config = CanalServerConfig.load(source(
                "canal.conf.dir", "/srv/canal/conf", "canal.file.data.dir", "${canal.conf.dir}"));

        assertThat(config.meta().fileDataDir()).isEqualTo(Path.of("/srv/canal/conf"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "canal.port|eleven|canal.port",
        "canal.port|70000|canal.port",
        "canal.metrics.pull.port|eleven|canal.metrics.pull.port",
        "canal.metrics.pull.port|70000|canal.metrics.pull.port",
        "canal.auto.scan|yes|canal.auto.scan",
        "canal.auto.scan.interval|0|canal.auto.scan.interval",
        "canal.auto.scan.interval|5s|canal.auto.scan.interval",
        "canal.withoutNetty|1|canal.withoutNetty",
        "canal.instance.global.lazy|maybe|canal.instance.global.lazy",
        "canal.file.flush.period|-1|canal.file.flush.period",
        "canal.zookeeper.flush.period|soon|canal.zookeeper.flush.period",
        "canal.zookeeper.session.timeout|4s|canal.zookeeper.session.timeout",
        "canal.zookeeper.session.timeout|0|canal.zookeeper.session.timeout",
        "canal.serverMode|carrier-pigeon|canal.serverMode",
        "canal.instance.global.mode|manager|canal.instance.global.mode",
        "canal.instance.global.mode|remote|canal.instance.global.mode",
        "canal.instance.global.manager.address|10.0.0.1:8089|canal.instance.global.manager.address",
        "canal.destinations.expr|example{3-1}|canal.destinations.expr",
        "canal.destinations.expr|example|canal.destinations.expr",
        "canal.destinations|a,../b|canal.destinations",
        "canal.instance.example.mode|manager|canal.instance.example.mode",
        "canal.passwd|not-a-hash|canal.passwd",
        "canal.client.auth.timeout|10s|canal.client.auth.timeout",
        "canal.client.auth.timeout|0|canal.client.auth.timeout",
        "canal.client.max.connections|-1|canal.client.max.connections",
    })
    void invalidValueStopsStartUpNamingFileAndKey(String key, String value, String namedKey) {
        assertThatThrownBy(() -> CanalServerConfig.load(source("canal.destinations", "example", key, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining("key " + namedKey);
    }

    @Test
    void perDestinationLazyBeatsTheGlobalOneAndIsValidated() {
        CanalServerConfig config = CanalServerConfig.load(source("canal.destinations", "a,b",
                "canal.instance.global.lazy", "true", "canal.instance.b.lazy", "false"));
        assertThat(config.lazy("a")).isTrue();
        assertThat(config.lazy("b")).isFalse();

        assertThatThrownBy(() -> CanalServerConfig.load(source("canal.destinations", "a", "canal.instance.a.lazy", "sometimes")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("key canal.instance.a.lazy");
    }

    @Test
    void destinationsAreTrimmedAndDeduplicated() {
        assertThat(CanalServerConfig.load(source("canal.destinations", " a, b,,a ,c ")).destinations())
                .containsExactly("a", "b", "c");
    }

    @Test
    void destinationsExprExpandsItsRangeAndWinsOverTheList() {
        CanalServerConfig config = CanalServerConfig.load(source(
                "canal.destinations", "example", "canal.destinations.expr", "shard{1-3},orders{9-10}"));

        assertThat(config.destinations()).containsExactly("shard1", "shard2", "shard3", "orders9", "orders10");
    }

    @Test
    void unusedKeysTellCanalsKeysNotImplementedFromUnknownOnesWithTheKeyTheyMisspell() {
        CanalServerConfig config = CanalServerConfig.load(source(
                "canal.port", "11111",
                "canal.socketChannel", "netty",
                "kafka.bootstrap.servers", "127.0.0.1:9092",
                "canal.instance.connectionCharset", "UTF-8",
                "canal.prot", "11111",
                "canal.instance.memory.buffer.size", "1024",
                "canal.instance.example.spring.xml", "classpath:spring/memory-instance.xml",
                "canal.register.ip", "   "));

        UnusedKeys unused = config.unusedKeys();

        assertThat(unused.notActedOn()).extracting(UnusedKeys.UnusedKey::key)
                .containsExactly("canal.instance.connectionCharset", "canal.socketChannel");
        assertThat(unused.unknown()).extracting(UnusedKeys.UnusedKey::describeUnknown)
                .containsExactly("unknown key canal.prot (" + FILE + "), did you mean canal.port?");
    }
}
