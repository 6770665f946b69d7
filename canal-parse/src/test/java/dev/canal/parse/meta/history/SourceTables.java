package dev.canal.parse.meta.history;

import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.meta.TableMetaException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/** Stands in for the source's current SHOW CREATE TABLE output in unit tests; counts how often it is asked. */
final class SourceTables implements DefinitionSource {

    final Map<String, String> current = new LinkedHashMap<>(); // "schema.table" -> CREATE TABLE
    final Map<String, TableMeta> informationSchema = new LinkedHashMap<>(); // "schema.table" -> columns
    int allDefinitionsCalls;
    int showCreateCalls;

    SourceTables put(String schema, String table, String createTable) {
        current.put(schema + "." + table, createTable);
        return this;
    }

    @Override
    public Map<String, String> allDefinitions(BiPredicate<String, String> tableFilter) {
        allDefinitionsCalls++;
        Map<String, String> data = new TreeMap<>();
        current.forEach((name, ddl) -> {
            String[] parts = name.split("\\.");
            if (tableFilter.test(parts[0], parts[1])) {
                data.merge(parts[0], ddl + ";\n", String::concat);
            }
        });
        return data;
    }

    @Override
    public TableMeta columns(String schema, String table) {
        TableMeta meta = informationSchema.get(schema + "." + table);
        if (meta == null) {
            throw new TableMetaException("no columns of " + schema + "." + table);
        }
        return meta;
    }

    @Override
    public Optional<String> showCreateTable(String schema, String table) {
        showCreateCalls++;
        return Optional.ofNullable(current.get(schema + "." + table));
    }
}
