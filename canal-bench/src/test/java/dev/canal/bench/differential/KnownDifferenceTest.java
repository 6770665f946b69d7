package dev.canal.bench.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer.Flavor;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Each mask of the differential test explains its own difference and nothing wider: the same garble in a column of
 * another charset, type or run, or an entry only one side delivered for another reason, stays reported; and a run
 * that no longer shows a listed difference is told so.
 */
class KnownDifferenceTest {

    private static final RunContext MARIADB = new RunContext(Flavor.MARIADB, "NO_LOG", Map.of());
    private static final RunContext MYSQL_MINIMAL = new RunContext(Flavor.MYSQL, "MINIMAL", Map.of());
    private static final RunContext MYSQL_FULL = new RunContext(Flavor.MYSQL, "FULL", Map.of());
    private static final String COLUMN = "rowChange.rowDatas[0].afterColumns[1(%s)]";

    @Test
    void decimalScaleIsExplainedOnlyForAZeroFractionCutToOneZero() {
        assertThat(value("t", "c", "decimal(10,3)", "1.0", "1.000", MARIADB))
                .containsExactly(KnownDifference.DECIMAL_WITH_A_ZERO_FRACTION_LOSES_SCALE);
        assertThat(value("t", "c", "decimal(10,3)", "1.5", "1.500", MARIADB)).isEmpty();
        assertThat(value("t", "c", "decimal(10,3)", "1.0", "1.001", MARIADB)).isEmpty();
        assertThat(value("t", "c", "varchar(9)", "1.0", "1.000", MARIADB)).isEmpty();
    }

    @Test
    void binaryPaddingIsExplainedOnlyUpToTheDeclaredLength() {
        assertThat(value("t", "c", "binary(4)", "AB", "AB\0\0", MARIADB))
                .containsExactly(KnownDifference.BINARY_LOSES_ITS_TRAILING_ZERO_BYTES);
        assertThat(value("t", "c", "binary(4)", "AB", "AB\0", MARIADB)).isEmpty();
        assertThat(value("t", "c", "binary(4)", "AB", "AB\0C", MARIADB)).isEmpty();
        assertThat(value("t", "c", "varbinary(4)", "AB", "AB\0\0", MARIADB)).isEmpty();
    }

    @Test
    void mariadbJsonIsExplainedOnlyOnMariadbForItsIso88591Garble() {
        String ours = "{\"k\": \"ü\"}";
        String garbled = garble(ours, StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1);
        assertThat(value("t", "c", "json", garbled, ours, MARIADB))
                .containsExactly(KnownDifference.JSON_ON_MARIADB_DECODED_AS_ISO_8859_1);
        assertThat(value("t", "c", "json", garbled, ours, MYSQL_MINIMAL)).isEmpty();
        assertThat(value("t", "c", "varchar(20)", garbled, ours, MARIADB)).isEmpty();
    }

    @Test
    void nonUtf8TextIsExplainedOnlyInAColumnDeclaredInThatCharset() {
        Charset latin1 = Charset.forName("windows-1252");
        String latin1Garble = garble("Grüße", latin1, StandardCharsets.UTF_8);
        assertThat(value("t_types", "c_latin1", "varchar(20)", latin1Garble, "Grüße", MARIADB))
                .containsExactly(KnownDifference.NON_UTF8_TEXT_DECODED_AS_UTF_8);
        // a UTF-8 column decoded as latin1 by mistake must not pass for the documented difference
        assertThat(value("t_types", "c_vc", "varchar(100)", latin1Garble, "Grüße", MARIADB)).isEmpty();
        assertThat(value("t_types2", "c_gbk", "varchar(20)", garble("中文", Charset.forName("GBK"),
                StandardCharsets.UTF_8), "中文", MARIADB)).containsExactly(KnownDifference.NON_UTF8_TEXT_DECODED_AS_UTF_8);
        assertThat(value("t_types2", "c_gbk", "varchar(20)", latin1Garble, "Grüße", MARIADB)).isEmpty();
    }

    @Test
    void rebuiltMysqlTypeIsExplainedOnlyWithFullRowMetadataAndForTheSameType() {
        assertThat(field("t", "c", "mysqlType", "INT unsigned", "int unsigned", MYSQL_FULL))
                .containsExactly(KnownDifference.MYSQL_TYPE_REBUILT_FROM_FULL_ROW_METADATA);
        assertThat(field("t", "c", "mysqlType", "TIMESTAMP(0)", "timestamp", MYSQL_FULL))
                .containsExactly(KnownDifference.MYSQL_TYPE_REBUILT_FROM_FULL_ROW_METADATA);
        assertThat(field("t", "c", "mysqlType", "INT unsigned", "int unsigned", MYSQL_MINIMAL)).isEmpty();
        assertThat(field("t", "c", "mysqlType", "INT", "bigint", MYSQL_FULL)).isEmpty();
        assertThat(field("t", "c", "mysqlType", "DATETIME(3)", "datetime", MYSQL_FULL)).isEmpty();
    }

