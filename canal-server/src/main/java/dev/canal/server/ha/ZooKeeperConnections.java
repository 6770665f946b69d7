package dev.canal.server.ha;

import dev.canal.meta.ZooKeeperConnector;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The server's one ZooKeeper client, connected before anything registers: the registration, the election and,
 * through default-instance.xml, every destination's cursors share it, so a server holds one session.
 */
public final class ZooKeeperConnections {

    /**
     * Default session timeout ({@code canal.zookeeper.session.timeout}). Canal's zkclient uses 90 s, which makes
     * a crashed active server hold its destination for 90 s; 4 s (the smallest a ZooKeeper server with the
     * default tickTime of 2 s grants) brings a kill -9 failover to about session timeout + takeover delay = 9 s.
     * See {@link ServerRunningMonitor} for why any session timeout is safe.
     */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(4);

    private static final int RETRY_BASE_MILLIS = 500;
    private static final int RETRY_COUNT = 3;

    private ZooKeeperConnections() {
    }

    /** A started client that reached ZooKeeper within {@code connectWait} (see {@link ZooKeeperConnector}). */
    public static CuratorFramework connect(String zkServers, Duration sessionTimeout, Duration connectWait) {
        return ZooKeeperConnector.connect(zkServers, sessionTimeout, connectWait,
                new ExponentialBackoffRetry(RETRY_BASE_MILLIS, RETRY_COUNT));
    }
}
