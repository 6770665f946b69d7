package dev.canal.store;

/**
 * One consumer's place in the store, for the per-consumer metrics (docs/consumers.md).
 *
 * @param consumer        the consumer's name, "" for the default one
 * @param getSequence     last sequence handed out to it
 * @param ackSequence     last sequence it acked
 * @param putSequence     last sequence put into the store
 * @param ackExecuteTime  binlog time (ms) of the last entry it acked, 0 before any
 * @param putExecuteTime  binlog time (ms) of the last entry put, 0 before any
 * @param detached        whether it fell behind the store and was detached
 */
public record ConsumerCounters(String consumer, long getSequence, long ackSequence, long putSequence,
        long ackExecuteTime, long putExecuteTime, boolean detached) {

    /** Entries put but not acked by this consumer. */
    public long lagEntries() {
        return putSequence - ackSequence;
    }

    /** Binlog time between the newest entry put and the last one this consumer acked; 0 when it acked the newest. */
    public long lagMillis() {
        if (ackSequence >= putSequence) {
            return 0;
        }
        return ackExecuteTime == 0 ? 0 : Math.max(0, putExecuteTime - ackExecuteTime);
    }
}
