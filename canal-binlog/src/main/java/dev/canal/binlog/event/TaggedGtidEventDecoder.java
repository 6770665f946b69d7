package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.UUID;

/**
 * GTID_TAGGED (MySQL 8.3+): a serialized message (format version, message size, last non-ignorable field) of
 * numbered fields: 0 flags, 1 sid (16 integers), 2 gno, 3 tag, 4 last committed, 5 sequence number, 6 immediate
 * and 7 original commit timestamp, 8 transaction length, 9 immediate and 10 original server version, 11 commit
 * group ticket. Absent optional fields default to the immediate ones; fields of newer servers are ignored.
 */
final class TaggedGtidEventDecoder implements EventDecoder<GtidEvent> {

    private static final int UUID_BYTES = 16;

    @Override
    public GtidEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int start = c.position();
        SerializedFields.readUnsigned(c);
        int size = SerializedFields.readInt(c, "GTID_TAGGED message size");
        if (size > c.limit() - start || start + size < c.position()) {
            throw new MalformedDataException("GTID_TAGGED message of " + size + " bytes in a body of "
                    + (c.limit() - start));
        }
        c.limit(start + size);
        SerializedFields.readUnsigned(c);
        int flags = 0;
        UUID sid = new UUID(0, 0);
        long gno = 0;
        String tag = null;
        long lastCommitted = -1;
        long sequenceNumber = -1;
        long immediateTs = -1;
        long originalTs = -1;
        long length = -1;
        long immediateVersion = -1;
        long originalVersion = -1;
        fields:
        while (c.hasRemaining()) {
            int field = SerializedFields.readInt(c, "GTID_TAGGED field id");
            switch (field) {
                case 0 -> flags = (int) SerializedFields.readUnsigned(c);
                case 1 -> sid = readSid(c);
                case 2 -> gno = SerializedFields.readSigned(c);
                case 3 -> tag = SerializedFields.readString(c);
                case 4 -> lastCommitted = SerializedFields.readSigned(c);
                case 5 -> sequenceNumber = SerializedFields.readSigned(c);
                case 6 -> immediateTs = SerializedFields.readUnsigned(c);
                case 7 -> originalTs = SerializedFields.readUnsigned(c);
                case 8 -> length = SerializedFields.readUnsigned(c);
                case 9 -> immediateVersion = SerializedFields.readUnsigned(c);
                case 10 -> originalVersion = SerializedFields.readUnsigned(c);
                default -> {
                    break fields;
                }
            }
        }
        return new GtidEvent(header, false, flags, sid, tag == null || tag.isEmpty() ? null : tag, gno,
                lastCommitted, sequenceNumber, immediateTs, originalTs < 0 ? immediateTs : originalTs, length,
                immediateVersion, originalVersion < 0 ? immediateVersion : originalVersion);
    }

    private static UUID readSid(LittleEndianCursor c) {
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < UUID_BYTES; i++) {
            long b = SerializedFields.readUnsigned(c) & 0xFF;
            if (i < 8) {
                msb = msb << 8 | b;
            } else {
                lsb = lsb << 8 | b;
            }
        }
        return new UUID(msb, lsb);
    }
}
