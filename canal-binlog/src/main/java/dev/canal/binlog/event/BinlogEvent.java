package dev.canal.binlog.event;

/**
 * One decoded binlog event: the common header plus the decoded body of its kind. Row images are not decoded
 * here; a {@link RowsEvent} keeps its row bytes for {@link RowsDecoder} so that they can be decoded later on
 * another thread.
 */
public sealed interface BinlogEvent permits FormatDescriptionEvent, RotateEvent, QueryEvent, XidEvent, IntVarEvent,
        RandEvent, UserVarEvent, GtidEvent, PreviousGtidsEvent, TableMapEvent, RowsEvent, RowsQueryEvent,
        HeartbeatEvent, XaPrepareEvent, TransactionPayloadEvent, StopEvent, IncidentEvent, AnnotateRowsEvent,
        BinlogCheckpointEvent, MariaGtidEvent, MariaGtidListEvent, UnknownEvent {

    EventHeader header();
}
