package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.alibaba.otter.canal.protocol.exception.CanalClientException;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.TcpPorts;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Named consumers of one destination (docs/consumers.md) with the unmodified official client against the real
 * database: each consumer subscribes as {@code destination@name} and gets every row once it acks it, in order, at
 * its own pace, while the source serves a single binlog dump.
 */
@ExtendWith(MySqlServerExtension.class)
class ConsumersIT {

    private static final String SCHEMA = "deployer_consumers";
    private static final int ROWS = 300;

    @TempDir
    Path conf;

    @AutoClose("stop")
    private CanalController controller;

    @Test
    void threeConsumersAtTheirOwnPaceEachReceiveEveryRowOnceInOrderOverOneBinlogDump(MySqlServer db) throws Exception {
        String destination = "shared";
        start(db, destination);
        for (String name : List.of(destination, destination + "@fast", destination + "@audit")) {
            CanalConnector first = connect(name); // every consumer starts before the first row
            first.subscribe();
            first.disconnect();
        }
        writeRows(db, 1, ROWS);

        CompletableFuture<List<Integer>> fast = CompletableFuture.supplyAsync(
                () -> consume(destination + "@fast", 500, 0, false, ROWS));
        CompletableFuture<List<Integer>> slowRollingBack = CompletableFuture.supplyAsync(
                () -> consume(destination + "@audit", 7, 5, true, ROWS));
        List<Integer> restartedFirstHalf = consume(destination, 20, 0, false, ROWS / 2);
        abandonAnUnackedBatch(destination);
        List<Integer> restartedRest = consume(destination, 20, 0, false, ROWS - restartedFirstHalf.size());

        List<Integer> all = IntStream.rangeClosed(1, ROWS).boxed().toList();
        assertThat(fast.get(120, TimeUnit.SECONDS)).containsExactlyElementsOf(all);
        assertThat(slowRollingBack.get(120, TimeUnit.SECONDS)).containsExactlyElementsOf(all);
        List<Integer> restarted = new ArrayList<>(restartedFirstHalf);
        restarted.addAll(restartedRest);
        assertThat(restarted).containsExactlyElementsOf(all);
        assertThat(binlogDumpThreads(db)).as("replication connections the source serves").isEqualTo(1);
    }

    @Test
    void aConsumerStuckBehindTheStoreIsDetachedAndToldWhileTheOthersReceiveEverything(MySqlServer db)
            throws Exception {
        String destination = "bounded";
        int metricsPort = TcpPorts.free();
        start(db, destination, "canal.instance.memory.buffer.size", "64",
                "canal.instance.memory.batch.mode", "ITEMSIZE",
                "canal.instance.consumer.detach.timeout", "1000",
                "canal.metrics.pull.port", String.valueOf(metricsPort));
        CanalConnector stuck = connect(destination + "@stuck");
        stuck.subscribe();
        CanalConnector fastSubscribed = connect(destination + "@fast");
        fastSubscribed.subscribe();
        fastSubscribed.disconnect();
        writeRows(db, 1, ROWS);
        Message held = stuck.getWithoutAck(10, 5L, TimeUnit.SECONDS); // taken, never acked

        List<Integer> fast = consume(destination + "@fast", 50, 0, false, ROWS);

        assertThat(held.getId()).isPositive();
        assertThat(fast).containsExactlyElementsOf(IntStream.rangeClosed(1, ROWS).boxed().toList());
        assertThatThrownBy(() -> stuck.getWithoutAck(10, 1L, TimeUnit.SECONDS))
                .isInstanceOf(CanalClientException.class)
                .hasStackTraceContaining("consumer stuck was detached");
        stuck.disconnect();
        Exposition metrics = Exposition.scrape(metricsPort);
        assertThat(metrics.consumerValue("canal_instance_consumer_detached", destination + "@stuck")).isEqualTo(1);
        assertThat(metrics.consumerValue("canal_instance_consumer_detached", destination + "@fast")).isEqualTo(0);
        assertThat(metrics.consumerValue("canal_instance_consumer_lag_entries", destination + "@stuck"))
                .as("entries the stuck consumer never acked").isGreaterThan(ROWS);
    }

    private void start(MySqlServer db, String destination, String... keyValues) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("USE " + SCHEMA, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
        RealSourceConf.writeInstance(conf, destination, db, SCHEMA);
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, destination, keyValues));
    }

    private static void writeRows(MySqlServer db, int from, int to) throws SQLException {
        try (Connection c = db.adminConnection(); Statement s = c.createStatement()) {
            for (int id = from; id <= to; id++) {
                s.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
            }
        }
    }

    private CanalConnector connect(String subscribedName) {
        CanalConnector connector = CanalConnectors.newSingleConnector(
                new InetSocketAddress("127.0.0.1", controller.port()), subscribedName, "", "");
        connector.connect();
        return connector;
    }

    /** Takes a batch without acking it and goes away: the next connection gets it again. */
    private void abandonAnUnackedBatch(String subscribedName) {
        CanalConnector connector = connect(subscribedName);
        connector.subscribe();
        connector.getWithoutAck(10, 2L, TimeUnit.SECONDS);
        connector.disconnect();
    }

    /**
     * Subscribes with a fresh official client and reads until {@code wanted} inserted ids arrived, acking each
     * batch; with {@code rollingBack}, every third batch is rolled back once (its ids not counted) before it is
     * taken again. Returns the ids of acked batches in arrival order.
     */
    private List<Integer> consume(String subscribedName, int batchSize, long pauseMillis, boolean rollingBack,
            int wanted) {
        CanalConnector connector = connect(subscribedName);
        try {
            connector.subscribe();
            List<Integer> ids = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            int batches = 0;
            while (ids.size() < wanted && System.nanoTime() < deadline) {
                Message message = connector.getWithoutAck(batchSize, 500L, TimeUnit.MILLISECONDS);
                if (message.getId() == -1) {
                    continue;
                }
                if (rollingBack && ++batches % 3 == 0) {
                    connector.rollback(message.getId());
                    continue;
                }
                ids.addAll(insertedIds(message));
                connector.ack(message.getId());
                sleep(pauseMillis);
            }
            return ids;
        } finally {
            connector.disconnect();
        }
    }

    private static List<Integer> insertedIds(Message message) {
        List<Integer> ids = new ArrayList<>();
        for (CanalEntry.Entry entry : message.getEntries()) {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                continue;
            }
            CanalEntry.RowChange change;
            try {
                change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
            }
            if (change.getEventType() != CanalEntry.EventType.INSERT) {
                continue;
            }
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                row.getAfterColumnsList().stream().filter(c -> c.getName().equals("id"))
                        .forEach(c -> ids.add(Integer.parseInt(c.getValue())));
            }
        }
        return ids;
    }

    private static int binlogDumpThreads(MySqlServer db) throws SQLException {
        try (Connection c = db.adminConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                        + " WHERE COMMAND LIKE 'Binlog Dump%'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
