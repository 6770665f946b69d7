package dev.canal.server.ha;

import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.instance.spring.SharedZooKeeper;
import dev.canal.instance.spring.SpringCanalInstanceGenerator;
import dev.canal.meta.PeriodMixedMetaManager;
import dev.canal.meta.ZooKeeperMetaManager;
import dev.canal.server.CanalInstanceGenerator;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.ServerConfig;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.netty.CanalNettyServer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.ChildJvm;
import dev.canal.testsupport.MySqlServer;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;

/**
 * One canal server in its own JVM for the failover tests, wired as the launcher wires one with
 * {@code canal.zkServers} set: embedded server, TCP server activating through the election, a running monitor
 * per destination started at boot, and the destination's cursors in ZooKeeper (PeriodMixedMetaManager, as
 * default-instance.xml). Its instance either reads rows from a file instead of MySQL ({@link RowFileInstance}),
 * or is built from Spring XML like the launcher's, with a real MysqlEventParser.
 *
 * <p>Arguments: zkServers port destination (rows:FILE | spring:CONF_DIR) sessionTimeoutMillis
 * takeoverDelayMillis. Prints
 * {@code READY <port>} when up and {@code SERVING true|false micros} around each time its store serves; stops
 * gracefully when its standard input closes.
 */
public final class HaServerNode {

    private static final String ROWS = "rows:";
    private static final String SPRING = "spring:";
    private static final long META_FLUSH_MILLIS = 100;
    private static final int STORE_SIZE = 1024;

    /** The shipped conf/ folder (logback.xml, spring/*.xml), on a child's class path. */
    private static final Path SHIPPED_CONF = Path.of("..", "conf");

    private HaServerNode() {
    }

    /**
     * Starts a server in a child JVM and returns once it printed READY.
     *
     * @param source {@code rows:FILE} or {@code spring:CONF_DIR} ({@link #springConf})
     * @param output every line the child prints, READY included
     */
    static ChildJvm startChild(String name, String zkServers, int port, String destination, String source,
            Duration session, Duration takeoverDelay, Path logs, Consumer<ChildJvm.Line> output)
            throws IOException, InterruptedException {
        CountDownLatch up = new CountDownLatch(1);
        ChildJvm child = ChildJvm.start(name, System.getProperty("java.class.path") + File.pathSeparator
                        + SHIPPED_CONF.toAbsolutePath(), List.of("-Dlogback.configurationFile=ha/node-logback.xml"),
                HaServerNode.class, List.of(zkServers, String.valueOf(port), destination, source,
                        String.valueOf(session.toMillis()), String.valueOf(takeoverDelay.toMillis())),
                logs, line -> {
                    if (line.text().startsWith("READY")) {
                        up.countDown();
                    }
                    output.accept(line);
                });
        if (!up.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("server " + name + " on port " + port + " not ready within 60 s");
        }
        return child;
    }

