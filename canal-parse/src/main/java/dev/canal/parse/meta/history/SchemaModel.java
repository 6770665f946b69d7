package dev.canal.parse.meta.history;

import com.alibaba.druid.DbType;
import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.statement.SQLAlterDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableConvertCharSet;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableItem;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLAssignItem;
import com.alibaba.druid.sql.ast.statement.SQLCharacterDataType;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLCreateDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropDatabaseStatement;
import com.alibaba.druid.sql.parser.ParserException;
import com.alibaba.druid.sql.repository.Schema;
import com.alibaba.druid.sql.repository.SchemaObject;
import com.alibaba.druid.sql.repository.SchemaObjectType;
import com.alibaba.druid.sql.repository.SchemaRepository;
import dev.canal.parse.meta.TableMeta;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables of every schema as DDL has left them. Each table is kept compactly, as a {@link TableDefinition}: its
 * columns as the entry builder reads them, names and type texts shared across tables ({@link SharedText}), no
 * syntax tree and no DDL text. A statement is applied with Druid's MySQL parser and schema repository (the same
 * engine Canal's TSDB uses), but to a repository holding only the tables the statement names, written back from
 * their definitions: CREATE / ALTER (ADD FIRST/AFTER, DROP, MODIFY, CHANGE, keys) / RENAME (multi-pair,
 * cross-schema) / DROP / CREATE ... LIKE / CREATE INDEX are applied by that repository, and the tables it then
 * holds replace those of the model; every other table stays as it is. The schema-level statements the repository
 * ignores (DROP DATABASE, the default charset of CREATE/ALTER DATABASE) are handled here. Statements are read as
 * {@link DdlText} rewrites them: executable comments run, and the MySQL 8/9 and MariaDB clauses Druid rejects that
 * change no column (INVISIBLE, SRID, CREATE OR REPLACE, ...) left out. Not thread-safe.
 *
 * <p>What a table keeps is what decoding needs: column names, types, text charsets, the primary key and the
 * table's default charset. Secondary indexes, defaults and comments are not kept; snapshots ({@link #dump}) write
 * the tables with what is kept.
 */
final class SchemaModel {

    private static final Logger log = LoggerFactory.getLogger(SchemaModel.class);

    // schema -> its default MySQL charset; schema and table names compare case-insensitively, as in MySQL's
    // default and in Druid's repository
    private final Map<String, String> schemaCharsets = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, Map<String, TableDefinition>> schemas = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final SharedText shared = new SharedText();

    /**
     * A model holding what a snapshot's data describes, applied one statement at a time (each ends in ";\n"), so
     * that beside the model only one parsed statement is held: a schema parsed whole held every table's
     * definition three times while it was applied, too much for a heap of a few hundred MiB once the schema has
     * some 100,000 columns (docs/performance.md, "Big and wide"). A statement Druid cannot read again (or one
     * with ";\n" inside a quoted string, which the split cuts) leaves its table out, and the source's definition
     * is read when it is next used, rather than losing the schema.
     */
    static SchemaModel restore(Map<String, String> data) {
        SchemaModel model = new SchemaModel();
        data.forEach((schema, text) -> {
            for (String statement : text.split(";\n")) {
                if (!statement.isBlank()) {
                    try {
                        model.apply(schema, statement);
                    } catch (RuntimeException e) {
                        log.warn("schema snapshot: cannot restore a statement of schema {} ({}); left out: {}",
                                schema, e.getMessage(), statement);
                    }
                }
            }
        });
        return model;
    }

    /**
     * Applies one or more statements with {@code defaultSchema} as the session's schema.
     *
     * @throws ParserException when Druid cannot read the text, even as {@link DdlText} rewrites it
     */
    void apply(String defaultSchema, String sql) {
        Readable readable = Readable.of(sql);
        SchemaRepository repository = new SchemaRepository(DbType.mysql);
        Set<TableName> named = new LinkedHashSet<>();
        for (SQLStatement statement : readable.statements()) {
            applySchemaLevel(statement);
            named.addAll(TableName.namedBy(statement, defaultSchema));
        }
        for (TableName name : named) {
            TableDefinition known = find(name.schema(), name.table());
            if (known != null) {
                repository.console(known.createTable());
            }
        }
        if (defaultSchema != null && !defaultSchema.isEmpty()) {
            repository.setDefaultSchema(defaultSchema);
        }
        repository.console(readable.text());
        for (SQLStatement statement : readable.statements()) {
            if (statement instanceof SQLAlterTableStatement alter) {
                applyTableCharset(repository, alter, defaultSchema);
            } else if (statement instanceof SQLCreateTableStatement created) {
                SQLCreateTableStatement create = createStatement(repository, created.getSchema(),
                        created.getTableName(), defaultSchema);
                if (create != null) {
                    pinSchemaCharset(create, schemaOf(created.getSchema(), defaultSchema));
                }
            }
        }
        for (TableName name : named) {
            drop(name.schema(), name.table());
        }
        keepTablesOf(repository);
    }

