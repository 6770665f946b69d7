package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.testsupport.MySqlServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entries the parser builds for a scripted workload ({@code expected-entries/workload.sql}: every column type
 * with minimums, maximums, zeros and NULLs, an UPDATE, a DELETE, a multi-statement transaction, and CREATE / ALTER
 * ADD COLUMN / ALTER DROP COLUMN / RENAME / CREATE INDEX / TRUNCATE / DROP with rows written after each) equal,
 * field by field, a hand-checked dump ({@code expected-entries/<flavour>.txt}, rendered by {@link EntryDump}).
 *
 * <p>The flavours legitimately differ (MariaDB's JSON is a LONGTEXT, it writes ANNOTATE_ROWS and no BEGIN; MySQL
 * writes BEGIN and types such as {@code int} without a display width), so there is one file per flavour and only
 * the running server's file is compared; the other flavour's test is skipped. MariaDB is the default fixture; set
 * {@code CANAL_TEST_MYSQL_URL} to an Oracle MySQL server to check the MySQL file.
 *
 * <p>Table meta comes from the schema history (Canal's TSDB), so every row is decoded with the definition that
 * was true at its own position. TIMESTAMP values are written in UTC and rendered in the JVM zone, so the test
 * sets the JVM default zone to UTC while it runs.
 *
 * <p>The files were generated from our output on MariaDB 10.11.19 and MySQL 9.7.4, then every value was checked by
 * hand against what Canal 1.1.7 emits. They show our deliberate differences from Canal
 * (docs/compatibility.md): DECIMAL keeps its scale, BINARY(n) keeps its trailing zero bytes, MariaDB JSON is UTF-8
 * text, and MySQL's {@code mysqlType} is rebuilt from the TABLE_MAP in MySQL 8's spelling. Event lengths and the
 * server-rewritten DROP TABLE text are those of these server versions; another version may need a rewrite.
 *
 * <p>After a deliberate change of the output, rewrite the expected file instead of asserting, then review the
 * diff of the file by hand before committing it (add
 * {@code -Djunit.jupiter.conditions.deactivate=org.junit.*DisabledCondition} to rewrite a flavour whose test is
 * disabled, and restore the hand-checked values the rewrite replaced):
 * <pre>
 * mvn -B -q -pl canal-parse verify -DskipUnitTests -Dit.test=ExpectedEntriesIT -Dexpected.entries.rewrite=true
 * CANAL_TEST_MYSQL_URL=jdbc:mysql://127.0.0.1:PORT/ mvn -B -q -pl canal-parse verify -DskipUnitTests \
 *     -Dit.test=ExpectedEntriesIT -Dexpected.entries.rewrite=true
 * </pre>
 */
class ExpectedEntriesIT extends ParserITSupport {

    private static final Logger log = LoggerFactory.getLogger(ExpectedEntriesIT.class);
    private static final String SCHEMA = "expected_entries";
    static final String REWRITE_PROPERTY = "expected.entries.rewrite";
    /** lines of context printed around the first difference */
    private static final int CONTEXT = 3;
    /** differing line numbers listed after the first difference */
    private static final int MAX_LISTED = 20;

    private TimeZone jvmZone;

    @Override
    boolean schemaHistory() {
        return true;
    }

    @BeforeEach
    void renderTimestampsInUtc() {
        jvmZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
    }

    @AfterEach
    void restoreZone() {
        TimeZone.setDefault(jvmZone);
    }

    @Test
    void mariadbEntriesEqualTheHandCheckedDump(MySqlServer db) throws Exception {
        assumeTrue(db.isMariaDb(), "mariadb.txt is checked against MariaDB only; this server is " + db);
        assertWorkloadMatches(db, "mariadb");
    }

    @Test
    void mysqlEntriesEqualTheHandCheckedDump(MySqlServer db) throws Exception {
        assumeTrue(!db.isMariaDb(), "mysql.txt is checked against Oracle MySQL only; this server is " + db);
        assertWorkloadMatches(db, "mysql");
    }

    private void assertWorkloadMatches(MySqlServer db, String flavour) throws Exception {
        db.recreateDatabase(SCHEMA);
        startParser(db, SCHEMA, db.currentBinlogPosition());
        runWorkload(db);
        List<String> actual = EntryDump.render(drainUntilTheLastDrop());

        Path expectedFile = expectedFile(flavour);
        if (Boolean.getBoolean(REWRITE_PROPERTY)) {
            Files.createDirectories(expectedFile.getParent());
            Files.write(expectedFile, actual, StandardCharsets.UTF_8);
            log.warn("rewrote {} ({} lines): review its diff before committing", expectedFile, actual.size());
            return;
        }
        assertThat(expectedFile).as("the expected dump; create it with -D%s=true", REWRITE_PROPERTY).exists();
        List<String> expected = Files.readAllLines(expectedFile, StandardCharsets.UTF_8);
        assertSameLines(db.toString(), expectedFile, expected, actual);
    }

    private static void runWorkload(MySqlServer db) throws IOException, SQLException {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            st.execute("USE " + SCHEMA);
            st.execute("SET SESSION sql_mode = ''");
            st.execute("SET SESSION time_zone = '+00:00'");
            for (String sql : workload()) {
                try {
                    st.execute(sql);
                } catch (SQLException e) {
                    throw new SQLException("workload statement failed on " + db + ": " + sql, e);
                }
            }
        }
    }

    /** The statements of workload.sql: each ends with ';' at the end of a line; '--' lines are comments. */
    static List<String> workload() throws IOException {
        String script;
        try (InputStream in = ExpectedEntriesIT.class.getResourceAsStream("/expected-entries/workload.sql")) {
            assertThat(in).as("expected-entries/workload.sql on the test class path").isNotNull();
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            if (line.isBlank() || line.startsWith("--")) {
                continue;
            }
            current.append(current.length() == 0 ? "" : "\n").append(line);
            if (line.endsWith(";")) {
                statements.add(current.substring(0, current.length() - 1));
                current.setLength(0);
            }
        }
        assertThat(current.toString()).as("an unterminated statement at the end of workload.sql").isBlank();
        return statements;
    }

    /** Everything up to the workload's last statement, {@code DROP TABLE evolved}, which ends the stream. */
    private List<CanalEntry.Entry> drainUntilTheLastDrop() {
        return StoreDrain.until(store, Duration.ofSeconds(60), seen -> seen.stream().anyMatch(
                e -> e.getHeader().getEventType() == EventType.ERASE && e.getHeader().getTableName().equals("evolved")));
    }

    private static Path expectedFile(String flavour) {
        return Path.of(System.getProperty("basedir", "."), "src", "test", "resources", "expected-entries",
                flavour + ".txt");
    }

    /**
     * Fails at the first differing line, printing it and a few lines around it from both sides, and the numbers of
     * the next differing lines (compared position by position) to show how far the difference goes.
     */
    static void assertSameLines(String source, Path expectedFile, List<String> expected, List<String> actual) {
        int n = Math.min(expected.size(), actual.size());
        List<Integer> differing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                differing.add(i);
            }
        }
        if (differing.isEmpty() && expected.size() == actual.size()) {
            return;
        }
        int first = differing.isEmpty() ? n : differing.get(0);
        StringBuilder report = new StringBuilder().append("entries from ").append(source).append(" differ from ")
                .append(expectedFile).append(" at line ").append(first + 1).append(" (expected ")
                .append(expected.size()).append(" lines, got ").append(actual.size()).append("; ")
                .append(differing.size()).append(" of the first ").append(n).append(" lines differ");
        if (differing.size() > 1) {
            report.append(", at ").append(differing.stream().limit(MAX_LISTED).map(i -> Integer.toString(i + 1))
                    .collect(Collectors.joining(", "))).append(differing.size() > MAX_LISTED ? ", ..." : "");
        }
        report.append("); rerun with -D").append(REWRITE_PROPERTY).append("=true only if the change is deliberate\n");
        int from = Math.max(0, first - CONTEXT);
        report.append("--- expected\n");
        appendLines(report, expected, from, first + CONTEXT, first);
        report.append("+++ actual\n");
        appendLines(report, actual, from, first + CONTEXT, first);
        fail(report.toString());
    }

    private static void appendLines(StringBuilder report, List<String> lines, int from, int to, int marked) {
        for (int i = from; i <= Math.min(to, lines.size() - 1); i++) {
            report.append(i == marked ? "> " : "  ").append(String.format("%5d ", i + 1)).append(lines.get(i))
                    .append('\n');
        }
        if (marked >= lines.size()) {
            report.append(">       (end of file)\n");
        }
    }
}
