package dev.canal.server.metrics;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.server.TestEntries;
import dev.canal.sink.EntryEventSink;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.List;

/**
 * A destination without MySQL whose entries go the production way: a real sink (transaction filter, handlers,
 * heartbeat removal) into a real memory store, with a real meta manager; the test plays the parser.
 */
final class SinkTestInstance implements CanalInstance {

    /** Finds the sink of this kind of instance, for the exporter. */
    static final SinkLocator SINKS = instance -> instance instanceof SinkTestInstance test ? test.sink : null;

    private final String destination;
    private final MemoryEventStore store;
    private final EntryEventSink sink;
    private final MetaManager meta;
    private final EventParser parser = new IdleParser();
    private volatile boolean running;

    SinkTestInstance(String destination, StoreConfig storeConfig) {
        this(destination, storeConfig, new MemoryMetaManager());
    }

    SinkTestInstance(String destination, StoreConfig storeConfig, MetaManager meta) {
        this.destination = destination;
        this.meta = meta;
        this.store = new MemoryEventStore(storeConfig);
        this.sink = new EntryEventSink(store, false);
    }

    /** Hands entries to the sink as the parser would after a flush of its transaction buffer. */
    void parse(List<CanalEntry.Entry> entries) {
        try {
            if (!sink.sink(entries, TestEntries.SOURCE, destination)) {
                throw new IllegalStateException("the sink of " + destination + " refused entries");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    EntryEventSink sink() {
        return sink;
    }

    @Override
    public String getDestination() {
        return destination;
    }

    @Override
    public EventParser getEventParser() {
        return parser;
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
        sink.start();
        parser.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        parser.stop();
        sink.stop();
        store.stop();
        meta.stop();
    }

    @Override
    public boolean isStart() {
        return running;
    }

    /** The parser's place in the start order; the test produces the entries. */
    private static final class IdleParser implements EventParser {

        private volatile boolean running;

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isStart() {
            return running;
        }
    }
}