    /** Takes every table {@code repository} holds into the model, replacing the model's table of that name. */
    private void keepTablesOf(SchemaRepository repository) {
        for (Schema schema : repository.getSchemas()) {
            String schemaName = SQLUtils.normalize(schema.getName());
            for (SchemaObject object : schema.getObjects()) {
                if (object.getType() == SchemaObjectType.Table
                        && object.getStatement() instanceof SQLCreateTableStatement create) {
                    String table = SQLUtils.normalize(object.getName());
                    schemas.computeIfAbsent(schemaName, k -> new TreeMap<>(String.CASE_INSENSITIVE_ORDER))
                            .put(table, TableDefinitionReader.read(schemaName, table, create,
                                    schemaCharsets.get(schemaName), shared));
                }
            }
        }
    }

    /**
     * A table created without a charset takes the schema's default of that moment; pinning it keeps the table's
     * charset when the schema's default changes later.
     */
    private void pinSchemaCharset(SQLCreateTableStatement create, String schema) {
        String schemaCharset = schemaCharsets.get(schema);
        if (schemaCharset != null && TableDefinitionReader.tableCharset(create, null) == null) {
            create.addOption("CHARACTER SET", new SQLIdentifierExpr(schemaCharset));
        }
    }

    /** Replaces a table's definition with {@code createTable} (from the source's SHOW CREATE TABLE). */
    void replace(String schema, String table, String createTable) {
        String text = Readable.of(createTable).text();
        SchemaRepository repository = new SchemaRepository(DbType.mysql);
        repository.setDefaultSchema(schema);
        repository.console(text);
        drop(schema, table);
        keepTablesOf(repository);
    }

    /**
     * A statement's text as Druid reads it, with its statements: executable comments expanded and, where Druid
     * cannot read that, the clauses it cannot read that change no column left out ({@link DdlText}).
     */
    private record Readable(String text, List<SQLStatement> statements) {

        static Readable of(String sql) {
            String text = DdlText.executable(sql);
            try {
                return new Readable(text, SQLUtils.parseStatements(text, DbType.mysql));
            } catch (ParserException e) {
                String reduced = DdlText.withoutClausesDruidCannotRead(text);
                if (reduced.equals(text)) {
                    throw e;
                }
                try {
                    return new Readable(reduced, SQLUtils.parseStatements(reduced, DbType.mysql));
                } catch (ParserException again) {
                    throw e;
                }
            }
        }
    }

    void drop(String schema, String table) {
        Map<String, TableDefinition> tables = schemas.get(schema);
        if (tables != null) {
            tables.remove(table);
            if (tables.isEmpty()) {
                schemas.remove(schema);
            }
        }
    }

    Optional<TableMeta> table(String schema, String table) {
        TableDefinition definition = find(schema, table);
        if (definition == null) {
            return Optional.empty();
        }
        TableMeta meta = definition.meta();
        // the names as the caller spells them (the binlog's), as a definition read for that name would have them
        return Optional.of(meta.schema().equals(schema) && meta.table().equals(table) ? meta
                : new TableMeta(schema, table, meta.columns()));
    }

    /** The table's compact definition, or null when the model does not know it. */
    TableDefinition find(String schema, String table) {
        Map<String, TableDefinition> tables = schema == null ? null : schemas.get(schema);
        return tables == null ? null : tables.get(table);
    }

    /** The names of the tables the model knows, per schema, for snapshot verification. */
    Map<String, List<String>> tableNames() {
        Map<String, List<String>> names = new TreeMap<>();
        schemas.forEach((schema, tables) -> names.put(schema, tables.values().stream()
                .map(t -> t.meta().table()).toList()));
        return names;
    }

    /**
     * The model as snapshot data: per schema, its default charset (when known) and every table's definition,
     * each statement ending in ";\n" as Canal's {@code meta_snapshot.data} has it.
     */
    Map<String, String> dump() {
        Map<String, StringBuilder> text = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        schemaCharsets.forEach((schema, charset) -> text.computeIfAbsent(schema, k -> new StringBuilder())
                .append("CREATE DATABASE IF NOT EXISTS `").append(schema).append("` DEFAULT CHARACTER SET ")
                .append(charset).append(";\n"));
        schemas.forEach((schema, tables) -> {
            StringBuilder sql = text.computeIfAbsent(schema, k -> new StringBuilder());
            tables.values().forEach(t -> sql.append(t.createTable()).append(";\n"));
        });
        Map<String, String> data = new TreeMap<>();
        text.forEach((schema, sql) -> data.put(schema, sql.toString()));
        return data;
    }

