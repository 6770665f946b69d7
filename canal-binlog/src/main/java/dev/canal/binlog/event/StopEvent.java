package dev.canal.binlog.event;

/** STOP: the server shut down; the file ends here. */
public record StopEvent(EventHeader header) implements BinlogEvent {
}
