package dev.canal.parse.meta.history;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/** Stands in for the source's current SHOW CREATE TABLE output in unit tests; counts how often it is asked. */
final class SourceTables implements DefinitionSource {

    final Map<String, String> current = new LinkedHashMap<>(); // "schema.table" -> CREATE TABLE
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
    public Optional<String> showCreateTable(String schema, String table) {
        showCreateCalls++;
        return Optional.ofNullable(current.get(schema + "." + table));
    }
}
