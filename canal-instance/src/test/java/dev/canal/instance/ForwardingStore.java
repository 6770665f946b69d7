package dev.canal.instance;

import dev.canal.protocol.position.LogPosition;
import dev.canal.store.Event;
import dev.canal.store.EventStore;
import dev.canal.store.Events;
import dev.canal.store.StoreConfig;
import dev.canal.store.StoreCounters;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Passes every call to a real store; tests override one method to make it fail. */
class ForwardingStore implements EventStore {

    private final EventStore delegate;

    ForwardingStore(EventStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void start() {
        delegate.start();
    }

    @Override
    public void stop() {
        delegate.stop();
    }

    @Override
    public boolean isStarted() {
        return delegate.isStarted();
    }

    @Override
    public boolean isRaw() {
        return delegate.isRaw();
    }

    @Override
    public void put(List<Event> events) throws InterruptedException {
        delegate.put(events);
    }

    @Override
    public boolean put(List<Event> events, long timeout, TimeUnit unit) throws InterruptedException {
        return delegate.put(events, timeout, unit);
    }

    @Override
    public boolean tryPut(List<Event> events) {
        return delegate.tryPut(events);
    }

    @Override
    public Events get(int batchSize) throws InterruptedException {
        return delegate.get(batchSize);
    }

    @Override
    public Events get(int batchSize, long timeout, TimeUnit unit) throws InterruptedException {
        return delegate.get(batchSize, timeout, unit);
    }

    @Override
    public Events tryGet(int batchSize) {
        return delegate.tryGet(batchSize);
    }

    @Override
    public LogPosition getFirstPosition() {
        return delegate.getFirstPosition();
    }

    @Override
    public LogPosition getLatestPosition() {
        return delegate.getLatestPosition();
    }

    @Override
    public void ack(LogPosition position, long endSeq) {
        delegate.ack(position, endSeq);
    }

    @Override
    public void rollback() {
        delegate.rollback();
    }

    @Override
    public StoreCounters counters() {
        return delegate.counters();
    }

    @Override
    public StoreConfig config() {
        return delegate.config();
    }
}
