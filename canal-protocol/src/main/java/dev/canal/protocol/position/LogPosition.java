package dev.canal.protocol.position;

/** A binlog position together with the source it was read from (Canal's LogPosition). */
public record LogPosition(LogIdentity identity, EntryPosition position) {
}
