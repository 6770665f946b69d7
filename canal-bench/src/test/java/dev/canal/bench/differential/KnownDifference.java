package dev.canal.bench.differential;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.BiPredicate;

/**
 * The differences between Canal 1.1.7 and our server that docs/compatibility.md lists, each named after its row
 * there, as a test for whether one {@link Difference} (with Canal's whole entry at hand) is explained by it.
 * Everything else the differential test reports as a failure.
 */
enum KnownDifference {

    /** "DECIMAL with a zero fraction loses scale": Canal's {@code 2.0} where we print {@code 2.000}. */
    DECIMAL_WITH_A_ZERO_FRACTION_LOSES_SCALE((d, canal) -> isValue(d)
            && mysqlType(d, canal).startsWith("decimal") && sameNumber(d.canal(), d.ours())),

    /** "BINARY(n) loses its trailing 0x00 bytes": ours is Canal's value padded with NUL to n bytes. */
    BINARY_LOSES_ITS_TRAILING_ZERO_BYTES((d, canal) -> isValue(d) && mysqlType(d, canal).startsWith("binary(")
            && d.ours().startsWith(d.canal()) && d.ours().substring(d.canal().length()).chars().allMatch(c -> c == 0)),

    /** "JSON on MariaDB decoded as ISO-8859-1": Canal's value is our UTF-8 text read as ISO-8859-1. */
    JSON_ON_MARIADB_DECODED_AS_ISO_8859_1((d, canal) -> isValue(d) && mysqlType(d, canal).equals("json")
            && d.canal().equals(new String(d.ours().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1))),

    /**
     * "text in latin1, gbk, utf16 (any non-UTF-8 column charset) decoded as UTF-8", for latin1: Canal's value is
     * the column's latin1 bytes read as UTF-8.
     */
    LATIN1_TEXT_DECODED_AS_UTF_8((d, canal) -> isValue(d)
            && d.canal().equals(new String(d.ours().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8))),

    /**
     * "MySQL 8 {@code binlog_row_metadata=FULL}" (other observable differences): our mysqlType is rebuilt as MySQL
     * prints it ({@code int unsigned}) where Canal keeps the DDL's spelling ({@code INT unsigned}).
     */
    MYSQL_TYPE_REBUILT_FROM_FULL_ROW_METADATA((d, canal) -> d.path().endsWith(".mysqlType") && d.canal() != null
            && d.ours() != null && d.canal().equalsIgnoreCase(d.ours())),

    /**
     * "an empty MySQL JSON value" (deliberate differences): Canal sends {@code ""}, we send the JSON null MySQL reads
     * it as.
     */
    EMPTY_MYSQL_JSON_VALUE_IS_JSON_NULL((d, canal) -> isValue(d) && mysqlType(d, canal).equals("json")
            && d.canal().isEmpty() && d.ours().equals("null")),

    /**
     * "logfileName after a binlog rotation" (deliberate differences): in some runs Canal names the file before
     * the rotation for entries of the file after it (their offsets agree); ours names the file the event is in.
     */
    LOGFILE_NAME_OF_THE_PREVIOUS_FILE_AFTER_A_ROTATION((d, canal) -> d.path().equals("header.logfileName")
            && d.canal() != null && d.ours() != null && isPreviousFile(d.canal(), d.ours()));

    private final BiPredicate<Difference, EntryFields> explains;

    KnownDifference(BiPredicate<Difference, EntryFields> explains) {
        this.explains = explains;
    }

    /** The first known difference that explains {@code difference} (in Canal's {@code canalEntry}), or null. */
    static KnownDifference explaining(Difference difference, EntryFields canalEntry) {
        for (KnownDifference k : values()) {
            if (k.explains(difference, canalEntry)) {
                return k;
            }
        }
        return null;
    }

    /** Whether this known difference explains {@code difference}, found in Canal's {@code canalEntry}. */
    boolean explains(Difference difference, EntryFields canalEntry) {
        return canalEntry != null && explains.test(difference, canalEntry);
    }

    private static boolean isValue(Difference d) {
        return d.path().endsWith(".value") && d.canal() != null && d.ours() != null;
    }

    /** The mysqlType of the difference's column, as Canal sent it ("" when it did not). */
    private static String mysqlType(Difference d, EntryFields canal) {
        return mysqlType(column(d, ".value"), canal);
    }

    private static String mysqlType(String column, EntryFields canal) {
        String type = canal.get(column + ".mysqlType");
        return type == null ? "" : type.toLowerCase(Locale.ROOT);
    }

    /** The path of the column whose field {@code suffix} differs. */
    private static String column(Difference d, String suffix) {
        return d.path().endsWith(suffix) ? d.path().substring(0, d.path().length() - suffix.length()) : d.path();
    }

    /** Whether {@code earlier} is the binlog file just before {@code later}: same base name, sequence one less. */
    private static boolean isPreviousFile(String earlier, String later) {
        int dot = later.lastIndexOf('.');
        if (dot < 0 || earlier.lastIndexOf('.') != dot || !earlier.regionMatches(0, later, 0, dot + 1)) {
            return false;
        }
        try {
            return Long.parseLong(earlier.substring(dot + 1)) + 1 == Long.parseLong(later.substring(dot + 1));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean sameNumber(String a, String b) {
        try {
            return new BigDecimal(a).compareTo(new BigDecimal(b)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
