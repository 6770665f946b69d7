package dev.canal.testsupport;

import java.io.Closeable;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server in the test JVM (curator-test) on a free port, and the clients to it, which are closed
 * with it. A module that starts one declares {@code curator-test} itself (this module's is optional).
 */
public final class ZooKeeperServer implements AutoCloseable {

    /**
     * A tick for tests that wait for a session to expire: ZooKeeper grants sessions of 2 to 20 ticks, here 0.4 to
     * 4 s, so expiry takes seconds rather than the default minimum of 4.
     */
    public static final Duration SHORT_TICK = Duration.ofMillis(200);

    private static final Duration CONNECT_WAIT = Duration.ofSeconds(30);
    private static final int RETRY_MILLIS = 100;

    private final TestingServer server;
    private final List<Closeable> clients = new ArrayList<>(); // guarded by itself

    private ZooKeeperServer(TestingServer server) {
        this.server = server;
    }

    /** A server with ZooKeeper's default tick of 2 s, so sessions of 4 s at the least. */
    public static ZooKeeperServer start() throws Exception {
        return new ZooKeeperServer(new TestingServer(true));
    }

    /** A server with the given tick (see {@link #SHORT_TICK}). */
    public static ZooKeeperServer start(Duration tick) throws Exception {
        return new ZooKeeperServer(new TestingServer(
                new InstanceSpec(null, -1, -1, -1, true, -1, (int) tick.toMillis(), -1), true));
    }

    public String connectString() {
        return server.getConnectString();
    }

    public int port() {
        return server.getPort();
    }

    /**
     * Stops the server and starts it again on the same port with the same data directory, as an operator's
     * restart does: sessions survive if their clients reconnect within their timeout.
     *
     * @param down how long the server stays down (0: start again at once)
     */
    public void restart(Duration down) throws Exception {
        server.stop();
        Thread.sleep(down.toMillis()); // the outage being simulated, not a wait for a condition
        server.restart();
    }

    /**
     * The ids of the sessions with a connection to this server now, read from the connection beans ZooKeeper
     * registers in this JVM's platform MBean server (one per client connection).
     */
    public Set<Long> connectedSessions() throws Exception {
        MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
        Set<Long> sessions = new TreeSet<>();
        for (ObjectName name : beans.queryNames(new ObjectName("org.apache.ZooKeeperService:*"), null)) {
            if ("Connections".equals(name.getKeyProperty("name1")) && name.getKeyProperty("name3") != null
                    && String.valueOf(port()).equals(portOf(name.getKeyProperty("name0")))) {
                String id = String.valueOf(beans.getAttribute(name, "SessionId")); // hex, "0x..."
                sessions.add(Long.parseUnsignedLong(id.replaceFirst("^0x", ""), 16));
            }
        }
        return sessions;
    }

    private static String portOf(String serverBeanName) {
        return serverBeanName == null ? "" : serverBeanName.replaceAll("^.*_port", "");
    }

    /** A new session with the server's default timeout, as another canal server would have; connected. */
    public CuratorFramework newClient() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(connectString(), new RetryOneTime(RETRY_MILLIS));
        client.start();
        if (!client.blockUntilConnected((int) CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            client.close();
            throw new IllegalStateException("no connection to test ZooKeeper at " + connectString());
        }
        return closedWithServer(client);
    }

    /** Closes {@code client} (made elsewhere, e.g. by production code under test) when the server closes. */
    public <C extends Closeable> C closedWithServer(C client) {
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    @Override
    public void close() throws Exception {
        synchronized (clients) {
            for (Closeable client : clients) {
                client.close();
            }
            clients.clear();
        }
        server.close();
    }
}
