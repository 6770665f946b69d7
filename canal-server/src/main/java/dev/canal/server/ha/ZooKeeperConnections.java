package dev.canal.server.ha;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The ZooKeeper client of the server's registration and election, connected before anything registers. */
public final class ZooKeeperConnections {

    /** The key whose value is the connect string, named in every connection error. */
    public static final String ZK_SERVERS_KEY = "canal.zkServers";

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

    /**
     * A started client that reached ZooKeeper within {@code connectWait}; otherwise the client is closed and
     * the failure names the servers and {@value #ZK_SERVERS_KEY}. A chroot in the connect string applies to
     * every path.
     */
    public static CuratorFramework connect(String zkServers, Duration sessionTimeout, Duration connectWait) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(zkServers)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) connectWait.toMillis())
                .retryPolicy(new ExponentialBackoffRetry(RETRY_BASE_MILLIS, RETRY_COUNT))
                .build();
        client.start();
        boolean connected;
        try {
            connected = client.blockUntilConnected((int) connectWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected) {
            client.close();
            throw new IllegalStateException("cannot reach ZooKeeper at " + zkServers + " (" + ZK_SERVERS_KEY
                    + ") within " + connectWait.toMillis() + " ms");
        }
        return client;
    }
}
