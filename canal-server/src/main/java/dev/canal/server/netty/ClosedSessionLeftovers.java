package dev.canal.server.netty;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The connections that closed with acks or rollbacks still to run, so that a new connection's first request runs
 * after them. The official client sends {@code ack(id)} without waiting for a reply and may then disconnect and
 * connect again at once; the new connection's rollback must not overtake that ack, or the ack would find its batch
 * rolled back and the rows of the batch would be delivered again. A wait is bounded: such leftovers take
 * microseconds, and a connection must not stall behind another one's slow request.
 */
final class ClosedSessionLeftovers {

    private final Set<ChannelSession> pending = new HashSet<>(); // guarded by this
    private final long maxWaitNanos;

    ClosedSessionLeftovers(long maxWaitMillis) {
        this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
    }

    synchronized void add(ChannelSession session) {
        pending.add(session);
    }

    synchronized void done(ChannelSession session) {
        if (pending.remove(session) && pending.isEmpty()) {
            notifyAll();
        }
    }

    /** Waits until no closed connection has requests left, or the bound has passed. */
    synchronized void awaitNone() throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitNanos;
        while (!pending.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
