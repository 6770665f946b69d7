package dev.canal.server.netty;

import io.netty.channel.Channel;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection's state beyond Netty's: the handshake seed, and a queue that runs the client's
 * requests one after another on the shared session pool, off the event loop, so a long-poll GET never
 * blocks an I/O thread and responses leave in request order.
 *
 * <p>A client that sends many requests without reading answers is slowed down rather than buffered: no request
 * is taken while the channel is not writable (its unsent replies are above the write buffer's high water mark,
 * {@code canal.client.write.buffer.size}) until the client has read them down to the low one, and reading from its
 * socket pauses while {@value #PAUSE_READING_AT} requests wait. When the connection closes, a GET blocked in the
 * store is interrupted and queued GETs are dropped; the other requests (acks, rollbacks, subscriptions) still run:
 * they change the client's state whether or not anyone reads a reply. A connection's first request waits until those
 * of connections closed before it have run ({@link ClosedSessionLeftovers}).
 */
final class ChannelSession {

    private static final Logger log = LoggerFactory.getLogger(ChannelSession.class);
    static final int PAUSE_READING_AT = 16;

    private final Channel channel;
    private final Executor pool;
    private final ClosedSessionLeftovers leftovers;
    private byte[] seed; // event loop only
    private boolean started; // pool threads, one at a time (draining)
    private final ArrayDeque<Request> queue = new ArrayDeque<>(); // guarded by this
    private boolean draining; // guarded by this
    private boolean waitingForWritable; // guarded by this
    private boolean closed; // guarded by this
    private Thread interruptibleWorker; // guarded by this

    ChannelSession(Channel channel, Executor pool, ClosedSessionLeftovers leftovers) {
        this.channel = channel;
        this.pool = pool;
        this.leftovers = leftovers;
    }

    Channel channel() {
        return channel;
    }

    void seed(byte[] handshakeSeed) {
        this.seed = handshakeSeed;
    }

    byte[] seed() {
        return seed;
    }

    /** A queued request; {@code runAfterClose} ones still run once the connection has closed. */
    private record Request(Runnable work, boolean runAfterClose) {
    }

    /** Queues a request; it runs after every request queued before it. */
    void submit(Runnable request) {
        submit(request, false);
    }

    /** Queues a request that, with {@code runAfterClose}, still runs if the connection closes before its turn. */
    void submit(Runnable request, boolean runAfterClose) {
        boolean startDrain;
        int waiting;
        synchronized (this) {
            if (closed) {
                return;
            }
            queue.add(new Request(request, runAfterClose));
            waiting = queue.size();
            startDrain = !draining;
            draining = true;
        }
        if (waiting >= PAUSE_READING_AT) {
            channel.config().setAutoRead(false);
        }
        if (startDrain) {
            pool.execute(this::drain);
        }
    }

    /** Runs a blocking step that a closing connection may interrupt. */
    <T> T interruptibly(Supplier<T> step) {
        synchronized (this) {
            interruptibleWorker = Thread.currentThread();
        }
        try {
            return step.get();
        } finally {
            synchronized (this) {
                interruptibleWorker = null;
            }
            // an interrupt aimed at this request must not leak into the pool thread's next task
            Thread.interrupted();
        }
    }

    /**
     * Drops queued requests but acks and rollbacks, and interrupts a blocked one; called when the connection closes.
     * The requests left run even if they were waiting for the channel to become writable.
     */
    void close() {
        synchronized (this) {
            closed = true;
            queue.removeIf(request -> !request.runAfterClose());
            if (draining || !queue.isEmpty()) {
                leftovers.add(this);
            }
            if (interruptibleWorker != null) {
                interruptibleWorker.interrupt();
            }
        }
        resumeIfWaiting();
    }

    /** The channel became writable again (its client read enough): queued requests run on. Event loop. */
    void writabilityChanged() {
        if (channel.isWritable()) {
            resumeIfWaiting();
        }
    }

    private void resumeIfWaiting() {
        synchronized (this) {
            if (!waitingForWritable) {
                return;
            }
            waitingForWritable = false;
            if (draining || queue.isEmpty()) {
                return;
            }
            draining = true;
        }
        pool.execute(this::drain);
    }

    private void drain() {
        while (true) {
            Request next;
            synchronized (this) {
                // checked under the lock that writabilityChanged takes, so a change in between is not missed
                if (!closed && !channel.isWritable()) {
                    waitingForWritable = true;
                    draining = false;
                    return;
                }
                next = queue.poll();
                if (next == null) {
                    draining = false;
                }
            }
            if (next == null) {
                leftovers.done(this); // closed or not: a session that was never added is ignored
                return;
            }
            if (!started) {
                started = true;
                awaitEarlierLeftovers();
            }
            try {
                next.work().run();
            } catch (RuntimeException | Error e) {
                log.error("request of {} failed unexpectedly; closing the connection", channel, e);
                channel.close();
            }
            resumeReadingIfDrained();
        }
    }

    private void awaitEarlierLeftovers() {
        try {
            leftovers.awaitNone();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the connection closed meanwhile: its request sees the interrupt
        }
    }

    private void resumeReadingIfDrained() {
        boolean resume;
        synchronized (this) {
            resume = !closed && queue.size() < PAUSE_READING_AT / 2;
        }
        if (resume && !channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
    }
}
