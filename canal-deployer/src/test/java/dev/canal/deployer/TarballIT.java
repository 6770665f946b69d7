package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.UnpackedTarball;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged server as a user runs it: the tarball unpacked, conf pointed at a real database, bin/startup.sh,
 * the official Canal client receiving rows, bin/stop.sh flushing meta.dat, and a restart that resumes from the
 * acked cursor without losing a row written while the server was down.
 */
@ExtendWith(MySqlServerExtension.class)
class TarballIT {

    private static final String SCHEMA = "deployer_it";
    private static final Duration START_WAIT = Duration.ofSeconds(90);

    @TempDir
    Path home;

    private UnpackedTarball canal;
    private int port;
    private int metricsPort;

    @AfterEach
    void stopServer() throws Exception {
        if (canal != null && Files.exists(canal.pidFile())) {
            canal.run("stop.sh");
        }
    }

    @Test
    void startupStopAndRestartResumeWithoutLosingRows(MySqlServer db) throws Exception {
        canal = UnpackedTarball.unpack(UnpackedTarball.built(Path.of("target"), "canal-deployer-.*\\.tar\\.gz"), home);
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        configure(db, start);

        startServer();
        insert(db, 1, 5);
        Set<Integer> received = new TreeSet<>(receiveAtLeast(IntStream.rangeClosed(1, 5).boxed().toList()));
        assertThat(Exposition.scrape(metricsPort).value("canal_instance_ack_rows", "example"))
                .as("acked rows exported by the packaged server").isGreaterThanOrEqualTo(5);
        assertThat(canal.run("stop.sh").status()).isZero();
        assertThat(canal.pidFile()).doesNotExist();
        assertThat(home.resolve("conf/example/meta.dat")).as("meta.dat; server log:%n%s", canal.logs()).content()
                .contains("\"clientId\":1001", "\"journalName\":\"" + start.file() + "\"");

        insert(db, 6, 10); // written while no server runs
        startServer();
        List<Integer> afterRestart = receiveAtLeast(IntStream.rangeClosed(6, 10).boxed().toList());
        received.addAll(afterRestart);

        // resumed from the acked cursor in meta.dat, not from the configured start position
        assertThat(afterRestart).doesNotContainAnyElementsOf(IntStream.rangeClosed(1, 5).boxed().toList());
        assertThat(received).containsExactlyElementsOf(IntStream.rangeClosed(1, 10).boxed().toList());
    }

    private void configure(MySqlServer db, MySqlServer.BinlogCoordinates start) throws IOException {
        port = TcpPorts.free();
        metricsPort = TcpPorts.free();
        canal.edit("conf/canal.properties", text -> text
                .replace("canal.port = 11111", "canal.port = " + port)
                .replace("canal.metrics.pull.port = 11112", "canal.metrics.pull.port = " + metricsPort)
                .replace("canal.file.flush.period = 1000", "canal.file.flush.period = 200")
                .replace("canal.auto.scan = true", "canal.auto.scan = false"));
        canal.edit("conf/example/instance.properties", text -> text
                .replace("canal.instance.master.address = 127.0.0.1:3306",
                        "canal.instance.master.address = " + db.host() + ":" + db.port())
                .replace("canal.instance.master.journal.name =", "canal.instance.master.journal.name = " + start.file())
                .replace("canal.instance.master.position =", "canal.instance.master.position = " + start.position())
                .replace("canal.instance.dbUsername = canal", "canal.instance.dbUsername = " + db.replicationUser())
                .replace("canal.instance.dbPassword = canal", "canal.instance.dbPassword = " + db.replicationPassword())
                .replace("canal.instance.filter.regex = .*\\\\..*", "canal.instance.filter.regex = " + SCHEMA + "\\\\..*"));
    }

    private void startServer() throws Exception {
        assertThat(canal.run("startup.sh").status()).isZero();
        await().atMost(START_WAIT).pollInterval(Duration.ofMillis(300)).until(() -> TcpPorts.isListening(port));
    }

    /** Reads and acks batches until every wanted id arrived; returns every id seen (re-delivery allowed). */
    private List<Integer> receiveAtLeast(List<Integer> wanted) {
        CanalConnector connector = CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", port),
                "example", "", "");
        List<Integer> ids = new ArrayList<>();
        connector.connect();
        try {
            connector.subscribe(SCHEMA + "\\..*");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!ids.containsAll(wanted) && System.nanoTime() < deadline) {
                Message message = connector.getWithoutAck(100, 500L, TimeUnit.MILLISECONDS);
                for (CanalEntry.Entry entry : message.getEntries()) {
                    ids.addAll(insertedIds(entry));
                }
                if (message.getId() != -1) {
                    connector.ack(message.getId());
                }
            }
            // The official client sends acks without waiting for an answer; one answered request after them
            // makes sure the server applied them before we disconnect (canal-server drops requests still
            // queued when a connection closes, which Canal does not: reported to its owner).
            connector.getWithoutAck(1, 100L, TimeUnit.MILLISECONDS);
        } finally {
            connector.disconnect();
        }
        assertThat(ids).as("ids received; server log:%n%s", canal.logs()).containsAll(wanted);
        return ids;
    }

    private static List<Integer> insertedIds(CanalEntry.Entry entry) {
        if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
            return List.of();
        }
        try {
            CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            if (change.getEventType() != CanalEntry.EventType.INSERT) {
                return List.of();
            }
            return change.getRowDatasList().stream()
                    .flatMap(row -> row.getAfterColumnsList().stream())
                    .filter(column -> column.getName().equals("id"))
                    .map(column -> Integer.parseInt(column.getValue()))
                    .toList();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable row change in " + entry.getHeader(), e);
        }
    }

    private static void insert(MySqlServer db, int from, int to) {
        for (int id = from; id <= to; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }
    }
}
