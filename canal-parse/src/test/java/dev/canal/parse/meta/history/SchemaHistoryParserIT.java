package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogPosition;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema history under a real parser: rows keep the columns true at their own binlog position
 * across a restart at an older position, and a model made stale behind its back recovers by itself.
 */
@ExtendWith(MySqlServerExtension.class)
class SchemaHistoryParserIT {

    @TempDir
    Path dir;

    @Test
    void restartAtAnEarlierAckedPositionGivesEveryRowTheColumnsOfItsOwnPosition(MySqlServer db) {
        db.recreateDatabase("tsdb_restart");
        db.execute("CREATE TABLE tsdb_restart.t (id INT PRIMARY KEY, a INT)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        MemoryLogPositionManager positions = new MemoryLogPositionManager();

        List<CanalEntry.Entry> firstRun;
        try (SchemaHistoryTableMetaSource history = history(db, "tsdb_restart");
                ParserRun run = new ParserRun(db, "tsdb_restart", from, positions, history)) {
            db.execute("INSERT INTO tsdb_restart.t VALUES (1, 10)");
            // the parser is running, so its initial snapshot shows the table as it was before the ALTERs
            firstRun = new ArrayList<>(run.drainUntil(1));
            db.execute("ALTER TABLE tsdb_restart.t ADD COLUMN b VARCHAR(10) AFTER id",
                    "INSERT INTO tsdb_restart.t VALUES (2, 'x', 20)",
                    "ALTER TABLE tsdb_restart.t CHANGE a amount BIGINT UNSIGNED",
                    "INSERT INTO tsdb_restart.t VALUES (3, 'y', 30)",
                    "ALTER TABLE tsdb_restart.t DROP COLUMN b, ADD COLUMN c CHAR(2) NOT NULL DEFAULT 'aa' FIRST",
                    "INSERT INTO tsdb_restart.t VALUES ('zz', 4, 40)",
                    "ALTER TABLE tsdb_restart.t DROP PRIMARY KEY, ADD PRIMARY KEY (c, id)",
                    "INSERT INTO tsdb_restart.t VALUES ('ww', 5, 50)");
            firstRun.addAll(run.drainUntil(4));
        }
        // a column the history learnt from a DDL shows the DDL's own type text, as Canal's does; the others come
        // from the initial snapshot's SHOW CREATE TABLE
        List<String> expected = List.of(
                "id=1:int(11):key a=10:int(11)",
                "id=2:int(11):key b=x:VARCHAR(10) a=20:int(11)",
                "id=3:int(11):key b=y:VARCHAR(10) amount=30:BIGINT unsigned",
                "c=zz:CHAR(2) id=4:int(11):key amount=40:BIGINT unsigned",
                "c=ww:CHAR(2):key id=5:int(11):key amount=50:BIGINT unsigned");
        assertThat(ParserRun.rows(firstRun)).extracting(ParserRun::describeInsert)
                .containsExactlyElementsOf(displayWidths(db, expected));

        // the acked position after the first row's transaction: everything after it is read again
        CanalEntry.Entry firstCommit = firstRun.stream()
                .filter(e -> e.getEntryType() == CanalEntry.EntryType.TRANSACTIONEND).findFirst().orElseThrow();
        MemoryLogPositionManager earlier = new MemoryLogPositionManager();
        CanalEntry.Header h = firstCommit.getHeader();
        earlier.persist("it", new LogPosition(positions.latest("it").identity(), EntryPosition.of(h.getLogfileName(),
                h.getLogfileOffset(), h.getServerId(), h.getExecuteTime())));

        try (SchemaHistoryTableMetaSource history = history(db, "tsdb_restart");
                ParserRun run = new ParserRun(db, "tsdb_restart", from, earlier, history)) {
            assertThat(ParserRun.rows(run.drainUntil(4))).extracting(ParserRun::describeInsert)
                    .as("rows 2..5 again, each with the columns of its own position, from the persisted history")
                    .containsExactlyElementsOf(displayWidths(db, expected.subList(1, 5)));
        }
    }

    @Test
    void ghostTableSwapKeepsEveryRowOnItsOwnColumnsAcrossARestart(MySqlServer db) {
        db.recreateDatabase("tsdb_ghost");
        db.execute("CREATE TABLE tsdb_ghost.t (id INT PRIMARY KEY, v VARCHAR(10))");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        MemoryLogPositionManager positions = new MemoryLogPositionManager();
        List<String> expected = displayWidths(db, List.of(
                "_t_gho id=1:int(11):key v=a:VARCHAR(20) extra=7:INT",
                "t id=2:int(11):key v=b:varchar(10)",
                "t id=3:int(11):key v=c:VARCHAR(20) extra=9:INT"));
        LogPosition afterFirstRow;
        try (SchemaHistoryTableMetaSource history = history(db, "tsdb_ghost");
                ParserRun run = new ParserRun(db, "tsdb_ghost", from, positions, history)) {
            db.execute("INSERT INTO tsdb_ghost.t VALUES (1, 'a')");
            run.drainUntil(1);
            afterFirstRow = positions.latest("it");
            // gh-ost's flow: ghost table, altered, back-filled, atomic swap, old table dropped
            db.execute("CREATE TABLE tsdb_ghost._t_gho LIKE tsdb_ghost.t",
                    "ALTER TABLE tsdb_ghost._t_gho ADD COLUMN extra INT NOT NULL DEFAULT 7, MODIFY v VARCHAR(20)",
                    "INSERT INTO tsdb_ghost._t_gho (id, v) SELECT id, v FROM tsdb_ghost.t",
                    "INSERT INTO tsdb_ghost.t VALUES (2, 'b')",
                    "RENAME TABLE tsdb_ghost.t TO tsdb_ghost._t_del, tsdb_ghost._t_gho TO tsdb_ghost.t",
                    "INSERT INTO tsdb_ghost.t VALUES (3, 'c', 9)",
                    "DROP TABLE tsdb_ghost._t_del");
            assertThat(ParserRun.rows(run.drainUntil(3))).extracting(SchemaHistoryParserIT::tableAndRow)
                    .containsExactlyElementsOf(expected);
        }
        MemoryLogPositionManager earlier = new MemoryLogPositionManager();
        earlier.persist("it", afterFirstRow);
        try (SchemaHistoryTableMetaSource history = history(db, "tsdb_ghost");
                ParserRun run = new ParserRun(db, "tsdb_ghost", from, earlier, history)) {
            assertThat(ParserRun.rows(run.drainUntil(3))).extracting(SchemaHistoryParserIT::tableAndRow)
                    .containsExactlyElementsOf(expected);
        }
    }

    private static String tableAndRow(CanalEntry.Entry entry) {
        return entry.getHeader().getTableName() + " " + ParserRun.describeInsert(entry);
    }

    @Test
    void aModelMadeStaleBehindItsBackRecoversWithoutLosingOrMisnamingAColumn(MySqlServer db) {
        db.recreateDatabase("tsdb_stale");
        db.execute("CREATE TABLE tsdb_stale.t (id INT PRIMARY KEY, a INT)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        try (SchemaHistoryTableMetaSource history = history(db, "tsdb_stale");
                ParserRun run = new ParserRun(db, "tsdb_stale", from, new MemoryLogPositionManager(), history)) {
            db.execute("INSERT INTO tsdb_stale.t VALUES (1, 10)");
            assertThat(ParserRun.rows(run.drainUntil(1))).extracting(ParserRun::describeInsert)
                    .containsExactlyElementsOf(displayWidths(db, List.of("id=1:int(11):key a=10:int(11)")));

            // DDL kept out of the binlog: the history never sees it, so its model goes stale (a column more)
            db.execute("SET sql_log_bin = 0", "ALTER TABLE tsdb_stale.t ADD COLUMN b VARCHAR(10) AFTER id",
                    "SET sql_log_bin = 1", "INSERT INTO tsdb_stale.t VALUES (2, 'x', 20)");
            assertThat(ParserRun.rows(run.drainUntil(1))).extracting(ParserRun::describeInsert)
                    .containsExactlyElementsOf(displayWidths(db, List.of("id=2:int(11):key b=x:varchar(10) a=20:int(11)")));

            // and stale again (a column less), after it had been repaired
            db.execute("SET sql_log_bin = 0", "ALTER TABLE tsdb_stale.t DROP COLUMN a", "SET sql_log_bin = 1",
                    "INSERT INTO tsdb_stale.t VALUES (3, 'y')");
            assertThat(ParserRun.rows(run.drainUntil(1))).extracting(ParserRun::describeInsert)
                    .containsExactlyElementsOf(displayWidths(db, List.of("id=3:int(11):key b=y:varchar(10)")));
        }
    }

    /**
     * With the default row metadata (MySQL's MINIMAL, MariaDB's NO_LOG) names come from the schema history only: the
     * rows an atomic CREATE TABLE ... SELECT writes (MySQL 8.0.21+ logs it as CREATE TABLE ... START TRANSACTION)
     * keep the columns the statement created, though a column was added since.
     */
    @Test
    void rowsOfACreateTableAsSelectAreWhatSelectReturnsOnDefaultMetadata(MySqlServer db) throws SQLException {
        db.recreateDatabase("tsdb_ctas");
        db.execute("CREATE TABLE tsdb_ctas.src (id INT PRIMARY KEY, name VARCHAR(20), amount DECIMAL(7,2))",
                "INSERT INTO tsdb_ctas.src VALUES (1, 'one', 1.50), (2, NULL, -20.00)");
        List<CanalEntry.Entry> entries = rowsWrittenOnMinimalMetadata(db, "tsdb_ctas", 2,
                "CREATE TABLE tsdb_ctas.copy AS SELECT * FROM tsdb_ctas.src",
                "ALTER TABLE tsdb_ctas.copy ADD COLUMN added INT FIRST",
                "INSERT INTO tsdb_ctas.copy (id, name, amount, added) VALUES (3, 'three', 3.00, 7)");

        List<String> selected = select(db, "SELECT id, name, amount FROM tsdb_ctas.copy WHERE id < 3 ORDER BY id");
        selected.add(select(db, "SELECT added, id, name, amount FROM tsdb_ctas.copy WHERE id = 3").get(0));
        assertThat(entries).filteredOn(e -> e.getHeader().getTableName().equals("copy"))
                .flatExtracting(ParserRun::insertedValues).containsExactlyElementsOf(selected);
    }

    /** Invisible columns (MySQL 8.0.23+, MariaDB 10.3+) are in every row image: SELECT shows them when named. */
    @Test
    void rowsOfATableWithInvisibleColumnsAreWhatSelectReturnsOnDefaultMetadata(MySqlServer db) throws SQLException {
        db.recreateDatabase("tsdb_invisible");
        List<CanalEntry.Entry> entries = rowsWrittenOnMinimalMetadata(db, "tsdb_invisible", 2,
                "CREATE TABLE tsdb_invisible.t (id INT PRIMARY KEY, secret VARCHAR(10) INVISIBLE, v INT)",
                "INSERT INTO tsdb_invisible.t (id, secret, v) VALUES (1, 'hidden', 10)",
                // MariaDB has no VISIBLE: a column redefined without INVISIBLE is visible
                "ALTER TABLE tsdb_invisible.t ADD COLUMN h INT INVISIBLE FIRST, MODIFY secret VARCHAR(12)"
                        + (db.isMariaDb() ? "" : " VISIBLE"),
                "INSERT INTO tsdb_invisible.t (h, id, secret, v) VALUES (5, 2, 'shown', 20)");

        List<String> selected = select(db, "SELECT id, secret, v FROM tsdb_invisible.t WHERE id = 1");
        selected.add(select(db, "SELECT h, id, secret, v FROM tsdb_invisible.t WHERE id = 2").get(0));
        assertThat(entries).flatExtracting(ParserRun::insertedValues).containsExactlyElementsOf(selected);
    }

    /**
     * Runs {@code statements} with {@code binlog_row_metadata=MINIMAL} (MySQL's default) while a parser with a
     * schema history reads {@code schema} from before them; returns its first {@code rowEntries} row entries.
     */
    private List<CanalEntry.Entry> rowsWrittenOnMinimalMetadata(MySqlServer db, String schema, int rowEntries,
            String... statements) {
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        try (MySqlServer.GlobalSetting minimal = db.setGlobal("binlog_row_metadata", "MINIMAL");
                SchemaHistoryTableMetaSource history = history(db, schema);
                ParserRun run = new ParserRun(db, schema, from, new MemoryLogPositionManager(), history)) {
            db.execute(statements);
            return ParserRun.rows(run.drainUntil(rowEntries));
        }
    }

    /**
     * A DDL the schema history cannot read (a legacy type synonym) raises one ALARM naming it; the rows after it
     * carry the TABLE_MAP's columns where the source's current definition does not fit them, never wrong names, and
     * the stream goes on: the table's next readable DDL names its columns again.
     */
    @Test
    void aDdlTheHistoryCannotReadRaisesOneAlarmAndTheDestinationGoesOn(MySqlServer db) {
        db.recreateDatabase("tsdb_unreadable");
        db.execute("CREATE TABLE tsdb_unreadable.t (id INT PRIMARY KEY, a INT)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        MemoryLogPositionManager positions = new MemoryLogPositionManager();
        String unreadable = "ALTER TABLE tsdb_unreadable.t ADD COLUMN c LONG VARBINARY";
        List<CanalEntry.Entry> entries;
        try (MySqlServer.GlobalSetting minimal = db.setGlobal("binlog_row_metadata", "MINIMAL")) {
            try (SchemaHistoryTableMetaSource history = history(db, "tsdb_unreadable");
                    ParserRun run = new ParserRun(db, "tsdb_unreadable", from, positions, history)) {
                db.execute("INSERT INTO tsdb_unreadable.t VALUES (1, 10)");
                // the parser is running, so its initial snapshot shows the table as it was before the ALTERs
                entries = new ArrayList<>(ParserRun.rows(run.drainUntil(1)));
            }
            // written while the parser is stopped, so that it reads row 2 when the table has a column more
            db.execute(unreadable, "INSERT INTO tsdb_unreadable.t VALUES (2, 20, 'x')",
                    "ALTER TABLE tsdb_unreadable.t ADD COLUMN d INT",
                    "INSERT INTO tsdb_unreadable.t VALUES (3, 30, 'y', 4)",
                    "CREATE TABLE tsdb_unreadable.other (id INT PRIMARY KEY)",
                    "INSERT INTO tsdb_unreadable.other VALUES (9)");
            try (LogCapture log = LogCapture.attach(SchemaHistoryTableMetaSource.class.getName());
                    SchemaHistoryTableMetaSource history = history(db, "tsdb_unreadable");
                    ParserRun run = new ParserRun(db, "tsdb_unreadable", from, positions, history)) {
                entries.addAll(ParserRun.rows(run.drainUntil(3)));
                assertThat(log.messages(Level.ERROR)).singleElement().asString().contains("ALARM", unreadable);
            }
        }
        assertThat(entries).extracting(e -> e.getHeader().getTableName() + " " + String.join(" ",
                ParserRun.insertedValues(e))).containsExactly("t id=1 a=10", "t @1=2 @2=20 @3=x",
                "t id=3 a=30 c=y d=4", "other id=9");
    }

    /** What SELECT returns, one "name=value ..." line per row, NULL as {@code <null>}. */
    private static List<String> select(MySqlServer db, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.adminConnection(); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    String value = rs.getString(i);
                    row.add(rs.getMetaData().getColumnLabel(i) + "=" + (value == null ? "<null>" : value));
                }
                rows.add(String.join(" ", row));
            }
        }
        return rows;
    }

    private SchemaHistoryTableMetaSource history(MySqlServer db, String schema) {
        Supplier<Connection> connections = () -> {
            try {
                return db.adminConnection();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
        TsdbConfig config = new TsdbConfig(true, dir.resolve("it"), 24, 360);
        return new SchemaHistoryTableMetaSource("it", config, connections, (s, t) -> s.equals(schema));
    }

    /**
     * MySQL 8.0.19+ prints integer types without a display width; MariaDB keeps it. With
     * {@code binlog_row_metadata=FULL} (MySQL) the parser takes definitions from TABLE_MAP itself, whose type text
     * is lower case; the column names and keys must be the same either way.
     */
    private static List<String> displayWidths(MySqlServer db, List<String> expected) {
        if (db.isMariaDb()) {
            return expected;
        }
        boolean fromTableMap = "FULL".equalsIgnoreCase(db.variable("binlog_row_metadata"));
        return expected.stream().map(s -> s.replaceAll("int\\(\\d+\\)", "int"))
                .map(s -> fromTableMap ? s.toLowerCase(java.util.Locale.ROOT) : s).toList();
    }
}
