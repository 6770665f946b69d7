package dev.canal.server;

import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.position.LogPosition;
import dev.canal.store.EventStore;
import dev.canal.store.Events;
import dev.canal.store.StoreConsumer;
import java.util.concurrent.TimeUnit;

/** The destination's default consumer (Canal's one pointer pair) seen as a {@link StoreConsumer}. */
record DefaultStoreConsumer(EventStore store) implements StoreConsumer {

    @Override
    public String name() {
        return ConsumerName.DEFAULT;
    }

    @Override
    public Events get(int batchSize) throws InterruptedException {
        return store.get(batchSize);
    }

    @Override
    public Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException {
        return store.get(batchSize, timeout, unit);
    }

    @Override
    public Events tryGet(int batchSize) {
        return store.tryGet(batchSize);
    }

    @Override
    public void ack(LogPosition position, long endSeq) {
        store.ack(position, endSeq);
    }

    @Override
    public void rollback() {
        store.rollback();
    }

    @Override
    public LogPosition getFirstPosition() {
        return store.getFirstPosition();
    }
}
