package dev.canal.parse.meta.history;

import dev.canal.parse.meta.TableMeta;
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

    /**
     * The table's columns now, from information_schema: the last resort for a definition the DDL parser cannot
     * read (e.g. MariaDB's {@code WITH SYSTEM VERSIONING}).
     *
     * @throws dev.canal.parse.meta.TableMetaException when the table does not exist or cannot be read
     */
    TableMeta columns(String schema, String table);
}
