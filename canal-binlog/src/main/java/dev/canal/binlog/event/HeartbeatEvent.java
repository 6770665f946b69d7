package dev.canal.binlog.event;

/**
 * HEARTBEAT (v1) or HEARTBEAT_V2: the primary is alive and at {@code position} of {@code logFile}; only sent
 * over the replication connection, never written to a file.
 */
public record HeartbeatEvent(EventHeader header, String logFile, long position, boolean v2) implements BinlogEvent {
}
