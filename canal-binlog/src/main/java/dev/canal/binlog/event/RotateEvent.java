package dev.canal.binlog.event;

/** ROTATE: the stream continues in {@code nextFile} at {@code position}. */
public record RotateEvent(EventHeader header, long position, String nextFile) implements BinlogEvent {
}
