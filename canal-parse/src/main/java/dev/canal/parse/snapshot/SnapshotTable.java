package dev.canal.parse.snapshot;

import java.util.Objects;

/** A table a snapshot copies, or the signal table, named by schema and table. */
public record SnapshotTable(String schema, String table) {

    public SnapshotTable {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }

    /** @throws IllegalArgumentException unless {@code name} is {@code schema.table} */
    public static SnapshotTable parse(String name) {
        String trimmed = name.trim();
        int dot = trimmed.indexOf('.');
        if (dot <= 0 || dot == trimmed.length() - 1 || trimmed.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("expected schema.table, got '" + name + "'");
        }
        return new SnapshotTable(trimmed.substring(0, dot), trimmed.substring(dot + 1));
    }

    /** The table as SQL names it, each part quoted. */
    public String quoted() {
        return quote(schema) + "." + quote(table);
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
