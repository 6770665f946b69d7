package dev.canal.sink;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.LogIdentity;
import java.util.List;

/**
 * Where a parser hands its entries (Canal's CanalEventSink): the sink drops what clients must not
 * see, lets its handlers look at the rest, and puts it into the store, waiting while the store is
 * full.
 */
public interface EventSink {

    void start();

    /** Stops accepting entries and releases any thread waiting inside {@link #sink}. */
    void stop();

    boolean isStarted();

    /**
     * Sinks one flush of the parser's transaction buffer, in binlog order.
     *
     * @param remoteAddress the source the entries were read from (it becomes their position's identity)
     * @return true once the entries are stored or deliberately dropped; false when the sink stopped
     *         before they could be stored
     * @throws InterruptedException when the calling thread is interrupted while waiting for room
     */
    boolean sink(List<CanalEntry.Entry> entries, LogIdentity remoteAddress, String destination)
            throws InterruptedException;

    /** Appends a handler; handlers run in order. */
    void addHandler(EventDownStreamHandler handler);

    /** Inserts a handler at a position (a metrics handler goes first, to see heartbeats). */
    void addHandler(EventDownStreamHandler handler, int index);

    void removeHandler(EventDownStreamHandler handler);

    List<EventDownStreamHandler> handlers();
}
