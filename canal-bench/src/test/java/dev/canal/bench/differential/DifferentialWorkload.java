package dev.canal.bench.differential;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The differential test's workload, written to the binlog in two parts before the servers read it (the resumed
 * destination stops between them: {@link DifferentialConformanceIT}). docs/compatibility.md has the table of what
 * it covers per server. Every table but the markers is dropped again, so that both servers learn every layout from
 * the binlog. The session's time zone is UTC. Runs on MariaDB and MySQL; {@code mysql} adds what only MySQL has.
 *
 * <p>Part one: a table of many column types filled with their edges, updates and deletes (one transaction of
 * several statements), ADD, DROP, CHANGE, RENAME COLUMN, FIRST/AFTER and ALGORITHM=INSTANT with rows before and
 * after, a binlog rotation, CREATE, CREATE ... LIKE, RENAME (multi-pair, cross-schema, ALTER ... RENAME), TRUNCATE and
 * DROP TABLE, database statements, tables named {@code *begin} / {@code *commit}, a transaction whose last rows are in
 * a table the filtered variants leave out, XA, rows logged with MINIMAL and NOBLOB images, text and blob sizes,
 * GEOMETRY, temporal precisions, DECIMAL(65,30), utf8mb3, gbk, utf16 and latin1 columns, a large ENUM and SET, a 1 MiB
 * JSON document, a CREATE TABLE ... SELECT, invisible columns, CHECK constraints, on MySQL functional key parts and on
 * MariaDB INET4, INET6 and UUID; last an insert into {@value #MID_TABLE}. Part two: a table altered between its rows,
 * an insert into {@value #END_TABLE}, then on MySQL a compressed transaction and partial JSON updates, which the
 * variants that Canal 1.1.7 cannot follow through them leave uncompared ({@link Variant#toEndMarkerOnly}).
 */
final class DifferentialWorkload {

    static final String MID_TABLE = "t_mid";
    static final String END_TABLE = "t_end";
    /**
     * Tables whose rows Canal 1.1.7 cannot read, so that no destination compared with Canal has them, and our rows of
     * them are checked against SELECT ({@link SelectCheck}): {@code t_invisible}, whose CREATE TABLE (INVISIBLE
     * columns) Canal's DDL parser cannot read, so that it looks for the table's definition forever ("not found in
     * db"); {@value #PARTIAL_JSON_MID_TABLE} (MySQL), whose partial JSON diffs another value follows in the row image
     * (docs/compatibility.md, "What Canal 1.1.7 cannot read").
     */
    static final List<String> TABLES_CANAL_CANNOT_READ = List.of("t_invisible", "t_pjson_mid");
    static final String PARTIAL_JSON_MID_TABLE = "t_pjson_mid";

    /** A statement, or a SELECT whose rows are kept to check our entries against where Canal's are wrong. */
    sealed interface Step permits Sql, Check {
    }

    record Sql(String sql) implements Step {
    }

    /** The rows of {@code table} as SELECT returns them at this point of the workload. */
    record Check(String table, String select) implements Step {
    }

    /**
     * Columns in a charset other than UTF-8, by {@code table.column}: Canal decodes their text as UTF-8
     * ({@link KnownDifference#NON_UTF8_TEXT_DECODED_AS_UTF_8}).
     */
    static final Map<String, Charset> NON_UTF8_COLUMNS = Map.of(
            "t_types.c_latin1", Charset.forName("windows-1252"),
            "t_types2.c_gbk", Charset.forName("GBK"),
            "t_types2.c_u16", Charset.forName("UTF-16BE"));

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

    /** An ENUM of more members than a byte counts (its values take two bytes) and a SET of more than eight. */
    private static final String BIG_ENUM = IntStream.rangeClosed(1, 300).mapToObj(i -> "'e" + i + "'")
            .collect(Collectors.joining(","));
    private static final String BIG_SET = IntStream.rangeClosed(1, 10).mapToObj(i -> "'s" + i + "'")
            .collect(Collectors.joining(","));

    private static final String TYPES2_TABLE = "CREATE TABLE t_types2 (id INT PRIMARY KEY, c_tt TINYTEXT,"
            + " c_mt MEDIUMTEXT, c_lt LONGTEXT, c_tb TINYBLOB, c_mb MEDIUMBLOB, c_lb LONGBLOB, c_geo GEOMETRY,"
            + " c_pt POINT, c_d65 DECIMAL(65,30), c_ts0 TIMESTAMP(0) NULL DEFAULT NULL,"
            + " c_ts6 TIMESTAMP(6) NULL DEFAULT NULL, c_dt1 DATETIME(1), c_dt2 DATETIME(2), c_dt3 DATETIME(3),"
            + " c_dt4 DATETIME(4), c_dt5 DATETIME(5), c_u8mb3 VARCHAR(20) CHARACTER SET utf8mb3,"
            + " c_gbk VARCHAR(20) CHARACTER SET gbk, c_u16 VARCHAR(20) CHARACTER SET utf16, c_enum300 ENUM(" + BIG_ENUM
            + "), c_set10 SET(" + BIG_SET + "), c_json JSON) DEFAULT CHARSET=utf8mb4";

    private DifferentialWorkload() {
    }

    static List<Step> firstPart(String schema, boolean mysql) {
        List<Step> all = new ArrayList<>();
        sql(all, "USE " + schema, "SET SESSION sql_mode = ''", "SET SESSION time_zone = '+00:00'");
        sql(all, types());
        sql(all, columnChanges());
        sql(all, tableRenames(schema));
        sql(all, statementLookalikes());
        sql(all, xa());
        sql(all, rowImages());
        sql(all, moreTypes());
        all.addAll(tablesCanalCannotRead());
        sql(all, mysql ? mysqlConstraintsAndKeys() : mariadbConstraintsAndTypes());
        sql(all, "DROP TABLE t_types", "DROP TABLE t_types2", "DROP TABLE t_side_again",
                "CREATE TABLE " + MID_TABLE + " (id INT PRIMARY KEY)", "INSERT INTO " + MID_TABLE + " VALUES (1)");
        return all;
    }

    static List<Step> secondPart(String schema, boolean mysql) {
        List<Step> all = new ArrayList<>();
        sql(all, "USE " + schema, "SET SESSION sql_mode = ''", "SET SESSION time_zone = '+00:00'",
                "CREATE TABLE t_after (id INT PRIMARY KEY, a INT)",
                "INSERT INTO t_after VALUES (1, 1)",
                "ALTER TABLE t_after ADD COLUMN b VARCHAR(5) AFTER id",
                "INSERT INTO t_after VALUES (2, 'b', 2)",
                "DROP TABLE t_after",
                "DROP TABLE " + MID_TABLE, "CREATE TABLE " + END_TABLE + " (id INT PRIMARY KEY)",
                "INSERT INTO " + END_TABLE + " VALUES (1)");
        if (mysql) {
            sql(all, mysqlCompressionAndPartialJson());
            all.addAll(partialJsonCanalCannotRead());
        }
        return all;
    }

    private static void sql(List<Step> steps, String... statements) {
        sql(steps, List.of(statements));
    }

    private static void sql(List<Step> steps, List<String> statements) {
        statements.forEach(s -> steps.add(new Sql(s)));
    }

    /** Edges of many column types, updates, deletes and a key change in a transaction of several statements. */
    private static List<String> types() {
        return List.of(
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
                "COMMIT");
    }

    /** Columns added, dropped, changed and renamed, with rows between, and a binlog rotation. */
    private static List<String> columnChanges() {
        return List.of(
                "ALTER TABLE t_types ADD COLUMN c_added VARCHAR(20) DEFAULT 'dflt' AFTER c_i",
                "INSERT INTO t_types (id, c_added, c_dec0) VALUES (7, 'added', -1)",
                "UPDATE t_types SET c_added = NULL WHERE id = 5",
                "FLUSH BINARY LOGS",
                "ALTER TABLE t_types DROP COLUMN c_ti, MODIFY COLUMN c_vc VARCHAR(200)",
                "INSERT INTO t_types (id, c_vc, c_tiu) VALUES (8, 'after the rotation', 9)",
                "CREATE TABLE t_cols (id INT PRIMARY KEY, a INT, b VARCHAR(10)) DEFAULT CHARSET=utf8mb4",
                "INSERT INTO t_cols VALUES (1, 1, 'one')",
                "ALTER TABLE t_cols CHANGE COLUMN a a_big BIGINT UNSIGNED",
                "ALTER TABLE t_cols RENAME COLUMN b TO b_renamed",
                "ALTER TABLE t_cols ADD COLUMN c_first INT FIRST, ADD COLUMN c_after VARCHAR(5) AFTER id",
                "ALTER TABLE t_cols ADD COLUMN c_instant INT DEFAULT 7, ALGORITHM=INSTANT",
                "INSERT INTO t_cols (c_first, id, c_after, a_big, b_renamed) VALUES (0, 2, 'x', 2, 'two')",
                "UPDATE t_cols SET c_instant = 8, a_big = 18446744073709551615 WHERE id = 1");
    }

    /**
     * CREATE ... LIKE, RENAME of one pair, of two pairs one of which leaves for another schema and back, ALTER ...
     * RENAME, TRUNCATE, and database statements on that other schema.
     */
    private static List<String> tableRenames(String schema) {
        String other = schema + "_other";
        return List.of(
                "CREATE TABLE t_side (id BIGINT UNSIGNED PRIMARY KEY AUTO_INCREMENT, note VARCHAR(50) NOT NULL,"
                        + " amount DECIMAL(8,3)) DEFAULT CHARSET=utf8mb4",
                "INSERT INTO t_side (note, amount) VALUES ('one', 1.000), ('two', -0.125)",
                "RENAME TABLE t_side TO t_side_renamed",
                "UPDATE t_side_renamed SET amount = amount * 2",
                "ALTER TABLE t_side_renamed RENAME TO t_side_again",
                "INSERT INTO t_side_again (note) VALUES ('three')",
                "TRUNCATE TABLE t_side_again",
                "INSERT INTO t_side_again (note, amount) VALUES ('after truncate', 99999.999)",
                "CREATE TABLE t_cols_like LIKE t_cols",
                "INSERT INTO t_cols_like SELECT * FROM t_cols",
                "CREATE DATABASE " + other + " DEFAULT CHARACTER SET latin1",
                "ALTER DATABASE " + other + " DEFAULT CHARACTER SET utf8mb4",
                "RENAME TABLE t_cols TO t_cols_a, t_cols_like TO " + other + ".t_cols_b",
                "INSERT INTO t_cols_a (id) VALUES (3)",
                "INSERT INTO " + other + ".t_cols_b (id) VALUES (3)",
                "RENAME TABLE " + other + ".t_cols_b TO t_cols_b",
                "INSERT INTO t_cols_b (id, b_renamed) VALUES (4, 'back')",
                "DROP DATABASE " + other,
                "DELETE FROM t_types WHERE id IN (2, 3)",
                "DROP TABLE t_cols_a, t_cols_b");
    }

    /**
     * Tables whose names end like BEGIN and COMMIT, and a transaction whose last rows are in {@code t_tail}, which
     * the filtered variants leave out.
     */
    private static List<String> statementLookalikes() {
        return List.of(
                "CREATE TABLE t_begin (id INT PRIMARY KEY)",
                "INSERT INTO t_begin VALUES (1)",
                "TRUNCATE TABLE t_begin",
                "CREATE TABLE t_commit (id INT PRIMARY KEY)",
                "INSERT INTO t_commit VALUES (1)",
                "TRUNCATE TABLE t_commit",
                "DROP TABLE t_commit",
                "DROP TABLE t_begin",
                "CREATE TABLE t_tail (id INT PRIMARY KEY)",
                "BEGIN",
                "INSERT INTO t_types (id, c_vc) VALUES (9, 'before a filtered tail')",
                "INSERT INTO t_tail VALUES (1), (2)",
                "COMMIT",
                "DROP TABLE t_tail");
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
     * BOOLEAN, ZEROFILL, FLOAT(M,D), generated columns, a composite key and an index; text and blob sizes, GEOMETRY,
     * DECIMAL(65,30), TIMESTAMP(0)/(6), DATETIME(1..5), utf8mb3, gbk and utf16 text, an ENUM of 300 members, a SET
     * of 10 and a JSON document of 1 MiB.
     */
    private static List<String> moreTypes() {
        return List.of(
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
                TYPES2_TABLE,
                "INSERT INTO t_types2 VALUES (1, 'tiny', REPEAT('m', 70000), REPEAT('long ü ', 20000), X'00FF',"
                        + " REPEAT(X'01', 70000), REPEAT(X'FE', 100000),"
                        + " ST_GeomFromText('LINESTRING(0 0, 1 1, 2 3)'), ST_GeomFromText('POINT(1 2)'),"
                        + " -99999999999999999999999999999999999.999999999999999999999999999999,"
                        + " '1970-01-01 00:00:01', '2038-01-19 03:14:07.999999', '2024-01-01 00:00:00.1',"
                        + " '2024-01-01 00:00:00.12', '2024-01-01 00:00:00.123', '9999-12-31 23:59:59.9999',"
                        + " '1000-01-01 00:00:00.00001', 'mb3 ü', 'gbk 中文', 'utf16 ü 中', 'e300', 's1,s9,s10', NULL)",
                "INSERT INTO t_types2 (id, c_d65, c_ts0, c_enum300, c_set10, c_json) VALUES (2,"
                        + " 0.000000000000000000000000000001, '2024-02-29 12:00:00', 'e1', '', JSON_OBJECT('big',"
                        + " REPEAT('x', 1048576), 'n', 1))",
                "UPDATE t_types2 SET c_gbk = '更新', c_u16 = 'ütf', c_u8mb3 = NULL, c_enum300 = 'e256',"
                        + " c_set10 = 's10' WHERE id = 1",
                "DELETE FROM t_types2 WHERE id = 2");
    }

    /**
     * An atomic CREATE TABLE ... SELECT (logged by MySQL 8.0.21+ as CREATE TABLE ... START TRANSACTION and its
     * rows) and a table with invisible columns (MySQL 8.0.23+, MariaDB 10.3+), each with a column added later; the
     * rows SELECT returns are kept to check ours against.
     */
    private static List<Step> tablesCanalCannotRead() {
        return List.of(
                new Sql("CREATE TABLE t_ctas_src (id INT PRIMARY KEY, name VARCHAR(20), amount DECIMAL(7,2))"),
                new Sql("INSERT INTO t_ctas_src VALUES (1, 'one', 1.50), (2, NULL, -2.25)"),
                new Sql("CREATE TABLE t_ctas AS SELECT * FROM t_ctas_src"),
                new Sql("ALTER TABLE t_ctas ADD COLUMN added INT FIRST"),
                new Sql("INSERT INTO t_ctas (added, id, name, amount) VALUES (7, 3, 'three', 3.25)"),
                new Sql("CREATE TABLE t_invisible (id INT PRIMARY KEY, secret VARCHAR(10) INVISIBLE, v INT)"),
                new Sql("INSERT INTO t_invisible (id, secret, v) VALUES (1, 'hidden', 10)"),
                new Sql("ALTER TABLE t_invisible ADD COLUMN h INT INVISIBLE FIRST"),
                new Sql("INSERT INTO t_invisible (h, id, secret, v) VALUES (5, 2, 'h2', 20)"),
                new Check("t_ctas", "SELECT added, id, name, amount FROM t_ctas ORDER BY id"),
                new Check("t_invisible", "SELECT h, id, secret, v FROM t_invisible ORDER BY id"),
                new Sql("DROP TABLE t_ctas_src, t_ctas, t_invisible"));
    }

    /** CHECK constraints added, dropped and altered (8.0.16+), and functional key parts (8.0.13+). */
    private static List<String> mysqlConstraintsAndKeys() {
        return List.of(
                "CREATE TABLE t_check (id INT PRIMARY KEY, v INT, j JSON, name VARCHAR(20),"
                        + " CONSTRAINT chk_v CHECK (v >= 0), INDEX f_a ((CAST(j->'$.a' AS UNSIGNED))))",
                "INSERT INTO t_check VALUES (1, 1, '{\"a\": 1}', 'one')",
                "ALTER TABLE t_check ADD CONSTRAINT chk_v2 CHECK (v < 1000)",
                "ALTER TABLE t_check DROP CHECK chk_v2",
                "ALTER TABLE t_check ALTER CHECK chk_v NOT ENFORCED",
                "ALTER TABLE t_check DROP CONSTRAINT chk_v",
                "ALTER TABLE t_check ADD INDEX f_name ((UPPER(name)))",
                "CREATE INDEX f_both ON t_check ((v * 2), name)",
                "INSERT INTO t_check VALUES (2, -2, '{\"a\": 2}', 'two')",
                "DROP TABLE t_check");
    }

    /** CHECK constraints (MariaDB has no functional key parts), and MariaDB's INET4, INET6 and UUID. */
    private static List<String> mariadbConstraintsAndTypes() {
        return List.of(
                "CREATE TABLE t_check (id INT PRIMARY KEY, v INT, CONSTRAINT chk_v CHECK (v >= 0))",
                "INSERT INTO t_check VALUES (1, 1)",
                "ALTER TABLE t_check ADD CONSTRAINT chk_v2 CHECK (v < 1000)",
                "ALTER TABLE t_check DROP CONSTRAINT chk_v2",
                "ALTER TABLE t_check DROP CONSTRAINT chk_v",
                "INSERT INTO t_check VALUES (2, -2)",
                "DROP TABLE t_check",
                "CREATE TABLE t_inet (id INT PRIMARY KEY, a4 INET4, a6 INET6, u UUID)",
                "INSERT INTO t_inet VALUES (1, '10.0.0.1', '2001:db8::1', '123e4567-e89b-12d3-a456-426614174000'),"
                        + " (2, '0.0.0.0', '::ffff:10.0.0.1', '00000000-0000-0000-0000-000000000000')",
                "UPDATE t_inet SET a4 = '255.255.255.255' WHERE id = 2",
                "DROP TABLE t_inet");
    }

    /**
     * A compressed transaction, and JSON updates logged as partial JSON (where MySQL finds the diffs smaller than the
     * document) with MINIMAL and with FULL images: one diff, several diffs, a removal. The JSON column is the table's
     * last, so its diffs end the row image, which Canal 1.1.7 reads.
     */
    private static List<String> mysqlCompressionAndPartialJson() {
        return List.of(
                "CREATE TABLE t_pjson (id INT PRIMARY KEY, other INT, doc JSON)",
                "INSERT INTO t_pjson VALUES (1, 0, '{\"a\": 1, \"b\": [1, 2], \"s\": \"text\"}')",
                "SET SESSION binlog_transaction_compression = ON",
                "BEGIN",
                "INSERT INTO " + END_TABLE + " VALUES (2)",
                "UPDATE " + END_TABLE + " SET id = 3 WHERE id = 2",
                "DELETE FROM " + END_TABLE + " WHERE id = 3",
                "COMMIT",
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

    /**
     * Partial JSON diffs that another value follows in the row image (docs/compatibility.md, "What Canal 1.1.7
     * cannot read"): no destination compared with Canal reads this table; our rows of it are checked against SELECT.
     */
    private static List<Step> partialJsonCanalCannotRead() {
        String table = PARTIAL_JSON_MID_TABLE;
        return List.of(
                new Sql("CREATE TABLE " + table + " (id INT PRIMARY KEY, doc JSON, other INT)"),
                new Sql("INSERT INTO " + table + " VALUES (1, '{\"a\": 1, \"b\": [1, 2], \"s\": \"text\"}', 0)"),
                new Sql("SET SESSION binlog_row_value_options = 'PARTIAL_JSON'"),
                new Sql("SET SESSION binlog_row_image = 'MINIMAL'"),
                new Sql("UPDATE " + table + " SET doc = JSON_REPLACE(doc, '$.s', 'new'), other = 1 WHERE id = 1"),
                new Sql("UPDATE " + table + " SET doc = JSON_REMOVE(doc, '$.b[0]'), other = 2 WHERE id = 1"),
                new Sql("SET SESSION binlog_row_image = 'FULL'"),
                new Sql("SET SESSION binlog_row_value_options = ''"),
                new Check(table, "SELECT id, doc, other FROM " + table + " ORDER BY id"),
                new Sql("DROP TABLE " + table));
    }
}
