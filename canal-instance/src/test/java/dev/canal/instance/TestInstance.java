package dev.canal.instance;

import dev.canal.meta.MemoryMetaManager;
import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.sink.EntryEventSink;
import dev.canal.store.Event;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A destination without MySQL, with the test in the parser's role: a real memory store and meta manager, and in
 * an instance made {@link #withSink with a sink} a real sink (transaction filter, handlers, heartbeat removal)
 * in front of the store, as in production. Remembers the filters clients subscribed with. A subclass that feeds
 * the store itself overrides the lifecycle.
 */
public class TestInstance implements CanalInstance {

    /** Where every entry put here comes from. */
    public static final LogIdentity SOURCE = LogIdentity.of("127.0.0.1", 3306);

    private final String destination;
    private final MemoryEventStore store;
    private final MetaManager meta;
    private final EntryEventSink sink; // null: entries go straight into the store
    private final EventParser parser; // holds the parser's place in the start order where there is a sink
    private final List<String> appliedFilters = new ArrayList<>(); // guarded by this
    private volatile boolean running;

    public TestInstance(String destination, StoreConfig storeConfig) {
        this(destination, storeConfig, new MemoryMetaManager());
    }

    public TestInstance(String destination, StoreConfig storeConfig, MetaManager meta) {
        this(destination, storeConfig, meta, false);
    }

    private TestInstance(String destination, StoreConfig storeConfig, MetaManager meta, boolean withSink) {
        this.destination = destination;
        this.meta = meta;
        this.store = new MemoryEventStore(storeConfig);
        this.sink = withSink ? new EntryEventSink(store, false) : null;
        this.parser = withSink ? new IdleEventParser() : null;
    }

    /** An instance whose entries pass a real sink ({@link #parse}) on their way into the store. */
    public static TestInstance withSink(String destination, StoreConfig storeConfig) {
        return withSink(destination, storeConfig, new MemoryMetaManager());
    }

    public static TestInstance withSink(String destination, StoreConfig storeConfig, MetaManager meta) {
        return new TestInstance(destination, storeConfig, meta, true);
    }

    /** Puts entries straight into the store as the sink would (encoded once in raw mode), blocking while it is full. */
    public void put(List<CanalEntry.Entry> entries) {
        try {
            store.put(entries.stream().map(e -> Event.of(SOURCE, e, store.isRaw())).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while putting into " + destination, e);
        }
    }

    /** Hands entries to the sink as the parser would after a flush of its transaction buffer. */
    public void parse(List<CanalEntry.Entry> entries) {
        if (sink == null) {
            throw new IllegalStateException("the test instance of " + destination + " has no sink; use withSink");
        }
        try {
            if (!sink.sink(entries, SOURCE, destination)) {
                throw new IllegalStateException("the sink of " + destination + " refused entries");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sinking into " + destination, e);
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
        return parser;
    }

    @Override
    public MemoryEventStore getEventStore() {
        return store;
    }

    @Override
    public EntryEventSink getEventSink() {
        return sink;
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
        if (sink != null) {
            sink.start();
            parser.start();
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (sink != null) {
            parser.stop();
            sink.stop();
        }
        store.stop();
        meta.stop();
    }

    @Override
    public boolean isStart() {
        return running;
    }
}
