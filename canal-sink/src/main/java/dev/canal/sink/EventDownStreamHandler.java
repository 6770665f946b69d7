package dev.canal.sink;

import dev.canal.store.Event;
import java.util.List;

/**
 * A hook around the store put (Canal's CanalEventDownStreamHandler). {@code before} sees every
 * batch the sink accepted, heartbeats included, and may return a changed list; {@code after} sees
 * what was stored (it is not called when nothing was, as for a heartbeat-only batch). In group mode several parser threads may call a handler at once.
 */
public interface EventDownStreamHandler {

    default List<Event> before(List<Event> events) {
        return events;
    }

    default List<Event> after(List<Event> events) {
        return events;
    }
}
