package dev.canal.parse.meta;

import dev.canal.protocol.position.EntryPosition;
import java.util.Optional;

/**
 * Where the entry builder gets a table's columns from when the binlog itself does not carry them: either read
 * on demand from the source ({@link JdbcTableMetaSource}, Canal's "TSDB off"), or kept as a history of DDL so
 * that every row gets the definition that was true at its own binlog position (Canal's table-meta TSDB).
 *
 * <p>Called from the parser's binlog-order thread only.
 */
public interface TableMetaSource {

    /**
     * The table's definition at the current binlog position.
     *
     * @throws TableMetaException when the table cannot be read (missing, no privilege, connection lost)
     */
    TableMeta find(String schema, String table);

    /** Forgets what is cached for the table, after a row image that does not fit it. */
    void invalidate(String schema, String table);

    /**
     * A DDL statement read from the binlog, in binlog order.
     *
     * @param sessionSchema the session's default schema when the statement ran ("" when none)
     * @param schema        the schema the statement names (or the session's), "" when none
     * @param table         the table it names, "" when none
     * @param position      where the statement sits in the binlog
     */
    void applyDdl(String sessionSchema, String schema, String table, String sql, EntryPosition position);

    /**
     * The parser is about to read the binlog from {@code position}: a history-keeping source rebuilds the
     * schema as it was there; an on-demand source drops its cache.
     */
    void rewindTo(EntryPosition position);

    /**
     * Readies what does not depend on the start position, ahead of a start (a standby server's warm instance): a
     * history-keeping source loads its history and rebuilds its latest model. Nothing to do by default.
     */
    default void prepare() {
    }

    /**
     * The last DDL statement of the table that this source could not read, until it reads one of the table again:
     * the definition {@link #find} gives may then not be the one of the rows at hand, which the caller checks against
     * their TABLE_MAP. Empty for a source that reads no DDL.
     */
    default Optional<String> unreadableStatement(String schema, String table) {
        return Optional.empty();
    }
}
