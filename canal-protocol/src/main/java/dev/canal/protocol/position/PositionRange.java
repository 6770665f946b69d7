package dev.canal.protocol.position;

/**
 * The span of one batch handed to a client: first and last entry positions, the position the cursor
 * moves to when the batch is acked (the last transaction boundary inside it, or null when there is
 * none), and the store sequence of the last entry.
 */
public record PositionRange(LogPosition start, LogPosition end, LogPosition ack, long endSeq) {

    public boolean hasAckPoint() {
        return ack != null;
    }
}
