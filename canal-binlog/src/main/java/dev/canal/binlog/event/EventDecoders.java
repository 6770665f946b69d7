package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;

/** The registry: which decoder reads which event type. Types without one become {@link UnknownEvent}. */
final class EventDecoders {

    private static final EventDecoder<?>[] BY_TYPE = new EventDecoder<?>[256];

    static {
        register(new FormatDescriptionEventDecoder(), EventType.FORMAT_DESCRIPTION);
        register(new RotateEventDecoder(), EventType.ROTATE);
        register(new QueryEventDecoder(), EventType.QUERY, EventType.MARIA_QUERY_COMPRESSED);
        register((h, c, ctx) -> new XidEvent(h, fixedBody(h, c, 8).int64()), EventType.XID);
        register((h, c, ctx) -> new IntVarEvent(h, fixedBody(h, c, 9).uint8(), c.int64()), EventType.INTVAR);
        register((h, c, ctx) -> new RandEvent(h, fixedBody(h, c, 16).int64(), c.int64()), EventType.RAND);
        register(new UserVarEventDecoder(), EventType.USER_VAR);
        register(new GtidEventDecoder(), EventType.GTID, EventType.ANONYMOUS_GTID);
        register(new TaggedGtidEventDecoder(), EventType.GTID_TAGGED);
        register(new PreviousGtidsEventDecoder(), EventType.PREVIOUS_GTIDS);
        register(new TableMapEventDecoder(), EventType.TABLE_MAP);
        register(new RowsEventDecoder(), EventType.PRE_GA_WRITE_ROWS, EventType.PRE_GA_UPDATE_ROWS,
                EventType.PRE_GA_DELETE_ROWS, EventType.WRITE_ROWS_V1, EventType.UPDATE_ROWS_V1,
                EventType.DELETE_ROWS_V1, EventType.WRITE_ROWS_V2, EventType.UPDATE_ROWS_V2, EventType.DELETE_ROWS_V2,
                EventType.PARTIAL_UPDATE_ROWS, EventType.MARIA_WRITE_ROWS_COMPRESSED_V1,
                EventType.MARIA_UPDATE_ROWS_COMPRESSED_V1, EventType.MARIA_DELETE_ROWS_COMPRESSED_V1,
                EventType.MARIA_WRITE_ROWS_COMPRESSED, EventType.MARIA_UPDATE_ROWS_COMPRESSED,
                EventType.MARIA_DELETE_ROWS_COMPRESSED);
        register((h, c, ctx) -> new RowsQueryEvent(h, skipLengthByteThenRest(c)), EventType.ROWS_QUERY);
        register(new HeartbeatEventDecoder(), EventType.HEARTBEAT, EventType.HEARTBEAT_V2);
        register(new XaPrepareEventDecoder(), EventType.XA_PREPARE);
        register(new TransactionPayloadEventDecoder(), EventType.TRANSACTION_PAYLOAD);
        register((h, c, ctx) -> new StopEvent(h), EventType.STOP);
        register(new IncidentEventDecoder(), EventType.INCIDENT);
        register((h, c, ctx) -> new AnnotateRowsEvent(h, restOfEvent(c)), EventType.MARIA_ANNOTATE_ROWS);
        register((h, c, ctx) -> new BinlogCheckpointEvent(h, c.string(c.checkedLength(c.uint32()))),
                EventType.MARIA_BINLOG_CHECKPOINT);
        register(new MariaGtidEventDecoder(), EventType.MARIA_GTID);
        register(new MariaGtidListEventDecoder(), EventType.MARIA_GTID_LIST);
        register((h, c, ctx) -> {
            throw new UnsupportedBinlogException("encrypted binlog not supported (MariaDB START_ENCRYPTION event;"
                    + " the events after it are encrypted with encrypt_binlog=ON)");
        }, EventType.MARIA_START_ENCRYPTION);
    }

    private EventDecoders() {
    }

    private static void register(EventDecoder<?> decoder, int... types) {
        for (int type : types) {
            BY_TYPE[type] = decoder;
        }
    }

    /** The decoder of a type, null when the type is not decoded. */
    static EventDecoder<?> forType(int type) {
        return BY_TYPE[type];
    }

    /** Events of a fixed size: any other body length means the event is not what its type says. */
    private static LittleEndianCursor fixedBody(EventHeader header, LittleEndianCursor c, int length) {
        if (c.remaining() != length) {
            throw new MalformedDataException(header.typeName() + " event body has " + c.remaining() + " bytes, not "
                    + length);
        }
        return c;
    }

    /** ROWS_QUERY starts with a one-byte length that overflows for long statements; the text runs to the end. */
    private static StatementText skipLengthByteThenRest(LittleEndianCursor c) {
        c.skip(1);
        return restOfEvent(c);
    }

    /** The rest of the body as a statement text over the event's own bytes (they can be many MiB: not copied). */
    private static StatementText restOfEvent(LittleEndianCursor c) {
        StatementText text = new StatementText(c.array(), c.position(), c.remaining());
        c.skip(c.remaining());
        return text;
    }
}