    @Test
    void emptyJsonIsExplainedOnlyOnMysqlAsJsonNull() {
        assertThat(value("t", "c", "json", "", "null", MYSQL_MINIMAL))
                .containsExactly(KnownDifference.EMPTY_MYSQL_JSON_VALUE_IS_JSON_NULL);
        assertThat(value("t", "c", "json", "", "{}", MYSQL_MINIMAL)).isEmpty();
        assertThat(value("t", "c", "varchar(4)", "", "null", MYSQL_MINIMAL)).isEmpty();
    }

    @Test
    void mariadbAddressTypesAreExplainedOnlyForTheirOwnRawBytes() {
        assertThat(value("t", "a4", "inet4", "\n\0\0\u0001", "10.0.0.1", MARIADB))
                .containsExactly(KnownDifference.MARIADB_ADDRESS_TYPES_AS_RAW_BYTES);
        assertThat(value("t", "a4", "inet4", "", "0.0.0.0", MARIADB))
                .containsExactly(KnownDifference.MARIADB_ADDRESS_TYPES_AS_RAW_BYTES);
        assertThat(value("t", "a4", "inet4", "\n\0\0\u0002", "10.0.0.1", MARIADB)).isEmpty();
        assertThat(value("t", "a4", "inet4", "\n\0\0\u0001", "10.0.0.1", MYSQL_MINIMAL)).isEmpty();
    }

    @Test
    void aStatementEndingLikeBeginIsExplainedOnlyAsCanalsTransactionEntry() {
        EntryFields begin = entry("TRANSACTIONBEGIN", "100");
        EntryFields truncate = ddl("100", "TRUNCATE TABLE t_begin");
        assertThat(explained(List.of(begin), List.of(truncate), new Difference(0, 0, "", "entryType",
                "TRANSACTIONBEGIN", "ROWDATA"), MARIADB)).containsExactly(KnownDifference.STATEMENT_CLASSIFIED_BY_SUFFIX);
        assertThat(explained(List.of(begin), List.of(ddl("100", "TRUNCATE TABLE t_other")), new Difference(0, 0, "",
                "entryType", "TRANSACTIONBEGIN", "ROWDATA"), MARIADB)).isEmpty();
        // Canal alone delivered it: what the event was comes from our unfiltered destination
        RunContext truncated = new RunContext(Flavor.MARIADB, "NO_LOG", Map.of("mysql-bin.000001:100",
                "TRUNCATE TABLE t_begin"));
        RunContext realBegin = new RunContext(Flavor.MARIADB, "NO_LOG", Map.of("mysql-bin.000001:100", "BEGIN"));
        Difference canalOnly = new Difference(0, -1, "", Difference.ENTRY, "delivered", null);
        assertThat(explained(List.of(begin), List.of(), canalOnly, truncated))
                .containsExactly(KnownDifference.STATEMENT_CLASSIFIED_BY_SUFFIX);
        assertThat(explained(List.of(begin), List.of(), canalOnly, realBegin)).isEmpty();
    }

    @Test
    void aTransactionEndOnlyOursDeliveredIsExplainedOnlyAfterARowChange() {
        List<EntryFields> afterRows = List.of(entry("TRANSACTIONBEGIN", "1"), rows("2", "INSERT"),
                entry("TRANSACTIONEND", "3"));
        List<EntryFields> afterDdl = List.of(entry("TRANSACTIONBEGIN", "1"), ddl("2", "ALTER TABLE t ADD c INT"),
                entry("TRANSACTIONEND", "3"));
        Difference oursOnly = new Difference(-1, 2, "", Difference.ENTRY, null, "delivered");
        assertThat(explained(List.of(), afterRows, oursOnly, MARIADB))
                .containsExactly(KnownDifference.TRANSACTIONEND_KEPT_AFTER_A_FILTERED_TAIL);
        assertThat(explained(List.of(), afterDdl, oursOnly, MARIADB)).isEmpty();
        assertThat(explained(afterRows, List.of(), new Difference(2, -1, "", Difference.ENTRY, "delivered", null),
                MARIADB)).isEmpty();
    }

