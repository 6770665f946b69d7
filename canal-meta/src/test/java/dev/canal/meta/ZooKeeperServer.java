package dev.canal.meta;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;

/** A real ZooKeeper server in the test JVM, and Curator clients to it that are closed with it. */
final class ZooKeeperServer implements AutoCloseable {

    private final TestingServer server;
    private final List<CuratorFramework> clients = new ArrayList<>();

    ZooKeeperServer() throws Exception {
        server = new TestingServer(true);
    }

    /** A new session, as another canal server would have. */
    CuratorFramework newClient() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to test ZooKeeper at " + server.getConnectString());
        }
        clients.add(client);
        return client;
    }

    @Override
    public void close() throws Exception {
        clients.forEach(CuratorFramework::close);
        server.close();
    }
}
