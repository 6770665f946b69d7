package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** FORMAT_DESCRIPTION: binlog version, server version, header length, post-header lengths, checksum algorithm. */
final class FormatDescriptionEventDecoder implements EventDecoder<FormatDescriptionEvent> {

    static final FormatDescriptionEventDecoder INSTANCE = new FormatDescriptionEventDecoder();

    private static final int BINLOG_VERSION_4 = 4;
    private static final int SERVER_VERSION_LENGTH = 50;
    /** Checksum algorithm byte plus CRC32 that servers with checksum support append to every FDE. */
    private static final int CHECKSUM_TRAILER = 1 + FormatDescriptionEvent.CRC32_LENGTH;

    private static final int[] MYSQL_CHECKSUM_VERSION = {5, 6, 1};
    private static final int[] MARIADB_CHECKSUM_VERSION = {5, 3, 0};

    /** Post-header lengths of MySQL 8.0+, used until the stream's own FDE arrives (types 1..42). */
    private static final byte[] MYSQL8_POST_HEADER_LENGTHS = {0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 99, 0, 4, 26,
        8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0, 10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40, 0, 0};

    static FormatDescriptionEvent defaultV4() {
        return new FormatDescriptionEvent(new EventHeader(0, EventType.FORMAT_DESCRIPTION, 0, 0, 0, 0),
                BINLOG_VERSION_4, "8.0.0", 0, EventHeader.V4_LENGTH, MYSQL8_POST_HEADER_LENGTHS.clone(),
                FormatDescriptionEvent.CHECKSUM_NONE);
    }

    @Override
    public FormatDescriptionEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int binlogVersion = c.uint16();
        String serverVersion = nulTerminated(c.string(SERVER_VERSION_LENGTH, StandardCharsets.ISO_8859_1));
        if (binlogVersion != BINLOG_VERSION_4) {
            throw new UnsupportedBinlogException("binlog format v" + binlogVersion + " (server " + serverVersion
                    + ") is not supported: only v4 (MySQL 5.0+, MariaDB) is read");
        }
        long created = c.uint32();
        int headerLength = c.uint8();
        if (headerLength < EventHeader.V4_LENGTH) {
            throw new MalformedDataException("FORMAT_DESCRIPTION announces a " + headerLength
                    + "-byte event header, less than the v4 minimum of " + EventHeader.V4_LENGTH);
        }
        int checksumAlgorithm = FormatDescriptionEvent.CHECKSUM_UNDEFINED;
        byte[] postHeaderLengths;
        if (writesChecksumTrailer(serverVersion)) {
            postHeaderLengths = c.bytes(c.checkedLength(c.remaining() - CHECKSUM_TRAILER));
            checksumAlgorithm = c.uint8();
            c.skip(FormatDescriptionEvent.CRC32_LENGTH);
            if (checksumAlgorithm != FormatDescriptionEvent.CHECKSUM_NONE
                    && checksumAlgorithm != FormatDescriptionEvent.CHECKSUM_CRC32) {
                throw new MalformedDataException("unknown binlog checksum algorithm " + checksumAlgorithm
                        + " in FORMAT_DESCRIPTION of server " + serverVersion);
            }
        } else {
            postHeaderLengths = c.remainingBytes();
        }
        return new FormatDescriptionEvent(header, binlogVersion, serverVersion, created, headerLength,
                postHeaderLengths, checksumAlgorithm);
    }

    /** Checksums came with MySQL 5.6.1 and MariaDB 5.3.0; their FDEs end with the algorithm byte and a CRC. */
    static boolean writesChecksumTrailer(String serverVersion) {
        int[] v = versionNumbers(serverVersion);
        boolean mariadb = serverVersion.toLowerCase(Locale.ROOT).contains("mariadb");
        int[] split = mariadb ? MARIADB_CHECKSUM_VERSION : MYSQL_CHECKSUM_VERSION;
        for (int i = 0; i < 3; i++) {
            if (v[i] != split[i]) {
                return v[i] > split[i];
            }
        }
        return true;
    }

    private static int[] versionNumbers(String version) {
        int[] numbers = new int[3];
        int part = 0;
        for (int i = 0; i < version.length() && part < 3; i++) {
            char ch = version.charAt(i);
            if (ch >= '0' && ch <= '9') {
                numbers[part] = Math.min(numbers[part] * 10 + (ch - '0'), 100_000);
            } else if (ch == '.') {
                part++;
            } else {
                break;
            }
        }
        return numbers;
    }

    private static String nulTerminated(String s) {
        int nul = s.indexOf('\0');
        return nul < 0 ? s : s.substring(0, nul);
    }
}