    @Test
    void aDdlCanalCannotParseIsExplainedOnlyInItsNamesAndType() {
        EntryFields canal = query("100", "CREATE TABLE t_invisible (id INT, s INT INVISIBLE)");
        EntryFields ours = ddl("100", "CREATE TABLE t_invisible (id INT, s INT INVISIBLE)");
        assertThat(explained(List.of(canal), List.of(ours), new Difference(0, 0, "", "header.tableName", null,
                "t_invisible"), MARIADB)).containsExactly(KnownDifference.DDL_CANALS_PARSER_CANNOT_READ_ARRIVES_AS_QUERY);
        assertThat(explained(List.of(canal), List.of(ours), new Difference(0, 0, "", "rowChange.sql", "x", "y"),
                MARIADB)).isEmpty();
        EntryFields readable = query("100", "CREATE TABLE t (id INT)");
        assertThat(explained(List.of(readable), List.of(ddl("100", "CREATE TABLE t (id INT)")), new Difference(0, 0,
                "", "header.tableName", null, "t"), MARIADB)).isEmpty();
    }

    @Test
    void aDdlCanalDropsIsExplainedOnlyWhenOursAloneDeliversIt() {
        Difference oursOnly = new Difference(-1, 0, "", Difference.ENTRY, null, "delivered");
        assertThat(explained(List.of(), List.of(ddl("100", "ALTER DATABASE d DEFAULT CHARACTER SET utf8mb4")),
                oursOnly, MARIADB)).containsExactly(KnownDifference.DDL_CANAL_DROPS);
        assertThat(explained(List.of(), List.of(ddl("100", "ALTER TABLE t ADD CONSTRAINT c CHECK (v > 0)")),
                oursOnly, MARIADB)).containsExactly(KnownDifference.DDL_CANAL_DROPS);
        assertThat(explained(List.of(), List.of(ddl("100", "ALTER TABLE t ADD COLUMN c INT")), oursOnly, MARIADB))
                .isEmpty();
        assertThat(explained(List.of(query("100", "ALTER DATABASE d DEFAULT CHARACTER SET utf8mb4")), List.of(),
                new Difference(0, -1, "", Difference.ENTRY, "delivered", null), MARIADB)).isEmpty();
    }

    @Test
    void aTransactionEndDeliveredAgainIsExplainedOnlyAsARepeatOfTheOneBefore() {
        List<EntryFields> canal = List.of(entry("TRANSACTIONEND", "500"), entry("TRANSACTIONEND", "500"));
        Difference second = new Difference(1, -1, "", Difference.ENTRY, "delivered", null);
        assertThat(explained(canal, List.of(), second, MARIADB))
                .containsExactly(KnownDifference.ACKED_TRANSACTIONEND_DELIVERED_AGAIN_ON_RESUME);
        assertThat(explained(List.of(entry("TRANSACTIONEND", "500"), entry("TRANSACTIONEND", "600")), List.of(),
                second, MARIADB)).isEmpty();
        assertThat(explained(canal, List.of(), second, MYSQL_MINIMAL)).isEmpty();
    }

    @Test
    void thePreviousFileNameIsExplainedOnlyRightAfterARotationBothSidesSaw() {
        List<EntryFields> canal = List.of(file("mysql-bin.000009", "900"), file("mysql-bin.000009", "4"),
                file("mysql-bin.000009", "120"));
        List<EntryFields> ours = List.of(file("mysql-bin.000009", "900"), file("mysql-bin.000010", "4"),
                file("mysql-bin.000010", "120"));
        Difference justAfter = new Difference(2, 2, "", "header.logfileName", "mysql-bin.000009", "mysql-bin.000010");
        assertThat(explained(canal, ours, justAfter, MARIADB))
                .containsExactly(KnownDifference.LOGFILE_NAME_OF_THE_PREVIOUS_FILE_AFTER_A_ROTATION);
        // once Canal named the new file, a later entry named after the old one is not the rotation's
        List<EntryFields> canalCaughtUp = List.of(file("mysql-bin.000009", "900"), file("mysql-bin.000010", "4"),
                file("mysql-bin.000009", "120"));
        assertThat(explained(canalCaughtUp, ours, justAfter, MARIADB)).isEmpty();
        assertThat(explained(canal, ours, new Difference(2, 2, "", "header.logfileName", "mysql-bin.000009",
                "mysql-bin.000011"), MARIADB)).isEmpty();
    }

