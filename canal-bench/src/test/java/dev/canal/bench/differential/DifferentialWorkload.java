package dev.canal.bench.differential;

import com.alibaba.otter.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * The differential test's workload, written to the binlog before either server starts: a table of many column
 * types filled with their edges, updates and deletes (one transaction of several statements), ADD and DROP COLUMN
 * with rows before and after, a binlog rotation, CREATE, RENAME, TRUNCATE and DROP TABLE, XA transactions (two-phase
 * commit, one-phase commit, rollback after prepare), rows logged with {@code binlog_row_image} MINIMAL and NOBLOB,
 * and on MySQL a compressed transaction ({@code binlog_transaction_compression}) and partial JSON updates
 * ({@code binlog_row_value_options=PARTIAL_JSON}); last an insert into {@value #END_TABLE}, whose arrival tells a
 * reader the workload is all delivered. Every table but the end marker is dropped again, so both servers learn
 * every table layout from the binlog itself. The session's time zone is UTC. Runs on MariaDB and MySQL.
 */
final class DifferentialWorkload {

    static final String END_TABLE = "t_end";

    private static final String TYPES_TABLE = """
            CREATE TABLE t_types (
              id INT PRIMARY KEY,
              c_ti TINYINT, c_tiu TINYINT UNSIGNED, c_si SMALLINT, c_siu SMALLINT UNSIGNED,
              c_mi MEDIUMINT, c_miu MEDIUMINT UNSIGNED, c_i INT, c_iu INT UNSIGNED, c_bi BIGINT, c_biu BIGINT UNSIGNED,
              c_dec DECIMAL(20,6), c_dec0 DECIMAL(10,0), c_money DECIMAL(5,2), c_f FLOAT, c_d DOUBLE,
              c_date DATE, c_time TIME, c_time6 TIME(6), c_dt DATETIME, c_dt6 DATETIME(6),
              c_ts TIMESTAMP(3) NULL DEFAULT NULL, c_year YEAR,
              c_char CHAR(10), c_vc VARCHAR(100), c_text TEXT, c_blob BLOB, c_bin BINARY(4), c_vbin VARBINARY(16),
              c_enum ENUM('a','b','c d'), c_set SET('x','y','z'), c_bit1 BIT(1), c_bit64 BIT(64), c_json JSON,
              c_latin1 VARCHAR(20) CHARACTER SET latin1
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""";

    private static final String ROW_MIN = "(1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,"
            + " -9223372036854775808, 0, -99999999999999.999999, -9999999999, -999.99, -3.40282e38,"
            + " -1.7976931348623157e308, '1000-01-01', '-838:59:59', '-838:59:59.000000', '1000-01-01 00:00:00',"
            + " '1000-01-01 00:00:00.000000', '1970-01-01 00:00:01.000', 1901, '', '', '', X'', X'', X'', 'a', '',"
            + " b'0', b'0', '[]', '')";

    private static final String ROW_MAX = "(2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,"
            + " 9223372036854775807, 18446744073709551615, 99999999999999.999999, 9999999999, 999.99, 3.40282e38,"
            + " 1.7976931348623157e308, '9999-12-31', '838:59:59', '838:59:59.999999', '9999-12-31 23:59:59',"
            + " '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999', 2155, 'abcdefghij', 'trailing  ',"
            + " REPEAT('text 中文 😀 ', 500), X'00FF7F80', X'41420000', X'00FF', 'c d', 'x,y,z', b'1',"
            + " 0xFFFFFFFFFFFFFFFF, '{\"a\": 1, \"b\": [true, false, null], \"s\": \"text\"}', 'ÀÿÐ')";

    private static final String ROW_NULLS = "(3" + ", NULL".repeat(34) + ")";

    private static final String ROW_ZERO = "(4, 0, 128, 0, 32768, 0, 8388608, 0, 2147483648, 0,"
            + " 9223372036854775808, 0, 0, 2.00, 0, 0, '0000-00-00', '00:00:00', '-00:00:00.000001',"
            + " '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000', '0000-00-00 00:00:00', 0, ' ', ' ', ' ',"
            + " X'00', X'41', X'00', 'b', 'y', b'0', b'1010101010101', '{}', 'ascii')";

    private static final String ROW_TYPICAL = "(5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1.5, 42, 10.50, 0.1, 0.1,"
            + " '2024-02-29', '12:34:56', '-12:34:56.780000', '2024-02-29 12:34:56', '2024-02-29 12:34:56.000001',"
            + " '2024-02-29 12:34:56.789', 2024, 'ü', 'a\\tb\\nc', 'Grüße', X'0A0D', X'7F', X'80', 'a', 'x,z', b'1',"
            + " 1, '{\"k\": [1, 2.5, -3e-7, \"ü\"], \"n\": {\"x\": null}}', 'Grüße')";

    private DifferentialWorkload() {
    }

    /** The statements, in order, for one session; {@code mysql} adds what only MySQL has. */
    static List<String> statements(String schema, boolean mysql) {
        List<String> all = new ArrayList<>(common(schema));
        int end = all.size() - 2; // before CREATE and INSERT of the end marker
        all.addAll(end, mysql ? mysqlOnly() : List.of());
        return all;
    }

    private static List<String> common(String schema) {
        List<String> all = new ArrayList<>(List.of(
                "USE " + schema,
                "SET SESSION sql_mode = ''",
                "SET SESSION time_zone = '+00:00'",
                TYPES_TABLE,
                "INSERT INTO t_types VALUES " + ROW_MIN,
                "INSERT INTO t_types VALUES " + ROW_MAX + ", " + ROW_NULLS,
                "INSERT INTO t_types VALUES " + ROW_ZERO + ", " + ROW_TYPICAL,
                "UPDATE t_types SET c_vc = 'changed', c_i = -1, c_dec = 0.5, c_ts = NULL, c_bin = X'01'"
                        + " WHERE id = 2",
                "UPDATE t_types SET c_ti = 0, c_enum = 'b', c_set = '', c_json = '{\"was\": null}', c_bit64 = 0"
                        + " WHERE id = 3",
                "UPDATE t_types SET c_money = c_money + 1, c_dt6 = '2030-01-01 00:00:00.000001' WHERE id IN (4, 5)",
                "UPDATE t_types SET c_json = JSON_OBJECT('d', CAST(1.50 AS DECIMAL(5,2)), 'dt',"
                        + " CAST('2024-01-01 10:00:00.5' AS DATETIME(1)), 'big', 1e22, 'small', -3e-7,"
                        + " 'u64', 18446744073709551615, 'neg', -1, 'f', 0.1) WHERE id = 5",
                "DELETE FROM t_types WHERE id = 1",
                "BEGIN",
                "INSERT INTO t_types (id, c_vc, c_money) VALUES (6, 'in a transaction', 1.00)",
                "UPDATE t_types SET id = 60, c_f = 1.0e10, c_d = 1e22 WHERE id = 6",
                "DELETE FROM t_types WHERE id = 4",
                "COMMIT",
                "ALTER TABLE t_types ADD COLUMN c_added VARCHAR(20) DEFAULT 'dflt' AFTER c_i",
                "INSERT INTO t_types (id, c_added, c_dec0) VALUES (7, 'added', -1)",
                "UPDATE t_types SET c_added = NULL WHERE id = 5",
                "FLUSH BINARY LOGS",
                "ALTER TABLE t_types DROP COLUMN c_ti, MODIFY COLUMN c_vc VARCHAR(200)",
                "INSERT INTO t_types (id, c_vc, c_tiu) VALUES (8, 'after the rotation', 9)",
                "CREATE TABLE t_side (id BIGINT UNSIGNED PRIMARY KEY AUTO_INCREMENT, note VARCHAR(50) NOT NULL,"
                        + " amount DECIMAL(8,3)) DEFAULT CHARSET=utf8mb4",
                "INSERT INTO t_side (note, amount) VALUES ('one', 1.000), ('two', -0.125)",
                "RENAME TABLE t_side TO t_side_renamed",
                "UPDATE t_side_renamed SET amount = amount * 2",
                "ALTER TABLE t_side_renamed RENAME TO t_side_again",
                "INSERT INTO t_side_again (note) VALUES ('three')",
                "TRUNCATE TABLE t_side_again",
                "INSERT INTO t_side_again (note, amount) VALUES ('after truncate', 99999.999)",
                "DELETE FROM t_types WHERE id IN (2, 3)"));
        all.addAll(xa());
        all.addAll(rowImages());
        all.addAll(List.of(
                "CREATE TABLE t_more (id INT NOT NULL, k2 VARCHAR(8) NOT NULL, c_bool BOOLEAN,"
                        + " c_zf INT(5) UNSIGNED ZEROFILL, c_f73 FLOAT(7,3), c_d156 DOUBLE(15,6), c_time3 TIME(3),"
                        + " c_gen BIGINT AS (id * 2) VIRTUAL, c_stored VARCHAR(20) AS (CONCAT('g', k2)) STORED,"
                        + " PRIMARY KEY (id, k2), UNIQUE KEY uk (c_zf)) DEFAULT CHARSET=utf8mb4",
                "CREATE INDEX ix_bool ON t_more (c_bool)",
                "INSERT INTO t_more (id, k2, c_bool, c_zf, c_f73, c_d156, c_time3) VALUES"
                        + " (1, 'a', TRUE, 42, 1234.567, 123456789.123456, '-00:00:00.500'),"
                        + " (2, 'b', FALSE, 0, -0.001, 0, '838:59:59.000'), (3, 'c', NULL, NULL, NULL, NULL, NULL)",
                "UPDATE t_more SET k2 = 'z', c_bool = -128 WHERE id = 1",
                "UPDATE t_more SET c_f73 = c_f73 WHERE id = 2",
                "DROP INDEX ix_bool ON t_more",
                "DELETE FROM t_more",
                "DROP TABLE t_more",
                "DROP TABLE t_side_again",
                "DROP TABLE t_types",
                "CREATE TABLE " + END_TABLE + " (id INT PRIMARY KEY)",
                "INSERT INTO " + END_TABLE + " VALUES (1)"));
        return all;
    }

    /** Two-phase commit, one-phase commit (an xid with branch qualifier and format id), rollback after prepare. */
    private static List<String> xa() {
        return List.of(
                "CREATE TABLE t_xa (id INT PRIMARY KEY, note VARCHAR(20))",
                "XA START 'xa-commit'",
                "INSERT INTO t_xa VALUES (1, 'two-phase')",
                "UPDATE t_types SET c_vc = 'in xa' WHERE id = 5",
                "XA END 'xa-commit'",
                "XA PREPARE 'xa-commit'",
                "XA COMMIT 'xa-commit'",
                "XA START 'xa-one', 'branch', 7",
                "INSERT INTO t_xa VALUES (2, 'one phase')",
                "XA END 'xa-one', 'branch', 7",
                "XA COMMIT 'xa-one', 'branch', 7 ONE PHASE",
                "XA START 'xa-rollback'",
                "INSERT INTO t_xa VALUES (3, 'rolled back')",
                "XA END 'xa-rollback'",
                "XA PREPARE 'xa-rollback'",
                "XA ROLLBACK 'xa-rollback'",
                "DROP TABLE t_xa");
    }

    /** Rows logged with MINIMAL and NOBLOB images: before images of the key only, unchanged BLOB/TEXT left out. */
    private static List<String> rowImages() {
        return List.of(
                "CREATE TABLE t_images (id INT PRIMARY KEY, a INT, t TEXT, b BLOB, v VARCHAR(10))",
                "INSERT INTO t_images VALUES (1, 1, 'text', X'01', 'v'), (2, 2, 'text2', X'02', 'w')",
                "SET SESSION binlog_row_image = 'MINIMAL'",
                "INSERT INTO t_images (id, a) VALUES (3, 3)",
                "UPDATE t_images SET a = 10 WHERE id = 1",
                "DELETE FROM t_images WHERE id = 2",
                "UPDATE t_types SET c_vc = 'minimal', c_json = '{\"m\": 1}' WHERE id = 5",
                "SET SESSION binlog_row_image = 'NOBLOB'",
                "INSERT INTO t_images (id, v) VALUES (4, 'nb')",
                "UPDATE t_images SET v = 'x' WHERE id = 1",
                "UPDATE t_images SET t = 'changed' WHERE id = 3",
                "DELETE FROM t_images WHERE id = 4",
                "UPDATE t_types SET c_i = 5 WHERE id = 5",
                "SET SESSION binlog_row_image = 'FULL'",
                "DROP TABLE t_images");
    }

    /**
     * A compressed transaction, and JSON updates logged as partial JSON (where MySQL finds the diffs smaller than the
     * document) with MINIMAL and with FULL images: one diff, several diffs, a removal. The JSON column is the table's last,
     * so its diffs end the row image: Canal 1.1.7 cannot read a partial JSON value that other values follow in the
     * event (docs/compatibility.md, "What Canal 1.1.7 cannot read").
     */
    private static List<String> mysqlOnly() {
        return List.of(
                "CREATE TABLE t_pjson (id INT PRIMARY KEY, other INT, doc JSON)",
                "INSERT INTO t_pjson VALUES (1, 0, '{\"a\": 1, \"b\": [1, 2], \"s\": \"text\"}')",
                "SET SESSION binlog_transaction_compression = ON",
                "BEGIN",
                "INSERT INTO t_pjson VALUES (2, 2, JSON_ARRAY(REPEAT('compressed ', 50)))",
                "UPDATE t_pjson SET other = 3 WHERE id = 2",
                "COMMIT",
                "DELETE FROM t_pjson WHERE id = 2",
                "SET SESSION binlog_transaction_compression = OFF",
                "SET SESSION binlog_row_value_options = 'PARTIAL_JSON'",
                "SET SESSION binlog_row_image = 'MINIMAL'",
                "UPDATE t_pjson SET doc = JSON_SET(doc, '$.a', 2) WHERE id = 1",
                "UPDATE t_pjson SET other = 1, doc = JSON_REPLACE(doc, '$.s', 'new', '$.a', 2.5) WHERE id = 1",
                "UPDATE t_pjson SET doc = JSON_REMOVE(doc, '$.b[0]') WHERE id = 1",
                "UPDATE t_pjson SET doc = JSON_SET(doc, '$.n', JSON_OBJECT('x', NULL), '$.a', -3e-7) WHERE id = 1",
                "SET SESSION binlog_row_image = 'FULL'",
                "UPDATE t_pjson SET doc = JSON_SET(doc, '$.a', 3) WHERE id = 1",
                "SET SESSION binlog_row_value_options = ''",
                "DROP TABLE t_pjson",
                // without strict mode a JSON NOT NULL column left out gets an empty value, which MySQL reads as null
                "CREATE TABLE t_jempty (id INT PRIMARY KEY, doc JSON NOT NULL)",
                "INSERT INTO t_jempty (id) VALUES (1)",
                "DROP TABLE t_jempty");
    }

    /** The row change of the workload's last statement. */
    static boolean isEndMarker(CanalEntry.Entry entry) {
        return entry.getEntryType() == CanalEntry.EntryType.ROWDATA
                && entry.getHeader().getTableName().equals(END_TABLE)
                && entry.getHeader().getEventType() == CanalEntry.EventType.INSERT;
    }
}
