package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes whole events of one binlog stream in order, keeping what later events depend on: the current
 * FORMAT_DESCRIPTION (header and post-header lengths, checksum) and the TABLE_MAP of each table id.
 *
 * <p>Checksums are not verified here (the file reader and the replication client do that where the bytes
 * arrive); the trailing CRC32 is excluded from the body when the format description says there is one.
 *
 * <p>Not thread-safe: one context per stream, used by the one thread that keeps binlog order. Row images are
 * decoded elsewhere with {@link RowsDecoder}, which needs no context.
 */
public final class DecoderContext {

    private static final Logger log = LoggerFactory.getLogger(DecoderContext.class);

    /**
     * Table maps kept; table ids only grow within a server's lifetime, so the oldest are dropped beyond this
     * (a transaction re-sends the maps it uses, so only long-gone tables are lost).
     */
    private static final int MAX_CACHED_TABLE_MAPS = 100_000;

    private FormatDescriptionEvent formatDescription = FormatDescriptionEventDecoder.defaultV4();
    private final Map<Long, TableMapEvent> tableMaps = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, TableMapEvent> eldest) {
            return size() > MAX_CACHED_TABLE_MAPS;
        }
    };
    private final BitSet warnedTypes = new BitSet(256);

    /** A context for a stream whose first events arrive before its FORMAT_DESCRIPTION without checksums. */
    public DecoderContext() {
        this(false);
    }

    /**
     * A context for a replication stream: the primary sends a ROTATE before the FORMAT_DESCRIPTION, already with
     * the checksum agreed for the connection ({@code @master_binlog_checksum}).
     */
    public DecoderContext(boolean crc32BeforeFormatDescription) {
        if (crc32BeforeFormatDescription) {
            FormatDescriptionEvent d = formatDescription;
            formatDescription = new FormatDescriptionEvent(d.header(), d.binlogVersion(), d.serverVersion(),
                    d.createTimestamp(), d.headerLength(), d.postHeaderLengths(), FormatDescriptionEvent.CHECKSUM_CRC32);
        }
    }

    /** The format description in force: the last one decoded, or a MySQL 8.0 default before any. */
    public FormatDescriptionEvent formatDescription() {
        return formatDescription;
    }

    /** The last TABLE_MAP seen for a table id, or null. */
    public TableMapEvent tableMap(long tableId) {
        return tableMaps.get(tableId);
    }

    /**
     * Decodes one whole event, {@code length} bytes from {@code offset}: header, body and (when the format
     * description says CRC32) checksum.
     *
     * @throws MalformedDataException     when the bytes do not form a valid event
     * @throws UnsupportedBinlogException for an encrypted binlog
     */
    public BinlogEvent decode(byte[] buf, int offset, int length) {
        return decode(buf, offset, length, true);
    }

    public BinlogEvent decode(byte[] event) {
        return decode(event, 0, event.length);
    }

    /** Decodes an event carried inside a TRANSACTION_PAYLOAD, which has no checksum of its own. */
    BinlogEvent decodeWithoutChecksum(byte[] buf, int offset, int length) {
        return decode(buf, offset, length, false);
    }

    private BinlogEvent decode(byte[] buf, int offset, int length, boolean withChecksum) {
        LittleEndianCursor cursor = new LittleEndianCursor(buf, offset, length);
        EventHeader header = EventHeader.read(cursor);
        if (header.eventLength() != length) {
            throw new MalformedDataException(header.typeName() + " event header says " + header.eventLength()
                    + " bytes but the event has " + length);
        }
        int type = header.type();
        if (type == EventType.FORMAT_DESCRIPTION) {
            // The FDE always has the 19-byte header and says itself whether it carries a checksum.
            FormatDescriptionEvent fde = FormatDescriptionEventDecoder.INSTANCE.decode(header, cursor, this);
            formatDescription = fde;
            tableMaps.clear();
            return fde;
        }
        int end = offset + length - (withChecksum ? formatDescription.checksumLength() : 0);
        int bodyStart = offset + formatDescription.headerLength();
        if (bodyStart > end) {
            throw new MalformedDataException(header.typeName() + " event of " + length
                    + " bytes is shorter than its header and checksum");
        }
        cursor.position(bodyStart);
        cursor.limit(end);
        EventDecoder<?> decoder = EventDecoders.forType(type);
        if (decoder == null) {
            warnOnce(header);
            return new UnknownEvent(header, end - bodyStart);
        }
        BinlogEvent event = decoder.decode(header, cursor, this);
        if (event instanceof TableMapEvent tableMap) {
            tableMaps.put(tableMap.tableId(), tableMap);
        }
        return event;
    }

    int postHeaderLength(int type) {
        return formatDescription.postHeaderLength(type);
    }

    private void warnOnce(EventHeader header) {
        if (!warnedTypes.get(header.type())) {
            warnedTypes.set(header.type());
            log.warn("skipping {} events (type {}): not decoded by this server{}", header.typeName(), header.type(),
                    (header.flags() & EventHeader.FLAG_IGNORABLE) != 0 ? "; marked ignorable by the primary" : "");
        }
    }
}
