package dev.canal.binlog.event;

/** PREVIOUS_GTIDS: every GTID executed before this file, as MySQL's GTID set text ({@code uuid:1-5:tag:1-2,...}). */
public record PreviousGtidsEvent(EventHeader header, String gtidSet) implements BinlogEvent {
}
