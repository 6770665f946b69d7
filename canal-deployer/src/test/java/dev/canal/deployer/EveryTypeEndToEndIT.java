package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.deployer.EveryTypeRows.Cell;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rows the unmodified official client receives for a scripted workload equal what was
 * written, every column type, in order. The launcher runs in this JVM against the real database; the expected rows
 * are read back from the database after each statement and rendered in Canal's text forms by {@link EveryTypeRows},
 * never taken from the server's output. Per row change: table, event type, key; per column of both images: name,
 * value (or NULL), updated flag, sqlType and isKey.
 */
@ExtendWith(MySqlServerExtension.class)
class EveryTypeEndToEndIT {

    private static final String SCHEMA = "deployer_every_type";
    private static final String DESTINATION = "every_type";
    private static final long RECEIVE_SECONDS = 90;
    private static final int MAX_REPORTED = 200;
    private static final String ALL_BYTES = HexFormat.of().formatHex(allBytes());

    /** Every column type, signed and unsigned, with fractional seconds; MariaDB turns JSON into LONGTEXT + CHECK. */
    private static final String EVERY_TYPE_TABLE = """
            CREATE TABLE t_every (
              id INT PRIMARY KEY,
              c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint SMALLINT, c_smallint_u SMALLINT UNSIGNED,
              c_mediumint MEDIUMINT, c_mediumint_u MEDIUMINT UNSIGNED, c_int INT, c_int_u INT UNSIGNED,
              c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED,
              c_float FLOAT, c_double DOUBLE, c_decimal DECIMAL(65,30), c_dec_small DECIMAL(10,3), c_dec_money DECIMAL(5,2),
              c_bit1 BIT(1), c_bit64 BIT(64), c_year YEAR, c_date DATE, c_time TIME(6), c_datetime DATETIME(6),
              c_timestamp TIMESTAMP(3) NULL DEFAULT NULL,
              c_char CHAR(10), c_varchar VARCHAR(100), c_binary BINARY(8), c_varbinary VARBINARY(300),
              c_enum ENUM('a','b','c d','ü','x,y'), c_set SET('r','g','b'),
              c_tinyblob TINYBLOB, c_blob BLOB, c_mediumblob MEDIUMBLOB, c_longblob LONGBLOB,
              c_tinytext TINYTEXT, c_text TEXT, c_mediumtext MEDIUMTEXT, c_longtext LONGTEXT,
              c_json JSON
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""";

    private static final String SIDE_TABLE =
            "CREATE TABLE t_side (id INT PRIMARY KEY, note VARCHAR(50), amount DECIMAL(10,2)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";

    /**
     * Other fractional-second precisions, scales and widths, BOOLEAN, text in charsets other than utf8mb4, a SET and
     * an ENUM stored in two bytes, generated columns.
     */
    private static final String MORE_TABLE = """
            CREATE TABLE t_more (
              id INT PRIMARY KEY,
              c_time0 TIME, c_time3 TIME(3), c_datetime0 DATETIME, c_datetime3 DATETIME(3),
              c_timestamp0 TIMESTAMP NULL DEFAULT NULL, c_timestamp6 TIMESTAMP(6) NULL DEFAULT NULL,
              c_dec10_0 DECIMAL(10,0), c_dec30_10 DECIMAL(30,10), c_bit13 BIT(13), c_double15_6 DOUBLE(15,6),
              c_bool BOOLEAN,
              c_latin1 VARCHAR(20) CHARACTER SET latin1, c_gbk VARCHAR(20) CHARACTER SET gbk,
              c_latin1_text TEXT CHARACTER SET latin1,
              c_set10 SET('s1','s2','s3','s4','s5','s6','s7','s8','s9','s10'), c_enum300 ENUM(%s),
              c_generated BIGINT AS (id * 1000) VIRTUAL, c_generated_stored VARCHAR(30) AS (CONCAT('g', id)) STORED
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""".formatted(IntStream.rangeClosed(1, 300)
            .mapToObj(i -> "'e" + i + "'").collect(Collectors.joining(",")));

