package dev.canal.parse.convert;

import dev.canal.protocol.CanalEntry.EventType;
import java.util.List;

/**
 * What a QUERY event's statement is, found by reading its leading keywords (not its suffix, which is how
 * Canal mistakes {@code TRUNCATE TABLE t_begin} for a BEGIN).
 *
 * @param category    how the entry builder treats it
 * @param eventType   the entry's event type for DDL and statement DML
 * @param schema      the schema the statement names (or the session's), "" when none
 * @param table       the table it names, "" when none (RENAME: the new name, of the first pair for RENAME TABLE)
 * @param xaXid       for XA statements, the text after the keyword (with its leading space, as Canal keeps it)
 * @param renames     for RENAME TABLE (every pair) and ALTER TABLE ... RENAME, each table's old and new name;
 *                    empty otherwise
 */
public record StatementKind(Category category, EventType eventType, String schema, String table, String xaXid,
        List<Rename> renames) {

    /** One table a rename moves. */
    public record Rename(String fromSchema, String fromTable, String toSchema, String toTable) {
    }

    public enum Category {
        BEGIN, COMMIT, XA_START, XA_END, XA_COMMIT, XA_ROLLBACK,
        /** schema changes: CREATE/ALTER/DROP/RENAME/TRUNCATE of tables and indexes, CREATE/DROP DATABASE */
        DDL,
        /** INSERT/UPDATE/DELETE/REPLACE logged as statements */
        DML,
        /** anything else (GRANT, CREATE USER, views, routines, FLUSH, SAVEPOINT ...): Canal emits nothing */
        OTHER
    }

    public StatementKind {
        renames = List.copyOf(renames);
    }

    StatementKind(Category category, EventType eventType, String schema, String table, String xaXid) {
        this(category, eventType, schema, table, xaXid, List.of());
    }

    static StatementKind of(Category category) {
        return new StatementKind(category, null, "", "", null);
    }

    public boolean changesTable() {
        return category == Category.DDL && !table.isEmpty();
    }

    /** CREATE/ALTER/DROP DATABASE: DDL that names no table, whose entry has event type QUERY. */
    public boolean isDatabaseStatement() {
        return category == Category.DDL && eventType == EventType.QUERY;
    }

    /** The header's table name: none at all for database statements, which Canal leaves unset. */
    public String headerTable() {
        return isDatabaseStatement() ? null : table;
    }
}
