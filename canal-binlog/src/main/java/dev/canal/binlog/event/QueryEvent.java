package dev.canal.binlog.event;

/**
 * QUERY (or MariaDB QUERY_COMPRESSED): a statement, e.g. BEGIN, COMMIT, DDL, or DML in STATEMENT format.
 *
 * @param schema the session's default database ({@code ""} when none)
 * @param sql    the statement text, decoded with the client charset its status variables name (UTF-8 when
 *               they name none)
 */
public record QueryEvent(EventHeader header, long threadId, long execTime, int errorCode, String schema, String sql,
        QueryStatusVariables statusVariables) implements BinlogEvent {
}