    private static final String MORE_ROWS = "(1, '-00:00:01', '-12:34:56.780', '2024-01-01 00:00:00',"
            + " '2024-01-01 00:00:00.100', '2024-06-30 23:59:59', '2024-06-30 23:59:59.000001',"
            + " -1234567890, '-12345678901234567890.0123456789', b'1111111111111', 999999999.999999, TRUE,"
            + " 'Grüße', '中文', 'Grüße text', 's1,s9,s10', 'e300', DEFAULT, DEFAULT),"
            + " (2, '00:00:00', '-00:00:00.100', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000',"
            + " '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000', 0, 0, 0, 0, FALSE, '', '', '', '', 'e1', DEFAULT, DEFAULT)";

    /** Minimums and negative extremes. */
    private static final String ROW_MIN = "(1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0,"
            + " -3.40282e38, -1.7976931348623157e308,"
            + " '-12345678901234567890123456789012345.123456789012345678901234567890', -1.000, -0.01,"
            + " b'0', b'0', 1901, '1000-01-01', '-838:59:59.000000', '1000-01-01 00:00:00.000000',"
            + " '1970-01-01 00:00:01.000',"
            + " '', '', X'', X'', 'a', 'r', X'', X'', X'', X'', '', '', '', '', '[]')";

    /** Maximums, every byte value, multibyte text, large values. */
    private static final String ROW_MAX = "(2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,"
            + " 9223372036854775807, 18446744073709551615,"
            + " 3.40282e38, 1.7976931348623157e308,"
            + " '12345678901234567890123456789012345.123456789012345678901234567890', 9999999.999, 999.99,"
            + " b'1', 0xFFFFFFFFFFFFFFFF, 2155, '9999-12-31', '838:59:59.000000', '9999-12-31 23:59:59.999999',"
            + " '2038-01-19 03:14:07.999',"
            + " 'ab  ', 'trailing  ', X'0001020300000000', X'" + ALL_BYTES + "', 'x,y', 'r,g,b',"
            + " X'00FF', X'" + ALL_BYTES + "', REPEAT(X'00FF7F80', 4096), REPEAT(X'0102FEFF', 25000),"
            + " 'ü', '中文字符', REPEAT('😀中', 1000), REPEAT('ab😀', 30000),"
            + " '{\"a\": 1, \"b\": [true, false, null], \"s\": \"😀 中 ü\"}')";

    /** NULL in every column but the key. */
    private static final String ROW_NULLS = "(3" + ", NULL".repeat(37) + ")";

    /** Zeros, zero dates, unsigned values just above the signed range, an invalid ENUM stored as ''. */
    private static final String ROW_ZERO = "(4, 0, 128, 0, 32768, 0, 8388608, 0, 2147483648, 0, 9223372036854775808,"
            + " 0, 0, 0, 0, 0,"
            + " b'0', b'1010101010101', 0, '0000-00-00', '-00:00:00.000001', '0000-00-00 00:00:00',"
            + " '0000-00-00 00:00:00',"
            + " ' ', ' ', X'41', X'00', 'not in the list', '', X'', X'', X'', X'', '', '', '', '', 'null')";

