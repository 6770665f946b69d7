package dev.canal.meta;

/** A meta manager operation that cannot be done: a batch acked out of order, a file or node that cannot be read. */
public class MetaManagerException extends RuntimeException {

    public MetaManagerException(String message) {
        super(message);
    }

    public MetaManagerException(String message, Throwable cause) {
        super(message, cause);
    }
}
