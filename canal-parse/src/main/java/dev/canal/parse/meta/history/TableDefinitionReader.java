package dev.canal.parse.meta.history;

import com.alibaba.druid.DbType;
import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLDataType;
import com.alibaba.druid.sql.ast.SQLDataTypeImpl;
import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLIntegerExpr;
import com.alibaba.druid.sql.ast.statement.SQLAssignItem;
import com.alibaba.druid.sql.ast.statement.SQLCharacterDataType;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.MysqlCharsets;
import dev.canal.parse.meta.TableMeta;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a table's {@code CREATE TABLE}, as the DDL parser reads it, into the schema model's compact definition.
 *
 * <p>{@code mysqlType} is the DDL's own type text, as Canal shows it: the type name as written
 * ({@code INT}, {@code int}, {@code DECIMAL}), its arguments without spaces ({@code DECIMAL(65,30)},
 * {@code ENUM('a','b')}), then {@code unsigned} / {@code zerofill} in lower case; the charset and collation
 * clauses are dropped. {@code dataType} is the name information_schema would give ({@code BOOLEAN} is a
 * {@code tinyint}, {@code INTEGER} an {@code int}), which is what decoding and sqlType depend on.
 */
final class TableDefinitionReader {

    /** Type-name synonyms MySQL stores as another type (information_schema.COLUMNS.DATA_TYPE). */
    private static final Map<String, String> STORED_TYPE = Map.ofEntries(
            Map.entry("integer", "int"), Map.entry("int4", "int"), Map.entry("int1", "tinyint"),
            Map.entry("int2", "smallint"), Map.entry("int3", "mediumint"), Map.entry("middleint", "mediumint"),
            Map.entry("int8", "bigint"), Map.entry("serial", "bigint"), Map.entry("bool", "tinyint"),
            Map.entry("boolean", "tinyint"), Map.entry("real", "double"), Map.entry("double precision", "double"),
            Map.entry("float4", "float"), Map.entry("float8", "double"), Map.entry("numeric", "decimal"),
            Map.entry("dec", "decimal"), Map.entry("fixed", "decimal"), Map.entry("character", "char"),
            Map.entry("nchar", "char"), Map.entry("national char", "char"), Map.entry("nvarchar", "varchar"),
            Map.entry("national varchar", "varchar"), Map.entry("character varying", "varchar"),
            Map.entry("long varchar", "mediumtext"), Map.entry("long", "mediumtext"),
            Map.entry("long varbinary", "mediumblob"));

    /** Types whose values are text in a charset; every other type has none (binary, numbers, dates). */
    private static final Set<String> TEXT_TYPES = Set.of("char", "varchar", "tinytext", "text", "mediumtext",
            "longtext", "enum", "set");

    private TableDefinitionReader() {
    }

    /**
     * @param schemaCharset the schema's default charset (MySQL name), used when neither column nor table names one;
     *                      null when unknown
     * @param shared        where the names and type texts of the model are kept once
     */
    static TableDefinition read(String schema, String table, SQLCreateTableStatement create, String schemaCharset,
            SharedText shared) {
        String ownCharset = tableCharset(create, null);
        String tableCharset = ownCharset != null ? ownCharset : schemaCharset;
        List<SQLColumnDefinition> definitions = create.getColumnDefinitions();
        List<ColumnMeta> columns = new ArrayList<>(definitions.size());
        String[] charsets = new String[definitions.size()];
        for (int i = 0; i < definitions.size(); i++) {
            SQLColumnDefinition column = definitions.get(i);
            String name = SQLUtils.normalize(column.getColumnName());
            String dataType = storedType(column.getDataType().getName());
            String charset = charsetName(dataType, column, tableCharset);
            charsets[i] = charset == null ? null : shared.of(charset).text();
            columns.add(column(shared.of(name), column, dataType, create.isPrimaryColumn(name), charset, shared));
        }
        return new TableDefinition(new TableMeta(schema, table, columns),
                ownCharset == null ? null : shared.of(ownCharset).text(), charsets);
    }

