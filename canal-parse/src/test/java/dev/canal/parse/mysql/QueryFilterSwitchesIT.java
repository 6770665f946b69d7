package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.store.Events;
import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The QUERY filter switches and the table filter on DDL, as Canal applies them (docs/compatibility.md): each test
 * writes its statements, then one row into a marker table, and looks at every entry before that row.
 */
class QueryFilterSwitchesIT extends ParserITSupport {

    @Test
    void databaseStatementsArriveWithTheirSchemaAndNoTableName(MySqlServer db) throws Exception {
        String schema = "parser_qf_db";
        List<CanalEntry.Entry> entries = run(db, schema, p -> { },
                "CREATE DATABASE parser_qf_db_new", "DROP DATABASE parser_qf_db_new");

        List<CanalEntry.Entry> statements = ddlNaming(entries, "parser_qf_db_new");
        assertThat(statements).hasSize(2);
        for (CanalEntry.Entry e : statements) {
            assertThat(e.getHeader().getEventType()).isEqualTo(EventType.QUERY);
            assertThat(e.getHeader().getSchemaName()).isEqualTo("parser_qf_db_new");
            assertThat(e.getHeader().hasTableName()).as("tableName set on " + sql(e)).isFalse();
        }
    }

    @Test
    void filterQueryDclDropsDatabaseStatements(MySqlServer db) throws Exception {
        String schema = "parser_qf_dcl";
        List<CanalEntry.Entry> entries = run(db, schema, p -> p.setProperty("canal.instance.filter.query.dcl", "true"),
                "CREATE DATABASE parser_qf_dcl_new", "DROP DATABASE parser_qf_dcl_new",
                "CREATE TABLE parser_qf_dcl.kept (id INT PRIMARY KEY)");

        assertThat(ddlNaming(entries, "parser_qf_dcl_new")).isEmpty();
        assertThat(ddlNaming(entries, "kept")).as("table DDL is not DCL").hasSize(1);
    }

    @Test
    void filterQueryDdlDropsStatementDmlToo(MySqlServer db) throws Exception {
        String schema = "parser_qf_ddl";
        List<CanalEntry.Entry> entries = run(db, schema, p -> p.setProperty("canal.instance.filter.query.ddl", "true"),
                "CREATE TABLE parser_qf_ddl.t (id INT PRIMARY KEY)",
                "CREATE DATABASE parser_qf_ddl_new", "DROP DATABASE parser_qf_ddl_new",
                "SET SESSION binlog_format = 'STATEMENT'",
                "INSERT INTO parser_qf_ddl.t VALUES (42)",
                "SET SESSION binlog_format = 'ROW'");

        assertThat(entries).filteredOn(e -> sql(e).contains("VALUES (42)")).as("statement DML").isEmpty();
        assertThat(entries).filteredOn(e -> sql(e).startsWith("CREATE") || sql(e).startsWith("DROP")).isEmpty();
    }

    @Test
    void statementDmlArrivesWhenNoSwitchIsOn(MySqlServer db) throws Exception {
        String schema = "parser_qf_stmt";
        List<CanalEntry.Entry> entries = run(db, schema, p -> { },
                "CREATE TABLE parser_qf_stmt.t (id INT PRIMARY KEY)",
                "SET SESSION binlog_format = 'STATEMENT'",
                "INSERT INTO parser_qf_stmt.t VALUES (42)",
                "SET SESSION binlog_format = 'ROW'");

        assertThat(entries).filteredOn(e -> sql(e).contains("VALUES (42)")).singleElement()
                .satisfies(e -> assertThat(e.getHeader().getEventType()).isEqualTo(EventType.INSERT));
    }

