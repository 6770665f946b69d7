package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.ZooKeeperServer;
import dev.canal.testsupport.ZooKeeperServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two launchers behind ZooKeeper serve one destination read from the real database; two named consumers
 * (docs/consumers.md) read through the official cluster connector at different places. When the active launcher
 * stops, the other takes over from the consumers' cursors in ZooKeeper and each consumer continues exactly after
 * the last row it acked.
 */
@ExtendWith({MySqlServerExtension.class, ZooKeeperServerExtension.class})
class ConsumersFailoverIT {

    private static final String SCHEMA = "deployer_consumers_ha";
    private static final String DESTINATION = "ha";

    @TempDir
    Path home;

    private final List<CanalController> controllers = new ArrayList<>();
    private final List<CanalConnector> connectors = new ArrayList<>();

    @AfterEach
    void stopAll() {
        connectors.forEach(CanalConnector::disconnect);
        controllers.forEach(CanalController::stop);
    }

    @Test
    void failoverKeepsEveryConsumersCursor(MySqlServer db, ZooKeeperServer zooKeeper) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("USE " + SCHEMA, "CREATE TABLE t (id INT PRIMARY KEY)");
        Path firstConf = Files.createDirectories(home.resolve("first"));
        Path secondConf = Files.createDirectories(home.resolve("second"));
        RealSourceConf.writeInstance(firstConf, DESTINATION, db, SCHEMA);
        Files.copy(firstConf.resolve(DESTINATION).resolve("instance.properties"),
                Files.createDirectories(secondConf.resolve(DESTINATION)).resolve("instance.properties"));
        CanalController first = launch(firstConf, zooKeeper);
        CanalController second = launch(secondConf, zooKeeper);
        await().atMost(Duration.ofSeconds(30)).until(() -> active() != null);
        CanalController active = active();

        CanalConnector ahead = subscribe(zooKeeper, DESTINATION + "@ahead");
        CanalConnector behind = subscribe(zooKeeper, DESTINATION + "@behind");
        writeRows(db, 1, 100);
        List<Integer> aheadIds = read(ahead, 100);
        List<Integer> behindIds = read(behind, 40);

        active.stop();
        CanalController standby = active == first ? second : first;
        await().atMost(Duration.ofSeconds(60)).until(() -> standby.server().isStart(DESTINATION));
        writeRows(db, 101, 150);
        aheadIds.addAll(read(ahead, 50));
        behindIds.addAll(read(behind, 150 - behindIds.size()));

        List<Integer> all = IntStream.rangeClosed(1, 150).boxed().toList();
        assertThat(aheadIds).containsExactlyElementsOf(all);
        assertThat(behindIds).containsExactlyElementsOf(all);
    }

    private CanalController active() {
        return controllers.stream().filter(c -> c.isRunning() && c.server().isStart(DESTINATION)).findFirst()
                .orElse(null);
    }

    private CanalController launch(Path conf, ZooKeeperServer zooKeeper) {
        CanalController controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.register.ip", "127.0.0.1",
                "canal.zkServers", zooKeeper.connectString(),
                "canal.instance.global.spring.xml", "classpath:spring/default-instance.xml",
                "canal.instance.memory.batch.mode", "ITEMSIZE"));
        controllers.add(controller);
        return controller;
    }

    private CanalConnector subscribe(ZooKeeperServer zooKeeper, String subscribedName) {
        CanalConnector connector = CanalConnectors.newClusterConnector(zooKeeper.connectString(), subscribedName,
                "", "");
        connectors.add(connector);
        connector.connect();
        connector.subscribe();
        return connector;
    }

    private static void writeRows(MySqlServer db, int from, int to) throws SQLException {
        try (Connection c = db.adminConnection(); Statement s = c.createStatement()) {
            for (int id = from; id <= to; id++) {
                s.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ")");
            }
        }
    }

    /**
     * Reads and acks batches of at most 10 entries until at least {@code wanted} inserted ids arrived and the last
     * batch ended with a transaction end, so that the acked cursor lies after the last row read.
     */
    private static List<Integer> read(CanalConnector connector, int wanted) throws Exception {
        List<Integer> ids = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        boolean atBoundary = true;
        while ((ids.size() < wanted || !atBoundary) && System.nanoTime() < deadline) {
            Message message = connector.getWithoutAck(10, 500L, TimeUnit.MILLISECONDS);
            if (message.getId() == -1) {
                continue;
            }
            List<CanalEntry.Entry> entries = message.getEntries();
            atBoundary = entries.get(entries.size() - 1).getEntryType() == CanalEntry.EntryType.TRANSACTIONEND;
            for (CanalEntry.Entry entry : entries) {
                if (entry.getEntryType() == CanalEntry.EntryType.ROWDATA) {
                    CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
                    if (change.getEventType() == CanalEntry.EventType.INSERT) {
                        change.getRowDatasList().forEach(row -> ids.add(
                                Integer.parseInt(row.getAfterColumns(0).getValue())));
                    }
                }
            }
            connector.ack(message.getId());
        }
        return ids;
    }
}
