package dev.canal.parse.meta.history;

import com.alibaba.druid.DbType;
import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLAlterDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropDatabaseStatement;
import com.alibaba.druid.sql.repository.Schema;
import com.alibaba.druid.sql.repository.SchemaObject;
import com.alibaba.druid.sql.repository.SchemaObjectType;
import com.alibaba.druid.sql.repository.SchemaRepository;
import dev.canal.parse.meta.TableMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tables of every schema as DDL has left them, kept by Druid's MySQL parser and schema repository (the
 * same engine Canal's TSDB uses): CREATE / ALTER (ADD FIRST/AFTER, DROP, MODIFY, CHANGE, keys) / RENAME
 * (multi-pair, cross-schema) / DROP / CREATE ... LIKE / CREATE INDEX are applied by the repository; the
 * schema-level statements it ignores (DROP DATABASE, the default charset of CREATE/ALTER DATABASE) are
 * handled here. Not thread-safe.
 */
final class SchemaModel {

    private final SchemaRepository repository = new SchemaRepository(DbType.mysql);
    // schema -> its default MySQL charset; schema names compare case-insensitively, as in the repository
    private final Map<String, String> schemaCharsets = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    /** A model holding what a snapshot's data describes. */
    static SchemaModel restore(Map<String, String> data) {
        SchemaModel model = new SchemaModel();
        data.forEach(model::apply);
        return model;
    }

    /**
     * Applies one or more statements with {@code defaultSchema} as the session's schema.
     *
     * @throws com.alibaba.druid.sql.parser.ParserException when Druid cannot parse the text
     */
    void apply(String defaultSchema, String sql) {
        List<SQLStatement> statements = SQLUtils.parseStatements(sql, DbType.mysql);
        for (SQLStatement statement : statements) {
            applySchemaLevel(statement);
        }
        if (defaultSchema != null && !defaultSchema.isEmpty()) {
            repository.setDefaultSchema(defaultSchema);
        }
        repository.console(sql);
    }

    /** Replaces a table's definition with {@code createTable} (from the source's SHOW CREATE TABLE). */
    void replace(String schema, String table, String createTable) {
        drop(schema, table);
        repository.setDefaultSchema(schema);
        repository.console(createTable);
    }

    void drop(String schema, String table) {
        repository.removeTable(new SQLPropertyExpr(schema, table));
    }

    Optional<TableMeta> table(String schema, String table) {
        Schema s = repository.findSchema(schema);
        SchemaObject object = s == null ? null : s.findTable(table);
        if (object == null || !(object.getStatement() instanceof SQLCreateTableStatement create)) {
            return Optional.empty();
        }
        return Optional.of(TableDefinitionReader.read(schema, table, create, schemaCharsets.get(schema)));
    }

    /** The names of the tables the model knows, per schema, for snapshot verification. */
    Map<String, List<String>> tableNames() {
        Map<String, List<String>> names = new TreeMap<>();
        for (Schema schema : repository.getSchemas()) {
            List<String> tables = new ArrayList<>();
            for (SchemaObject object : schema.getObjects()) {
                if (object.getType() == SchemaObjectType.Table) {
                    tables.add(SQLUtils.normalize(object.getName()));
                }
            }
            if (!tables.isEmpty()) {
                names.put(SQLUtils.normalize(schema.getName()), tables);
            }
        }
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
        for (Schema schema : repository.getSchemas()) {
            for (SchemaObject object : schema.getObjects()) {
                if (object.getType() == SchemaObjectType.Table) {
                    text.computeIfAbsent(SQLUtils.normalize(schema.getName()), k -> new StringBuilder())
                            .append(SQLUtils.toSQLString(object.getStatement(), DbType.mysql)).append(";\n");
                }
            }
        }
        Map<String, String> data = new TreeMap<>();
        text.forEach((schema, sql) -> data.put(schema, sql.toString()));
        return data;
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
            Schema s = repository.findSchema(schema);
            if (s != null) {
                for (SchemaObject object : List.copyOf(s.getObjects())) {
                    repository.removeTable(new SQLPropertyExpr(schema, SQLUtils.normalize(object.getName())));
                }
            }
        }
    }
}
