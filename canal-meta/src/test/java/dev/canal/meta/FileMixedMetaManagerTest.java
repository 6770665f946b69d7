package dev.canal.meta;

import static dev.canal.meta.Positions.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.testsupport.LogCapture;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileMixedMetaManagerTest {

    private static final ClientIdentity CLIENT = new ClientIdentity("example", (short) 1001);
    private static final long NEVER = TimeUnit.HOURS.toMillis(1);

    @TempDir
    Path dataDir;

    private final List<FileMixedMetaManager> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(FileMixedMetaManager::stop);
    }

    private FileMixedMetaManager startManager(long periodMillis) {
        FileMixedMetaManager meta = new FileMixedMetaManager(dataDir, periodMillis);
        meta.start();
        started.add(meta);
        return meta;
    }

    private Path metaDat() {
        return dataDir.resolve("example").resolve("meta.dat");
    }

    private String metaDatText() throws IOException {
        return Files.readString(metaDat());
    }

    @Test
    void namedConsumersCursorsLiveInTheirDestinationsFileAndComeBackAfterARestart() throws IOException {
        FileMixedMetaManager first = startManager(NEVER);
        ClientIdentity billing = new ClientIdentity("example@billing", (short) 1001, "shop\\..*");
        first.subscribe(CLIENT);
        first.subscribe(billing);
        first.updateCursor(CLIENT, at(2000));
        first.updateCursor(billing, at(1000));
        first.stop();

        FileMixedMetaManager restarted = new FileMixedMetaManager(dataDir, NEVER, "example");
        restarted.start();
        started.add(restarted);

        assertThat(metaDatText()).contains("\"destination\":\"example@billing\"");
        assertThat(Files.exists(dataDir.resolve("example@billing"))).isFalse();
        assertThat(restarted.listSubscribedNames("example")).containsExactly("example", "example@billing");
        assertThat(restarted.getCursor(billing)).isEqualTo(at(1000));
        assertThat(restarted.listAllSubscribeInfo("example@billing").get(0).filter()).isEqualTo("shop\\..*");
        assertThat(restarted.listAllSubscribeInfo("example")).containsExactly(CLIENT);
    }

    @Test
    void restartRestoresSubscriptionsFiltersAndCursors() {
        FileMixedMetaManager first = startManager(NEVER);
        ClientIdentity second = new ClientIdentity("example", (short) 1002, "db\\..*");
        first.subscribe(CLIENT);
        first.subscribe(second);
        first.updateCursor(CLIENT, at(1234));
        first.stop();

        FileMixedMetaManager restarted = startManager(NEVER);

        assertThat(restarted.listAllSubscribeInfo("example")).containsExactly(CLIENT, second);
        assertThat(restarted.listAllSubscribeInfo("example").get(1).filter()).isEqualTo("db\\..*");
        assertThat(restarted.getCursor(CLIENT)).isEqualTo(at(1234));
        assertThat(restarted.getCursor(second)).isNull();
    }

    @Test
    void writtenFileIsCanalsJsonByteForByte() throws IOException {
        FileMixedMetaManager meta = startManager(NEVER);
        meta.subscribe(CLIENT);
        meta.updateCursor(CLIENT, at(1234));
        meta.stop();

        assertThat(metaDatText()).isEqualTo(MetaJsonTest.CANAL_META_DAT);
    }

    @Test
    void subscribeWritesTheFileAtOnce() throws IOException {
        FileMixedMetaManager meta = startManager(NEVER);

        meta.subscribe(CLIENT.withFilter("a\\.b"));

        assertThat(metaDatText()).isEqualTo("{\"clientDatas\":[{\"clientIdentity\":{\"clientId\":1001,"
                + "\"destination\":\"example\",\"filter\":\"a\\\\.b\"}}],\"destination\":\"example\"}");
    }

    @Test
    void changedCursorIsWrittenByThePeriodicFlush() {
        FileMixedMetaManager meta = startManager(50);
        meta.subscribe(CLIENT);

        meta.updateCursor(CLIENT, at(777));

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(metaDatText()).contains("\"position\":777"));
    }

    @Test
    void stopWritesTheCursorThePeriodHasNotFlushedYet() throws IOException {
        FileMixedMetaManager meta = startManager(NEVER);
        meta.subscribe(CLIENT);
        meta.updateCursor(CLIENT, at(888));
        assertThat(metaDatText()).doesNotContain("888");

        meta.stop();

        assertThat(metaDatText()).contains("\"position\":888");
    }

    @Test
    void noFileIsWrittenForADestinationWithoutClients() {
        FileMixedMetaManager meta = startManager(NEVER);

        meta.updateCursor(CLIENT, at(5));
        meta.stop();

        assertThat(metaDat()).doesNotExist();
    }

    @Test
    void unsubscribeOfTheLastClientLeavesTheFileAsCanalDoes() throws IOException {
        FileMixedMetaManager meta = startManager(NEVER);
        meta.subscribe(CLIENT);
        String withClient = metaDatText();

        meta.unsubscribe(CLIENT);

        assertThat(metaDatText()).isEqualTo(withClient);
    }

    @Test
    void leftoverTornTempFileDoesNotHideTheLastCompleteState() throws IOException {
        FileMixedMetaManager first = startManager(NEVER);
        first.subscribe(CLIENT);
        first.updateCursor(CLIENT, at(1234));
        first.stop();
        Path temp = metaDat().resolveSibling("meta.dat.tmp");
        Files.writeString(temp, MetaJsonTest.CANAL_META_DAT.substring(0, 50)); // a write cut short by a crash

        FileMixedMetaManager restarted = startManager(NEVER);
        assertThat(restarted.getCursor(CLIENT)).isEqualTo(at(1234));

        restarted.updateCursor(CLIENT, at(2000));
        restarted.stop();
        assertThat(temp).doesNotExist();
        assertThat(startManager(NEVER).getCursor(CLIENT)).isEqualTo(at(2000));
    }

    @Test
    void writerKilledMidStreamLeavesALoadableCompleteFile() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the child's standard output is its protocol: logback's status lines (two logback-test.xml on the class
        // path, this module's and canal-test-support's) must not come first
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
                MetaFileWriterProcess.class.getName(), metaDat().toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");
            // every read while the child keeps rewriting must see a complete file
            await().atMost(Duration.ofSeconds(30)).until(
                    () -> MetaFile.read(metaDat(), "example").clientDatas().get(0).cursor().position().position() > 50);
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, possibly between two writes
            child.waitFor(10, TimeUnit.SECONDS);
        }

        LogPosition cursor = startManager(NEVER).getCursor(CLIENT);

        assertThat(cursor).isNotNull();
        assertThat(cursor.position().position()).isGreaterThan(50);
    }

    @Test
    void corruptMetaFileStopsStartNamingTheFileAndIsLeftUntouched() throws IOException {
        Files.createDirectories(metaDat().getParent());
        String truncated = MetaJsonTest.CANAL_META_DAT.substring(0, 70);
        Files.writeString(metaDat(), truncated);
        FileMixedMetaManager meta = new FileMixedMetaManager(dataDir, NEVER);

        assertThatThrownBy(meta::start)
                .isInstanceOf(MetaManagerException.class)
                .hasMessageContaining(metaDat().toString())
                .hasMessageContaining("malformed");
        assertThat(meta.isStart()).isFalse();
        assertThat(metaDatText()).isEqualTo(truncated);
    }

    @Test
    void aCorruptFileOfAnotherDestinationInTheSameDataDirDoesNotStopThisOne() throws IOException {
        Files.createDirectories(metaDat().getParent());
        Files.writeString(metaDat(), MetaJsonTest.CANAL_META_DAT.substring(0, 70));
        FileMixedMetaManager orders = new FileMixedMetaManager(dataDir, NEVER, "orders");

        orders.start();
        try {
            assertThat(orders.isStart()).isTrue();
            assertThatThrownBy(() -> orders.getCursor(CLIENT)).as("example's own file is still refused when read")
                    .isInstanceOf(MetaManagerException.class).hasMessageContaining(metaDat().toString());
        } finally {
            orders.stop();
        }
    }

    @Test
    void emptyMetaFileIsAnErrorNotAnEmptyState() throws IOException {
        Files.createDirectories(metaDat().getParent());
        Files.write(metaDat(), new byte[0]);

        assertThatThrownBy(() -> new FileMixedMetaManager(dataDir, NEVER).start())
                .isInstanceOf(MetaManagerException.class)
                .hasMessageContaining(metaDat().toString())
                .hasMessageContaining("empty");
    }

    @Test
    void metaFileOfAnotherDestinationIsRejected() throws IOException {
        Path copied = dataDir.resolve("example2").resolve("meta.dat");
        Files.createDirectories(copied.getParent());
        Files.writeString(copied, MetaJsonTest.CANAL_META_DAT);

        assertThatThrownBy(() -> new FileMixedMetaManager(dataDir, NEVER).start())
                .isInstanceOf(MetaManagerException.class)
                .hasMessageContaining(copied.toString())
                .hasMessageContaining("belongs to destination 'example'");
    }

    @Test
    void fileWrittenByFastjson1Loads() throws IOException {
        // Canal <= 1.1.5: same shape, IP literal address, null gtid omitted
        String fastjson1 = "{\"clientDatas\":[{\"clientIdentity\":{\"clientId\":1001,\"destination\":\"example\","
                + "\"filter\":\"\"},\"cursor\":{\"identity\":{\"slaveId\":-1,\"sourceAddress\":{\"address\":"
                + "\"127.0.0.1\",\"port\":3306}},\"postion\":{\"included\":false,\"journalName\":\"mysql-bin.000003\","
                + "\"position\":4567,\"serverId\":1,\"timestamp\":1600000000000}}}],\"destination\":\"example\"}";
        Files.createDirectories(metaDat().getParent());
        Files.writeString(metaDat(), fastjson1);

        FileMixedMetaManager meta = startManager(NEVER);

        assertThat(meta.listAllSubscribeInfo("example")).containsExactly(CLIENT);
        LogPosition cursor = meta.getCursor(CLIENT);
        assertThat(cursor.identity().address()).isEqualTo("127.0.0.1");
        assertThat(cursor.position().journalName()).isEqualTo("mysql-bin.000003");
        assertThat(cursor.position().position()).isEqualTo(4567L);
        assertThat(cursor.position().gtid()).isNull();
    }

    @Test
    void everyFlushLogsCanalsMetaLogLineUnderTheDestination() {
        List<ILoggingEvent> logged;
        try (LogCapture logs = LogCapture.attach(FileMixedMetaManager.class.getName())) {
            FileMixedMetaManager meta = startManager(NEVER);
            meta.subscribe(CLIENT);
            meta.updateCursor(CLIENT, at(1234));
            meta.stop();
            logged = logs.events();
        }

        ILoggingEvent line = logged.get(logged.size() - 1);
        assertThat(line.getFormattedMessage())
                .startsWith("clientId:1001 cursor:[mysql-bin.000001,1234,1700000000000,1,] address[localhost/")
                .endsWith(":3306]");
        assertThat(line.getMDCPropertyMap()).containsEntry("destination", "example");
    }
}
