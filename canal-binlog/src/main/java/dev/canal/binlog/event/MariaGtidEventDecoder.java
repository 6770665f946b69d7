package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;

/**
 * MariaDB GTID: sequence (8), domain (4), flags (1); then the group-commit id (8) when FL_GROUP_COMMIT_ID, else
 * an XA xid (format id 4, gtrid length 1, bqual length 1, data) for XA groups, else 6 zero bytes. Extra flags
 * that newer servers append after that are not needed by a reader and are skipped.
 */
final class MariaGtidEventDecoder implements EventDecoder<MariaGtidEvent> {

    private static final int ZERO_PADDING = 6;

    @Override
    public MariaGtidEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        long sequence = c.int64();
        long domain = c.uint32();
        int flags = c.uint8();
        long commitId = -1;
        XaXid xid = null;
        if ((flags & MariaGtidEvent.FL_GROUP_COMMIT_ID) != 0) {
            commitId = c.int64();
        } else if ((flags & (MariaGtidEvent.FL_PREPARED_XA | MariaGtidEvent.FL_COMPLETED_XA)) != 0) {
            long formatId = c.int32();
            int gtridLength = c.uint8();
            int bqualLength = c.uint8();
            xid = new XaXid(formatId, c.bytes(gtridLength), c.bytes(bqualLength));
        } else {
            c.skip(Math.min(ZERO_PADDING, c.remaining()));
        }
        return new MariaGtidEvent(header, sequence, domain, flags, commitId, xid);
    }
}
