package dev.canal.binlog.event;

import java.util.UUID;

/**
 * MySQL GTID, ANONYMOUS_GTID or GTID_TAGGED: starts a transaction. Fields a server version does not write are
 * -1 (5.6 has no logical clock, 5.7 no commit timestamps, 8.0.x before 8.0.14 no transaction length).
 *
 * @param tag                       the GTID tag (MySQL 8.3+), null when untagged
 * @param immediateCommitTimestamp  microseconds since the epoch on the server that wrote this binlog
 * @param originalCommitTimestamp   microseconds since the epoch on the server where it first committed
 */
public record GtidEvent(EventHeader header, boolean anonymous, int flags, UUID sid, String tag, long gno,
        long lastCommitted, long sequenceNumber, long immediateCommitTimestamp, long originalCommitTimestamp,
        long transactionLength, long immediateServerVersion, long originalServerVersion) implements BinlogEvent {

    /** {@code uuid:gno} or {@code uuid:tag:gno}; {@code ANONYMOUS} for anonymous transactions. */
    public String gtid() {
        if (anonymous) {
            return "ANONYMOUS";
        }
        return tag == null ? sid + ":" + gno : sid + ":" + tag + ":" + gno;
    }
}