    /** Ordinary values, two rows in one statement. */
    private static final String ROWS_TYPICAL = "(5, 1, 127, 2, 32767, 3, 8388607, 4, 2147483647, 5, 9223372036854775807,"
            + " 123456.789, 0.1, '0.000000000000000000000000000001', -12.5, 1.5,"
            + " b'1', b'1010101010101', 2024, '2024-00-00', '-12:34:56.780000', '2024-02-00 10:00:00.100000',"
            + " '2024-02-29 12:34:56.789',"
            + " '中文😀', 'a\\0b\\tc\\r\\n😀', X'41', X'00FF7F80', 'ü', 'g', X'FF', X'00', X'00', X'00',"
            + " 'x', 'y', 'z', '中', '\"中\"'),"
            + " (6, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5,"
            + " -1.4e-45, 4.9e-324, '-0.5', 0.001, -999.99,"
            + " b'0', 1, 1999, '0001-01-01', '00:00:00.000000', '1582-10-10 00:00:00.000000',"
            + " '1999-12-31 23:59:59.000',"
            + " 'CJK 漢字', 'emoji 👍🏽', X'FF', X'', 'c d', 'r,b', X'7F80', X'" + ALL_BYTES + "', X'0A0D', X'',"
            + " 'tiny', 'text', 'medium', 'long', '{\"k\": [1, 2.5, -3e-7, 1e100, \"\\\\\\\\ \\\\\\\"\"]}')";

    @TempDir
    Path conf;

    @AutoClose("stop")
    private CanalController controller;

    /** Where the server learns the tables from: the CREATE TABLE in the binlog, or the database at start-up. */
    enum TablesCreated { IN_THE_BINLOG_STREAM, BEFORE_THE_START_POSITION }

    @ParameterizedTest
    @EnumSource(TablesCreated.class)
    void officialClientReceivesEveryWrittenValueOfEveryTypeInOrder(TablesCreated created, MySqlServer db)
            throws Exception {
        // the sqlType of MariaDB's JSON column declared in the stream is left to mariaDbJsonColumnHasCanalsBlobSqlType
        boolean jsonFromDdl = db.isMariaDb() && created == TablesCreated.IN_THE_BINLOG_STREAM;
        Set<String> sqlTypeUnchecked = jsonFromDdl ? Set.of("t_every.c_json") : Set.of();
        replay(db, created, List.of(EVERY_TYPE_TABLE, SIDE_TABLE, MORE_TABLE), EveryTypeEndToEndIT::runWorkload,
                sqlTypeUnchecked);
    }

    @Test
    void mariaDbJsonColumnHasCanalsBlobSqlType(MySqlServer db) throws Exception {
        assumeTrue(db.isMariaDb(), "MySQL's JSON is a type of its own (VARCHAR in Canal), checked by the test above");
        replay(db, TablesCreated.IN_THE_BINLOG_STREAM,
                List.of("CREATE TABLE t_json (id INT PRIMARY KEY, j JSON) DEFAULT CHARSET=utf8mb4"), s -> {
            EveryTypeRows json = s.table("t_json");
            s.insert(json, List.of(1, 2), "INSERT INTO t_json VALUES (1, '{\"a\": \"ü\"}'), (2, NULL)");
            return s.expected;
        }, Set.of());
    }

