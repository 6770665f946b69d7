package dev.canal.binlog.event;

import java.util.Locale;

/**
 * FORMAT_DESCRIPTION: describes how every later event of the file (or stream) is laid out.
 *
 * @param binlogVersion      4 for every server this decoder reads (MySQL 5.0+, MariaDB)
 * @param serverVersion      e.g. {@code 8.0.32} or {@code 10.11.6-MariaDB-log}
 * @param createTimestamp    seconds; 0 unless this is the first FDE after server start
 * @param headerLength       common header length of later events (19, or more on patched servers)
 * @param postHeaderLengths  post-header length per event type, indexed by {@code type - 1}
 * @param checksumAlgorithm  {@link #CHECKSUM_NONE}, {@link #CHECKSUM_CRC32}, or {@link #CHECKSUM_UNDEFINED}
 *                           for servers before checksums (MySQL &lt; 5.6.1, MariaDB &lt; 5.3)
 */
public record FormatDescriptionEvent(EventHeader header, int binlogVersion, String serverVersion,
        long createTimestamp, int headerLength, byte[] postHeaderLengths, int checksumAlgorithm)
        implements BinlogEvent {

    public static final int CHECKSUM_NONE = 0;
    public static final int CHECKSUM_CRC32 = 1;
    public static final int CHECKSUM_UNDEFINED = 255;
    /** Bytes of a CRC32 checksum at the end of each event. */
    public static final int CRC32_LENGTH = 4;

    /** Post-header length of an event type; 0 for a type this FDE does not describe. */
    public int postHeaderLength(int type) {
        int index = type - 1;
        return index >= 0 && index < postHeaderLengths.length ? postHeaderLengths[index] & 0xFF : 0;
    }

    public boolean hasCrc32() {
        return checksumAlgorithm == CHECKSUM_CRC32;
    }

    /** Trailing checksum bytes on every later event. */
    public int checksumLength() {
        return hasCrc32() ? CRC32_LENGTH : 0;
    }

    public boolean isMariaDb() {
        return serverVersion.toLowerCase(Locale.ROOT).contains("mariadb");
    }
}
