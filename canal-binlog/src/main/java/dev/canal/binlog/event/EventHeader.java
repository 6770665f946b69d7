package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;

/**
 * The common header every binlog v4 event starts with (19 bytes; a FORMAT_DESCRIPTION may announce a longer
 * header whose extra bytes are skipped).
 *
 * @param timestamp    seconds since the epoch when the statement started on the primary
 * @param type         event type code ({@link EventType})
 * @param serverId     server id of the primary that wrote the event
 * @param eventLength  whole event length in bytes, header and checksum included
 * @param nextPosition {@code log_pos}: offset just after this event in the primary's binlog (0 inside a
 *                     TRANSACTION_PAYLOAD and for some artificial events)
 * @param flags        {@code LOG_EVENT_*_F} flags
 */
public record EventHeader(long timestamp, int type, long serverId, long eventLength, long nextPosition, int flags) {

    /** Length of the v4 common header. */
    public static final int V4_LENGTH = 19;

    /** FORMAT_DESCRIPTION flag: the file was not closed cleanly (still in use when copied). */
    public static final int FLAG_BINLOG_IN_USE = 0x1;
    /** Flag for events a replica may skip when it does not know the type. */
    public static final int FLAG_IGNORABLE = 0x80;

    /** Reads the 19 fixed header bytes; the cursor is left just after them. */
    public static EventHeader read(LittleEndianCursor c) {
        long timestamp = c.uint32();
        int type = c.uint8();
        long serverId = c.uint32();
        long length = c.uint32();
        long nextPosition = c.uint32();
        int flags = c.uint16();
        return new EventHeader(timestamp, type, serverId, length, nextPosition, flags);
    }

    public String typeName() {
        return EventType.name(type);
    }
}
