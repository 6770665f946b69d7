package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringReader;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An initial snapshot (docs/snapshots.md) survives the death of the packaged daemon that takes it: a table is
 * copied while a writer keeps updating, deleting and inserting in it, the daemon is killed with SIGKILL in the
 * middle of the copy, and either restarted (file meta) or replaced by a standby behind ZooKeeper that resumes
 * from the progress kept there; the official client, applying everything by primary key, ends equal to the table.
 * The table has 30,000 rows unless {@code -Dsnapshot.it.rows} says otherwise ({@code bench/snapshot-1m.sh}).
 */
class SnapshotKillIT extends DaemonScenario {

    private static final String SCHEMA = "rel_snapshot_kill";
    private static final int ROWS = Integer.getInteger("snapshot.it.rows", 30_000);
    private static final String ZK_DESTINATION = "/otter/canal/destinations/" + CanalDaemon.DESTINATION;
    /** The copy takes about 5 s of throttled reading (see snapshotSettings) plus the source's time to serve it. */
    private static final Duration SNAPSHOT_WAIT = Duration.ofSeconds(180 + ROWS / 2_000);

    private ZooKeeperServer zooKeeper;
    private CanalDaemon standby;

    @AfterEach
    void stopStandbyAndZooKeeper() throws Exception {
        if (standby != null) {
            standby.stop();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void aDaemonKilledMidSnapshotResumesAfterRestartAndTheConsumerEndsEqualToTheTable(MySqlServer db)
            throws Exception {
        KeyedTable table = new KeyedTable(db, SCHEMA);
        MySqlServer.BinlogCoordinates start = table.fill(ROWS);
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, start);
        snapshotSettings(daemon);
        Path progress = home.resolve("conf").resolve(CanalDaemon.DESTINATION).resolve("snapshot.properties");
        Callable<String> progressText = () -> Files.isRegularFile(progress) ? Files.readString(progress) : "";
        daemon.start();

        try (ChangingWriter writer = new ChangingWriter(db, SCHEMA, ROWS);
                KeyedTableConsumer consumer = new KeyedTableConsumer(SCHEMA, daemon.port)) {
            daemon.awaitOrShowLogs("a part of the table copied", SNAPSHOT_WAIT,
                    () -> consumer.snapshotRows() >= ROWS / 4);
            assertThat(tableDone(progressText.call(), SCHEMA + ".t")).as("killed before the copy of t ended").isNull();
            daemon.kill9();
            daemon.start();
            daemon.awaitOrShowLogs("the snapshot done after the restart", SNAPSHOT_WAIT,
                    () -> allDone(progressText.call()));
            assertThat(daemon.logs()).contains("snapshot of " + SCHEMA + ".t resumes after key");
            writer.close();
            assertThat(writer.statements()).as("the writer ran during the snapshot").isPositive();
            table.catchUp(1, daemon, consumer);
            assertThat(consumer.table("t")).isEqualTo(table.selectAll());
        }
    }

    @Test
    void theStandbyTakingOverMidSnapshotResumesFromZooKeeperAndTheConsumerEndsEqualToTheTable(MySqlServer db)
            throws Exception {
        KeyedTable table = new KeyedTable(db, SCHEMA);
        MySqlServer.BinlogCoordinates start = table.fill(ROWS);
        zooKeeper = ZooKeeperServer.start();
        daemon = clusterMember("first", db, start);
        daemon.start();
        daemon.awaitOrShowLogs("the first daemon runs the destination", Duration.ofSeconds(60),
                () -> runningPort() == daemon.port);
        standby = clusterMember("second", db, start);
        standby.start();

        try (ChangingWriter writer = new ChangingWriter(db, SCHEMA, ROWS);
                KeyedTableConsumer consumer = new KeyedTableConsumer(SCHEMA, daemon.port, standby.port)) {
            daemon.awaitOrShowLogs("a part of the table copied", SNAPSHOT_WAIT,
                    () -> consumer.snapshotRows() >= ROWS / 4);
            assertThat(tableDone(zooKeeperData(ZK_DESTINATION + "/snapshot"), SCHEMA + ".t"))
                    .as("killed before the copy of t ended").isNull();
            daemon.kill9();
            standby.awaitOrShowLogs("the standby takes over and finishes the snapshot", SNAPSHOT_WAIT,
                    () -> runningPort() == standby.port
                            && allDone(zooKeeperData(ZK_DESTINATION + "/snapshot")));
            assertThat(standby.logs()).contains("snapshot of " + SCHEMA + ".t resumes after key");
            writer.close();
            table.catchUp(1, standby, consumer);
            assertThat(consumer.table("t")).isEqualTo(table.selectAll());
        }
    }

    /**
     * An initial snapshot throttled to a fifth of the table per second, in chunks of a sixtieth of that (500 rows
     * of 30,000): a copy of some 5 s, long enough to be killed in.
     */
    private static void snapshotSettings(CanalDaemon member) throws Exception {
        member.edit("conf/example/instance.properties", text -> text + "\ncanal.instance.snapshot.mode = initial\n"
                + "canal.instance.snapshot.chunk.size = " + Math.max(500, ROWS / 60) + "\n"
                + "canal.instance.snapshot.rows.per.second = " + ROWS / 5 + "\n");
    }

    private CanalDaemon clusterMember(String name, MySqlServer db, MySqlServer.BinlogCoordinates start)
            throws Exception {
        CanalDaemon member = CanalDaemon.unpack(Files.createDirectories(home.resolve(name)), db, db.host(), db.port(),
                SCHEMA, start);
        member.set("conf/canal.properties", "canal.zkServers", zooKeeper.connectString());
        member.set("conf/canal.properties", "canal.register.ip", "127.0.0.1");
        member.set("conf/canal.properties", "canal.zookeeper.flush.period", "100");
        member.set("conf/canal.properties", "canal.instance.global.spring.xml", "classpath:spring/default-instance.xml");
        snapshotSettings(member);
        return member;
    }

    /**
     * Whether the stored progress has every requested table done (a restart drops the tables whose completion a
     * client acknowledged: an empty list after the initial request is done too).
     */
    private static boolean allDone(String progress) throws java.io.IOException {
        if (progress == null || progress.isEmpty()) {
            return false;
        }
        Properties p = new Properties();
        p.load(new StringReader(progress));
        int tables = Integer.parseInt(p.getProperty("tables", "0"));
        for (int i = 0; i < tables; i++) {
            if (p.getProperty("table." + i + ".done") == null) {
                return false;
            }
        }
        return Boolean.parseBoolean(p.getProperty("initial.requested"));
    }

    private static String tableDone(String progress, String table) throws java.io.IOException {
        Properties p = new Properties();
        p.load(new StringReader(progress == null ? "" : progress));
        for (int i = 0; i < Integer.parseInt(p.getProperty("tables", "0")); i++) {
            if (table.equals(p.getProperty("table." + i))) {
                return p.getProperty("table." + i + ".done");
            }
        }
        return null;
    }

    private int runningPort() throws Exception {
        String running = zooKeeperData(ZK_DESTINATION + "/running");
        Matcher port = Pattern.compile(":(\\d+)\"").matcher(running == null ? "" : running);
        return port.find() ? Integer.parseInt(port.group(1)) : -1;
    }

    private String zooKeeperData(String path) throws Exception {
        try (CuratorFramework zk = zooKeeper.newClient()) {
            if (zk.checkExists().forPath(path) == null) {
                return null;
            }
            return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
        }
    }
}
