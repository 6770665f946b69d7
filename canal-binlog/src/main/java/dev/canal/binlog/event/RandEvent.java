package dev.canal.binlog.event;

/** RAND: the two seeds of {@code RAND()} for the next statement. */
public record RandEvent(EventHeader header, long seed1, long seed2) implements BinlogEvent {
}
