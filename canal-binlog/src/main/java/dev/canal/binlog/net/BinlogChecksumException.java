package dev.canal.binlog.net;

import java.io.IOException;

/** An event whose CRC32 does not match its bytes: corrupted in transit or on disk. */
public class BinlogChecksumException extends IOException {

    private final String file;
    private final long position;

    public BinlogChecksumException(String file, long position, String message) {
        super(message);
        this.file = file;
        this.position = position;
    }

    /** The binlog file the event came from, as far as the stream knows it (null before the first ROTATE). */
    public String file() {
        return file;
    }

    /** Offset of the event's first byte in that file (its next-position minus its size). */
    public long position() {
        return position;
    }
}
