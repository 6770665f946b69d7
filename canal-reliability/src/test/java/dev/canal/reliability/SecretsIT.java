package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.AdminPacket;
import com.alibaba.otter.canal.protocol.CanalEntry.EntryType;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.ByteString;
import dev.canal.server.netty.AuthScramble;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.ZooKeeperServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged daemon started with distinctive passwords for the source, the clients, the admin port, a broker and
 * the schema-history database, cursors in ZooKeeper; then driven through failures (a wrong client password, a wrong
 * admin password, a destination whose source refuses its password). No password, and no password hash that is a
 * credential itself, appears in any log, meta.dat, ZooKeeper node, history table or metric (docs/security.md).
 */
class SecretsIT extends DaemonScenario {

    private static final String SCHEMA = "rel_secrets";
    private static final String HISTORY = "rel_secrets_history";
    private static final String SOURCE_USER = "rel_secret_src";
    private static final String SOURCE_SECRET = "Src-Secret-7Q4w";
    private static final String BROKEN_SOURCE_SECRET = "Bad-Src-Secret-3Kp8";
    private static final String HISTORY_USER = "rel_secret_tsdb";
    private static final String HISTORY_SECRET = "Tsdb-Secret-5Hn1";
    private static final String CLIENT_SECRET = "Cli-Secret-9Zx2";
    private static final String ADMIN_SECRET = "Adm-Secret-2Wd6";
    private static final String BROKER_SECRET = "Mq-Secret-8Rt3";
    private static final String ZK_DESTINATION = "zk";

    private ZooKeeperServer zooKeeper;
    private int adminPort;

    @AfterEach
    void stopZooKeeper() throws Exception {
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void noSecretAppearsInLogsMetaZooKeeperHistoryOrMetrics(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.recreateDatabase(HISTORY);
        createAccount(db, SOURCE_USER, SOURCE_SECRET, "SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.*");
        createAccount(db, HISTORY_USER, HISTORY_SECRET, "ALL ON `" + HISTORY + "`.*");
        zooKeeper = ZooKeeperServer.start();
        adminPort = TcpPorts.free();
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.edit("conf/example/instance.properties", text -> text
                .replace("canal.instance.dbUsername = " + db.replicationUser(), "canal.instance.dbUsername = " + SOURCE_USER)
                .replace("canal.instance.dbPassword = " + db.replicationPassword(),
                        "canal.instance.dbPassword = " + SOURCE_SECRET)
                // a fresh MySQL 8+ account's first login without TLS needs the source's RSA key (docs/security.md)
                .replace("#canal.instance.master.allowPublicKeyRetrieval = false",
                        "canal.instance.master.allowPublicKeyRetrieval = true"));
        String instance = Files.readString(home.resolve("conf/example/instance.properties"));
        Files.writeString(Files.createDirectories(home.resolve("conf/" + ZK_DESTINATION)).resolve("instance.properties"),
                instance);
        Files.writeString(Files.createDirectories(home.resolve("conf/broken")).resolve("instance.properties"),
                instance.replace(SOURCE_SECRET, BROKEN_SOURCE_SECRET));
        daemon.set("conf/canal.properties", "canal.destinations", CanalDaemon.DESTINATION + "," + ZK_DESTINATION
                + ",broken");
        // example keeps its cursor in meta.dat (the shipped file flavour), this one in ZooKeeper
        daemon.edit("conf/canal.properties", text -> text + "\ncanal.instance." + ZK_DESTINATION
                + ".spring.xml = classpath:spring/default-instance.xml\n");
        daemon.set("conf/canal.properties", "canal.user", "canal");
        daemon.set("conf/canal.properties", "canal.passwd", AuthScramble.passwordHash(CLIENT_SECRET));
        daemon.set("conf/canal.properties", "canal.admin.port", String.valueOf(adminPort));
        daemon.set("conf/canal.properties", "canal.admin.user", "admin");
        daemon.set("conf/canal.properties", "canal.admin.passwd", AuthScramble.passwordHash(ADMIN_SECRET));
        daemon.set("conf/canal.properties", "rabbitmq.password", BROKER_SECRET);
        daemon.set("conf/canal.properties", "canal.zkServers", zooKeeper.connectString());
        daemon.set("conf/canal.properties", "canal.instance.tsdb.enable", "true");
        daemon.set("conf/canal.properties", "canal.instance.tsdb.url",
                "jdbc:mysql://" + db.host() + ":" + db.port() + "/" + HISTORY + "?allowPublicKeyRetrieval=true");
        daemon.set("conf/canal.properties", "canal.instance.tsdb.dbUsername", HISTORY_USER);
        daemon.set("conf/canal.properties", "canal.instance.tsdb.dbPassword", HISTORY_SECRET);
        daemon.set("conf/canal.properties", "canal.instance.tsdb.spring.xml", "classpath:spring/tsdb/mysql-tsdb.xml");
        daemon.start();

        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY)", "INSERT INTO " + SCHEMA + ".t VALUES (1), (2)");
        assertThatThrownBy(() -> connector(CanalDaemon.DESTINATION, "wrong-" + CLIENT_SECRET).connect())
                .hasStackTraceContaining("auth failed");
        receiveARowEntry(CanalDaemon.DESTINATION);
        receiveARowEntry(ZK_DESTINATION);
        assertThat(adminLogin("not-" + ADMIN_SECRET).getCode()).isNotZero();
        assertThat(adminLogin(ADMIN_SECRET).getCode()).isZero();
        daemon.awaitOrShowLogs("the broken destination's source refuses its password", Duration.ofSeconds(60),
                () -> writtenFiles().contains("Access denied"));
        String scrape = new DaemonMetrics(daemon).scrape();
        daemon.stop(); // flushes meta.dat and the last log lines

        List<String> secrets = List.of(SOURCE_SECRET, BROKEN_SOURCE_SECRET, HISTORY_SECRET, CLIENT_SECRET,
                ADMIN_SECRET, BROKER_SECRET, AuthScramble.passwordHash(CLIENT_SECRET),
                AuthScramble.passwordHash(ADMIN_SECRET));
        Map<String, String> places = Map.of(
                "the files the daemon wrote", writtenFiles(),
                "ZooKeeper", zooKeeperNodes(),
                "the schema-history tables", historyTables(db),
                "the metrics", scrape);
        assertThat(places.get("the files the daemon wrote")).as("the files were read").contains("meta.dat");
        assertThat(places.get("ZooKeeper")).as("the nodes were read").contains("/" + ZK_DESTINATION + "/1001/cursor");
        assertThat(places.get("the schema-history tables")).as("the history was read").contains("CREATE TABLE");
        places.forEach((place, text) -> assertThat(secrets).as("secrets in %s", place)
                .allSatisfy(secret -> assertThat(text).doesNotContainIgnoringCase(secret)));
        assertThat(readableByOthers()).as("files the daemon wrote that other users may read (bin/startup.sh's umask)")
                .isEmpty();
    }

