package dev.canal.binlog.file;

import dev.canal.binlog.event.EventHeader;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.FormatDescriptionEvent;
import dev.canal.binlog.io.MalformedDataException;
import java.util.zip.CRC32;

/** CRC32 of binlog events: the last four bytes (little-endian) checksum everything before them. */
public final class BinlogChecksum {

    private static final int FLAGS_OFFSET = 17;
    private static final int TYPE_OFFSET = 4;

    private BinlogChecksum() {
    }

    /**
     * Verifies the CRC32 of one whole event. A FORMAT_DESCRIPTION is checksummed with LOG_EVENT_BINLOG_IN_USE_F
     * cleared (the server sets that flag after writing the checksum, and clears it when closing the file).
     *
     * @throws MalformedDataException naming both values when they differ
     */
    public static void verify(byte[] event, int offset, int length) {
        int crcLength = FormatDescriptionEvent.CRC32_LENGTH;
        if (length < EventHeader.V4_LENGTH + crcLength) {
            throw new MalformedDataException("event of " + length + " bytes cannot carry a CRC32");
        }
        CRC32 crc = new CRC32();
        int flagsLow = offset + FLAGS_OFFSET;
        if ((event[offset + TYPE_OFFSET] & 0xFF) == EventType.FORMAT_DESCRIPTION
                && (event[flagsLow] & EventHeader.FLAG_BINLOG_IN_USE) != 0) {
            crc.update(event, offset, FLAGS_OFFSET);
            crc.update(event[flagsLow] & ~EventHeader.FLAG_BINLOG_IN_USE);
            crc.update(event, flagsLow + 1, length - crcLength - FLAGS_OFFSET - 1);
        } else {
            crc.update(event, offset, length - crcLength);
        }
        int end = offset + length - crcLength;
        long stored = (event[end] & 0xFFL) | (event[end + 1] & 0xFFL) << 8 | (event[end + 2] & 0xFFL) << 16
                | (event[end + 3] & 0xFFL) << 24;
        if (crc.getValue() != stored) {
            throw new MalformedDataException("CRC32 mismatch: event says 0x" + Long.toHexString(stored)
                    + ", bytes give 0x" + Long.toHexString(crc.getValue()));
        }
    }
}
