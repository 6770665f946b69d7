package dev.canal.parse.mysql.event;

/** ROWS_QUERY (MySQL, {@code binlog_rows_query_log_events=ON}): the statement behind the next rows events. */
public record RowsQueryEvent(EventHeader header, String query) implements BinlogEvent {
}
