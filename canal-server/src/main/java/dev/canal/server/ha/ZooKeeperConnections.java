package dev.canal.server.ha;

import dev.canal.meta.ZooKeeperConnector;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The ZooKeeper client of the server's registration and election, connected before anything registers. */
public final class ZooKeeperConnections {

    /** The key whose value is the connect string, named in every connection error. */

    /**
     * Session timeout for the election. Canal's zkclient uses 90 s, which makes a crashed active server hold
     * its destination for 90 s; 4 s (the smallest a ZooKeeper server with the default tickTime of 2 s grants)
     * brings a kill -9 failover to about session timeout + takeover delay = 9 s. See
     * {@link ServerRunningMonitor} for why a short session is still safe.
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
