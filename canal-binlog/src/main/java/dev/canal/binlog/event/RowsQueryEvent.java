package dev.canal.binlog.event;

/** ROWS_QUERY (MySQL, {@code binlog_rows_query_log_events=ON}): the statement behind the next rows events. */
public record RowsQueryEvent(EventHeader header, StatementText statement) implements BinlogEvent {

    /** The statement decoded (a copy: {@link StatementText#utf8()} avoids it). */
    public String query() {
        return statement.asString();
    }
}
