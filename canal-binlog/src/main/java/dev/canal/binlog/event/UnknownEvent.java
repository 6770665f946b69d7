package dev.canal.binlog.event;

/**
 * An event whose type this decoder does not decode (a future or vendor type, or a legacy LOAD DATA event);
 * skipped by its length.
 */
public record UnknownEvent(EventHeader header, int bodyLength) implements BinlogEvent {
}
