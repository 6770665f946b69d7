package dev.canal.store;

/**
 * A consumer fell further behind than the store holds and was detached so that the others go on; it is told
 * on every call instead of being handed entries past a gap (docs/consumers.md).
 */
public final class ConsumerDetachedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ConsumerDetachedException(String message) {
        super(message);
    }
}
