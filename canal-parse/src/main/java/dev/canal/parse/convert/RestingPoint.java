package dev.canal.parse.convert;

import dev.canal.binlog.event.HeartbeatEvent;

/**
 * Where the stream rests when the source goes quiet: the last binlog event converted, and whether a transaction is
 * open after it. A heartbeat that reports the binlog's end right after that event, with no transaction open, makes
 * its position one a restart may resume after, although the event itself may belong to nothing a client selects
 * (docs/operations.md, "Quiet sources").
 *
 * <p>Binlog-order thread only.
 */
final class RestingPoint {

    private EventPosition last;
    private boolean inTransaction;

    /** An event at {@code at} was converted; it opens a transaction, closes one, or neither. */
    void passed(EventPosition at, Boundary boundary) {
        last = at;
        switch (boundary) {
            case OPENS -> inTransaction = true;
            case CLOSES -> inTransaction = false;
            case NONE -> {
            }
        }
    }

    /**
     * The last event's position when {@code heartbeat} says the binlog ends right after it and no transaction is
     * open; null otherwise (the stream skipped events to get there, or is inside a transaction).
     */
    EventPosition at(HeartbeatEvent heartbeat) {
        if (last == null || inTransaction || !last.file().equals(heartbeat.logFile())
                || last.end() != heartbeat.position()) {
            return null;
        }
        return last;
    }

    /** What an event does to the transaction it is in. */
    enum Boundary { OPENS, CLOSES, NONE }
}
