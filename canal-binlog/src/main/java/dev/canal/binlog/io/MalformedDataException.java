package dev.canal.binlog.io;

/** Input bytes that do not follow the format they claim to be in (truncated, corrupt or absurd lengths). */
public class MalformedDataException extends RuntimeException {

    public MalformedDataException(String message) {
        super(message);
    }

    public MalformedDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
