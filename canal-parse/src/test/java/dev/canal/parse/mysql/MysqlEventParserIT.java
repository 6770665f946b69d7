package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parser against a real server: SQL written on the source arrives in the store as Canal's entries. Runs with
 * the parallel pipeline (several row workers); {@link SequentialParserIT} runs the same with parallel off.
 */
class MysqlEventParserIT extends ParserITSupport {

    private static final int ER_NO_SUCH_THREAD = 1094;

    @Test
    void insertUpdateDeleteArriveAsCanalEntriesInOrder(MySqlServer db) throws Exception {
        db.recreateDatabase("parser_it");
        db.execute("CREATE TABLE parser_it.t (id INT PRIMARY KEY, name VARCHAR(20), amount DECIMAL(10,3), "
                + "u INT UNSIGNED, note TEXT)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        startParser(db, "parser_it", from);

        db.execute("INSERT INTO parser_it.t VALUES (1, 'héllo', 1.000, 4294967295, NULL)",
                "UPDATE parser_it.t SET name = 'bye' WHERE id = 1",
                "DELETE FROM parser_it.t WHERE id = 1");

        List<CanalEntry.Entry> entries = drainUntil(3);
        List<CanalEntry.Entry> rows = rowEntriesOf(entries);
        assertThat(rows).extracting(e -> e.getHeader().getEventType())
                .containsExactly(EventType.INSERT, EventType.UPDATE, EventType.DELETE);

        CanalEntry.Entry insert = rows.get(0);
        assertThat(insert.getHeader().getSchemaName()).isEqualTo("parser_it");
        assertThat(insert.getHeader().getTableName()).isEqualTo("t");
        assertThat(insert.getHeader().getLogfileName()).isEqualTo(from.file());
        assertThat(insert.getHeader().getLogfileOffset()).isGreaterThanOrEqualTo(from.position());
        assertThat(insert.getHeader().getPropsList()).anyMatch(p -> p.getKey().equals("rowsCount") && p.getValue().equals("1"));
        CanalEntry.RowChange inserted = rowChange(insert);
        assertThat(inserted.getIsDdl()).isFalse();
        List<CanalEntry.Column> after = inserted.getRowDatas(0).getAfterColumnsList();
        assertThat(values(after)).containsEntry("id", "1").containsEntry("name", "héllo")
                .containsEntry("amount", "1.000").containsEntry("u", "4294967295").containsEntry("note", "<null>");
        assertThat(after).allMatch(CanalEntry.Column::getUpdated);
        assertThat(after.get(0).getIsKey()).isTrue();
        assertThat(after.get(3).getSqlType()).isEqualTo(java.sql.Types.BIGINT);
        assertThat(after.get(2).getMysqlType()).isEqualTo("decimal(10,3)");

        CanalEntry.RowChange updated = rowChange(rows.get(1));
        assertThat(values(updated.getRowDatas(0).getBeforeColumnsList())).containsEntry("name", "héllo");
        assertThat(updated.getRowDatas(0).getAfterColumnsList())
                .filteredOn(CanalEntry.Column::getUpdated).extracting(CanalEntry.Column::getName)
                .containsExactly("name");

        CanalEntry.RowChange deleted = rowChange(rows.get(2));
        assertThat(deleted.getRowDatas(0).getAfterColumnsCount()).isZero();
        assertThat(values(deleted.getRowDatas(0).getBeforeColumnsList())).containsEntry("id", "1");

        assertThat(entries).filteredOn(e -> e.getEntryType() == EntryType.TRANSACTIONEND).hasSizeGreaterThanOrEqualTo(3);
        assertThat(positions.latest("it")).as("the last transaction end is remembered").isNotNull();
    }

    @Test
    void ddlArrivesAsDdlEntryAndLaterRowsUseTheNewColumns(MySqlServer db) throws Exception {
        db.recreateDatabase("parser_ddl");
        db.execute("CREATE TABLE parser_ddl.t (id INT PRIMARY KEY, a INT)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        startParser(db, "parser_ddl", from);

        db.execute("ALTER TABLE parser_ddl.t ADD COLUMN b VARCHAR(10)",
                "INSERT INTO parser_ddl.t VALUES (1, 2, 'x')");

        List<CanalEntry.Entry> entries = drainUntil(1);
        CanalEntry.Entry ddl = entries.stream().filter(e -> e.getHeader().getEventType() == EventType.ALTER)
                .findFirst().orElseThrow();
        CanalEntry.RowChange alter = rowChange(ddl);
        assertThat(alter.getIsDdl()).isTrue();
        assertThat(alter.getSql()).containsIgnoringCase("ADD COLUMN b");
        assertThat(ddl.getHeader().getTableName()).isEqualTo("t");
        assertThat(values(rowChange(rowEntriesOf(entries).get(0)).getRowDatas(0).getAfterColumnsList()))
                .containsEntry("b", "x");
    }

    @Test
    void filteredTablesProduceNoRows(MySqlServer db) throws Exception {
        db.recreateDatabase("parser_f");
        db.recreateDatabase("parser_f_other");
        db.execute("CREATE TABLE parser_f.t (id INT PRIMARY KEY)", "CREATE TABLE parser_f_other.t (id INT PRIMARY KEY)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        startParser(db, "parser_f", from);

        db.execute("INSERT INTO parser_f_other.t VALUES (1)", "INSERT INTO parser_f.t VALUES (2)");

        List<CanalEntry.Entry> rows = rowEntriesOf(drainUntil(1));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getHeader().getSchemaName()).isEqualTo("parser_f");
    }

    @Test
    void restartResumesAfterTheLastDeliveredTransaction(MySqlServer db) throws Exception {
        db.recreateDatabase("parser_restart");
        db.execute("CREATE TABLE parser_restart.t (id INT PRIMARY KEY)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        startParser(db, "parser_restart", from);
        db.execute("INSERT INTO parser_restart.t VALUES (1)");
        assertThat(insertedIds(drainUntil(1))).containsExactly("1");
        parser.stop();

        db.execute("INSERT INTO parser_restart.t VALUES (2)", "INSERT INTO parser_restart.t VALUES (3)");
        startParserOnly(properties(db, "parser_restart", from));

        assertThat(insertedIds(drainUntil(2))).as("row 1 is not delivered twice, 2 and 3 are not lost")
                .containsExactly("2", "3");
    }

    @Test
    void aKilledDumpConnectionReconnectsWithoutLosingRows(MySqlServer db) throws Exception {
        db.recreateDatabase("parser_kill");
        db.execute("CREATE TABLE parser_kill.t (id INT PRIMARY KEY)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        startParser(db, "parser_kill", from);
        db.execute("INSERT INTO parser_kill.t VALUES (1)");
        List<CanalEntry.Entry> seen = new ArrayList<>(drainUntil(1));

        killDumpThreads(db);
        db.execute("INSERT INTO parser_kill.t VALUES (2)");

        seen.addAll(drainUntil(1));
        assertThat(insertedIds(seen)).containsExactly("1", "2");
        assertThat(parser.isStart()).isTrue();
    }

    @Test
    void aBinlogTheSourceNoLongerHasStopsTheParserWithAnAlarm(MySqlServer db) {
        startParser(db, "parser_gone", new MySqlServer.BinlogCoordinates("mysql-bin.999999", 4));
        await().atMost(Duration.ofSeconds(20)).until(() -> !parser.isStart());
        assertThat(parser.failure()).isInstanceOf(dev.canal.binlog.net.MysqlServerException.class)
                .hasMessageContaining("1236");
    }

    private static void killDumpThreads(MySqlServer db) throws Exception {
        try (java.sql.Connection c = db.adminConnection(); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT ID FROM information_schema.PROCESSLIST "
                        + "WHERE COMMAND LIKE 'Binlog Dump%'")) {
            List<Long> ids = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
            assertThat(ids).as("a dump thread to kill").isNotEmpty();
            for (long id : ids) {
                try (java.sql.Statement kill = c.createStatement()) {
                    kill.execute("KILL " + id);
                } catch (java.sql.SQLException e) {
                    if (e.getErrorCode() != ER_NO_SUCH_THREAD) {
                        throw e; // a dump thread that ended by itself meanwhile is fine
                    }
                }
            }
        }
    }

    @Test
    void anIdleSourceStillSendsHeartbeatsToTheSinkButNotToTheStore(MySqlServer db) {
        db.recreateDatabase("parser_idle");
        List<dev.canal.store.Event> heartbeats = new java.util.concurrent.CopyOnWriteArrayList<>();
        startParser(db, "parser_idle", db.currentBinlogPosition());
        sink.addHandler(new dev.canal.sink.EventDownStreamHandler() {
            @Override
            public List<dev.canal.store.Event> before(List<dev.canal.store.Event> events) {
                events.stream().filter(e -> e.entryType() == CanalEntry.EntryType.HEARTBEAT).forEach(heartbeats::add);
                return events;
            }
        }, 0);

        // the source sends a heartbeat every 15 s on an idle binlog (ReplicaOptions.DEFAULT_HEARTBEAT)
        await().atMost(Duration.ofSeconds(25)).until(() -> !heartbeats.isEmpty());
        assertThat(store.tryGet(10).isEmpty()).as("heartbeats never reach the store").isTrue();
    }
}
