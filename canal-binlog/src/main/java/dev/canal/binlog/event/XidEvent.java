package dev.canal.binlog.event;

/** XID: commit of a transaction on a transactional engine. */
public record XidEvent(EventHeader header, long xid) implements BinlogEvent {
}
