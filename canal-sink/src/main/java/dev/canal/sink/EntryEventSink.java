package dev.canal.sink;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.store.Event;
import dev.canal.store.EventStore;
import dev.canal.store.StoreCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink of one instance (Canal's EntryEventSink): per source, drops empty transactions and, when
 * asked, transaction boundaries ({@link TransactionBoundaryFilter}); runs the handlers, which see
 * heartbeats; removes heartbeat and GTID entries, which clients never receive; then puts the rest into the store in one piece, waiting while the store is full. The
 * time spent waiting is counted by the store ({@link StoreCounters#putBlockingNanos()}).
 */
public class EntryEventSink implements EventSink {

    private static final Logger log = LoggerFactory.getLogger(EntryEventSink.class);

    private final EventStore store;
    private final boolean filterTransactionEntry;
    private final List<EventDownStreamHandler> handlers = new CopyOnWriteArrayList<>();
    private final ConcurrentMap<LogIdentity, TransactionBoundaryFilter> boundaryFilters = new ConcurrentHashMap<>();
    private volatile boolean running;

    /**
     * @param filterTransactionEntry {@code canal.instance.filter.transaction.entry}
     */
    public EntryEventSink(EventStore store, boolean filterTransactionEntry) {
        this.store = Objects.requireNonNull(store, "store");
        this.filterTransactionEntry = filterTransactionEntry;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        boundaryFilters.clear();
    }

    @Override
    public boolean isStarted() {
        return running;
    }

    public EventStore store() {
        return store;
    }

    @Override
    public boolean sink(List<CanalEntry.Entry> entries, LogIdentity remoteAddress, String destination)
            throws InterruptedException {
        if (!running) {
            log.warn("sink of {} is stopped: {} entries from {} not stored", destination, entries.size(),
                    remoteAddress);
            return false;
        }
        List<Event> events = boundaryFilters
                .computeIfAbsent(remoteAddress, source -> new TransactionBoundaryFilter(filterTransactionEntry))
                .admit(entries, remoteAddress, store.isRaw());
        return events.isEmpty() || deliver(events);
    }

    /** Runs the handlers around the store put; returns false when the sink stopped meanwhile. */
    protected boolean deliver(List<Event> events) throws InterruptedException {
        List<Event> current = events;
        for (EventDownStreamHandler handler : handlers) {
            current = handler.before(current);
        }
        List<Event> stored = withoutInternalEntries(current);
        if (!running) {
            return false;
        }
        if (stored.isEmpty()) {
            return true;
        }
        store.put(stored);
        for (EventDownStreamHandler handler : handlers) {
            stored = handler.after(stored);
        }
        return true;
    }

    private static List<Event> withoutInternalEntries(List<Event> events) {
        List<Event> kept = null;
        for (int i = 0; i < events.size(); i++) {
            Event event = events.get(i);
            boolean internal = event.entryType() == EntryType.HEARTBEAT || event.entryType() == EntryType.GTIDLOG;
            if (internal && kept == null) {
                kept = new ArrayList<>(events.subList(0, i));
            } else if (!internal && kept != null) {
                kept.add(event);
            }
        }
        return kept == null ? events : kept;
    }

    @Override
    public void addHandler(EventDownStreamHandler handler) {
        handlers.add(Objects.requireNonNull(handler, "handler"));
    }

    @Override
    public void addHandler(EventDownStreamHandler handler, int index) {
        handlers.add(index, Objects.requireNonNull(handler, "handler"));
    }

    @Override
    public void removeHandler(EventDownStreamHandler handler) {
        handlers.remove(handler);
    }

    @Override
    public List<EventDownStreamHandler> handlers() {
        return List.copyOf(handlers);
    }
}
