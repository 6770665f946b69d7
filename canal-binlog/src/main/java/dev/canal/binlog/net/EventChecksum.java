package dev.canal.binlog.net;

import dev.canal.binlog.io.MalformedDataException;
import java.util.zip.CRC32;

/** Checks the trailing CRC32 of binlog events. Reuses one {@link CRC32}: one instance per reader thread. */
public final class EventChecksum {

    static final int HEADER_LENGTH = 19;
    static final int TYPE_OFFSET = 4;
    static final int EVENT_SIZE_OFFSET = 9;
    static final int LOG_POS_OFFSET = 13;
    static final int FORMAT_DESCRIPTION_EVENT = 15;
    private static final int ALG_OFF = 0;
    private static final int ALG_CRC32 = 1;

    private final CRC32 crc = new CRC32();

    /**
     * The checksum algorithm a FORMAT_DESCRIPTION event announces for the events after it in its file: the byte
     * before its own CRC32. A checksum-aware server (MySQL 5.6.1+, MariaDB 5.3+) always writes that byte and always
     * checksums the FORMAT_DESCRIPTION event itself, whatever the algorithm of the file.
     */
    public static BinlogChecksumType announcedBy(byte[] formatDescription) {
        int at = formatDescription.length - BinlogChecksumType.CRC32.length() - 1;
        int alg = at >= HEADER_LENGTH ? formatDescription[at] & 0xFF : -1;
        return switch (alg) {
            case ALG_OFF -> BinlogChecksumType.NONE;
            case ALG_CRC32 -> BinlogChecksumType.CRC32;
            default -> throw new MalformedDataException(
                    "FORMAT_DESCRIPTION event announces unknown checksum algorithm " + alg);
        };
    }

    /**
     * Throws when {@code event} (header, body and checksum) fails a checksum of {@code type}; {@code file} only names
     * the file in the message.
     */
    public void verify(byte[] event, BinlogChecksumType type, String file) throws BinlogChecksumException {
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
