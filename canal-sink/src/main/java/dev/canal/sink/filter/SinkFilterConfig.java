package dev.canal.sink.filter;

import dev.canal.protocol.config.TypedProperties;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.PatternSyntaxException;

/**
 * Every filter switch of an instance (canal-compat.md 7.2, 7.3), typed and validated. The parser
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
 * @param filterTransactionEntry drop BEGIN/END entries, letting one through now and then (4.3)
 * @param filterTableError       skip table-meta errors instead of failing
 * @param filterRows             drop all row events
 */
public record SinkFilterConfig(TableFilter tableFilter, ColumnFilter columnFilter,
        boolean filterQueryDml, boolean filterQueryDcl, boolean filterQueryDdl,
        boolean filterDmlInsert, boolean filterDmlUpdate, boolean filterDmlDelete,
        boolean filterTransactionEntry, boolean filterTableError, boolean filterRows) {

    public static final String TABLE_REGEX_KEY = "canal.instance.filter.regex";
    public static final String TABLE_BLACK_REGEX_KEY = "canal.instance.filter.black.regex";
    public static final String FIELD_KEY = "canal.instance.filter.field";
    public static final String BLACK_FIELD_KEY = "canal.instance.filter.black.field";
    public static final String QUERY_DML_KEY = "canal.instance.filter.query.dml";
    public static final String QUERY_DCL_KEY = "canal.instance.filter.query.dcl";
    public static final String QUERY_DDL_KEY = "canal.instance.filter.query.ddl";
    public static final String DML_INSERT_KEY = "canal.instance.filter.dml.insert";
    public static final String DML_UPDATE_KEY = "canal.instance.filter.dml.update";
    public static final String DML_DELETE_KEY = "canal.instance.filter.dml.delete";
    public static final String TRANSACTION_ENTRY_KEY = "canal.instance.filter.transaction.entry";
    public static final String TABLE_ERROR_KEY = "canal.instance.filter.table.error";
    public static final String ROWS_KEY = "canal.instance.filter.rows";

    /** Canal's spring XML default white list: every table of every schema. */
    public static final String DEFAULT_TABLE_REGEX = ".*\\..*";

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
        RegexTableFilter white = regex(p, TABLE_REGEX_KEY, DEFAULT_TABLE_REGEX, true);
        RegexTableFilter black = regex(p, TABLE_BLACK_REGEX_KEY, "", false);
        return new SinkFilterConfig(new TableFilter(white, black),
                ColumnFilter.parse(p.string(FIELD_KEY, ""), p.string(BLACK_FIELD_KEY, "")),
                p.bool(QUERY_DML_KEY, false), p.bool(QUERY_DCL_KEY, false), p.bool(QUERY_DDL_KEY, false),
                p.bool(DML_INSERT_KEY, false), p.bool(DML_UPDATE_KEY, false), p.bool(DML_DELETE_KEY, false),
                p.bool(TRANSACTION_ENTRY_KEY, false), p.bool(TABLE_ERROR_KEY, false), p.bool(ROWS_KEY, false));
    }

    private static RegexTableFilter regex(TypedProperties p, String key, String defaultValue, boolean white) {
        String value = p.string(key, defaultValue);
        try {
            return white ? RegexTableFilter.whiteList(value) : RegexTableFilter.blackList(value);
        } catch (PatternSyntaxException e) {
            IllegalArgumentException error = TypedProperties.invalid(key, value, e.getDescription()
                    + " near index " + e.getIndex() + " of " + e.getPattern());
            error.initCause(e);
            throw error;
        }
    }

    /** This configuration with the white list a client subscribed with (canal-compat.md 3.1). */
    public SinkFilterConfig withTableWhiteList(String whitePatterns) {
        return new SinkFilterConfig(tableFilter.withWhiteList(whitePatterns), columnFilter, filterQueryDml,
                filterQueryDcl, filterQueryDdl, filterDmlInsert, filterDmlUpdate, filterDmlDelete,
                filterTransactionEntry, filterTableError, filterRows);
    }
}
