package dev.canal.instance.spring;

import dev.canal.meta.ZooKeeperConnector;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper client of default-instance.xml: the daemon's {@link SharedZooKeeper} when it reaches the same
 * servers, so N destinations hold one session; otherwise a client of the instance's own, connected before the
 * instance is built and closed with it.
 */
public final class ZooKeeperClients {

    /** Canal's session timeout, for a client of an instance's own. */
    public static final int SESSION_TIMEOUT_MILLIS = 90_000;

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperClients.class);
    private static final int RETRY_BASE_MILLIS = 1000;
    private static final int RETRY_COUNT = 3;

    private ZooKeeperClients() {
    }

    /** An instance's use of a client; closing it closes the client only if the instance made it. */
    public record Lease(CuratorFramework client, boolean owned) implements AutoCloseable {

        @Override
        public void close() {
            if (owned) {
                client.close();
            }
        }
    }

    /**
     * The shared client if it serves {@code servers}, else a new one of the instance's own (see
     * {@link #connect}).
     */
    public static Lease lease(SharedZooKeeper shared, String servers, long connectWaitMillis) {
        if (shared.serves(servers)) {
            return new Lease(shared.client(), false);
        }
        if (shared.client() != null) {
            log.info("the instance's canal.zkServers {} differs from the server's {}: it connects a client of its own",
                    servers, shared.servers());
        }
        return new Lease(connect(servers, connectWaitMillis), true);
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
