package dev.canal.meta;

import dev.canal.protocol.config.CommonKeys;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * Connects a ZooKeeper client before anything uses it, so that an unreachable ZooKeeper stops start-up with the
 * servers and their key named instead of surfacing later as a hung call. The server connects its one client
 * (election, registration and, through default-instance.xml, every destination's cursors) through it; so does an
 * instance built without the server's client, with Canal's session timeout.
 */
public final class ZooKeeperConnector {

    private ZooKeeperConnector() {
    }

    /**
     * A started client that reached ZooKeeper within {@code connectWait}; otherwise the client is closed and
     * the failure names the servers and {@code canal.zkServers}. A chroot in the connect string applies to
     * every path.
     */
    public static CuratorFramework connect(String zkServers, Duration sessionTimeout, Duration connectWait,
            RetryPolicy retry) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(zkServers)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) connectWait.toMillis())
                .retryPolicy(retry)
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
            throw new IllegalStateException("cannot reach ZooKeeper at " + zkServers + " (" + CommonKeys.ZK_SERVERS.name()
                    + ") within " + connectWait.toMillis() + " ms");
        }
        return client;
    }
}