    /** The logs and meta files that a user other than the daemon's, or its group, may read. */
    private List<Path> readableByOthers() throws IOException {
        List<Path> readable = new ArrayList<>();
        try (Stream<Path> files = Stream.concat(Files.walk(home.resolve("logs")), Stream.of(daemon.metaFile()))) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (permissions.contains(PosixFilePermission.GROUP_READ)
                        || permissions.contains(PosixFilePermission.OTHERS_READ)) {
                    readable.add(home.relativize(file));
                }
            }
        }
        return readable;
    }

    private static void createAccount(MySqlServer db, String user, String password, String grant) {
        db.execute("DROP USER IF EXISTS '" + user + "'@'%'",
                "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
                "GRANT " + grant + " TO '" + user + "'@'%'");
    }

    private CanalConnector connector(String destination, String password) {
        return CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", daemon.port), destination,
                "canal", password);
    }

    /** The official client, logged in with the right password, receives the rows inserted and acks them. */
    private void receiveARowEntry(String destination) {
        CanalConnector connector = connector(destination, CLIENT_SECRET);
        connector.connect();
        try {
            connector.subscribe(SCHEMA + "\\..*");
            daemon.awaitOrShowLogs("the inserted rows", Duration.ofSeconds(60), () -> {
                Message message = connector.getWithoutAck(100, 200L, TimeUnit.MILLISECONDS);
                if (message.getId() != -1) {
                    connector.ack(message.getId());
                }
                return message.getEntries().stream().anyMatch(e -> e.getEntryType() == EntryType.ROWDATA);
            });
        } finally {
            connector.disconnect();
        }
    }

    /** Logs in to the admin port with {@code password}, as canal-admin does; the ACK says whether it was taken. */
    private AdminPacket.Ack adminLogin(String password) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", adminPort)) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] seed = AdminPacket.Handshake.parseFrom(AdminPacket.Packet.parseFrom(read(in)).getBody()).getSeeds()
                    .toByteArray();
            byte[] login = AdminPacket.Packet.newBuilder().setType(AdminPacket.PacketType.CLIENTAUTHENTICATION)
                    .setBody(AdminPacket.ClientAuth.newBuilder().setUsername("admin")
                            .setPassword(ByteString.copyFromUtf8(AuthScramble.scramble(password, seed))).build()
                            .toByteString()).build().toByteArray();
            out.writeInt(login.length);
            out.write(login);
            out.flush();
            return AdminPacket.Ack.parseFrom(AdminPacket.Packet.parseFrom(read(in)).getBody());
        }
    }

    private static byte[] read(DataInputStream in) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame;
    }

    /** Every text file under the daemon's home that it wrote: logs, meta.dat, the pid file; not its configuration. */
    private String writtenFiles() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(home)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".properties") || name.endsWith(".jar") || name.endsWith(".gz")
                        || file.startsWith(home.resolve("lib"))) {
                    continue;
                }
                try {
                    all.append("== ").append(home.relativize(file)).append('\n').append(Files.readString(file));
                } catch (MalformedInputException binary) {
                    all.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
                }
            }
        }
        return all.toString();
    }

    /** The path and data of every ZooKeeper node. */
    private String zooKeeperNodes() throws Exception {
        StringBuilder all = new StringBuilder();
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zooKeeper.connectString(), new RetryOneTime(100))) {
            zk.start();
            List<String> pending = new ArrayList<>(List.of("/"));
            while (!pending.isEmpty()) {
                String path = pending.remove(pending.size() - 1);
                byte[] data = zk.getData().forPath(path);
                all.append(path).append(' ').append(data == null ? "" : new String(data, StandardCharsets.UTF_8))
                        .append('\n');
                for (String child : zk.getChildren().forPath(path)) {
                    pending.add((path.equals("/") ? "" : path) + "/" + child);
                }
            }
        }
        return all.toString();
    }

    /** Every value of every table of the schema-history database. */
    private static String historyTables(MySqlServer db) throws Exception {
        StringBuilder all = new StringBuilder();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW TABLES FROM `" + HISTORY + "`")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet rs = st.executeQuery("SELECT * FROM `" + HISTORY + "`.`" + table + "`")) {
                    ResultSetMetaData columns = rs.getMetaData();
                    while (rs.next()) {
                        for (int i = 1; i <= columns.getColumnCount(); i++) {
                            all.append(rs.getString(i)).append('|');
                        }
                        all.append('\n');
                    }
                }
            }
        }
        return all.toString();
    }
}
