package dev.canal.parse.mysql.net;

import java.util.zip.CRC32;

/** Checks the trailing CRC32 of binlog events. Reuses one {@link CRC32}: one instance per reader thread. */
public final class EventChecksum {

    static final int HEADER_LENGTH = 19;
    static final int TYPE_OFFSET = 4;
    static final int EVENT_SIZE_OFFSET = 9;
    static final int LOG_POS_OFFSET = 13;

    private final BinlogChecksumType type;
    private final CRC32 crc = new CRC32();

    public EventChecksum(BinlogChecksumType type) {
        this.type = type;
    }

    public BinlogChecksumType type() {
        return type;
    }

    /** Bytes of checksum at the end of each event (0 or 4). */
    public int length() {
        return type.length();
    }

    /**
     * Throws when {@code event} (header, body and checksum) fails its checksum; {@code file} only names the file in
     * the message.
     */
    public void verify(byte[] event, String file) throws BinlogChecksumException {
        if (type == BinlogChecksumType.NONE) {
            return;
        }
        int bodyEnd = event.length - BinlogChecksumType.CRC32.length();
        if (bodyEnd < HEADER_LENGTH) {
            throw new BinlogChecksumException(file, -1, "event of " + event.length + " bytes is too short to carry a "
                    + "header and a CRC32 in " + file);
        }
        crc.reset();
        crc.update(event, 0, bodyEnd);
        long computed = crc.getValue();
        long stored = uint32(event, bodyEnd);
        if (computed != stored) {
            long next = uint32(event, LOG_POS_OFFSET);
            long start = next == 0 ? 0 : next - event.length;
            throw new BinlogChecksumException(file, start, "CRC32 mismatch in event type " + (event[TYPE_OFFSET] & 0xFF)
                    + " at " + file + ":" + start + " (next position " + next + ", " + event.length
                    + " bytes): computed 0x" + Long.toHexString(computed) + ", event carries 0x"
                    + Long.toHexString(stored));
        }
    }

    static long uint32(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }
}
