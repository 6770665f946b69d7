package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.ClientIdentity;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.TcpPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A launcher running in this JVM on a temporary conf dir, with parsers that read no database. */
class CanalLauncherTest {

    private static final String TEST_PARSER = "classpath:test-parser.xml";

    @TempDir
    Path conf;

    private CanalController controller;
    private LogCapture logs;

    @BeforeEach
    void captureLogs() {
        RecordingEventParser.EVENTS.clear();
        logs = LogCapture.attachToRoot();
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.stop();
        }
        logs.close();
    }

    private Source canalProperties(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("canal.port", "0");
        p.setProperty("canal.metrics.pull.port", "0"); // MetricsIT covers the exporter
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", "${canal.conf.dir}");
        p.setProperty("canal.destinations", "example");
        p.setProperty("canal.auto.scan", "true");
        p.setProperty("canal.auto.scan.interval", "1");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new Source(conf.resolve("canal.properties").toString(), p);
    }

    private Path writeInstance(String destination, String... lines) {
        try {
            Path dir = Files.createDirectories(conf.resolve(destination));
            StringBuilder text = new StringBuilder("canal.instance.master.address=127.0.0.1:3306\n");
            for (String line : lines) {
                text.append(line).append('\n');
            }
            return Files.writeString(dir.resolve("instance.properties"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> errors() {
        return logs.messages(Level.ERROR);
    }

    @Test
    void listedDestinationsStartAndStopFlushesTheirCursors() throws IOException {
        writeInstance("example");
        writeInstance("orders");
        controller = CanalLauncher.start(canalProperties("canal.destinations", "example,orders"), TEST_PARSER);

        assertThat(controller.port()).isPositive();
        assertThat(RecordingEventParser.EVENTS).containsExactlyInAnyOrder("start example v1", "start orders v1");
        ClientIdentity client = new ClientIdentity("example", (short) 1001);
        controller.server().subscribe(client);
        assertThat(CanalLauncher.stopWithin(controller, Duration.ofSeconds(30), () -> { })).isTrue();

        assertThat(controller.isRunning()).isFalse();
        assertThat(RecordingEventParser.EVENTS).contains("stop example v1", "stop orders v1");
        assertThat(conf.resolve("example/meta.dat")).content().contains("\"clientId\":1001");
    }

    @Test
    void shutdownThatHangsIsCutShortByTheTimeout() {
        writeInstance("example", "test.parser.stop.millis=60000");
        controller = CanalLauncher.start(canalProperties(), TEST_PARSER);
        AtomicBoolean forced = new AtomicBoolean();

        boolean stopped = CanalLauncher.stopWithin(controller, Duration.ofMillis(500), () -> forced.set(true));

        assertThat(stopped).isFalse();
        assertThat(forced).isTrue();
        assertThat(errors()).anyMatch(e -> e.contains("did not stop within"));
        controller = null; // its stop still hangs in the background
    }

    @Test
    void autoScanStartsRestartsAndStopsOnlyTheDestinationThatChanged() {
        writeInstance("example");
        controller = CanalLauncher.start(canalProperties(), TEST_PARSER);

        writeInstance("orders");
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.EVENTS.contains("start orders v1"));
        assertThat(controller.deployedDestinations()).containsExactly("example", "orders");

        writeInstance("orders", "test.label=v2");
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.EVENTS.contains("start orders v2"));
        assertThat(RecordingEventParser.eventsOf("orders")).containsExactly("start orders v1", "stop orders v1",
                "start orders v2");

        deleteRecursively(conf.resolve("orders"));
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.EVENTS.contains("stop orders v2"));
        assertThat(controller.deployedDestinations()).containsExactly("example");
        assertThat(RecordingEventParser.eventsOf("example")).containsExactly("start example v1");
        assertThat(controller.server().isStart("example")).isTrue();
    }

    @Test
    void touchingInstancePropertiesRestartsItsDestination() throws IOException {
        Path file = writeInstance("example");
        writeInstance("orders");
        controller = CanalLauncher.start(canalProperties("canal.destinations", "example,orders"), TEST_PARSER);

        FileTime before = Files.getLastModifiedTime(file);
        Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 2000));
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.eventsOf("example").size() == 3);
        assertThat(RecordingEventParser.eventsOf("example")).containsExactly("start example v1", "stop example v1",
                "start example v1");
        assertThat(RecordingEventParser.eventsOf("orders")).containsExactly("start orders v1");
    }

    @Test
    void brokenEditIsReportedAndLeavesTheRunningInstanceUntilFixed() {
        writeInstance("example");
        controller = CanalLauncher.start(canalProperties(), TEST_PARSER);

        Path file = writeInstance("example", "test.label=v2", "canal.instance.memory.buffer.size=lots");
        await().atMost(Duration.ofSeconds(20)).until(() -> errors().stream()
                .anyMatch(e -> e.contains("canal.instance.memory.buffer.size") && e.contains(file.toString())));
        assertThat(RecordingEventParser.eventsOf("example")).containsExactly("start example v1");
        assertThat(controller.server().isStart("example")).isTrue();
        assertThat(controller.isRunning()).isTrue();

        writeInstance("example", "test.label=v3");
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.EVENTS.contains("start example v3"));
        assertThat(RecordingEventParser.eventsOf("example")).containsExactly("start example v1", "stop example v1",
                "start example v3");
    }

    @Test
    void brokenNewFolderIsReportedAndStartsOnceFixed() {
        writeInstance("example");
        controller = CanalLauncher.start(canalProperties(), TEST_PARSER);

        writeInstance("orders", "canal.instance.network.soTimeout=half a minute");
        await().atMost(Duration.ofSeconds(20)).until(() -> errors().stream()
                .anyMatch(e -> e.contains("canal.instance.network.soTimeout")));
        assertThat(controller.deployedDestinations()).containsExactly("example");

        writeInstance("orders", "canal.instance.network.soTimeout=30");
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.EVENTS.contains("start orders v1"));
    }

    @Test
    void instanceThatFailsToStartLeavesTheOthersRunning() {
        writeInstance("example");
        writeInstance("broken", "test.parser.fail=true");
        controller = CanalLauncher.start(canalProperties("canal.destinations", "broken,example"), TEST_PARSER);

        assertThat(controller.server().isStart("example")).isTrue();
        assertThat(controller.server().isStart("broken")).isFalse();
        assertThat(errors()).anyMatch(e -> e.contains("destination broken did not start"));
    }

    @Test
    void corruptMetaDatIsAnErrorNamingTheFileAndItsDestinationIsNeverReportedStarted() throws IOException {
        writeInstance("example");
        byte[] corrupt = "{\"destination\":\"exam".getBytes(StandardCharsets.UTF_8);
        Path meta = Files.write(conf.resolve("example/meta.dat"), corrupt);
        controller = CanalLauncher.start(canalProperties(), TEST_PARSER);

        assertThat(controller.isRunning()).isTrue();
        assertThat(controller.server().isStart("example")).isFalse();
        assertThat(errors()).anyMatch(e -> e.contains("destination example did not start")
                && e.contains("invalid meta file " + meta));
        assertThat(errors()).anyMatch(e -> e.contains("destinations [example] failed to start"));
        assertThat(logs.events()).filteredOn(e -> e.getLevel() != Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .filteredOn(m -> m.contains("started")).as("reported started").isEmpty();
        controller.stop();
        assertThat(meta).hasBinaryContent(corrupt); // never reset, not even by the stop's flush
    }

    @Test
    void withoutNettyRunsNoTcpServer() {
        writeInstance("example");
        controller = CanalLauncher.start(canalProperties("canal.withoutNetty", "true"), TEST_PARSER);

        assertThat(controller.port()).isEqualTo(-1);
        assertThat(controller.server().isStart("example")).isTrue();
    }

    @Test
    void invalidMqSettingStopsKafkaModeStartUpNamingKeyAndFile() {
        Path file = writeInstance("example", "canal.mq.topic=rows", "canal.mq.partitionsNum=0");

        assertThatThrownBy(() -> CanalLauncher.start(canalProperties("canal.serverMode", "kafka"), TEST_PARSER))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("canal.mq.partitionsNum")
                .hasMessageContaining(file.toString());
        assertThat(RecordingEventParser.EVENTS).isEmpty();
    }

    @Test
    void lazyDestinationStartsOnItsFirstSubscriber() {
        writeInstance("example");
        controller = CanalLauncher.start(canalProperties("canal.instance.global.lazy", "true"), TEST_PARSER);
        assertThat(RecordingEventParser.EVENTS).isEmpty();

        controller.server().start("example");
        assertThat(RecordingEventParser.EVENTS).containsExactly("start example v1");
    }

    @Test
    void missingDestinationFolderStopsStartUpNamingKeyAndPath() {
        writeInstance("example");

        assertThatThrownBy(() -> CanalLauncher.start(canalProperties("canal.destinations", "example,ghost"), TEST_PARSER))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("canal.destinations")
                .hasMessageContaining(conf.resolve("ghost").resolve("instance.properties").toString());
        assertThat(RecordingEventParser.EVENTS).isEmpty();
    }

    @Test
    void invalidInstanceValueStopsStartUpWithNothingRunning() throws IOException {
        writeInstance("example");
        Path bad = writeInstance("orders", "canal.instance.transaction.size=1000");
        int port = TcpPorts.free();

        assertThatThrownBy(() -> CanalLauncher.start(canalProperties("canal.destinations", "example,orders",
                "canal.port", String.valueOf(port)), TEST_PARSER))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("canal.instance.transaction.size")
                .hasMessageContaining(bad.toString());
        assertThat(RecordingEventParser.EVENTS).isEmpty();
        try (ServerSocket again = new ServerSocket(port)) {
            assertThat(again.isBound()).isTrue(); // the TCP port was never taken
        }
    }

    @Test
    void anUnknownKeyIsNamedWithTheKeyItMisspellsApartFromCanalsKeysNotImplemented() {
        writeInstance("example", "canal.instance.connectionCharset=UTF-8", "canal.instnace.filter.regex=.*");
        controller = CanalLauncher.start(canalProperties("canal.socketChannel", "netty", "canal.prot", "1"), TEST_PARSER);

        List<String> warnings = logs.messages(Level.WARN);
        Path instanceFile = conf.resolve("example").resolve("instance.properties");
        assertThat(warnings).contains("unknown key canal.prot (" + conf.resolve("canal.properties")
                        + "), did you mean canal.port?: ignored",
                "unknown key canal.instnace.filter.regex (" + instanceFile + "), did you mean "
                        + "canal.instance.filter.regex?: ignored");
        assertThat(warnings.stream().filter(w -> w.contains("does not implement")))
                .singleElement().asString()
                .contains("canal.socketChannel", "canal.instance.connectionCharset (" + instanceFile + ")")
                .doesNotContain("canal.prot", "instnace");
    }

    @Test
    void strictModeRefusesAnUnknownKeyNamingItsFileAndTheKeyItMisspells() {
        writeInstance("example", "canal.instnace.filter.regex=.*");

        assertThatThrownBy(() -> CanalLauncher.start(canalProperties("canal.config.strict", "true"), TEST_PARSER))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown key canal.instnace.filter.regex ("
                        + conf.resolve("example").resolve("instance.properties") + ")")
                .hasMessageContaining("did you mean canal.instance.filter.regex?")
                .hasMessageContaining("canal.config.strict");
        assertThat(RecordingEventParser.EVENTS).isEmpty();
    }

    @Test
    void aDestinationTheScanDeploysLaterGetsItsOwnWarning() {
        writeInstance("example");
        controller = CanalLauncher.start(canalProperties(), TEST_PARSER);

        writeInstance("orders", "canal.instance.connectionCharset=UTF-8");
        await().atMost(Duration.ofSeconds(20)).until(() -> RecordingEventParser.EVENTS.contains("start orders v1"));
        assertThat(logs.messages(Level.WARN))
                .anyMatch(w -> w.startsWith("destination orders: ") && w.contains("canal.instance.connectionCharset")
                        && w.contains(conf.resolve("orders").resolve("instance.properties").toString()));
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
