package dev.canal.binlog.event;

/**
 * A binlog that is well formed but that this decoder deliberately does not read: encrypted binlogs, binlog
 * format v1/v3 (MySQL 3.23 / 4.x).
 */
public class UnsupportedBinlogException extends RuntimeException {

    public UnsupportedBinlogException(String message) {
        super(message);
    }
}
