package dev.canal.server.netty;

import dev.canal.server.ServerConfig;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the open client connections against {@code canal.client.max.connections}. Refusals are logged once per
 * burst rather than once per connection: the first refusal after a quiet {@value #WARNING_INTERVAL_SECONDS} s
 * is logged at once, later ones are counted into the next warning, at most one every
 * {@value #WARNING_INTERVAL_SECONDS} s.
 */
final class ConnectionLimit {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLimit.class);
    static final long WARNING_INTERVAL_SECONDS = 10;
    private static final long WARNING_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(WARNING_INTERVAL_SECONDS);

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger unreported = new AtomicInteger();
    private final AtomicLong lastWarningNanos = new AtomicLong(System.nanoTime() - WARNING_INTERVAL_NANOS);

    ConnectionLimit(int max) {
        this.max = max;
    }

    int max() {
        return max;
    }

    /** Takes a place for a new connection; false (and the refusal counted) when {@code max} are open. */
    boolean tryAcquire() {
        while (true) {
            int current = open.get();
            if (current >= max) {
                refused();
                return false;
            }
            if (open.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Gives back the place of a connection that {@link #tryAcquire} let in, once it has closed. */
    void release() {
        open.decrementAndGet();
    }

    private void refused() {
        unreported.incrementAndGet();
        long now = System.nanoTime();
        long last = lastWarningNanos.get();
        if (now - last >= WARNING_INTERVAL_NANOS && lastWarningNanos.compareAndSet(last, now)) {
            log.warn("refused {} client connection(s): already {} open, the limit of {}", unreported.getAndSet(0),
                    max, ServerConfig.MAX_CONNECTIONS.name());
        }
    }
}
