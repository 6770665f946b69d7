package dev.canal.parse.meta;

/** Where the entry builder gets a table's columns from when the binlog itself does not carry them. */
public interface TableMetaSource {

    /**
     * The table's current definition.
     *
     * @throws TableMetaException when the table cannot be read (missing, no privilege, connection lost)
     */
    TableMeta find(String schema, String table);

    /** Forgets what is cached for the table, after a DDL or a row image that does not fit. */
    void invalidate(String schema, String table);

    /** Forgets everything cached for a schema (DROP DATABASE) or for all schemas (schema null). */
    void invalidateSchema(String schema);
}
