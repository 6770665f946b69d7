package dev.canal.parse.snapshot;

import dev.canal.protocol.CanalEntry;

/** Which entries end a unit a restart may resume after: a transaction end, or a DDL statement. */
public final class StreamBoundaries {

    private StreamBoundaries() {
    }

    public static boolean isBoundary(CanalEntry.Entry e) {
        if (e.getEntryType() == CanalEntry.EntryType.TRANSACTIONEND) {
            return true;
        }
        return e.getEntryType() == CanalEntry.EntryType.ROWDATA && isDdl(e.getHeader().getEventType());
    }

    public static boolean isDdl(CanalEntry.EventType type) {
        return switch (type) {
            case CREATE, ALTER, ERASE, RENAME, TRUNCATE, CINDEX, DINDEX -> true;
            default -> false;
        };
    }
}
