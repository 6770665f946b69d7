package dev.canal.instance.spring;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The ZooKeeper client of default-instance.xml, connected before the instance is built. */
public final class ZooKeeperClients {

    /** Canal's session timeout (canal-compat.md 5.5). */
    public static final int SESSION_TIMEOUT_MILLIS = 90_000;

    private ZooKeeperClients() {
    }

    /**
     * A started client that reached ZooKeeper within the wait; otherwise the client is closed and the failure
     * names the servers and the key. A chroot in the connect string applies to every path.
     */
    public static CuratorFramework connect(String servers, long connectWaitMillis) {
        CuratorFramework client = CuratorFrameworkFactory.newClient(servers, SESSION_TIMEOUT_MILLIS,
                (int) connectWaitMillis, new ExponentialBackoffRetry(1000, 3));
        client.start();
        boolean connected;
        try {
            connected = client.blockUntilConnected((int) connectWaitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected) {
            client.close();
            throw new IllegalStateException("cannot reach ZooKeeper at " + servers + " (" + InstanceMetaConfig.ZK_SERVERS.name()
                    + ") within " + connectWaitMillis + " ms");
        }
        return client;
    }
}