    private static ColumnMeta column(SharedText.Text name, SQLColumnDefinition column, String dataType, boolean key,
            String charset, SharedText shared) {
        SQLDataType type = column.getDataType();
        String written = type.getName();
        boolean unsigned = type instanceof SQLDataTypeImpl impl && impl.isUnsigned() || "serial".equalsIgnoreCase(written);
        boolean zerofill = type instanceof SQLDataTypeImpl impl && impl.isZerofill();
        StringBuilder mysqlType = new StringBuilder(written);
        if (!type.getArguments().isEmpty()) {
            mysqlType.append(type.getArguments().stream().map(TableDefinitionReader::sql)
                    .collect(Collectors.joining(",", "(", ")")));
        }
        if (unsigned) {
            mysqlType.append(" unsigned");
        }
        if (zerofill) {
            mysqlType.append(" zerofill");
        }
        SharedText.Text typeText = shared.of(mysqlType.toString());
        return new ColumnMeta(name.text(), typeText.text(), shared.of(dataType).text(), key, unsigned,
                javaCharset(dataType, charset), "binary".equals(dataType) ? binaryLength(type) : 0, name.utf8(),
                typeText.utf8());
    }

    /** Whether a column of this written type holds text in a charset. */
    static boolean isText(String writtenType) {
        return TEXT_TYPES.contains(storedType(writtenType));
    }

    static String storedType(String written) {
        String lower = written.toLowerCase(Locale.ROOT);
        return STORED_TYPE.getOrDefault(lower, lower);
    }

    private static Charset javaCharset(String dataType, String charsetName) {
        if ("json".equals(dataType)) {
            return StandardCharsets.UTF_8; // MySQL's JSON text and MariaDB's JSON alias of LONGTEXT are utf8mb4
        }
        if (!TEXT_TYPES.contains(dataType)) {
            return null;
        }
        return charsetName == null ? StandardCharsets.UTF_8 : MysqlCharsets.javaCharset(charsetName);
    }

    /** A text column's charset (MySQL name): its own, else the table's; null for other columns or when unknown. */
    private static String charsetName(String dataType, SQLColumnDefinition column, String tableCharset) {
        if (!TEXT_TYPES.contains(dataType)) {
            return null;
        }
        String named = null;
        if (column.getDataType() instanceof SQLCharacterDataType character) {
            named = character.getCharSetName() != null ? character.getCharSetName()
                    : charsetOfCollation(character.getCollate());
        }
        if (named == null && column.getCharsetExpr() != null) {
            named = text(column.getCharsetExpr());
        }
        if (named == null && column.getCollateExpr() != null) {
            named = charsetOfCollation(text(column.getCollateExpr()));
        }
        return named != null ? SQLUtils.normalize(named) : tableCharset;
    }

    /** The table's default charset: its own option, else the schema's (null when neither is known). */
    static String tableCharset(SQLCreateTableStatement create, String schemaCharset) {
        String collation = null;
        for (SQLAssignItem option : create.getTableOptions()) {
            switch (SchemaModel.optionName(option)) {
                case "CHARSET", "CHARACTER SET" -> {
                    return text(option.getValue());
                }
                case "COLLATE" -> collation = text(option.getValue());
                default -> {
                    // engine, comment, row format ...: nothing to do with text decoding
                }
            }
        }
        return collation != null ? charsetOfCollation(collation) : schemaCharset;
    }

    /** A MySQL collation name starts with its charset: {@code latin1_swedish_ci}, {@code utf8mb4_0900_ai_ci}. */
    static String charsetOfCollation(String collation) {
        if (collation == null) {
            return null;
        }
        int underscore = collation.indexOf('_');
        return underscore < 0 ? collation : collation.substring(0, underscore);
    }

    private static int binaryLength(SQLDataType type) {
        List<SQLExpr> args = type.getArguments();
        return args.isEmpty() ? 1 : ((SQLIntegerExpr) args.get(0)).getNumber().intValue();
    }

    private static String text(SQLExpr expr) {
        return SQLUtils.normalize(sql(expr));
    }

    /**
     * The SQL text of a type argument or a charset name, as {@code SQLUtils.toSQLString} writes it. Integers and
     * names, nearly every case, are written here: {@code toSQLString} builds an output visitor per call, which
     * reads Druid's keyword lists from the class path each time, and was most of the CPU of reading the
     * definition of a table of many columns (docs/performance.md, "Big and wide").
     */
    static String sql(SQLExpr expr) {
        if (expr instanceof SQLIntegerExpr integer) {
            return integer.getNumber().toString();
        }
        if (expr instanceof SQLIdentifierExpr identifier) {
            return identifier.getName();
        }
        return SQLUtils.toSQLString(expr, DbType.mysql);
    }
}
