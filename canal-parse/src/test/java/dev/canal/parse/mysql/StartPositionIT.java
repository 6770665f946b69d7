package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Canal's start-position rules against a real server. */
class StartPositionIT extends ParserITSupport {

    @Test
    void aConfiguredPositionInsideATransactionStartsAtThatTransaction(MySqlServer db) throws Exception {
        db.recreateDatabase("start_mid");
        db.execute("CREATE TABLE start_mid.t (id INT PRIMARY KEY) ENGINE=InnoDB");
        MySqlServer.BinlogCoordinates before = db.currentBinlogPosition();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("INSERT INTO start_mid.t VALUES (1)");
            st.execute("INSERT INTO start_mid.t VALUES (2)");
            c.commit();
        }
        long secondRows = rowsEventPositions(db, before).get(1);

        startParser(db, "start_mid", new MySqlServer.BinlogCoordinates(before.file(), secondRows));

        assertThat(insertedIds(drainUntil(2))).as("both rows of the transaction, from its start")
                .containsExactly("1", "2");
    }

    @Test
    void aTimestampStartSkipsEverythingOlder(MySqlServer db) throws Exception {
        db.recreateDatabase("start_ts");
        db.execute("CREATE TABLE start_ts.t (id INT PRIMARY KEY)");
        db.execute("INSERT INTO start_ts.t VALUES (1)");
        Thread.sleep(2100); // binlog times have one-second resolution: put a whole second between the two rows
        long target = System.currentTimeMillis();
        Thread.sleep(1100);
        db.execute("INSERT INTO start_ts.t VALUES (2)");

        Properties p = properties(db, "start_ts", null);
        p.setProperty("canal.instance.master.timestamp", Long.toString(target));
        startParser(p);

        assertThat(insertedIds(drainUntil(1))).containsExactly("2");
    }

    @Test
    void gtidModeStartsAfterTheGivenSetAndCarriesGtidsInHeaders(MySqlServer db) throws Exception {
        db.recreateDatabase("start_gtid");
        db.execute("CREATE TABLE start_gtid.t (id INT PRIMARY KEY)");
        db.execute("INSERT INTO start_gtid.t VALUES (1)");
        String executed = executedGtids(db);

        Properties p = properties(db, "start_gtid", null);
        p.setProperty("canal.instance.gtidon", "true");
        p.setProperty("canal.instance.master.gtid", executed);
        startParser(p);
        db.execute("INSERT INTO start_gtid.t VALUES (2)");

        List<CanalEntry.Entry> entries = drainUntil(1);
        assertThat(insertedIds(entries)).containsExactly("2");
        CanalEntry.Entry row = rowEntriesOf(entries).get(0);
        assertThat(row.getHeader().getGtid()).isNotEmpty();
        assertThat(row.getHeader().getPropsList()).anyMatch(pair -> pair.getKey().equals("curtGtid"));

        parser.stop();
        db.execute("INSERT INTO start_gtid.t VALUES (3)");
        startParserOnly(p);
        assertThat(insertedIds(drainUntil(1))).as("restart resumes after the delivered GTID set").containsExactly("3");
    }

    private static String executedGtids(MySqlServer db) throws Exception {
        String sql = db.isMariaDb() ? "SELECT @@global.gtid_binlog_pos" : "SELECT @@global.gtid_executed";
        try (Connection c = db.adminConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1).replace("\n", "");
        }
    }

    /** Start offsets of the rows events after {@code from}, from SHOW BINLOG EVENTS. */
    private static List<Long> rowsEventPositions(MySqlServer db, MySqlServer.BinlogCoordinates from) throws Exception {
        List<Long> positions = new ArrayList<>();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW BINLOG EVENTS IN '" + from.file() + "' FROM " + from.position())) {
            while (rs.next()) {
                if (rs.getString("Event_type").startsWith("Write_rows")) {
                    positions.add(rs.getLong("Pos"));
                }
            }
        }
        return positions;
    }

    @Test
    void withAutoResetAPurgedBinlogIsSkippedToTheCurrentPosition(MySqlServer db) throws Exception {
        db.recreateDatabase("start_reset");
        db.execute("CREATE TABLE start_reset.t (id INT PRIMARY KEY)");
        Properties p = properties(db, "start_reset", new MySqlServer.BinlogCoordinates("mysql-bin.999999", 4));
        p.setProperty("canal.auto.reset.latest.pos.mode", "true");
        startParser(p);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> parser.receivedBinlogBytes() > 0);
        db.execute("INSERT INTO start_reset.t VALUES (1)");

        assertThat(insertedIds(drainUntil(1))).containsExactly("1");
        assertThat(parser.isStart()).isTrue();
    }

    @Test
    void aSourceWritingAnotherRowImageThanAllowedIsRefusedWithTheSettingToChangeAndRetried(MySqlServer db) {
        Properties p = properties(db, "start_image", null);
        p.setProperty("canal.instance.binlog.image", "MINIMAL,NOBLOB");
        startParser(p);

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() ->
                parser.sourceStatuses().get(0).state() == dev.canal.parse.SourceStatus.State.FAILING);
        assertThat(parser.sourceStatuses().get(0).detail()).contains("binlog_row_image", "FULL",
                "canal.instance.binlog.image");
        assertThat(parser.isStart()).as("retries, so that fixing the source is enough").isTrue();
        assertThat(parser.receivedBinlogBytes()).isZero();
    }

    @Test
    void aSourceLoggingStatementsIsRefusedWithTheSettingToChangeAndRetried(MySqlServer db) throws Exception {
        db.execute("SET GLOBAL binlog_format = 'STATEMENT'");
        try {
            startParser(properties(db, "start_statement", null));

            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() ->
                    parser.sourceStatuses().get(0).state() == dev.canal.parse.SourceStatus.State.FAILING);
            assertThat(parser.sourceStatuses().get(0).detail()).contains("binlog_format is STATEMENT");
            assertThat(parser.isStart()).as("retries, so that fixing the source is enough").isTrue();
            assertThat(parser.receivedBinlogBytes()).isZero();
        } finally {
            db.execute("SET GLOBAL binlog_format = 'ROW'");
        }
    }

    @Test
    void theDetectingSqlCountsFailuresOfTheSource(MySqlServer db) {
        Properties p = properties(db, "start_detect", null);
        p.setProperty("canal.instance.detecting.enable", "true");
        p.setProperty("canal.instance.detecting.sql", "select * from no_such_schema.no_such_table");
        p.setProperty("canal.instance.detecting.interval.time", "1");
        startParser(p);

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> parser.detectingFailures() > 3);
        assertThat(parser.isStart()).as("the detecting heartbeat alarms; it does not stop the stream").isTrue();
    }
}
