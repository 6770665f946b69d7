package dev.canal.binlog.net;

import java.util.Locale;

/** {@code @@global.binlog_checksum}: whether each event ends in a 4-byte CRC32 of the rest. */
public enum BinlogChecksumType {
    NONE(0),
    CRC32(4);

    private final int length;

    BinlogChecksumType(int length) {
        this.length = length;
    }

    /** Bytes the checksum takes at the end of each event; a decoder excludes them from the body. */
    public int length() {
        return length;
    }

    public static BinlogChecksumType parse(String value) {
        if (value == null || value.isBlank() || "NONE".equalsIgnoreCase(value.trim())) {
            return NONE;
        }
        if ("CRC32".equals(value.trim().toUpperCase(Locale.ROOT))) {
            return CRC32;
        }
        throw new IllegalArgumentException("unknown binlog_checksum '" + value + "'");
    }
}
