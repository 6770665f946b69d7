package dev.canal.store;

import dev.canal.protocol.position.PositionRange;
import java.util.List;

/**
 * One batch taken from the store: its events in order and their range (first, last, ack point, end
 * sequence). An empty batch has no range.
 */
public record Events(List<Event> events, PositionRange range) {

    private static final Events EMPTY = new Events(List.of(), null);

    public Events {
        events = List.copyOf(events);
        if (events.isEmpty() != (range == null)) {
            throw new IllegalArgumentException("a batch has a range exactly when it has events");
        }
    }

    public static Events empty() {
        return EMPTY;
    }

    public boolean isEmpty() {
        return events.isEmpty();
    }

    public int size() {
        return events.size();
    }
}
