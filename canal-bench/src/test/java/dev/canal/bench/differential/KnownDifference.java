package dev.canal.bench.differential;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The differences between Canal 1.1.7 and our server that docs/compatibility.md lists, each named after its row
 * there: a test for whether one {@link Difference} is explained by it, scoped to the columns, types, entries and
 * runs the listed difference covers, and where it must show ({@link #occursOn}), so that the test fails when a
 * listed difference no longer occurs. Everything else the differential test reports as a failure.
 */
enum KnownDifference {

    /**
     * "DECIMAL with a zero fraction loses scale": where MySQL prints {@code 2.000}, Canal sends {@code 2.0}; a
     * fraction that is not zero keeps its scale on both sides.
     */
    DECIMAL_WITH_A_ZERO_FRACTION_LOSES_SCALE(run -> true, c -> c.isValue() && c.mysqlType().startsWith("decimal")
            && Patterns.ZERO_FRACTION.matcher(c.d().ours()).matches()
            && c.d().canal().equals(c.d().ours().substring(0, c.d().ours().indexOf('.')) + ".0")),

    /** "BINARY(n) loses its trailing 0x00 bytes": ours is Canal's value padded with NUL to n bytes. */
    BINARY_LOSES_ITS_TRAILING_ZERO_BYTES(run -> true, c -> c.isValue()
            && c.declaredBinaryLength() == c.d().ours().length() && c.d().ours().startsWith(c.d().canal())
            && c.d().ours().substring(c.d().canal().length()).chars().allMatch(ch -> ch == 0)),

    /** "JSON on MariaDB decoded as ISO-8859-1": Canal's value is our UTF-8 text read as ISO-8859-1. */
    JSON_ON_MARIADB_DECODED_AS_ISO_8859_1(RunContext::mariadb, c -> c.run().mariadb() && c.isValue()
            && c.mysqlType().equals("json") && c.d().canal().equals(
                    garbled(c.d().ours(), StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1))),

    /**
     * "text in latin1, gbk, utf16 (any non-UTF-8 column charset) decoded as UTF-8": Canal's value is the bytes of
     * ours in the charset the column's definition declares, read as UTF-8.
     */
    NON_UTF8_TEXT_DECODED_AS_UTF_8(run -> true, c -> c.isValue() && c.declaredCharset() != null
            && c.d().canal().equals(garbled(c.d().ours(), c.declaredCharset(), StandardCharsets.UTF_8))),

    /**
     * "MySQL 8 {@code binlog_row_metadata=FULL}" (other observable differences): with full row metadata our
     * mysqlType is rebuilt as MySQL prints it ({@code int unsigned}, {@code timestamp}) where Canal keeps the DDL's
     * spelling ({@code INT unsigned}, {@code TIMESTAMP(0)}).
     */
    MYSQL_TYPE_REBUILT_FROM_FULL_ROW_METADATA(RunContext::fullRowMetadata, c -> c.run().fullRowMetadata()
            && c.paired() && c.d().path().endsWith(".mysqlType") && c.d().canal() != null && c.d().ours() != null
            && !c.d().ours().equals(c.d().canal()) && c.d().ours().equals(
                    Patterns.ZERO_PRECISION.matcher(c.d().canal().toLowerCase(Locale.ROOT)).replaceFirst("$1"))),

    /**
     * "an empty MySQL JSON value": Canal sends {@code ""}, we send the JSON null MySQL reads it as.
     */
    EMPTY_MYSQL_JSON_VALUE_IS_JSON_NULL(run -> !run.mariadb(), c -> !c.run().mariadb() && c.isValue()
            && c.mysqlType().equals("json") && c.d().canal().isEmpty() && c.d().ours().equals("null")),

    /**
     * "MariaDB INET4, INET6, UUID": Canal decodes the raw bytes as UTF-8, trailing 0x00 bytes dropped as for BINARY;
     * ours is the text MariaDB's SELECT prints.
     */
    MARIADB_ADDRESS_TYPES_AS_RAW_BYTES(RunContext::mariadb, c -> c.run().mariadb() && c.isValue()
            && c.d().canal().equals(rawBytesAsUtf8(c.mysqlType(), c.d().ours()))),

    /**
     * "statements classified by suffix": a statement ending in {@code begin} or {@code commit} ({@code TRUNCATE
     * TABLE t_begin}) is Canal's TRANSACTIONBEGIN or TRANSACTIONEND, which it delivers whatever the table filters;
     * ours is the statement's own entry.
     */
    STATEMENT_CLASSIFIED_BY_SUFFIX(run -> true, c -> {
        String sql = c.statement().toLowerCase(Locale.ROOT).strip();
        boolean begin = sql.endsWith("begin");
        boolean commit = sql.endsWith("commit");
        EntryFields canal = c.canalEntry();
        // Canal's entry, where it has one, is the transaction entry the suffix makes of the statement; where it has
        // none, its sink left that out (an empty transaction's end) or a filter switch did
        return (begin || commit) && !Patterns.PLAIN_BEGIN_OR_COMMIT.matcher(sql).matches()
                && (canal == null || canal.is(begin ? "TRANSACTIONBEGIN" : "TRANSACTIONEND"));
    }),

    /**
     * "TRANSACTIONEND dropped when a transaction's last rows were filtered out": ours delivers the TRANSACTIONEND of
     * a transaction that delivered a row change, which Canal leaves out. It shows where each statement's text comes
     * before its rows (MariaDB's annotations): Canal's flush of the filtered statement and the end then holds no row.
     */
    TRANSACTIONEND_KEPT_AFTER_A_FILTERED_TAIL(RunContext::mariadb, c -> c.d().isEntry() && c.d().ours() != null
            && c.oursEntry().is("TRANSACTIONEND") && c.oursTransactionChangedRows()),

    /**
     * "DDL Canal's parser cannot read" (INVISIBLE columns, {@code DROP CHECK}, {@code ALTER CHECK}): Canal sends it
     * as a QUERY naming no schema or table, which passes every table filter; ours with its type and table.
     */
    DDL_CANALS_PARSER_CANNOT_READ_ARRIVES_AS_QUERY(run -> true, c -> Patterns.CANAL_CANNOT_PARSE.matcher(
            c.statement()).find() && (c.d().isEntry() || Set.of("header.schemaName", "header.tableName",
                    "header.eventType", "rowChange.eventType").contains(c.d().path()))
            && (c.canalEntry() == null || "QUERY".equals(c.canalEntry().get("rowChange.eventType")))),

    /**
     * "DDL Canal's parser reads into nothing" ({@code ALTER DATABASE}, {@code ADD CHECK}): Canal delivers no entry
     * for it at all; ours a QUERY or ALTER entry.
     */
    DDL_CANAL_DROPS(run -> true, c -> c.d().isEntry() && c.d().ours() != null
            && Patterns.CANAL_DROPS.matcher(c.statement()).find()),

    /**
     * "a destination resumed from its saved cursor by file and position": Canal reads the binlog again from the
     * event of the acked entry, so the client gets that entry (a TRANSACTIONEND) twice; ours resumes after it. (The
     * MySQL runs resume by GTID set, where Canal does not.)
     */
    ACKED_TRANSACTIONEND_DELIVERED_AGAIN_ON_RESUME(RunContext::mariadb, c -> c.run().mariadb() && c.d().isEntry()
            && c.d().canal() != null
            && c.canalEntry().is("TRANSACTIONEND") && c.d().canalIndex() > 0
            && c.canal().get(c.d().canalIndex() - 1).is("TRANSACTIONEND") && c.canalEntry().get("header.logfileOffset")
                    .equals(c.canal().get(c.d().canalIndex() - 1).get("header.logfileOffset"))),

    /**
     * "header {@code logfileName} of entries just after a binlog rotation": Canal names the file before the
     * rotation, ours the file the event is in, for entries that follow a rotation both sides saw until Canal names
     * the new file. Seen in some runs only, so never required.
     */
    LOGFILE_NAME_OF_THE_PREVIOUS_FILE_AFTER_A_ROTATION(run -> false, c -> c.paired()
            && c.d().path().equals("header.logfileName") && c.d().canal() != null && c.d().ours() != null
            && isPreviousFile(c.d().canal(), c.d().ours()) && c.followsARotationBothSidesSaw());

    /** Held apart: an enum's constants cannot name its own static fields. */
    private static final class Patterns {
        static final Pattern ZERO_FRACTION = Pattern.compile("-?\\d+\\.0+");
        static final Pattern BINARY_LENGTH = Pattern.compile("binary\\((\\d+)\\)");
        static final Pattern ZERO_PRECISION = Pattern.compile("^(time|datetime|timestamp)\\(0\\)$");
        static final Pattern PLAIN_BEGIN_OR_COMMIT = Pattern.compile("(?i)\\s*(BEGIN|COMMIT)\\s*");
        static final Pattern CANAL_CANNOT_PARSE = Pattern.compile("(?i)\\bINVISIBLE\\b|\\bDROP CHECK\\b|\\bALTER CHECK\\b");
        static final Pattern CANAL_DROPS = Pattern.compile("(?i)^\\s*ALTER DATABASE\\b|\\bADD (CONSTRAINT \\w+ )?CHECK\\b");
    }

    private final Predicate<RunContext> occursOn;
    private final Predicate<Context> explains;

    KnownDifference(Predicate<RunContext> occursOn, Predicate<Context> explains) {
        this.occursOn = occursOn;
        this.explains = explains;
    }

    /** Whether this difference, as the workload provokes it, must show in a run of this kind. */
    boolean occursOn(RunContext run) {
        return occursOn.test(run);
    }

    /** Whether this known difference explains {@code d}, found among both sides' entries of a run. */
    boolean explains(Difference d, List<EntryFields> canal, List<EntryFields> ours, RunContext run) {
        return explains.test(new Context(d, canal, ours, run));
    }

    /** A difference with what a mask may look at: both sides' entries and the run. */
    private record Context(Difference d, List<EntryFields> canal, List<EntryFields> ours, RunContext run) {

        /** Canal's entry, null when only ours delivered one. */
        EntryFields canalEntry() {
            return d.canalIndex() < 0 ? null : canal.get(d.canalIndex());
        }

        /** Our entry, null when only Canal delivered one. */
        EntryFields oursEntry() {
            return d.oursIndex() < 0 ? null : ours.get(d.oursIndex());
        }

        /** Whether both sides delivered an entry for the event: the difference is in one of its fields. */
        boolean paired() {
            return d.canalIndex() >= 0 && d.oursIndex() >= 0;
        }

        boolean isValue() {
            return paired() && d.path().endsWith(".value") && d.canal() != null && d.ours() != null;
        }

        /** The statement of the entry: its own, else the one our unfiltered destination delivered for its event. */
        String statement() {
            EntryFields entry = oursEntry() != null ? oursEntry() : canalEntry();
            String own = entry.get("rowChange.sql");
            return own != null ? own : run.statementAt(entry);
        }

        /** The column's path: the difference's path without its last field. */
        String column() {
            return d.path().substring(0, d.path().lastIndexOf('.'));
        }

        /** The column's name, from its path ({@code ...afterColumns[3(c_name)].value}). */
        String columnName() {
            String column = column();
            return column.substring(column.lastIndexOf('(') + 1, column.length() - 2);
        }

        /** The mysqlType of the difference's column, as Canal sent it, lower case ("" when it did not). */
        String mysqlType() {
            String type = canalEntry().get(column() + ".mysqlType");
            return type == null ? "" : type.toLowerCase(Locale.ROOT);
        }

        /** n of a BINARY(n) column, -1 for other columns. */
        int declaredBinaryLength() {
            Matcher m = Patterns.BINARY_LENGTH.matcher(mysqlType());
            return m.matches() ? Integer.parseInt(m.group(1)) : -1;
        }

        /** The charset the workload declares for the column when it is not UTF-8, else null. */
        Charset declaredCharset() {
            return DifferentialWorkload.NON_UTF8_COLUMNS.get(canalEntry().get("header.tableName") + "." + columnName());
        }

        /** Whether our transaction of this (TRANSACTIONEND) entry delivered a row change. */
        boolean oursTransactionChangedRows() {
            for (int i = d.oursIndex() - 1; i >= 0; i--) {
                EntryFields entry = ours.get(i);
                if (entry.is("TRANSACTIONBEGIN") || entry.is("TRANSACTIONEND")) {
                    return false;
                }
                if (entry.is("ROWDATA") && !"true".equals(entry.get("rowChange.isDdl"))
                        && Set.of("INSERT", "UPDATE", "DELETE").contains(entry.get("header.eventType"))) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Whether the entry follows a rotation both sides saw: walking back on both sides, entries Canal names the
         * previous file for and ours the new one, then an entry both name the previous file for.
         */
        boolean followsARotationBothSidesSaw() {
            String newFile = d.ours();
            for (int c = d.canalIndex() - 1, o = d.oursIndex() - 1; c >= 0 && o >= 0; c--, o--) {
                String canalFile = canal.get(c).get("header.logfileName");
                String ourFile = ours.get(o).get("header.logfileName");
                if (canalFile == null || ourFile == null) {
                    continue; // an entry without a position
                }
                if (canalFile.equals(ourFile)) {
                    return isPreviousFile(canalFile, newFile);
                }
                if (!ourFile.equals(newFile) || !isPreviousFile(canalFile, newFile)) {
                    return false;
                }
            }
            return false;
        }
    }

    /** What the known differences explain of a run's differences, counted per difference. */
    static final class Tally {

        private final Map<KnownDifference, Integer> counts = new EnumMap<>(KnownDifference.class);

        /** Counts the explained differences; returns the others, described. */
        List<String> explain(List<Difference> differences, List<EntryFields> canal, List<EntryFields> ours,
                RunContext run) {
            List<String> unexplained = new ArrayList<>();
            for (Difference d : differences) {
                KnownDifference known = Arrays.stream(values()).filter(k -> k.explains(d, canal, ours, run))
                        .findFirst().orElse(null);
                if (known == null) {
                    unexplained.add(d.toString());
                } else {
                    counts.merge(known, 1, Integer::sum);
                }
            }
            return unexplained;
        }

        Map<KnownDifference, Integer> counts() {
            return Map.copyOf(counts);
        }

        /** The known differences the run should have shown and did not. */
        List<KnownDifference> missing(RunContext run) {
            return Arrays.stream(values()).filter(k -> k.occursOn(run) && !counts.containsKey(k)).toList();
        }
    }

    /** {@code text} encoded in {@code written} and decoded in {@code read}. */
    private static String garbled(String text, Charset written, Charset read) {
        return new String(text.getBytes(written), read);
    }

    /** The bytes MariaDB stores for an INET4, INET6 or UUID text, trailing 0x00 dropped, read as UTF-8; null if none. */
    private static String rawBytesAsUtf8(String mysqlType, String text) {
        byte[] raw;
        try {
            raw = switch (mysqlType) {
                case "inet4" -> InetAddress.getByName(text).getAddress();
                case "inet6" -> inet6(text);
                case "uuid" -> ByteBuffer.allocate(16).putLong(UUID.fromString(text).getMostSignificantBits())
                        .putLong(UUID.fromString(text).getLeastSignificantBits()).array();
                default -> null;
            };
        } catch (UnknownHostException | IllegalArgumentException e) {
            return null;
        }
        if (raw == null) {
            return null;
        }
        int end = raw.length;
        while (end > 0 && raw[end - 1] == 0) {
            end--;
        }
        return new String(raw, 0, end, StandardCharsets.UTF_8);
    }

    /** The 16 bytes of an IPv6 text; Java reads {@code ::ffff:a.b.c.d} as the IPv4 address, mapped back here. */
    private static byte[] inet6(String text) throws UnknownHostException {
        byte[] address = InetAddress.getByName(text).getAddress();
        if (address.length == 16) {
            return address;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        System.arraycopy(address, 0, mapped, 12, 4);
        return mapped;
    }

    /** Whether {@code earlier} is the binlog file just before {@code later}: same base name, sequence one less. */
    static boolean isPreviousFile(String earlier, String later) {
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
}
