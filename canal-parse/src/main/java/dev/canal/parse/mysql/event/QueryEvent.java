package dev.canal.parse.mysql.event;

/**
 * QUERY (or MariaDB QUERY_COMPRESSED): a statement, e.g. BEGIN, COMMIT, DDL, or DML in STATEMENT format.
 *
 * @param schema the session's default database ({@code ""} when none)
 * @param sql    the statement text, decoded as UTF-8
 */
public record QueryEvent(EventHeader header, long threadId, long execTime, int errorCode, String schema, String sql,
        QueryStatusVariables statusVariables) implements BinlogEvent {
}
