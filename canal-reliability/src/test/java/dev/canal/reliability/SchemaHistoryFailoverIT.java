package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.testsupport.MySqlServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import dev.canal.testsupport.ZooKeeperServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two packaged daemons behind a real ZooKeeper (curator-test's server in this JVM), cursors in ZooKeeper
 * (default-instance.xml), the schema history in a shared database (canal.instance.tsdb.url). The active daemon is
 * killed with SIGKILL while the client's acked cursor is before an ADD COLUMN and a DROP COLUMN, with rows on every
 * side of them; the daemon that takes over delivers every row from the cursor on with the columns the table had
 * at that row. The source is MariaDB, which logs no full row metadata, so the columns can only come from the
 * history (docs/compatibility.md, "Schema history").
 */
class SchemaHistoryFailoverIT extends DaemonScenario {

    private static final String SCHEMA = "rel_tsdb_failover";
    private static final String HISTORY = "rel_tsdb_history";
    private static final String FILTER = SCHEMA + "\\..*";
    private static final String ZK_DESTINATION = "/otter/canal/destinations/" + CanalDaemon.DESTINATION;
    private static final Pattern CURSOR_OFFSET = Pattern.compile("\"position\":(\\d+)");

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
    void theServerTakingOverDeliversEveryRowWithTheColumnsTrueAtItsPosition(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.recreateDatabase(HISTORY);
        db.execute("GRANT ALL ON `" + HISTORY + "`.* TO '" + db.replicationUser() + "'@'%'",
                "CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, a VARCHAR(20))");
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        zooKeeper = ZooKeeperServer.start();

        daemon = clusterMember("first", db, start);
        daemon.start();
        daemon.awaitOrShowLogs("the first daemon runs the destination", Duration.ofSeconds(60),
                () -> runningPort().orElse(-1) == daemon.port);
        standby = clusterMember("second", db, start);
        standby.start();

        insert(db, 1, 3, "INSERT INTO " + SCHEMA + ".t (id, a) VALUES (%d, 'a%d')");
        CanalConnector first = CheckingConsumer.connector(daemon.port);
        first.connect();
        first.subscribe(FILTER);
        Map<Integer, Map<String, String>> acked = new TreeMap<>();
        long ackedOffset = receive(daemon, first, acked, 3, true);
        CheckingConsumer.syncAcks(first, FILTER);
        daemon.awaitOrShowLogs("the acked cursor reaches ZooKeeper", Duration.ofSeconds(30),
                () -> zooKeeperCursorOffset() >= ackedOffset);

        insert(db, 4, 6, "INSERT INTO " + SCHEMA + ".t (id, a) VALUES (%d, 'a%d')");
        db.execute("ALTER TABLE " + SCHEMA + ".t ADD COLUMN c INT");
        insert(db, 7, 9, "INSERT INTO " + SCHEMA + ".t (id, a, c) VALUES (%d, 'a%d', %1$d)");
        db.execute("ALTER TABLE " + SCHEMA + ".t DROP COLUMN a");
        insert(db, 10, 12, "INSERT INTO " + SCHEMA + ".t (id, c) VALUES (%d, %1$d)");
        Map<Integer, Map<String, String>> seenByFirst = new TreeMap<>();
        receive(daemon, first, seenByFirst, 9, false); // read, never acked: the cursor stays before both ALTERs
        assertThat(seenByFirst.keySet()).containsExactly(4, 5, 6, 7, 8, 9, 10, 11, 12);
        daemon.awaitOrShowLogs("the first daemon records both ALTERs in the shared history", Duration.ofSeconds(30),
                () -> recordedDdl(db) == 2);

        daemon.kill9();
        standby.awaitOrShowLogs("the second daemon takes the destination over", Duration.ofSeconds(90),
                () -> runningPort().orElse(-1) == standby.port);

        CanalConnector second = CheckingConsumer.connector(standby.port);
        second.connect();
        second.subscribe(FILTER);
        Map<Integer, Map<String, String>> afterFailover = new TreeMap<>();
        receive(standby, second, afterFailover, 9, true);
        second.disconnect();

        assertThat(afterFailover.keySet()).as("every row after the acked cursor, none before")
                .containsExactly(4, 5, 6, 7, 8, 9, 10, 11, 12);
        for (int id = 4; id <= 12; id++) {
            Map<String, String> expected = new LinkedHashMap<>();
            expected.put("id", Integer.toString(id));
            if (id <= 9) {
                expected.put("a", "a" + id);
            }
            if (id >= 7) {
                expected.put("c", Integer.toString(id));
            }
            assertThat(afterFailover.get(id)).as("row %d: columns and values at its position; logs:%n%s", id,
                    standby.logs()).containsExactlyEntriesOf(expected);
        }
        assertThat(standby.logs()).doesNotContain("is not in the schema history");
    }

    /** A daemon of the tarball in its own folder, electing through the shared ZooKeeper, history in the database. */
    private CanalDaemon clusterMember(String name, MySqlServer db, MySqlServer.BinlogCoordinates start)
            throws Exception {
        CanalDaemon member = CanalDaemon.unpack(Files.createDirectories(home.resolve(name)), db, db.host(), db.port(),
                SCHEMA, start);
        member.set("conf/canal.properties", "canal.zkServers", zooKeeper.connectString());
        member.set("conf/canal.properties", "canal.register.ip", "127.0.0.1");
        member.set("conf/canal.properties", "canal.zookeeper.flush.period", "100");
        member.set("conf/canal.properties", "canal.instance.global.spring.xml", "classpath:spring/default-instance.xml");
        member.set("conf/canal.properties", "canal.instance.tsdb.url",
                "jdbc:mysql://" + db.host() + ":" + db.port() + "/" + HISTORY + "?useSSL=false");
        member.set("conf/canal.properties", "canal.instance.tsdb.dbUsername", db.replicationUser());
        member.set("conf/canal.properties", "canal.instance.tsdb.dbPassword", db.replicationPassword());
        member.set("conf/canal.properties", "canal.instance.tsdb.spring.xml", "classpath:spring/tsdb/mysql-tsdb.xml");
        return member;
    }

    private static void insert(MySqlServer db, int from, int to, String format) {
        for (int id = from; id <= to; id++) {
            db.execute(String.format(format, id, id));
        }
    }

    /**
     * Reads inserted rows of {@code t} into {@code rows} (id -> column name -> value, in column order) until it has
     * {@code count} of them; acks each batch if asked. Returns the binlog offset of the last entry read. Fails with
     * the daemon's logs when the rows do not come.
     */
    private static long receive(CanalDaemon from, CanalConnector connector, Map<Integer, Map<String, String>> rows,
            int count, boolean ack) {
        long[] lastOffset = {0};
        from.awaitOrShowLogs(count + " rows from port " + from.port, Duration.ofSeconds(60), () -> {
            Message message = connector.getWithoutAck(100, 200L, TimeUnit.MILLISECONDS);
            for (CanalEntry.Entry entry : message.getEntries()) {
                lastOffset[0] = entry.getHeader().getLogfileOffset();
                if (entry.getEntryType() == CanalEntry.EntryType.ROWDATA) {
                    rows(entry, rows);
                }
            }
            if (ack && message.getId() != -1) {
                connector.ack(message.getId());
            }
            return rows.size() >= count;
        });
        return lastOffset[0];
    }

    private static void rows(CanalEntry.Entry entry, Map<Integer, Map<String, String>> rows) {
        CanalEntry.RowChange change;
        try {
            change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable row change in " + entry.getHeader(), e);
        }
        if (change.getEventType() != CanalEntry.EventType.INSERT) {
            return;
        }
        for (CanalEntry.RowData row : change.getRowDatasList()) {
            Map<String, String> columns = new LinkedHashMap<>();
            row.getAfterColumnsList().forEach(c -> columns.put(c.getName(), c.getIsNull() ? null : c.getValue()));
            rows.put(Integer.parseInt(columns.get("id")), columns);
        }
    }

    private Optional<Integer> runningPort() throws Exception {
        String running = zooKeeperData(ZK_DESTINATION + "/running");
        Matcher port = Pattern.compile(":(\\d+)\"").matcher(running == null ? "" : running);
        return port.find() ? Optional.of(Integer.parseInt(port.group(1))) : Optional.empty();
    }

    private long zooKeeperCursorOffset() throws Exception {
        String cursor = zooKeeperData(ZK_DESTINATION + "/1001/cursor");
        Matcher offset = CURSOR_OFFSET.matcher(cursor == null ? "" : cursor);
        return offset.find() ? Long.parseLong(offset.group(1)) : -1;
    }

    private String zooKeeperData(String path) throws Exception {
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zooKeeper.connectString(), new RetryOneTime(100))) {
            zk.start();
            if (zk.checkExists().forPath(path) == null) {
                return null;
            }
            return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
        }
    }

    private static int recordedDdl(MySqlServer db) throws Exception {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + HISTORY + ".meta_history WHERE destination = '"
                        + CanalDaemon.DESTINATION + "' AND sql_text LIKE 'ALTER%'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
