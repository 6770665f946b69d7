package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import java.util.UUID;

/**
 * GTID and ANONYMOUS_GTID: flags (1), sid (16), gno (8); since 5.7 the logical clock (type code 2, last
 * committed 8, sequence number 8); since 8.0.1 commit timestamps (7 bytes each, the original one only when the
 * top bit of the immediate one is set); since 8.0.14 the transaction length (length-encoded) and server
 * versions (4 bytes each, the original one only when the top bit of the immediate one is set).
 */
final class GtidEventDecoder implements EventDecoder<GtidEvent> {

    private static final int LOGICAL_TIMESTAMP_TYPECODE = 2;
    private static final long TIMESTAMP_ORIGINAL_PRESENT = 1L << 55;
    private static final long SERVER_VERSION_ORIGINAL_PRESENT = 1L << 31;

    @Override
    public GtidEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int flags = c.uint8();
        UUID sid = readUuid(c);
        long gno = c.int64();
        long lastCommitted = -1;
        long sequenceNumber = -1;
        long immediateTs = -1;
        long originalTs = -1;
        long transactionLength = -1;
        long immediateVersion = -1;
        long originalVersion = -1;
        if (c.hasRemaining() && c.uint8() == LOGICAL_TIMESTAMP_TYPECODE) {
            lastCommitted = c.int64();
            sequenceNumber = c.int64();
            if (c.remaining() >= 7) {
                immediateTs = c.uintN(7);
                originalTs = immediateTs;
                if ((immediateTs & TIMESTAMP_ORIGINAL_PRESENT) != 0) {
                    immediateTs &= ~TIMESTAMP_ORIGINAL_PRESENT;
                    originalTs = c.uintN(7);
                }
                if (c.hasRemaining()) {
                    transactionLength = c.lengthEncodedInt();
                }
                if (c.remaining() >= 4) {
                    immediateVersion = c.uint32();
                    originalVersion = immediateVersion;
                    if ((immediateVersion & SERVER_VERSION_ORIGINAL_PRESENT) != 0) {
                        immediateVersion &= ~SERVER_VERSION_ORIGINAL_PRESENT;
                        originalVersion = c.uint32();
                    }
                }
            }
        }
        return new GtidEvent(header, header.type() == EventType.ANONYMOUS_GTID, flags, sid, null, gno, lastCommitted,
                sequenceNumber, immediateTs, originalTs, transactionLength, immediateVersion, originalVersion);
    }

    static UUID readUuid(LittleEndianCursor c) {
        return new UUID(c.uintBigEndian(8), c.uintBigEndian(8));
    }
}