    @Test
    void renamePassesTheWhiteListByEitherName(MySqlServer db) throws Exception {
        String schema = "parser_qf_ren";
        List<CanalEntry.Entry> entries = run(db, schema,
                p -> p.setProperty("canal.instance.filter.regex", schema + "\\.kept.*," + schema + "\\.marker"),
                "CREATE TABLE parser_qf_ren.kept_a (id INT PRIMARY KEY)",
                "CREATE TABLE parser_qf_ren.kept_b (id INT PRIMARY KEY)",
                "CREATE TABLE parser_qf_ren.other_c (id INT PRIMARY KEY)",
                "CREATE TABLE parser_qf_ren.other_d (id INT PRIMARY KEY)",
                "RENAME TABLE parser_qf_ren.kept_a TO parser_qf_ren.gone_a",
                "RENAME TABLE parser_qf_ren.other_c TO parser_qf_ren.gone_c, parser_qf_ren.kept_b TO parser_qf_ren.gone_b",
                "RENAME TABLE parser_qf_ren.other_d TO parser_qf_ren.kept_d",
                "RENAME TABLE parser_qf_ren.gone_c TO parser_qf_ren.gone_e",
                "ALTER TABLE parser_qf_ren.kept_d RENAME TO parser_qf_ren.gone_d");

        assertThat(entries).filteredOn(e -> e.getHeader().getEventType() == EventType.RENAME)
                .extracting(QueryFilterSwitchesIT::sql).containsExactly(
                        "RENAME TABLE parser_qf_ren.kept_a TO parser_qf_ren.gone_a",
                        "RENAME TABLE parser_qf_ren.other_c TO parser_qf_ren.gone_c, parser_qf_ren.kept_b TO parser_qf_ren.gone_b",
                        "RENAME TABLE parser_qf_ren.other_d TO parser_qf_ren.kept_d",
                        "ALTER TABLE parser_qf_ren.kept_d RENAME TO parser_qf_ren.gone_d");
    }

    @Test
    void renameIsBlockedByTheBlackListOnlyWhenItMatchesBothNames(MySqlServer db) throws Exception {
        String schema = "parser_qf_black";
        List<CanalEntry.Entry> entries = run(db, schema,
                p -> p.setProperty("canal.instance.filter.black.regex", schema + "\\.hidden.*"),
                "CREATE TABLE parser_qf_black.a (id INT PRIMARY KEY)",
                "CREATE TABLE parser_qf_black.hidden_b (id INT PRIMARY KEY)",
                "RENAME TABLE parser_qf_black.a TO parser_qf_black.hidden_a",
                "RENAME TABLE parser_qf_black.hidden_b TO parser_qf_black.hidden_c");

        assertThat(entries).filteredOn(e -> e.getHeader().getEventType() == EventType.RENAME)
                .extracting(QueryFilterSwitchesIT::sql)
                .containsExactly("RENAME TABLE parser_qf_black.a TO parser_qf_black.hidden_a");
    }

    private interface Tweak {
        void apply(Properties p);
    }

    /**
     * Starts the parser on a fresh schema with a marker table, runs the statements on one connection, then inserts
     * the marker row; returns every entry before it.
     */
    private List<CanalEntry.Entry> run(MySqlServer db, String schema, Tweak tweak, String... statements) {
        db.recreateDatabase(schema);
        db.execute("CREATE TABLE " + schema + ".marker (id INT PRIMARY KEY)");
        Properties p = properties(db, schema, db.currentBinlogPosition());
        tweak.apply(p);
        startParser(p);
        List<String> all = new ArrayList<>(List.of(statements));
        all.add("INSERT INTO " + schema + ".marker VALUES (1)");
        db.execute(all.toArray(String[]::new));
        List<CanalEntry.Entry> seen = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Events batch = store.get(100, 200, TimeUnit.MILLISECONDS);
            batch.events().forEach(e -> seen.add(e.parsedEntry()));
            if (!batch.events().isEmpty()) {
                store.ack(batch.range().end(), batch.range().endSeq());
            }
            return seen.stream().anyMatch(QueryFilterSwitchesIT::isMarkerRow);
        });
        return seen.subList(0, seen.indexOf(seen.stream().filter(QueryFilterSwitchesIT::isMarkerRow).findFirst().get()));
    }

    private static boolean isMarkerRow(CanalEntry.Entry e) {
        return e.getEntryType() == EntryType.ROWDATA && e.getHeader().getTableName().equals("marker")
                && e.getHeader().getEventType() == EventType.INSERT;
    }

    private static List<CanalEntry.Entry> ddlNaming(List<CanalEntry.Entry> entries, String name) {
        return entries.stream().filter(e -> e.getEntryType() == EntryType.ROWDATA)
                .filter(e -> sql(e).contains(name) && !sql(e).startsWith("INSERT")).toList();
    }

    private static String sql(CanalEntry.Entry e) {
        if (e.getEntryType() != EntryType.ROWDATA) {
            return "";
        }
        try {
            return rowChange(e).getSql();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
