package dev.canal.store;

import dev.canal.protocol.position.LogPosition;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bounded buffer between the sink (producer) and the server (consumer) of one destination
 * (Canal's CanalEventStore). Events are put in binlog order, handed out in batches, and freed only
 * when acked; rollback hands out again everything not yet acked. Nothing is ever dropped: a full
 * store blocks the producer (back-pressure).
 *
 * <p>Operations on a store that is not started throw {@link IllegalStateException}; threads blocked in
 * put or get when the store stops are woken and get the same exception.
 */
public interface EventStore {

    void start();

    /** Stops the store, releases its contents and wakes every blocked producer and consumer. */
    void stop();

    boolean isStarted();

    /** Whether events are kept serialized (the sink builds them with {@link Event#of} in this mode). */
    boolean isRaw();

    /** Puts all events at once, waiting as long as needed for room. */
    void put(List<Event> events) throws InterruptedException;

    /** Puts all events at once if room appears within the timeout; false (nothing put) otherwise. */
    boolean put(List<Event> events, long timeout, TimeUnit unit) throws InterruptedException;

    /** Puts all events if there is room now; false (nothing put) otherwise. */
    boolean tryPut(List<Event> events);

    /**
     * Takes the next batch, waiting until "enough" is there: {@code batchSize} events (ITEMSIZE) or
     * {@code batchSize} memory units not yet taken (MEMSIZE), or the store is full (so a batch larger
     * than the store cannot wait forever).
     */
    Events get(int batchSize) throws InterruptedException;

    /** As {@link #get(int)} but returns what is there (possibly nothing) once the timeout expires. */
    Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException;

    /** Takes whatever is there now, up to the batch size; possibly nothing. */
    Events tryGet(int batchSize);

    /**
     * Where a new client starts: the first unacked event when nothing was acked yet, else the last
     * acked event (not included); null when the store never held anything.
     */
    LogPosition getFirstPosition();

    /** The last event put: included while unacked events remain, else not included; null if none. */
    LogPosition getLatestPosition();

    /**
     * Frees every event up to and including sequence {@code endSeq}, the end of a batch handed out.
     * The event at {@code endSeq} must be the one {@code position} designates. A negative
     * {@code endSeq} searches the handed-out events for the position instead.
     *
     * @throws IllegalStateException when no handed-out, unacked event matches
     */
    void ack(LogPosition position, long endSeq);

    /** Makes every handed-out, unacked event available to get again, in the same order. */
    void rollback();

    StoreCounters counters();

    /**
     * Attaches a named consumer (docs/consumers.md), or returns it if attached. A consumer with a cursor starts
     * after it, skipping the entries it acked already; one without starts at the oldest entry the store holds.
     * From then on the store keeps every entry until each attached consumer, the default one included, acked it.
     * A cursor older than the oldest entry the store still holds cannot be served: the consumer is attached
     * detached, and told so on its first get. Attaching a detached consumer (the default one is named "") without a
     * cursor attaches it again at the oldest entry held: it never acked anything, so it misses nothing it had.
     *
     * @throws UnsupportedOperationException for a store without named consumers
     */
    default StoreConsumer attach(String consumer, LogPosition cursor) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no named consumers");
    }

    /**
     * Forgets a named consumer: the store no longer keeps entries for it. Nothing happens for an unknown one. The
     * default consumer ("") is marked detached instead, until {@link #attach} attaches it again.
     */
    default void detach(String consumer) {
    }

    /** The attached (or detached, not yet forgotten) named consumer, or null. */
    default StoreConsumer consumer(String consumer) {
        return null;
    }

    /** Every consumer's place, the default one first; empty for a store without named consumers. */
    default List<ConsumerCounters> consumerCounters() {
        return List.of();
    }

    /** The settings the store was built with: batch mode, buffer size, raw or not. */
    StoreConfig config();
}
