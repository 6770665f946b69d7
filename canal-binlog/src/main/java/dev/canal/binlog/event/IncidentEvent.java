package dev.canal.binlog.event;

/** INCIDENT: something happened on the primary that a replica cannot reproduce (e.g. LOST_EVENTS = 1). */
public record IncidentEvent(EventHeader header, int incident, String message) implements BinlogEvent {
}
