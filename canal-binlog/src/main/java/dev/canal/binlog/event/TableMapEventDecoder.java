package dev.canal.binlog.event;

import dev.canal.binlog.column.ColumnDecoder;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.BitSet;

/**
 * TABLE_MAP. Post-header: table id (6 bytes, 4 in early 5.1 servers whose post-header is 6 bytes), flags (2).
 * Body: schema and table (one-byte length, name, 0x00 each), column count (length-encoded), one type byte per
 * column, type metadata (length-encoded size, then per column), nullability bitmap, optional metadata.
 */
final class TableMapEventDecoder implements EventDecoder<TableMapEvent> {

    /** MySQL allows at most 4096 columns per table. */
    static final int MAX_COLUMNS = 4096;
    private static final int SHORT_TABLE_ID_POST_HEADER = 6;

    @Override
    public TableMapEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int bodyStart = c.position();
        int postHeader = context.postHeaderLength(header.type());
        long tableId = postHeader == SHORT_TABLE_ID_POST_HEADER ? c.uint32() : c.uint48();
        int flags = c.uint16();
        c.position(Math.max(c.position(), bodyStart + postHeader));
        String schema = c.string(c.uint8());
        c.skip(1);
        String table = c.string(c.uint8());
        c.skip(1);
        int columnCount = readColumnCount(c);
        int[] types = new int[columnCount];
        for (int i = 0; i < columnCount; i++) {
            types[i] = c.uint8();
        }
        if (!c.hasRemaining()) {
            // MySQL 5.1 before 5.1.18 logged neither type metadata nor nullability.
            return new TableMapEvent(header, tableId, flags, schema, table, columnCount, types, new int[columnCount],
                    new BitSet(), TableMetadata.NONE);
        }
        int metaLength = c.checkedLength(c.lengthEncodedInt());
        int metaEnd = c.position() + metaLength;
        LittleEndianCursor meta = new LittleEndianCursor(c.array(), c.position(), metaLength);
        int[] metadata = new int[columnCount];
        for (int i = 0; i < columnCount; i++) {
            metadata[i] = ColumnDecoder.readMetadata(types[i], meta);
        }
        c.position(metaEnd);
        BitSet nullable = BitSet.valueOf(c.bytes((columnCount + 7) / 8));
        TableMetadata optional = c.hasRemaining()
                ? TableMetadataReader.read(c, types, metadata)
                : TableMetadata.NONE;
        return new TableMapEvent(header, tableId, flags, schema, table, columnCount, types, metadata, nullable,
                optional);
    }

    /** A column count, at most {@link #MAX_COLUMNS} (the bytes that follow are checked as they are read). */
    static int readColumnCount(LittleEndianCursor c) {
        long count = c.lengthEncodedInt();
        if (count < 0 || count > MAX_COLUMNS) {
            throw new MalformedDataException("column count " + count + " at offset " + c.offset());
        }
        return (int) count;
    }
}
