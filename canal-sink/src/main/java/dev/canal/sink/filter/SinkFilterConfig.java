package dev.canal.sink.filter;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.PatternSyntaxException;

/**
 * Every filter switch of an instance, Canal's {@code canal.instance.filter.*} keys (docs/configuration.md), typed
 * and validated. The parser
 * applies the table, column, query, DML and rows switches before it builds entries; the sink applies
 * {@code filterTransactionEntry}.
 *
 * @param tableFilter            {@code canal.instance.filter.regex} and {@code .black.regex}
 * @param columnFilter           {@code canal.instance.filter.field} and {@code .black.field}
 * @param filterQueryDml         drop DML QUERY events (statement binlog) and rows-query/annotate/uservar/intvar/rand
 * @param filterQueryDcl         drop QUERY events that are neither DDL nor DML
 * @param filterQueryDdl         drop every entry built from a QUERY other than BEGIN/COMMIT/XA
 * @param filterDmlInsert        drop INSERT row events
 * @param filterDmlUpdate        drop UPDATE row events
 * @param filterDmlDelete        drop DELETE row events
 * @param filterTransactionEntry drop BEGIN/END entries, letting one through now and then, as Canal does
 * @param filterTableError       skip table-meta errors instead of failing
 * @param filterRows             drop all row events
 */
public record SinkFilterConfig(TableFilter tableFilter, ColumnFilter columnFilter,
        boolean filterQueryDml, boolean filterQueryDcl, boolean filterQueryDdl,
        boolean filterDmlInsert, boolean filterDmlUpdate, boolean filterDmlDelete,
        boolean filterTransactionEntry, boolean filterTableError, boolean filterRows) {

    public static final ConfigKey TABLE_REGEX = ConfigKey.canal("canal.instance.filter.regex", ".*\\..*",
            "Tables to capture: comma-separated schema.table regular expressions, matched case-insensitively "
                    + "against the whole name. A client's subscribe filter replaces it for that client's instance.");
    public static final ConfigKey TABLE_BLACK_REGEX = ConfigKey.canal("canal.instance.filter.black.regex", "",
            "Tables to leave out, in the same form; applied after the white list.");
    public static final ConfigKey FIELD = ConfigKey.canal("canal.instance.filter.field", "",
            "Columns to keep per table: schema.table:col1/col2, comma-separated; other columns are dropped.");
    public static final ConfigKey BLACK_FIELD = ConfigKey.canal("canal.instance.filter.black.field", "",
            "Columns to drop per table, in the same form.");
    public static final ConfigKey QUERY_DML = ConfigKey.canal("canal.instance.filter.query.dml", "false",
            "Drop DML statements logged as text (statement or mixed binlog) and the rows-query texts.");
    public static final ConfigKey QUERY_DCL = ConfigKey.canal("canal.instance.filter.query.dcl", "false",
            "Drop the statements that are neither table DDL nor DML: CREATE, ALTER and DROP DATABASE.");
    public static final ConfigKey QUERY_DDL = ConfigKey.canal("canal.instance.filter.query.ddl", "false",
            "Drop every entry built from a statement other than BEGIN, COMMIT and XA: table DDL, statement-logged "
                    + "DML and database statements (table definitions still follow the DDL).");
    public static final ConfigKey DML_INSERT = ConfigKey.canal("canal.instance.filter.dml.insert", "false",
            "Drop inserted rows.");
    public static final ConfigKey DML_UPDATE = ConfigKey.canal("canal.instance.filter.dml.update", "false",
            "Drop updated rows.");
    public static final ConfigKey DML_DELETE = ConfigKey.canal("canal.instance.filter.dml.delete", "false",
            "Drop deleted rows.");
    public static final ConfigKey TRANSACTION_ENTRY = ConfigKey.canal("canal.instance.filter.transaction.entry",
            "false", "Drop transaction begin and end entries, letting one through now and then so positions advance.");
    public static final ConfigKey TABLE_ERROR = ConfigKey.canal("canal.instance.filter.table.error", "false",
            "Skip a row event whose table definition cannot be found instead of stopping the instance.");
    public static final ConfigKey ROWS = ConfigKey.canal("canal.instance.filter.rows", "false",
            "Drop every row event (keep only statements and transaction entries).");

    public static final List<ConfigKey> KEYS = List.of(TABLE_REGEX, TABLE_BLACK_REGEX, FIELD, BLACK_FIELD,
            QUERY_DML, QUERY_DCL, QUERY_DDL, DML_INSERT, DML_UPDATE, DML_DELETE, TRANSACTION_ENTRY, TABLE_ERROR, ROWS);

    public SinkFilterConfig {
        Objects.requireNonNull(tableFilter, "tableFilter");
        Objects.requireNonNull(columnFilter, "columnFilter");
    }

    /** Every table, every column, no switch on. */
    public static SinkFilterConfig defaults() {
        return fromProperties(new Properties());
    }

    /**
     * Reads the filter keys; absent or blank keys take their defaults.
     *
     * @throws IllegalArgumentException naming the key, for a bad regex or a non-boolean switch
     */
    public static SinkFilterConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        RegexTableFilter white = regex(p, TABLE_REGEX, true);
        RegexTableFilter black = regex(p, TABLE_BLACK_REGEX, false);
        return new SinkFilterConfig(new TableFilter(white, black),
                ColumnFilter.parse(p.string(FIELD), p.string(BLACK_FIELD)),
                p.bool(QUERY_DML), p.bool(QUERY_DCL), p.bool(QUERY_DDL),
                p.bool(DML_INSERT), p.bool(DML_UPDATE), p.bool(DML_DELETE),
                p.bool(TRANSACTION_ENTRY), p.bool(TABLE_ERROR), p.bool(ROWS));
    }

    private static RegexTableFilter regex(TypedProperties p, ConfigKey key, boolean white) {
        String value = p.string(key);
        try {
            return white ? RegexTableFilter.whiteList(value) : RegexTableFilter.blackList(value);
        } catch (PatternSyntaxException e) {
            throw ConfigValueException.invalid(key.name(), value, e.getDescription() + " near index " + e.getIndex()
                    + " of " + e.getPattern(), e);
        }
    }

    /** This configuration with the white list a client subscribed with. */
    public SinkFilterConfig withTableWhiteList(String whitePatterns) {
        return new SinkFilterConfig(tableFilter.withWhiteList(whitePatterns), columnFilter, filterQueryDml,
                filterQueryDcl, filterQueryDdl, filterDmlInsert, filterDmlUpdate, filterDmlDelete,
                filterTransactionEntry, filterTableError, filterRows);
    }
}
