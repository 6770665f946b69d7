package dev.canal.store;

/**
 * A consistent snapshot of the store's counters for metrics. Sequences start at
 * -1; execute times are 0 until an event passed that point.
 *
 * @param putBlockingNanos total time producers waited for free space, waits still running included
 *                         (canal_instance_sink_blocking_time)
 */
public record StoreCounters(long putSequence, long getSequence, long ackSequence,
        long putMemSize, long getMemSize, long ackMemSize,
        long putRows, long getRows, long ackRows,
        long putExecuteTime, long getExecuteTime, long ackExecuteTime,
        long putBlockingNanos) {
}