    /**
     * The repository ignores an ALTER's table options and CONVERT TO: a new default charset applies to columns
     * added later; CONVERT TO also re-encodes every text column, which then follows the table's charset.
     */
    private void applyTableCharset(SchemaRepository repository, SQLAlterTableStatement alter, String defaultSchema) {
        String charset = null;
        String collation = null;
        boolean convert = false;
        for (SQLAssignItem option : alter.getTableOptions()) {
            switch (optionName(option)) {
                case "CHARSET", "CHARACTER SET" -> charset = SQLUtils.normalize(option.getValue().toString());
                case "COLLATE" -> collation = SQLUtils.normalize(option.getValue().toString());
                default -> {
                    // engine, comment, row format ...: no bearing on columns
                }
            }
        }
        for (SQLAlterTableItem item : alter.getItems()) {
            if (item instanceof SQLAlterTableConvertCharSet c) {
                convert = true;
                charset = c.getCharset() == null ? null : SQLUtils.normalize(c.getCharset().toString());
                collation = c.getCollate() == null ? null : SQLUtils.normalize(c.getCollate().toString());
            }
        }
        if (charset == null && collation == null) {
            return;
        }
        SQLCreateTableStatement create = createStatement(repository, alter.getSchema(), alter.getTableName(),
                defaultSchema);
        if (create == null) {
            return;
        }
        if (!convert) {
            // existing text columns keep the charset they were created with
            String previous = TableDefinitionReader.tableCharset(create, schemaCharsets.get(schemaOf(alter.getSchema(),
                    defaultSchema)));
            for (SQLColumnDefinition column : create.getColumnDefinitions()) {
                if (previous != null && column.getDataType() instanceof SQLCharacterDataType character
                        && TableDefinitionReader.isText(column.getDataType().getName())
                        && character.getCharSetName() == null && character.getCollate() == null
                        && column.getCharsetExpr() == null && column.getCollateExpr() == null) {
                    character.setCharSetName(previous);
                }
            }
        }
        create.getTableOptions().removeIf(o -> Set.of("CHARSET", "CHARACTER SET", "COLLATE").contains(optionName(o)));
        create.addOption("CHARACTER SET", new SQLIdentifierExpr(
                charset != null ? charset : TableDefinitionReader.charsetOfCollation(collation)));
        if (collation != null) {
            create.addOption("COLLATE", new SQLIdentifierExpr(collation));
        }
        if (convert) {
            for (SQLColumnDefinition column : create.getColumnDefinitions()) {
                if (column.getDataType() instanceof SQLCharacterDataType character) {
                    character.setCharSetName(null);
                    character.setCollate(null);
                }
                column.setCharsetExpr(null);
                column.setCollateExpr(null);
            }
        }
    }

    private static SQLCreateTableStatement createStatement(SchemaRepository repository, String schemaName, String tableName, String defaultSchema) {
        String schema = schemaOf(schemaName, defaultSchema);
        Schema s = schema == null ? null : repository.findSchema(schema);
        SchemaObject object = s == null ? null : s.findTable(SQLUtils.normalize(tableName));
        return object != null && object.getStatement() instanceof SQLCreateTableStatement create ? create : null;
    }

    private static String schemaOf(String named, String defaultSchema) {
        return named != null ? SQLUtils.normalize(named) : defaultSchema;
    }

    static String optionName(SQLAssignItem option) {
        return SQLUtils.normalize(option.getTarget().toString()).toUpperCase(Locale.ROOT).replace("DEFAULT ", "");
    }

    private void applySchemaLevel(SQLStatement statement) {
        if (statement instanceof SQLCreateDatabaseStatement create) {
            String charset = create.getCharacterSet() != null ? create.getCharacterSet()
                    : TableDefinitionReader.charsetOfCollation(create.getCollate());
            if (charset != null) {
                schemaCharsets.put(SQLUtils.normalize(create.getDatabaseName()), SQLUtils.normalize(charset));
            }
        } else if (statement instanceof SQLAlterDatabaseStatement alter && alter.getCharacter() != null) {
            String charset = alter.getCharacter().getCharacterSet() != null
                    ? SQLUtils.toSQLString(alter.getCharacter().getCharacterSet(), DbType.mysql)
                    : TableDefinitionReader.charsetOfCollation(alter.getCharacter().getCollate() == null ? null
                            : SQLUtils.toSQLString(alter.getCharacter().getCollate(), DbType.mysql));
            if (charset != null) {
                schemaCharsets.put(SQLUtils.normalize(alter.getName().getSimpleName()), SQLUtils.normalize(charset));
            }
        } else if (statement instanceof SQLDropDatabaseStatement drop) {
            String schema = SQLUtils.normalize(drop.getDatabaseName());
            schemaCharsets.remove(schema);
            schemas.remove(schema);
        }
    }
}
