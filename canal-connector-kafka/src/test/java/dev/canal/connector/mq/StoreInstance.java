package dev.canal.connector.mq;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.store.Event;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.List;

/**
 * A destination without MySQL: a real memory store and meta manager, with the test in the parser's role
 * putting entries into the store (blocking when it is full, as the parser would).
 */
public final class StoreInstance implements CanalInstance {

    public static final LogIdentity SOURCE = LogIdentity.of("127.0.0.1", 3306);

    private final String destination;
    private final MemoryEventStore store;
    private final MetaManager meta = new MemoryMetaManager();
    private volatile boolean running;

    public StoreInstance(String destination, StoreConfig storeConfig) {
        this.destination = destination;
        this.store = new MemoryEventStore(storeConfig);
    }

    public void put(List<CanalEntry.Entry> entries) {
        try {
            store.put(entries.stream().map(e -> Event.of(SOURCE, e, store.isRaw())).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while putting into " + destination, e);
        }
    }

    @Override
    public String getDestination() {
        return destination;
    }

    @Override
    public EventParser getEventParser() {
        return null; // the test puts entries itself
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
    public boolean subscribeChange(ClientIdentity identity) {
        return false;
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
