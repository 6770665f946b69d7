package dev.canal.store;

import dev.canal.protocol.position.LogPosition;
import java.util.concurrent.TimeUnit;

/**
 * One named consumer's view of a store (docs/consumers.md): its own get and ack sequences over the ring the
 * destination's consumers share, with the same batch, ack and rollback rules as the store's default consumer
 * ({@link EventStore}'s get, ack and rollback). Every call on a consumer that the store detached throws
 * {@link ConsumerDetachedException}.
 */
public interface StoreConsumer {

    String name();

    /** As {@link EventStore#get(int)}. */
    Events get(int batchSize) throws InterruptedException;

    /** As {@link EventStore#get(int, long, TimeUnit)}. */
    Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException;

    /** As {@link EventStore#tryGet(int)}. */
    Events tryGet(int batchSize);

    /** As {@link EventStore#ack(LogPosition, long)}, for this consumer only. */
    void ack(LogPosition position, long endSeq);

    /** As {@link EventStore#rollback()}, for this consumer only. */
    void rollback();

    /** As {@link EventStore#getFirstPosition()}, for this consumer. */
    LogPosition getFirstPosition();
}
