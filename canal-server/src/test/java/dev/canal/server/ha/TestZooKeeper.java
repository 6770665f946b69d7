package dev.canal.server.ha;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server in the test JVM with a 200 ms tick, so sessions of 0.4 to 4 s are granted and
 * session expiry takes seconds, not the default minimum of 6; Curator clients to it are closed with it.
 */
final class TestZooKeeper implements AutoCloseable {

    static final int TICK_MILLIS = 200;
    private static final Duration CONNECT_WAIT = Duration.ofSeconds(3);

    private final TestingServer server;
    private final List<CuratorFramework> clients = new ArrayList<>();

    TestZooKeeper() throws Exception {
        server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MILLIS, -1), true);
    }

    String connectString() {
        return server.getConnectString();
    }

    int port() {
        return server.getPort();
    }

    /** A new session, as another canal server would have, through {@code connectString} (e.g. a proxy). */
    CuratorFramework connect(String connectString, Duration sessionTimeout) {
        CuratorFramework client = ZooKeeperConnections.connect(connectString, sessionTimeout, CONNECT_WAIT);
        clients.add(client);
        return client;
    }

    CuratorFramework connect(Duration sessionTimeout) {
        return connect(connectString(), sessionTimeout);
    }

    @Override
    public void close() throws Exception {
        clients.forEach(CuratorFramework::close);
        server.close();
    }
}
