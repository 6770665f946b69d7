package dev.canal.binlog.event;

/**
 * MariaDB GTID: starts an event group (replaces BEGIN). The server id of the GTID is the header's.
 *
 * @param commitId group-commit id, -1 when absent
 * @param xid      the XA xid for XA PREPARE / XA COMMIT groups, else null
 */
public record MariaGtidEvent(EventHeader header, long sequence, long domainId, int flags, long commitId, XaXid xid)
        implements BinlogEvent {

    public static final int FL_STANDALONE = 1;
    public static final int FL_GROUP_COMMIT_ID = 2;
    public static final int FL_TRANSACTIONAL = 4;
    public static final int FL_ALLOW_PARALLEL = 8;
    public static final int FL_WAITED = 16;
    public static final int FL_DDL = 32;
    public static final int FL_PREPARED_XA = 64;
    public static final int FL_COMPLETED_XA = 128;

    /** {@code domain-server-sequence}. */
    public String gtid() {
        return Long.toUnsignedString(domainId) + "-" + header.serverId() + "-" + Long.toUnsignedString(sequence);
    }

    /** A stand-alone group (DDL, or a non-transactional statement) has no terminating COMMIT/XID. */
    public boolean standalone() {
        return (flags & FL_STANDALONE) != 0;
    }
}
