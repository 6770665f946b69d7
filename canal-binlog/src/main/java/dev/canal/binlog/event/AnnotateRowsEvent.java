package dev.canal.binlog.event;

/** MariaDB ANNOTATE_ROWS ({@code binlog_annotate_row_events=ON}): the statement behind the next rows events. */
public record AnnotateRowsEvent(EventHeader header, StatementText statement) implements BinlogEvent {

    /** The statement decoded (a copy: {@link StatementText#utf8()} avoids it). */
    public String query() {
        return statement.asString();
    }
}
