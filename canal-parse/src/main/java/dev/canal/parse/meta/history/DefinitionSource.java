package dev.canal.parse.meta.history;

import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/** Where table definitions come from when the history does not have them: the source database as it is now. */
public interface DefinitionSource {

    /**
     * Every accepted table's {@code SHOW CREATE TABLE}, per schema, each schema's text starting with its
     * default charset as a {@code CREATE DATABASE} statement; the initial snapshot's data.
     */
    Map<String, String> allDefinitions(BiPredicate<String, String> tableFilter);

    /** The table's {@code SHOW CREATE TABLE} now; empty when the table does not exist. */
    Optional<String> showCreateTable(String schema, String table);
}
