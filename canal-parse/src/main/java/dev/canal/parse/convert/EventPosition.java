package dev.canal.parse.convert;

import dev.canal.binlog.event.EventHeader;
import dev.canal.protocol.position.EntryPosition;

/**
 * Where an event sits: binlog file, start offset, server, time and length. Events inside a
 * TRANSACTION_PAYLOAD carry no position of their own; they take their payload event's.
 */
public record EventPosition(String file, long offset, long serverId, long timestampSeconds, long length) {

    public static EventPosition of(String file, EventHeader header) {
        return new EventPosition(file, header.nextPosition() - header.eventLength(), header.serverId(),
                header.timestamp(), header.eventLength());
    }

    /** As a protocol position (time in milliseconds). */
    public EntryPosition toEntryPosition() {
        return new EntryPosition(file, offset, serverId, timestampSeconds * 1000, null, false);
    }

    /** End offset: where the next event starts. */
    public long end() {
        return offset + length;
    }
}
