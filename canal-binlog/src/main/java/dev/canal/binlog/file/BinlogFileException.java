package dev.canal.binlog.file;

/** A binlog file that cannot be read on: names the file and the offset of the event that failed. */
public class BinlogFileException extends RuntimeException {

    private final String file;
    private final long offset;

    public BinlogFileException(String file, long offset, String message, Throwable cause) {
        super(file + " at offset " + offset + ": " + message, cause);
        this.file = file;
        this.offset = offset;
    }

    public String file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