    /**
     * A conf/ folder under {@code dir} for {@code spring:} servers: canal.properties naming default-instance.xml
     * (with {@code serverKeys} added, as key=value lines), and the destination reading table {@code schema.t} of
     * {@code db} from its current binlog position.
     */
    static Path springConf(Path dir, MySqlServer db, String destination, String schema, String... serverKeys)
            throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        List<String> server = new ArrayList<>(List.of(
                "canal.instance.global.spring.xml=classpath:spring/default-instance.xml",
                "canal.zookeeper.flush.period=100",
                "canal.instance.tsdb.enable=false"));
        server.addAll(List.of(serverKeys));
        Files.writeString(conf.resolve("canal.properties"), String.join("\n", server) + "\n");
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        Files.createDirectories(conf.resolve(destination));
        Files.writeString(conf.resolve(destination).resolve("instance.properties"), String.join("\n",
                "canal.instance.master.address=" + db.host() + ":" + db.port(),
                "canal.instance.master.journal.name=" + start.file(),
                "canal.instance.master.position=" + start.position(),
                "canal.instance.dbUsername=" + db.replicationUser(),
                "canal.instance.dbPassword=" + db.replicationPassword(),
                "canal.instance.filter.regex=" + schema + "\\\\.t") + "\n");
        return conf;
    }

    public static void main(String[] args) throws Exception {
        String zkServers = args[0];
        int port = Integer.parseInt(args[1]);
        String destination = args[2];
        String source = args[3];
        Duration session = Duration.ofMillis(Long.parseLong(args[4]));
        Duration delay = Duration.ofMillis(Long.parseLong(args[5]));

        CuratorFramework zk = ZooKeeperConnections.connect(zkServers, session, Duration.ofSeconds(10));
        EmbeddedCanalServer embedded;
        ServerRunningListener listener;
        if (source.startsWith(ROWS)) {
            Path rows = Path.of(source.substring(ROWS.length()));
            // as default-instance.xml: the meta manager has a ZooKeeper client of its own, closed when the
            // instance stops, so a cursor push stuck behind a lost connection cannot land later over the
            // cursors of the server that took over
            embedded = new EmbeddedCanalServer(dest -> {
                CuratorFramework metaZk = ZooKeeperConnections.connect(zkServers, session, Duration.ofSeconds(10));
                return new RowFileInstance(dest, rows,
                        new PeriodMixedMetaManager(new ZooKeeperMetaManager(metaZk), META_FLUSH_MILLIS),
                        StoreConfig.itemSize(STORE_SIZE), HaServerNode::reportServing, metaZk);
            });
            listener = ServerRunningListener.embedded(embedded);
        } else if (source.startsWith(SPRING)) {
            embedded = new EmbeddedCanalServer(springInstances(Path.of(source.substring(SPRING.length())), zkServers,
                    port, zk));
            listener = reportingAround(ServerRunningListener.embedded(embedded));
        } else {
            throw new IllegalArgumentException("source must be rows:FILE or spring:CONF_DIR, was " + source);
        }
        embedded.start();
        ServerRunningMonitors monitors = new ServerRunningMonitors(zk, "127.0.0.1:" + port, listener, delay);
        monitors.start();
        // every destination the node is asked for is one it can build: deployed, as far as the client port goes
        CanalNettyServer tcp = new CanalNettyServer(ServerConfig.open(port), embedded, monitors.activator(),
                name -> true, new ClientMetrics(), true);
        tcp.start();
        monitors.start(destination);
        System.out.println("READY " + port);
        System.out.flush();

        while (System.in.read() >= 0) {
            // runs until the test closes our input (graceful stop) or kills us
        }
        monitors.stop();
        tcp.stop();
        embedded.stop();
        zk.close();
        System.out.println("STOPPED " + port);
    }

    /**
     * Instances as the launcher builds them: Spring XML and properties, {@code CONF_DIR/canal.properties} plus
     * {@code CONF_DIR/{dest}/instance.properties}, with this server's ZooKeeper client (shared with the election,
     * as the launcher shares it) and a slave id of its own.
     */
    private static CanalInstanceGenerator springInstances(Path confDir, String zkServers, int port,
            CuratorFramework zk) throws IOException {
        Properties canal = new Properties();
        try (Reader in = Files.newBufferedReader(confDir.resolve("canal.properties"))) {
            canal.load(in);
        }
        canal.setProperty("canal.zkServers", zkServers);
        canal.setProperty("canal.instance.mysql.slaveId", String.valueOf(port));
        return new SpringCanalInstanceGenerator(new Source("canal.properties", canal), confDir)
                .withZooKeeper(SharedZooKeeper.of(zkServers, zk))::generate;
    }

    /** Reports serving before the instance starts and after it stopped: wider than the store's own interval. */
    private static ServerRunningListener reportingAround(ServerRunningListener delegate) {
        return new ServerRunningListener() {
            @Override
            public void activeEnter(String destination) {
                reportServing(true);
                delegate.activeEnter(destination);
            }

            @Override
            public void activeExit(String destination) {
                delegate.activeExit(destination);
                reportServing(false);
            }

            @Override
            public Set<String> quiesce(Set<String> destinations, Duration wait) {
                return delegate.quiesce(destinations, wait);
            }
        };
    }

    /** {@code SERVING true|false <epoch micros>}: the test checks that no two servers' intervals overlap. */
    private static void reportServing(boolean serving) {
        Instant now = Instant.now();
        System.out.println("SERVING " + serving + " " + (now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000));
        System.out.flush();
    }
}
