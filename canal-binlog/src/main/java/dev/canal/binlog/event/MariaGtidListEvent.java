package dev.canal.binlog.event;

import java.util.List;

/** MariaDB GTID_LIST: the binlog state (last GTID per domain and server) at the start of the file. */
public record MariaGtidListEvent(EventHeader header, int flags, List<MariaGtid> gtids) implements BinlogEvent {

    /** One MariaDB GTID, {@code domain-server-sequence}. */
    public record MariaGtid(long domainId, long serverId, long sequence) {
        @Override
        public String toString() {
            return Long.toUnsignedString(domainId) + "-" + Long.toUnsignedString(serverId) + "-"
                    + Long.toUnsignedString(sequence);
        }
    }
}