    @Test
    void aListedDifferenceARunNoLongerShowsIsReportedWhereItMustShow() {
        KnownDifference.Tally tally = new KnownDifference.Tally();
        tally.explain(List.of(new Difference(0, 0, "", COLUMN.formatted("c") + ".value", "1.0", "1.000")),
                List.of(column("t", "c", "decimal(5,3)", "1.0")), List.of(column("t", "c", "decimal(5,3)", "1.000")),
                MARIADB);

        assertThat(tally.counts()).containsOnlyKeys(KnownDifference.DECIMAL_WITH_A_ZERO_FRACTION_LOSES_SCALE);
        assertThat(tally.missing(MARIADB)).contains(KnownDifference.JSON_ON_MARIADB_DECODED_AS_ISO_8859_1,
                KnownDifference.BINARY_LOSES_ITS_TRAILING_ZERO_BYTES).doesNotContain(
                KnownDifference.DECIMAL_WITH_A_ZERO_FRACTION_LOSES_SCALE,
                KnownDifference.MYSQL_TYPE_REBUILT_FROM_FULL_ROW_METADATA,
                KnownDifference.LOGFILE_NAME_OF_THE_PREVIOUS_FILE_AFTER_A_ROTATION);
        assertThat(tally.missing(MYSQL_FULL)).contains(KnownDifference.MYSQL_TYPE_REBUILT_FROM_FULL_ROW_METADATA);
    }

    @Test
    void entriesArePairedByTheirEventSoOneOnlyOneSideDeliveredIsOneDifference() {
        List<EntryFields> canal = List.of(entry("TRANSACTIONBEGIN", "10"), rows("20", "INSERT"), entry("TRANSACTIONEND", "30"));
        List<EntryFields> ours = List.of(ddl("5", "ALTER DATABASE d CHARACTER SET utf8mb4"), entry("TRANSACTIONBEGIN", "10"),
                rows("20", "UPDATE"), entry("TRANSACTIONEND", "30"), entry("TRANSACTIONEND", "30"));

        assertThat(EntryComparison.differences(canal, ours)).extracting(Difference::canalIndex, Difference::oursIndex,
                Difference::path).containsExactly(Tuple.tuple(-1, 0, Difference.ENTRY),
                Tuple.tuple(1, 2, "header.eventType"), Tuple.tuple(-1, 4, Difference.ENTRY));
    }

    /** The masks that explain a differing value of column {@code table.column} of type {@code mysqlType}. */
    private static List<KnownDifference> value(String table, String column, String mysqlType, String canal,
            String ours, RunContext run) {
        return field(table, column, "value", canal, ours, mysqlType, run);
    }

    private static List<KnownDifference> field(String table, String column, String field, String canal, String ours,
            RunContext run) {
        return field(table, column, field, canal, ours, canal, run);
    }

    private static List<KnownDifference> field(String table, String column, String field, String canal, String ours,
            String canalMysqlType, RunContext run) {
        Difference d = new Difference(0, 0, "", COLUMN.formatted(column) + "." + field, canal, ours);
        return explained(List.of(column(table, column, canalMysqlType, canal)), List.of(column(table, column,
                canalMysqlType, ours)), d, run);
    }

    private static List<KnownDifference> explained(List<EntryFields> canal, List<EntryFields> ours, Difference d,
            RunContext run) {
        return Arrays.stream(KnownDifference.values()).filter(k -> k.explains(d, canal, ours, run)).toList();
    }

    private static EntryFields column(String table, String column, String mysqlType, String value) {
        String path = COLUMN.formatted(column);
        return fields("entryType", "ROWDATA", "header.tableName", table, "header.logfileName", "mysql-bin.000001",
                "header.logfileOffset", "100", path + ".mysqlType", mysqlType, path + ".value", value);
    }

    private static EntryFields entry(String entryType, String offset) {
        return fields("entryType", entryType, "header.logfileName", "mysql-bin.000001", "header.logfileOffset", offset);
    }

    private static EntryFields file(String name, String offset) {
        return fields("entryType", "ROWDATA", "header.logfileName", name, "header.logfileOffset", offset);
    }

    private static EntryFields rows(String offset, String eventType) {
        return fields("entryType", "ROWDATA", "header.logfileName", "mysql-bin.000001", "header.logfileOffset", offset,
                "header.eventType", eventType, "rowChange.isDdl", "false");
    }

    private static EntryFields ddl(String offset, String sql) {
        return fields("entryType", "ROWDATA", "header.logfileName", "mysql-bin.000001", "header.logfileOffset", offset,
                "header.eventType", "CREATE", "rowChange.eventType", "CREATE", "rowChange.isDdl", "true",
                "rowChange.sql", sql);
    }

    private static EntryFields query(String offset, String sql) {
        return fields("entryType", "ROWDATA", "header.logfileName", "mysql-bin.000001", "header.logfileOffset", offset,
                "header.eventType", "QUERY", "rowChange.eventType", "QUERY", "rowChange.isDdl", "true",
                "rowChange.sql", sql);
    }

    private static EntryFields fields(String... pathsAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < pathsAndValues.length; i += 2) {
            fields.put(pathsAndValues[i], pathsAndValues[i + 1]);
        }
        return new EntryFields(0, fields);
    }

    private static String garble(String text, Charset written, Charset read) {
        return new String(text.getBytes(written), read);
    }
}
