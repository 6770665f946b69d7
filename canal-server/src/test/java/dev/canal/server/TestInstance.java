package dev.canal.server;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.store.Event;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A destination without MySQL: a real memory store and meta manager, and a test in the role of the parser
 * putting entries into the store. Remembers the filters clients subscribed with.
 */
public final class TestInstance implements CanalInstance {

    private final String destination;
    private final MemoryEventStore store;
    private final MetaManager meta;
    private final List<String> appliedFilters = new ArrayList<>();
    private volatile boolean running;

    public TestInstance(String destination, StoreConfig storeConfig, MetaManager meta) {
        this.destination = destination;
        this.store = new MemoryEventStore(storeConfig);
        this.meta = meta;
    }

    /** Puts entries as the sink would (encoded once in raw mode). */
    public void put(List<CanalEntry.Entry> entries) {
        List<Event> events = entries.stream().map(e -> Event.of(TestEntries.SOURCE, e, store.isRaw())).toList();
        try {
            store.put(events);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public synchronized List<String> appliedFilters() {
        return List.copyOf(appliedFilters);
    }

    @Override
    public String getDestination() {
        return destination;
    }

    @Override
    public EventParser getEventParser() {
        return null; // no parser: the test puts entries itself
    }

    @Override
    public MemoryEventStore getEventStore() {
        return store;
    }

    @Override
    public MetaManager getMetaManager() {
        return meta;
    }

    @Override
    public synchronized boolean subscribeChange(ClientIdentity identity) {
        if (!identity.hasFilter()) {
            return false;
        }
        appliedFilters.add(identity.filter());
        return true;
    }

    @Override
    public void start() {
        meta.start();
        store.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        store.stop();
        meta.stop();
    }

    @Override
    public boolean isStart() {
        return running;
    }
}
