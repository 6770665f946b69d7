package dev.canal.parse.mysql.event;

/** MariaDB ANNOTATE_ROWS ({@code binlog_annotate_row_events=ON}): the statement behind the next rows events. */
public record AnnotateRowsEvent(EventHeader header, String query) implements BinlogEvent {
}