    /**
     * Creates the tables before or after the start position, starts the launcher, runs the workload and asserts the
     * official client receives exactly the row changes it recorded.
     */
    private void replay(MySqlServer db, TablesCreated created, List<String> tables, Workload workload,
            Set<String> sqlTypeUnchecked) throws Exception {
        db.recreateDatabase(SCHEMA);
        List<String> ddl = new ArrayList<>(List.of("USE " + SCHEMA));
        ddl.addAll(tables);
        if (created == TablesCreated.IN_THE_BINLOG_STREAM) {
            RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA);
            db.execute(ddl.toArray(String[]::new));
        } else {
            db.execute(ddl.toArray(String[]::new));
            RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA);
        }
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION));

        List<Change> expected;
        try (Connection c = db.adminConnection()) {
            expected = workload.run(new Script(c, db.isMariaDb() && created == TablesCreated.IN_THE_BINLOG_STREAM));
        }
        List<Change> received = receive(expected.size());

        assertThat(differences(expected, received, sqlTypeUnchecked))
                .as("row changes received by the official client vs the database (%s); %d expected, %d received",
                        db, expected.size(), received.size())
                .isEmpty();
    }

    /** Statements run through a {@link Script}, returning the row changes they must produce. */
    @FunctionalInterface
    private interface Workload {
        List<Change> run(Script script) throws SQLException;
    }

    /** The workload: every statement kind, a transaction over all three tables, a key change, a rolled-back part. */
    private static List<Change> runWorkload(Script s) throws SQLException {
        EveryTypeRows every = s.table("t_every");
        EveryTypeRows side = s.table("t_side");
        EveryTypeRows more = s.table("t_more");
        s.insert(every, List.of(1), "INSERT INTO t_every VALUES " + ROW_MIN);
        s.insert(every, List.of(2), "INSERT INTO t_every VALUES " + ROW_MAX);
        s.insert(every, List.of(3), "INSERT INTO t_every VALUES " + ROW_NULLS);
        s.insert(every, List.of(4), "INSERT INTO t_every VALUES " + ROW_ZERO);
        s.insert(every, List.of(5, 6), "INSERT INTO t_every VALUES " + ROWS_TYPICAL);
        s.insert(more, List.of(1, 2), "INSERT INTO t_more VALUES " + MORE_ROWS);

        s.update(every, List.of(2), List.of(2), "UPDATE t_every SET c_varchar = 'changed 😀', c_int = -1,"
                + " c_json = '{\"changed\": true}', c_timestamp = NULL, c_binary = X'00' WHERE id = 2");
        s.update(every, List.of(3), List.of(3), "UPDATE t_every SET c_tinyint = 0, c_char = '', c_bit64 = 0, c_set = '',"
                + " c_date = '0000-00-00', c_enum = 'b', c_float = 0.1, c_blob = X'', c_json = '{}' WHERE id = 3");
        s.update(every, List.of(5, 6), List.of(5, 6), "UPDATE t_every SET c_dec_small = c_dec_small + 1,"
                + " c_datetime = '2030-01-01 00:00:00.000001', c_tinytext = NULL WHERE id IN (5, 6)");
        s.delete(every, List.of(1), "DELETE FROM t_every WHERE id = 1");

        s.transaction(() -> {
            s.insert(every, List.of(7), "INSERT INTO t_every (id, c_varchar, c_longblob) VALUES (7, 'in trx', X'00')");
            s.insert(side, List.of(1), "INSERT INTO t_side VALUES (1, 'side 中', 10.50)");
            s.update(every, List.of(7), List.of(7), "UPDATE t_every SET c_float = 1.0e10, c_double = 1e22 WHERE id = 7");
            s.insert(side, List.of(2), "INSERT INTO t_side VALUES (2, NULL, -0.01)");
            s.update(side, List.of(1), List.of(1), "UPDATE t_side SET amount = amount * 2 WHERE id = 1");
            s.update(more, List.of(2, 1), List.of(2, 1), "UPDATE t_more SET c_time3 = '838:59:59.999', c_latin1 = 'ÀÿÐ',"
                    + " c_gbk = NULL, c_bool = -128 WHERE id IN (2, 1) ORDER BY id DESC");
            s.delete(every, List.of(4), "DELETE FROM t_every WHERE id = 4");
            s.delete(side, List.of(2), "DELETE FROM t_side WHERE id = 2");
        });
        s.update(every, List.of(6), List.of(60), "UPDATE t_every SET id = 60, c_tinyint = 60 WHERE id = 6");
        s.update(every, List.of(5), List.of(5), "UPDATE t_every SET c_json = JSON_OBJECT('big', REPEAT('x', 70000),"
                + " 'numbers', JSON_ARRAY(0, -1, 65535, -2147483649, 18446744073709551615, 0.25, CAST(1.50 AS DECIMAL(4,2))),"
                + " 'text', 'ü\\n\\t\\\"\\\\ 😀', 'when', CAST('2024-01-02 03:04:05.5' AS DATETIME(6)),"
                + " 'day', CAST('2024-01-02' AS DATE), 'nested', JSON_OBJECT('a', NULL, 'b', TRUE, 'c', JSON_ARRAY()))"
                + " WHERE id = 5");
        s.update(every, List.of(5), List.of(5), "UPDATE t_every SET c_longblob = REPEAT(X'00FF', 150000),"
                + " c_longtext = REPEAT('中文', 100000) WHERE id = 5");
        s.rolledBack(() -> {
            s.insert(side, List.of(99), "INSERT INTO t_side VALUES (99, 'rolled back', 0)");
            s.update(every, List.of(2), List.of(2), "UPDATE t_every SET c_int = 5 WHERE id = 2");
        });
        s.delete(every, List.of(2, 3), "DELETE FROM t_every WHERE id IN (2, 3)");
        s.delete(more, List.of(1, 2), "DELETE FROM t_more");
        s.insert(side, List.of(3), "INSERT INTO t_side VALUES (3, 'last', 0.00)");
        return s.expected;
    }

    /** Reads with the official client, acking each batch, until as many row changes as expected (then one more look). */
    private List<Change> receive(int wanted) throws InvalidProtocolBufferException {
        CanalConnector connector = CanalConnectors.newSingleConnector(
                new InetSocketAddress("127.0.0.1", controller.port()), DESTINATION, "", "");
        List<Change> changes = new ArrayList<>();
        connector.connect();
        try {
            connector.subscribe(SCHEMA + "\\..*");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RECEIVE_SECONDS);
            while (changes.size() < wanted && System.nanoTime() < deadline) {
                takeAndAck(connector, 500L, changes);
            }
            takeAndAck(connector, 1000L, changes); // anything more is a row nobody wrote
        } finally {
            connector.disconnect();
        }
        return changes;
    }

    private static void takeAndAck(CanalConnector connector, long timeoutMillis, List<Change> into)
            throws InvalidProtocolBufferException {
        Message message = connector.getWithoutAck(1000, timeoutMillis, TimeUnit.MILLISECONDS);
        for (CanalEntry.Entry entry : message.getEntries()) {
            into.addAll(Change.of(entry));
        }
        if (message.getId() != -1) {
            connector.ack(message.getId());
        }
    }

    /** Every difference, one line each: position, table, row key, image, column, expected and actual. */
    private static List<String> differences(List<Change> expected, List<Change> received, Set<String> sqlTypeUnchecked) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.max(expected.size(), received.size()) && out.size() < MAX_REPORTED; i++) {
            if (i >= received.size()) {
                out.add("#" + i + " missing: " + expected.get(i).title());
                continue;
            }
            if (i >= expected.size()) {
                out.add("#" + i + " not written: " + received.get(i).title());
                continue;
            }
            Change e = expected.get(i);
            Change a = received.get(i);
            if (!e.table().equals(a.table()) || !e.type().equals(a.type()) || !e.key().equals(a.key())) {
                out.add("#" + i + " expected " + e.title() + ", received " + a.title());
                continue;
            }
            compareImage(out, "#" + i + " " + e.title() + " before", e.before(), a.before(), e.table(), sqlTypeUnchecked);
            compareImage(out, "#" + i + " " + e.title() + " after", e.after(), a.after(), e.table(), sqlTypeUnchecked);
        }
        return out;
    }

    private static void compareImage(List<String> out, String where, List<Value> expected, List<Value> received,
            String table, Set<String> sqlTypeUnchecked) {
        List<String> expectedNames = expected.stream().map(Value::name).toList();
        List<String> receivedNames = received.stream().map(Value::name).toList();
        if (!expectedNames.equals(receivedNames)) {
            out.add(where + ": columns expected " + expectedNames + ", received " + receivedNames);
            return;
        }
        for (int i = 0; i < expected.size(); i++) {
            Value e = expected.get(i);
            Value a = received.get(i);
            if (!Objects.equals(e.value(), a.value())) {
                out.add(where + " column " + e.name() + ": expected " + Value.show(e.value(), a.value())
                        + ", actual " + Value.show(a.value(), e.value()));
            }
            if (e.updated() != a.updated()) {
                out.add(where + " column " + e.name() + ": updated flag expected " + e.updated() + ", actual " + a.updated());
            }
            if (e.sqlType() != a.sqlType() && !sqlTypeUnchecked.contains(table + "." + e.name())) {
                out.add(where + " column " + e.name() + " value " + Value.show(e.value(), a.value()) + ": sqlType expected "
                        + e.sqlType() + ", actual " + a.sqlType());
            }
            if (e.isKey() != a.isKey()) {
                out.add(where + " column " + e.name() + ": isKey expected " + e.isKey() + ", actual " + a.isKey());
            }
        }
    }

    private static byte[] allBytes() {
        byte[] bytes = new byte[256];
        IntStream.range(0, 256).forEach(b -> bytes[b] = (byte) b);
        return bytes;
    }

    /** One column of a row image as compared: name, text ({@code null} for NULL), updated flag, sqlType, key flag. */
    record Value(String name, String value, boolean updated, int sqlType, boolean isKey) {

        /** A value for a message: quoted and escaped, long ones shortened around where they differ from {@code other}. */
        static String show(String value, String other) {
            if (value == null) {
                return "NULL";
            }
            int from = 0;
            if (value.length() > 120) {
                int firstDiff = other == null ? 0 : mismatchAt(value, other);
                from = Math.max(0, firstDiff - 20);
                String part = value.substring(from, Math.min(value.length(), from + 80));
                return "(" + value.length() + " chars, first difference at " + firstDiff + ") …'" + escape(part) + "'…";
            }
            return "'" + escape(value) + "'";
        }

        private static int mismatchAt(String a, String b) {
            int n = Math.min(a.length(), b.length());
            for (int i = 0; i < n; i++) {
                if (a.charAt(i) != b.charAt(i)) {
                    return i;
                }
            }
            return n;
        }

        private static String escape(String text) {
            StringBuilder out = new StringBuilder();
            text.codePoints().forEach(cp -> {
                if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
                    out.append(String.format("\\x%02x", cp));
                } else {
                    out.appendCodePoint(cp);
                }
            });
            return out.toString();
        }
    }

    /** One row change: table, event type, key ({@code old->new} when an UPDATE moved it) and both images. */
    record Change(String table, String type, String key, List<Value> before, List<Value> after) {

        String title() {
            return table + " " + type + " id=" + key;
        }

        /** The row changes of one entry as the official client decoded it; transaction and QUERY entries have none. */
        static List<Change> of(CanalEntry.Entry entry) throws InvalidProtocolBufferException {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                return List.of();
            }
            CanalEntry.RowChange rowChange = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            CanalEntry.EventType type = rowChange.getEventType();
            if (rowChange.getIsDdl() || (type != CanalEntry.EventType.INSERT && type != CanalEntry.EventType.UPDATE
                    && type != CanalEntry.EventType.DELETE)) {
                return List.of();
            }
            List<Change> changes = new ArrayList<>();
            for (CanalEntry.RowData row : rowChange.getRowDatasList()) {
                List<Value> before = values(row.getBeforeColumnsList());
                List<Value> after = values(row.getAfterColumnsList());
                String key = keyOf(before, after);
                changes.add(new Change(entry.getHeader().getTableName(), type.name(), key, before, after));
            }
            return changes;
        }

        private static List<Value> values(List<CanalEntry.Column> columns) {
            return columns.stream()
                    .map(c -> new Value(c.getName(), c.getIsNull() ? null : c.getValue(), c.getUpdated(), c.getSqlType(),
                            c.getIsKey()))
                    .toList();
        }

        private static String keyOf(List<Value> before, List<Value> after) {
            String old = idOf(before);
            String now = idOf(after);
            if (old == null || now == null || old.equals(now)) {
                return old != null ? old : String.valueOf(now);
            }
            return old + "->" + now;
        }

        private static String idOf(List<Value> image) {
            return image.stream().filter(v -> v.name().equals("id")).map(Value::value).findFirst().orElse(null);
        }
    }

    /** Runs statements on one connection, recording for each the row changes Canal must deliver for it. */
    private static final class Script {

        interface Body {
            void run() throws SQLException;
        }

        private final Connection connection;
        private final boolean mariaDbJsonFromDdl;
        private final List<Change> expected = new ArrayList<>();

        /** {@code mariaDbJsonFromDdl}: see {@link EveryTypeRows#of}. */
        Script(Connection connection, boolean mariaDbJsonFromDdl) throws SQLException {
            this.connection = connection;
            this.mariaDbJsonFromDdl = mariaDbJsonFromDdl;
            // zero and partial dates, invalid ENUM values; TIMESTAMP literals in UTC
            execute("SET SESSION sql_mode = ''");
            execute("SET SESSION time_zone = '+00:00'");
            execute("USE " + SCHEMA);
        }

        EveryTypeRows table(String name) throws SQLException {
            return EveryTypeRows.of(connection, mariaDbJsonFromDdl, SCHEMA, name, "id");
        }

        void insert(EveryTypeRows table, List<Integer> keys, String sql) throws SQLException {
            execute(sql);
            table.read(connection, keys).forEach((key, after) ->
                    expected.add(new Change(table.table(), "INSERT", key, List.of(), flagged(after, null))));
        }

        /** An UPDATE of the rows with {@code oldKeys}, which have {@code newKeys} afterwards (same order). */
        void update(EveryTypeRows table, List<Integer> oldKeys, List<Integer> newKeys, String sql) throws SQLException {
            List<Map.Entry<String, List<Cell>>> before = List.copyOf(table.read(connection, oldKeys).entrySet());
            execute(sql);
            List<Map.Entry<String, List<Cell>>> after = List.copyOf(table.read(connection, newKeys).entrySet());
            for (int i = 0; i < before.size(); i++) {
                String oldKey = before.get(i).getKey();
                String newKey = after.get(i).getKey();
                String key = oldKey.equals(newKey) ? oldKey : oldKey + "->" + newKey;
                List<Cell> beforeCells = before.get(i).getValue();
                expected.add(new Change(table.table(), "UPDATE", key, flagged(beforeCells, beforeCells),
                        flagged(after.get(i).getValue(), beforeCells)));
            }
        }

        void delete(EveryTypeRows table, List<Integer> keys, String sql) throws SQLException {
            Map<String, List<Cell>> before = table.read(connection, keys);
            execute(sql);
            before.forEach((key, cells) -> expected.add(new Change(table.table(), "DELETE", key, flagged(cells, cells), List.of())));
        }

        void transaction(Body body) throws SQLException {
            connection.setAutoCommit(false);
            body.run();
            connection.commit();
            connection.setAutoCommit(true);
        }

        /** Runs the statements in a transaction that is rolled back: none of their rows may be delivered. */
        void rolledBack(Body body) throws SQLException {
            int size = expected.size();
            connection.setAutoCommit(false);
            body.run();
            connection.rollback();
            connection.setAutoCommit(true);
            expected.subList(size, expected.size()).clear();
        }

        /**
         * Canal's updated flags: with no previous image (INSERT) every column is
         * updated; an image compared with itself (before images) has none; an after image has them exactly where
         * the text or NULL-ness changed.
         */
        private static List<Value> flagged(List<Cell> cells, List<Cell> previous) {
            List<Value> values = new ArrayList<>(cells.size());
            for (int i = 0; i < cells.size(); i++) {
                Cell cell = cells.get(i);
                boolean updated = previous == null || !Objects.equals(previous.get(i).value(), cell.value());
                values.add(new Value(cell.name(), cell.value(), updated, cell.sqlType(), cell.isKey()));
            }
            return values;
        }

        private void execute(String sql) throws SQLException {
            try (Statement st = connection.createStatement()) {
                st.execute(sql);
            } catch (SQLException e) {
                throw new SQLException("failed: " + sql.substring(0, Math.min(sql.length(), 300)) + ": " + e.getMessage(), e);
            }
        }
    }
}
