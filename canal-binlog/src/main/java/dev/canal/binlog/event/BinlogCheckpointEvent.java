package dev.canal.binlog.event;

/** MariaDB BINLOG_CHECKPOINT: the oldest binlog file still needed for crash recovery. */
public record BinlogCheckpointEvent(EventHeader header, String file) implements BinlogEvent {
}
