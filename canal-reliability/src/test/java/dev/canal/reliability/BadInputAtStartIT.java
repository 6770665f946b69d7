package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.UnpackedTarball;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 7 (docs/reliability.md): an invalid value in canal.properties or instance.properties stops start-up
 * with a message naming the file and the key; a corrupt meta.dat keeps its destination from starting (the
 * message names the file), is left byte for byte as it was, and no row is delivered from a reset position;
 * with the good meta.dat back, the stream resumes from its cursor.
 */
class BadInputAtStartIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(BadInputAtStartIT.class);
    private static final String SCHEMA = "rel_bad_input";
    private static final int ROWS = 5;

    @ParameterizedTest(name = "{0}: {1} = {2}")
    @CsvSource({
        "conf/canal.properties, canal.port, notaport",
        "conf/canal.properties, canal.instance.memory.buffer.size, 1000",
        "conf/example/instance.properties, canal.instance.master.address, 127.0.0.1:notaport",
        "conf/example/instance.properties, canal.instance.master.position, abc",
    })
    void invalidValueStopsStartupNamingFileAndKey(String file, String key, String value, MySqlServer db)
            throws Exception {
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set(file, key, value);
        UnpackedTarball.Run run = daemon.startInForeground(Duration.ofSeconds(45));
        assertThat(run.status()).as("exit status of startup.sh --foreground; output:%n%s", run.output())
                .isNotIn(0, -1);
        String fileName = Path.of(file).getFileName().toString();
        assertThat(run.output().lines().filter(line -> line.contains("not started")).toList())
                .as("the reason printed; output:%n%s", run.output())
                .anySatisfy(line -> assertThat(line).contains(fileName, key));
    }

    @Test
    void corruptMetaDatKeepsItsDestinationDownAndIsNeverReset(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 1, Duration.ZERO);
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.start();
        writer.writeNow(ROWS);
        List<ReceivedRow> received = new ArrayList<>();
        try (CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 0)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= ROWS);
            consumer.close();
            received.addAll(consumer.rows());
        }
        daemon.stop();
        byte[] good = Files.readAllBytes(daemon.metaFile());
        writer.writeNow(ROWS); // waiting behind the cursor while the meta file is broken

        List<UnaryOperator<byte[]>> corruptions = List.of(
                bytes -> Arrays.copyOf(bytes, bytes.length / 2),
                bytes -> new byte[0],
                bytes -> "\u0000\u00ff not json at all \u0001".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        for (UnaryOperator<byte[]> corruption : corruptions) {
            byte[] corrupt = corruption.apply(good);
            Files.write(daemon.metaFile(), corrupt);
            daemon.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> daemon.log("logs/canal/canal.log").contains("invalid meta file"));
            assertThat(daemon.log("logs/canal/canal.log")).as("the reason names the file").containsPattern(
                    "invalid meta file \\S*conf/example/meta\\.dat");
            assertThat(rowsOffered()).as("rows from a destination with a corrupt meta.dat").isEmpty();
            daemon.stop();
            assertThat(Files.readAllBytes(daemon.metaFile())).as("meta.dat left as it was").isEqualTo(corrupt);
            Files.writeString(daemon.home.resolve("logs/canal/canal.log"), ""); // the next corruption's reason is new
        }

        Files.write(daemon.metaFile(), good);
        daemon.start();
        try (CheckingConsumer consumer = new CheckingConsumer(daemon.port, SCHEMA, 1)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> consumer.distinctReceived() >= ROWS);
            consumer.close();
            assertThat(consumer.rows()).as("resumed from the cursor of the good meta.dat")
                    .extracting(ReceivedRow::id).containsExactly(6, 7, 8, 9, 10);
            received.addAll(consumer.rows());
        }
        DeliveryCheck check = DeliveryCheck.of(writer.committed(), received);
        ResultsTable.record("corrupt meta.dat (truncated, empty, garbage), then restored", 3, check, List.of());
        assertThat(check.lost()).as("%s", check).isZero();
    }

    /** What a client gets from the destination: nothing, or an error (logged), never rows. */
    private List<ReceivedRow> rowsOffered() {
        CanalConnector connector = CheckingConsumer.connector(daemon.port);
        List<ReceivedRow> rows = new ArrayList<>();
        try {
            connector.connect();
            connector.subscribe(SCHEMA + "\\..*");
            for (int i = 0; i < 5; i++) {
                Message message = connector.getWithoutAck(16, 300L, TimeUnit.MILLISECONDS);
                rows.addAll(CheckingConsumer.insertedRows(message, 0));
            }
        } catch (RuntimeException e) {
            log.info("a client of the destination with a corrupt meta.dat is refused: {}", e.getMessage());
        } finally {
            connector.disconnect();
        }
        return rows;
    }
}
