package dev.canal.parse.snapshot;

/**
 * What the snapshots of a destination have done since it started, for the log and the metrics.
 *
 * @param rowsRead      rows read from the source in chunks
 * @param rowsEmitted   rows put into the stream (read less those the stream itself carried newer)
 * @param chunks        chunks put into the stream
 * @param tablesDone    tables copied to the end
 * @param tablesPending tables requested and not finished yet
 * @param recoveries    recoveries from a position the source purged: copies of every selected table requested
 */
public record SnapshotStats(long rowsRead, long rowsEmitted, long chunks, long tablesDone, int tablesPending,
        long recoveries) {
}
