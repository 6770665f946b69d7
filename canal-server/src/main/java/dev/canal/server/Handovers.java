package dev.canal.server;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The destinations this server is handing over to another server of its cluster (docs/high-availability.md,
 * "Stopping a server"): from the moment a handover begins until the destination runs here again, no batch of it is
 * handed out here, and a client's get is answered as if nothing had been written, waiting its timeout as usual, so
 * that the official client keeps its connection, without an error, until it moves to the new server. Meanwhile
 * whoever hands over waits for the clients' outstanding batches to be acked, woken by every ack, rollback or get
 * that ends.
 *
 * <p>Once the destination's instance has stopped here, its clients have {@code patience} to move; a client still
 * asking after that missed the move (it connected to this server while the move ran, or the new holder's call to
 * move came while it was reconnecting) and would otherwise wait here for ever, so its gets are then
 * {@link #overdue}: the server answers them with an error and the official client connects again.
 */
final class Handovers {

    private final Set<String> handingOver = ConcurrentHashMap.newKeySet();
    /** When the instance of a destination handing over stopped here (System.nanoTime). */
    private final Map<String, Long> stoppedAt = new ConcurrentHashMap<>();
    private final long patienceNanos;
    /** Notified when a destination handing over may have settled, or when a handover ends. */
    private final Object changes = new Object();

    Handovers(Duration patience) {
        this.patienceNanos = patience.toNanos();
    }

    void begin(String destination) {
        handingOver.add(destination);
    }

    /** The instance of the destination stopped here: if it is handing over, its clients' patience starts. */
    void stopped(String destination) {
        if (handingOver.contains(destination)) {
            stoppedAt.putIfAbsent(destination, System.nanoTime());
            signal();
        }
    }

    /** The destination runs here again: its clients are served as usual. */
    void end(String destination) {
        stoppedAt.remove(destination);
        if (handingOver.remove(destination)) {
            signal();
        }
    }

    /** Handed over and stopped here longer than the clients' patience: a get should tell its client to move. */
    boolean overdue(String destination) {
        return nanosUntilOverdue(destination) <= 0;
    }

    /** How long until the destination's clients are overdue; Long.MAX_VALUE while its instance has not stopped. */
    private long nanosUntilOverdue(String destination) {
        Long stopped = stoppedAt.get(destination);
        return stopped == null ? Long.MAX_VALUE : patienceNanos - (System.nanoTime() - stopped);
    }

    boolean isHandingOver(String destination) {
        return handingOver.contains(destination);
    }

    /** Something that may settle a destination happened (an ack, a rollback, the end of a get). */
    void progressed(String destination) {
        if (handingOver.contains(destination)) {
            signal();
        }
    }

    /**
     * Waits until {@code settled} holds or {@code deadlineNanos} (of {@link System#nanoTime()}) passes; {@code
     * settled} is evaluated under the lock that {@link #progressed} signals through, so no change is missed.
     *
     * @return whether it settled
     */
    boolean awaitSettled(BooleanSupplier settled, long deadlineNanos) throws InterruptedException {
        synchronized (changes) {
            while (!settled.getAsBoolean()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(changes, left);
            }
            return true;
        }
    }

    /**
     * What a get of a destination handing over waits: its timeout (none for a try-get, until the handover ends for
     * a get that waits for data without one), then it finds nothing; it stops waiting when the clients become
     * {@link #overdue}.
     */
    void awaitNothing(String destination, Long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout == null || timeout == -1L) {
            return;
        }
        long wait = timeout <= 0 ? Long.MAX_VALUE : (unit == null ? TimeUnit.MILLISECONDS : unit).toNanos(timeout);
        long start = System.nanoTime();
        synchronized (changes) {
            while (handingOver.contains(destination)) {
                long left = Math.min(wait - (System.nanoTime() - start), // no deadline sum: a timeout may be huge
                        nanosUntilOverdue(destination));
                if (left <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(changes, left);
            }
        }
    }

    private void signal() {
        synchronized (changes) {
            changes.notifyAll();
        }
    }
}
