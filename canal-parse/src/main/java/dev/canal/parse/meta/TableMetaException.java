package dev.canal.parse.meta;

/** A table's definition could not be obtained. */
public class TableMetaException extends RuntimeException {

    public TableMetaException(String message, Throwable cause) {
        super(message, cause);
    }

    public TableMetaException(String message) {
        super(message);
    }
}
