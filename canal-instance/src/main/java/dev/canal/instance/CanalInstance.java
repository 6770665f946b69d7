package dev.canal.instance;

import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.protocol.ClientIdentity;
import dev.canal.sink.EventSink;
import dev.canal.store.EventStore;

/**
 * The running pipeline of one destination (Canal's CanalInstance): parser, sink and store, plus the meta
 * manager holding its clients' cursors and batches. Started in the order meta, alarm handler, store, sink,
 * parser and stopped in reverse.
 */
public interface CanalInstance {

    String getDestination();

    EventParser getEventParser();

    EventStore getEventStore();

    MetaManager getMetaManager();

    /**
     * The sink between parser and store, for what watches the entries passing it (the sink metrics); null for an instance without one it can share.
     */
    default EventSink getEventSink() {
        return null;
    }

    /**
     * Called when a client subscribes: a non-empty client filter replaces the parser's table white list for
     * every client of the destination; an empty one changes nothing.
     *
     * @return whether the filter was applied
     */
    boolean subscribeChange(ClientIdentity identity);

    void start();

    /**
     * Readies, before {@link #start()}, what does not depend on where the instance will start (its parser's schema
     * history), so that the start is quick: a standby server's warm instance (docs/high-availability.md). Reads no
     * binlog. {@link #stop()} releases what it holds if the instance never starts. Nothing by default.
     */
    default void prepare() {
    }

    void stop();

    boolean isStart();
}
