package dev.canal.binlog.event;

/** XA_PREPARE: end of the prepared part of an XA transaction ({@code onePhase} for XA COMMIT ... ONE PHASE). */
public record XaPrepareEvent(EventHeader header, boolean onePhase, XaXid xid) implements BinlogEvent {
}
