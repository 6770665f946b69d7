package dev.canal.sink;

import dev.canal.protocol.CanalEntry;

/**
 * An empty transaction (a TRANSACTIONBEGIN and a TRANSACTIONEND, nothing between) that the parser hands on when the
 * source rotates its binlog or sends a heartbeat while idle: it carries the position where the stream rests, so that
 * a client's ack moves its cursor there although nothing it selects was written (docs/operations.md, "Quiet
 * sources"). Both headers carry the property {@value #PROPERTY}={@code true}. The sink lets such a pair through
 * whatever the empty-transaction and boundary rules say, unless the last boundary it let through names the same
 * position.
 */
public final class HeartbeatTransaction {

    /** The header property that marks the entries of a heartbeat transaction. */
    public static final String PROPERTY = "heartbeat";

    private HeartbeatTransaction() {
    }

    /** The header property both entries of a heartbeat transaction carry. */
    public static CanalEntry.Pair mark() {
        return CanalEntry.Pair.newBuilder().setKey(PROPERTY).setValue("true").build();
    }

    /** Whether {@code entry} belongs to a heartbeat transaction. */
    public static boolean isMarked(CanalEntry.Entry entry) {
        CanalEntry.EntryType type = entry.getEntryType();
        if (type != CanalEntry.EntryType.TRANSACTIONBEGIN && type != CanalEntry.EntryType.TRANSACTIONEND) {
            return false;
        }
        for (CanalEntry.Pair prop : entry.getHeader().getPropsList()) {
            if (PROPERTY.equals(prop.getKey())) {
                return true;
            }
        }
        return false;
    }
}
