package dev.canal.server.ha;

import dev.canal.meta.PeriodMixedMetaManager;
import dev.canal.meta.ZooKeeperMetaManager;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.netty.CanalNettyServer;
import dev.canal.server.netty.ServerConfig;
import dev.canal.store.StoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.apache.curator.framework.CuratorFramework;

/**
 * One canal server in its own JVM for the failover tests, wired as the launcher wires one with
 * {@code canal.zkServers} set: embedded server, TCP server activating through the election, a running monitor
 * per destination started at boot, and the destination's cursors in ZooKeeper (PeriodMixedMetaManager, as
 * default-instance.xml). Its instance reads rows from a file instead of MySQL ({@link RowFileInstance}).
 *
 * <p>Arguments: zkServers port destination rowsFile sessionTimeoutMillis takeoverDelayMillis. Prints
 * {@code READY <port>} when up and {@code SERVING true|false micros} around each time its store serves; stops
 * gracefully when its standard input closes.
 */
public final class HaServerNode {

    private static final long META_FLUSH_MILLIS = 100;
    private static final int STORE_SIZE = 1024;

    private HaServerNode() {
    }

    public static void main(String[] args) throws Exception {
        String zkServers = args[0];
        int port = Integer.parseInt(args[1]);
        String destination = args[2];
        Path rows = Path.of(args[3]);
        Duration session = Duration.ofMillis(Long.parseLong(args[4]));
        Duration delay = Duration.ofMillis(Long.parseLong(args[5]));

        CuratorFramework zk = ZooKeeperConnections.connect(zkServers, session, Duration.ofSeconds(10));
        EmbeddedCanalServer embedded = new EmbeddedCanalServer(dest -> new RowFileInstance(dest, rows,
                new PeriodMixedMetaManager(new ZooKeeperMetaManager(zk), META_FLUSH_MILLIS),
                StoreConfig.itemSize(STORE_SIZE), HaServerNode::reportServing));
        embedded.start();
        ServerRunningMonitors monitors = new ServerRunningMonitors(zk, "127.0.0.1:" + port,
                ServerRunningListener.embedded(embedded), delay);
        monitors.start();
        CanalNettyServer tcp = new CanalNettyServer(ServerConfig.open(port), embedded, monitors.activator(),
                new ClientMetrics(), true);
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

    /** {@code SERVING true|false <epoch micros>}: the test checks that no two servers' intervals overlap. */
    private static void reportServing(boolean serving) {
        Instant now = Instant.now();
        System.out.println("SERVING " + serving + " " + (now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000));
        System.out.flush();
    }
}
