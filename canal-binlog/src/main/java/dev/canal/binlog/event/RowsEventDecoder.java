package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.BitSet;

/**
 * Rows events, all versions. Post-header: table id (6 bytes; 4 when the post-header is 6), flags (2), and in v2
 * the extra data length (2, counting itself). Body: v2 extra data, column count (length-encoded), the present
 * columns bitmap, for updates a second one for the after image, then the row images, which stay undecoded
 * (zlib-compressed in MariaDB's compressed variants, inflated here).
 *
 * <p>The returned event shares the event's byte array: callers must not reuse that array for another event.
 */
final class RowsEventDecoder implements EventDecoder<RowsEvent> {

    private static final int SHORT_TABLE_ID_POST_HEADER = 6;
    private static final int V2_POST_HEADER = 10;
    private static final int EXTRA_INFO_NDB = 0;
    private static final int EXTRA_INFO_PARTITION = 1;

    @Override
    public RowsEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int type = header.type();
        RowsEvent.Kind kind = kind(type);
        int postHeader = context.postHeaderLength(type);
        int version = version(type, postHeader);
        int bodyStart = c.position();
        long tableId = postHeader == SHORT_TABLE_ID_POST_HEADER ? c.uint32() : c.uint48();
        int flags = c.uint16();
        byte[] extra = new byte[0];
        if (version == 2) {
            int extraLength = c.uint16();
            if (extraLength < 2) {
                throw new MalformedDataException(header.typeName() + " extra data length " + extraLength + " < 2");
            }
            c.position(Math.max(c.position(), bodyStart + postHeader));
            extra = c.bytes(extraLength - 2);
            checkExtraData(extra, kind, header);
        } else {
            c.position(Math.max(c.position(), bodyStart + postHeader));
        }
        int columns = TableMapEventDecoder.readColumnCount(c);
        int bitmapBytes = (columns + 7) / 8;
        BitSet first = BitSet.valueOf(c.bytes(bitmapBytes));
        BitSet second = kind == RowsEvent.Kind.UPDATE || kind == RowsEvent.Kind.PARTIAL_UPDATE
                ? BitSet.valueOf(c.bytes(bitmapBytes))
                : null;
        BitSet before = kind == RowsEvent.Kind.WRITE ? null : first;
        BitSet after = switch (kind) {
            case WRITE -> first;
            case DELETE -> null;
            default -> second;
        };
        if (isCompressed(type)) {
            byte[] rows = MariaCompression.inflate(c.array(), c.position(), c.remaining(), header.typeName());
            return new RowsEvent(header, kind, version, tableId, flags, extra, columns, before, after, rows, 0,
                    rows.length);
        }
        return new RowsEvent(header, kind, version, tableId, flags, extra, columns, before, after, c.array(),
                c.position(), c.limit());
    }

    /** v2 extra row info: NDB info (tag 0, length, payload) and partition ids (tag 1); any other tag is corrupt. */
    private static void checkExtraData(byte[] extra, RowsEvent.Kind kind, EventHeader header) {
        LittleEndianCursor e = new LittleEndianCursor(extra);
        while (e.hasRemaining()) {
            int tag = e.uint8();
            switch (tag) {
                case EXTRA_INFO_NDB -> e.skip(e.uint8());
                case EXTRA_INFO_PARTITION -> e.skip(kind == RowsEvent.Kind.UPDATE
                        || kind == RowsEvent.Kind.PARTIAL_UPDATE ? 4 : 2);
                default -> throw new MalformedDataException(header.typeName() + " has an unknown extra row data tag "
                        + tag);
            }
        }
    }

    private static RowsEvent.Kind kind(int type) {
        return switch (type) {
            case EventType.PRE_GA_WRITE_ROWS, EventType.WRITE_ROWS_V1, EventType.WRITE_ROWS_V2,
                    EventType.MARIA_WRITE_ROWS_COMPRESSED_V1, EventType.MARIA_WRITE_ROWS_COMPRESSED -> RowsEvent.Kind.WRITE;
            case EventType.PRE_GA_UPDATE_ROWS, EventType.UPDATE_ROWS_V1, EventType.UPDATE_ROWS_V2,
                    EventType.MARIA_UPDATE_ROWS_COMPRESSED_V1, EventType.MARIA_UPDATE_ROWS_COMPRESSED -> RowsEvent.Kind.UPDATE;
            case EventType.PARTIAL_UPDATE_ROWS -> RowsEvent.Kind.PARTIAL_UPDATE;
            default -> RowsEvent.Kind.DELETE;
        };
    }

    private static int version(int type, int postHeader) {
        return switch (type) {
            case EventType.PRE_GA_WRITE_ROWS, EventType.PRE_GA_UPDATE_ROWS, EventType.PRE_GA_DELETE_ROWS -> 0;
            case EventType.WRITE_ROWS_V1, EventType.UPDATE_ROWS_V1, EventType.DELETE_ROWS_V1,
                    EventType.MARIA_WRITE_ROWS_COMPRESSED_V1, EventType.MARIA_UPDATE_ROWS_COMPRESSED_V1,
                    EventType.MARIA_DELETE_ROWS_COMPRESSED_V1 -> 1;
            case EventType.MARIA_WRITE_ROWS_COMPRESSED, EventType.MARIA_UPDATE_ROWS_COMPRESSED,
                    EventType.MARIA_DELETE_ROWS_COMPRESSED -> postHeader >= V2_POST_HEADER ? 2 : 1;
            default -> 2;
        };
    }

    private static boolean isCompressed(int type) {
        return type >= EventType.MARIA_WRITE_ROWS_COMPRESSED_V1 && type <= EventType.MARIA_DELETE_ROWS_COMPRESSED;
    }
}
