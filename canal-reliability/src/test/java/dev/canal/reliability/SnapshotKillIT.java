package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
        MySqlServer.BinlogCoordinates start = fill(db);
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, start);
        snapshotSettings(daemon);
        Path progress = home.resolve("conf").resolve(CanalDaemon.DESTINATION).resolve("snapshot.properties");
        Callable<String> progressText = () -> Files.isRegularFile(progress) ? Files.readString(progress) : "";
        daemon.start();

        try (ChangingWriter writer = new ChangingWriter(db);
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
            catchUp(db, daemon, consumer);
            assertThat(consumer.table("t")).isEqualTo(selectAll(db));
        }
    }

    @Test
    void theStandbyTakingOverMidSnapshotResumesFromZooKeeperAndTheConsumerEndsEqualToTheTable(MySqlServer db)
            throws Exception {
        MySqlServer.BinlogCoordinates start = fill(db);
        zooKeeper = ZooKeeperServer.start();
        daemon = clusterMember("first", db, start);
        daemon.start();
        daemon.awaitOrShowLogs("the first daemon runs the destination", Duration.ofSeconds(60),
                () -> runningPort() == daemon.port);
        standby = clusterMember("second", db, start);
        standby.start();

        try (ChangingWriter writer = new ChangingWriter(db);
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
            catchUp(db, standby, consumer);
            assertThat(consumer.table("t")).isEqualTo(selectAll(db));
        }
    }

    /** A table of {@link #ROWS} rows and an empty marker table; returns the binlog position after them. */
    private static MySqlServer.BinlogCoordinates fill(MySqlServer db) {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(40), n INT)",
                "CREATE TABLE " + SCHEMA + ".marker (id INT PRIMARY KEY)");
        for (int from = 1; from <= ROWS; from += 1000) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + SCHEMA + ".t VALUES ");
            for (int id = from; id < from + 1000; id++) {
                sql.append(id == from ? "" : ",").append('(').append(id).append(", 'row ").append(id).append("', ")
                        .append(id % 7 == 0 ? "NULL" : "0").append(')');
            }
            db.execute(sql.toString());
        }
        return db.currentBinlogPosition();
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

    /** Writes a marker row after the writer stopped and waits until the consumer applied it. */
    private static void catchUp(MySqlServer db, CanalDaemon from, KeyedTableConsumer consumer) {
        db.execute("INSERT INTO " + SCHEMA + ".marker VALUES (1)");
        from.awaitOrShowLogs("the marker row after the writer's last change", Duration.ofSeconds(60),
                () -> consumer.table("marker").containsKey("1"));
    }

    private static Map<String, Map<String, String>> selectAll(MySqlServer db) {
        return db.rowsByKey("SELECT id, v, n FROM " + SCHEMA + ".t");
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

    /** Updates (the key too), deletes and re-inserts rows of t at random until closed. */
    private static final class ChangingWriter implements AutoCloseable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong statements = new AtomicLong();
        private final Thread thread;
        private final MySqlServer db;

        ChangingWriter(MySqlServer db) {
            this.db = db;
            this.thread = new Thread(this::write, "snapshot-kill-writer");
            thread.setDaemon(true);
            thread.start();
        }

        private void write() {
            Random random = new Random(21);
            try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
                while (running.get()) {
                    int id = 1 + random.nextInt(ROWS + ROWS / 10);
                    st.execute(switch (random.nextInt(4)) {
                        case 0 -> "UPDATE " + SCHEMA + ".t SET n = n + 1, v = 'u" + random.nextInt() + "' WHERE id = " + id;
                        case 1 -> "DELETE FROM " + SCHEMA + ".t WHERE id = " + id;
                        case 2 -> "UPDATE IGNORE " + SCHEMA + ".t SET id = " + (ROWS + 1 + random.nextInt(ROWS / 10))
                                + " WHERE id = " + id;
                        default -> "REPLACE INTO " + SCHEMA + ".t VALUES (" + id + ", 'i', 1)";
                    });
                    statements.incrementAndGet();
                    TimeUnit.MILLISECONDS.sleep(2);
                }
            } catch (Exception e) {
                throw new IllegalStateException("the writer failed", e);
            }
        }

        long statements() {
            return statements.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
