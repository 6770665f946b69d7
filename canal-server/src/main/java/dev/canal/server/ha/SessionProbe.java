package dev.canal.server.ha;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When ZooKeeper last answered this server: a cheap asynchronous read of {@code /} every {@code period}, and the
 * moment the last answered read was sent. The ensemble expires a session only after hearing nothing from it for
 * the whole session timeout T, so the session is alive until at least that moment + T, whatever happened since
 * (a connection lost without notice, a pause of this process). {@link #safeFor} turns that into how long a
 * suspended server may still serve, keeping a third of T for its stop.
 */
final class SessionProbe implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionProbe.class);
    private static final String ROOT = "/";

    private final CuratorFramework zk;
    private final AtomicLong answeredSentNanos;
    private final ScheduledExecutorService thread;

    /** Starts probing; the caller has just seen the client connected. */
    SessionProbe(CuratorFramework zk, Duration period) {
        this.zk = zk;
        this.answeredSentNanos = new AtomicLong(System.nanoTime());
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "canal-server-zookeeper-probe");
            t.setDaemon(true);
            return t;
        });
        long periodMillis = Math.max(1, period.toMillis());
        thread.scheduleWithFixedDelay(this::probe, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** How long from now the session surely lives, less a third of {@code session}; zero when that is past. */
    Duration safeFor(Duration session) {
        long deadline = answeredSentNanos.get() + session.toNanos() * 2 / 3;
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private void probe() {
        long sent = System.nanoTime();
        try {
            zk.getZookeeperClient().getZooKeeper().exists(ROOT, false, (rc, path, ctx, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    answeredSentNanos.accumulateAndGet(sent, Math::max);
                }
            }, null);
        } catch (Exception e) {
            log.debug("ZooKeeper probe not sent ({})", e.toString()); // the next one tries again
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
