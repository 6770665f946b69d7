package dev.canal.bench.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each mask of the differential test explains its own difference and nothing wider: a real difference in the same
 * field stays reported, and the comparison finds absent fields and extra entries.
 */
class KnownDifferenceTest {

    private static final String VALUE = "rowChange.rowDatas[0].afterColumns[1(c)].value";

    @Test
    void decimalScaleIsExplainedOnlyForTheSameNumber() {
        EntryFields canal = column("decimal(10,3)", "1.0");
        assertThat(explained(canal, VALUE, "1.0", "1.000")).containsExactly(
                KnownDifference.DECIMAL_WITH_A_ZERO_FRACTION_LOSES_SCALE);
        assertThat(explained(canal, VALUE, "1.0", "1.001")).isEmpty();
    }

    @Test
    void binaryPaddingIsExplainedOnlyForTrailingZeroBytes() {
        EntryFields canal = column("binary(4)", "AB");
        assertThat(explained(canal, VALUE, "AB", "AB\0\0")).containsExactly(
                KnownDifference.BINARY_LOSES_ITS_TRAILING_ZERO_BYTES);
        assertThat(explained(canal, VALUE, "AB", "AB\0C")).isEmpty();
        assertThat(explained(column("varbinary(4)", "AB"), VALUE, "AB", "AB\0\0")).isEmpty();
    }

    @Test
    void charsetMasksExplainOnlyTheGarbleTheyName() {
        assertThat(explained(column("json", "\"Ã¼\""), VALUE, "\"Ã¼\"", "\"ü\"")).containsExactly(
                KnownDifference.JSON_ON_MARIADB_DECODED_AS_ISO_8859_1);
        assertThat(explained(column("varchar(20)", "\"Ã¼\""), VALUE, "\"Ã¼\"", "\"ü\"")).isEmpty();
        EntryFields latin1 = column("varchar(20)", "Gr\uFFFD\uFFFDe");
        assertThat(explained(latin1, VALUE, "Gr\uFFFD\uFFFDe", "Grüße")).containsExactly(
                KnownDifference.LATIN1_TEXT_DECODED_AS_UTF_8);
        assertThat(explained(latin1, VALUE, "Gr\uFFFD\uFFFDe", "Grüsse")).isEmpty();
    }

    @Test
    void emptyJsonIsExplainedOnlyAsJsonNull() {
        EntryFields canal = column("JSON", "");
        assertThat(explained(canal, VALUE, "", "null")).containsExactly(
                KnownDifference.EMPTY_MYSQL_JSON_VALUE_IS_JSON_NULL);
        assertThat(explained(canal, VALUE, "", "{}")).isEmpty();
        assertThat(explained(column("varchar(4)", ""), VALUE, "", "null")).isEmpty();
    }

    @Test
    void previousFileNameIsExplainedOnlyForTheFileJustBefore() {
        EntryFields canal = entry(0, "entryType", "ROWDATA", "header.logfileName", "mysql-bin.000009");
        assertThat(explained(canal, "header.logfileName", "mysql-bin.000009", "mysql-bin.000010")).containsExactly(
                KnownDifference.LOGFILE_NAME_OF_THE_PREVIOUS_FILE_AFTER_A_ROTATION);
        assertThat(explained(canal, "header.logfileName", "mysql-bin.000009", "mysql-bin.000011")).isEmpty();
        assertThat(explained(canal, "header.logfileName", "mysql-bin.000010", "mysql-bin.000009")).isEmpty();
        assertThat(explained(canal, "header.logfileName", "other.000009", "mysql-bin.000010")).isEmpty();
    }

    @Test
    void comparisonReportsAbsentFieldsAndEntriesOnlyOneSideDelivered() {
        EntryFields canal = entry(0, "entryType", "ROWDATA", "rowChange.isDdl", "false");
        EntryFields ours = entry(0, "entryType", "ROWDATA");
        List<Difference> differences = EntryComparison.differences(List.of(canal, canal), List.of(ours));
        assertThat(differences).extracting(Difference::path, Difference::canal, Difference::ours)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("rowChange.isDdl", "false", null),
                        org.assertj.core.groups.Tuple.tuple(Difference.ENTRY, "delivered", null));
    }

    private static List<KnownDifference> explained(EntryFields canal, String path, String canalValue,
            String ourValue) {
        Difference d = new Difference(0, canal.title(), path, canalValue, ourValue);
        return Arrays.stream(KnownDifference.values()).filter(k -> k.explains(d, canal)).toList();
    }

    private static EntryFields column(String mysqlType, String value) {
        String column = VALUE.substring(0, VALUE.length() - ".value".length());
        return entry(0, "entryType", "ROWDATA", column + ".mysqlType", mysqlType, VALUE, value);
    }

    private static EntryFields entry(int index, String... pathsAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < pathsAndValues.length; i += 2) {
            fields.put(pathsAndValues[i], pathsAndValues[i + 1]);
        }
        return new EntryFields(index, fields);
    }
}
