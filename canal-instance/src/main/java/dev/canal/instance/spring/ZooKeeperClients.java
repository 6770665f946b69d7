package dev.canal.instance.spring;

import dev.canal.meta.ZooKeeperConnector;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The ZooKeeper client of default-instance.xml, connected before the instance is built. */
public final class ZooKeeperClients {

    /** Canal's session timeout. */
    public static final int SESSION_TIMEOUT_MILLIS = 90_000;

    private static final int RETRY_BASE_MILLIS = 1000;
    private static final int RETRY_COUNT = 3;

    private ZooKeeperClients() {
    }

    /**
     * A started client that reached ZooKeeper within the wait; otherwise the failure names the servers and
     * {@code canal.zkServers} (see {@link ZooKeeperConnector}).
     */
    public static CuratorFramework connect(String servers, long connectWaitMillis) {
        return ZooKeeperConnector.connect(servers, Duration.ofMillis(SESSION_TIMEOUT_MILLIS),
                Duration.ofMillis(connectWaitMillis), new ExponentialBackoffRetry(RETRY_BASE_MILLIS, RETRY_COUNT));
    }
}
