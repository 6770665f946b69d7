package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.meta.history.TsdbConfig.HistoryDatabase;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The schema history in Canal's tables of a real database, shared by the servers of a cluster. */
@ExtendWith(MySqlServerExtension.class)
class JdbcHistoryStoreIT {

    private static final String HISTORY_DB = "tsdb_store_it";
    private static final String SOURCE_DB = "tsdb_store_src";

    @TempDir
    Path dir;

    private MySqlServer db;
    private HistoryDatabase database;

    @BeforeEach
    void freshDatabases(MySqlServer db) {
        this.db = db;
        db.recreateDatabase(HISTORY_DB);
        db.recreateDatabase(SOURCE_DB);
        database = new HistoryDatabase(db.jdbcUrl() + HISTORY_DB + "?useSSL=false&allowPublicKeyRetrieval=true",
                db.adminUser(), db.adminPassword() == null ? "" : db.adminPassword());
    }

    @Test
    void ddlAndSnapshotsWrittenByOneServerAreReadByAnother() {
        JdbcHistoryStore first = new JdbcHistoryStore("d1", database);
        DdlRecord alter = ddl("d1", "mysql-bin.000003", 500, "ALTER TABLE t ADD COLUMN c INT");
        assertThat(first.append(alter)).isTrue();
        first.addSnapshot(new SchemaSnapshot("d1", HistoryPosition.INITIAL,
                Map.of(SOURCE_DB, "CREATE TABLE `t` (`a` int);\n"), 1_000));

        JdbcHistoryStore second = new JdbcHistoryStore("d1", database);
        assertThat(second.history()).containsExactly(alter);
        assertThat(second.contains(alter.position())).isTrue();
        assertThat(second.snapshots()).singleElement().satisfies(s -> {
            assertThat(s.position()).isEqualTo(HistoryPosition.INITIAL);
            assertThat(s.data()).containsEntry(SOURCE_DB, "CREATE TABLE `t` (`a` int);\n");
        });
        assertThat(new JdbcHistoryStore("other", database).history()).as("rows of another destination").isEmpty();
    }

    @Test
    void aDdlRecordedTwiceIsOneRow() {
        JdbcHistoryStore store = new JdbcHistoryStore("d1", database);
        DdlRecord alter = ddl("d1", "mysql-bin.000003", 500, "ALTER TABLE t ADD COLUMN c INT");
        assertThat(store.append(alter)).isTrue();
        assertThat(new JdbcHistoryStore("d1", database).append(alter)).as("second server, same position").isFalse();
        assertThat(store.history()).hasSize(1);
    }

    @Test
    void snapshotsAreReplacedAtTheSamePositionAndExpire() {
        JdbcHistoryStore store = new JdbcHistoryStore("d1", database);
        HistoryPosition old = new HistoryPosition("mysql-bin.000001", 4, 1, 1_000);
        HistoryPosition recent = new HistoryPosition("mysql-bin.000002", 4, 1, 9_000);
        store.addSnapshot(new SchemaSnapshot("d1", old, Map.of("s", "CREATE TABLE `a` (`x` int);\n"), 1));
        store.addSnapshot(new SchemaSnapshot("d1", old, Map.of("s", "CREATE TABLE `b` (`x` int);\n"), 2));
        store.addSnapshot(new SchemaSnapshot("d1", recent, Map.of(), 3));
        assertThat(store.snapshots()).hasSize(2).first().satisfies(s ->
                assertThat(s.data()).containsEntry("s", "CREATE TABLE `b` (`x` int);\n"));

        assertThat(store.removeSnapshots(s -> s.position().timestamp() < 5_000)).isEqualTo(1);
        assertThat(store.snapshots()).extracting(SchemaSnapshot::position).containsExactly(recent);
    }

    /** Canal's own rows: its table with its comments, a server id as text, a snapshot's data as its JSON map. */
    @Test
    void anExistingCanalHistoryIsReadAndContinued() throws Exception {
        db.execute("CREATE TABLE " + HISTORY_DB + ".meta_history (id bigint(20) unsigned NOT NULL AUTO_INCREMENT "
                + "COMMENT 'pk', gmt_create datetime NOT NULL, gmt_modified datetime NOT NULL, destination varchar(128) "
                + "DEFAULT NULL, binlog_file varchar(64) DEFAULT NULL, binlog_offest bigint(20) DEFAULT NULL, "
                + "binlog_master_id varchar(64) DEFAULT NULL, binlog_timestamp bigint(20) DEFAULT NULL, use_schema "
                + "varchar(1024) DEFAULT NULL, sql_schema varchar(1024) DEFAULT NULL, sql_table varchar(1024) DEFAULT "
                + "NULL, sql_text longtext DEFAULT NULL, sql_type varchar(256) DEFAULT NULL, extra text DEFAULT NULL, "
                + "PRIMARY KEY (id), UNIQUE KEY binlog_file_offest(destination,binlog_master_id,binlog_file,"
                + "binlog_offest), KEY destination (destination), KEY destination_timestamp (destination,"
                + "binlog_timestamp), KEY gmt_modified (gmt_modified)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 "
                + "COMMENT='table meta history'",
                "INSERT INTO " + HISTORY_DB + ".meta_history (gmt_create, gmt_modified, destination, binlog_file, "
                        + "binlog_offest, binlog_master_id, binlog_timestamp, use_schema, sql_schema, sql_table, "
                        + "sql_text, sql_type) VALUES (NOW(), NOW(), 'example', 'mysql-bin.000001', 1200, '1', "
                        + "1700000000000, '" + SOURCE_DB + "', '" + SOURCE_DB + "', 't', "
                        + "'ALTER TABLE t ADD COLUMN b VARCHAR(10)', 'ALTER')",
                "INSERT INTO " + HISTORY_DB + ".meta_history (gmt_create, gmt_modified, destination, binlog_file, "
                        + "binlog_offest, binlog_master_id, binlog_timestamp, use_schema, sql_schema, sql_table, "
                        + "sql_text, sql_type) VALUES (NOW(), NOW(), 'example', 'mysql-bin.000001', 1500, '1', "
                        + "1700000001000, '" + SOURCE_DB + "', '" + SOURCE_DB + "', 't', "
                        + "'ALTER TABLE t DROP COLUMN a', 'ALTER')");
        db.execute("CREATE TABLE " + HISTORY_DB + ".meta_snapshot (id bigint(20) unsigned NOT NULL AUTO_INCREMENT, "
                + "gmt_create datetime NOT NULL, gmt_modified datetime NOT NULL, destination varchar(128) DEFAULT NULL, "
                + "binlog_file varchar(64) DEFAULT NULL, binlog_offest bigint(20) DEFAULT NULL, binlog_master_id "
                + "varchar(64) DEFAULT NULL, binlog_timestamp bigint(20) DEFAULT NULL, data longtext DEFAULT NULL, "
                + "extra text DEFAULT NULL, PRIMARY KEY (id), UNIQUE KEY binlog_file_offest(destination,"
                + "binlog_master_id,binlog_file,binlog_offest)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        try (Connection c = db.adminConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + HISTORY_DB
                + ".meta_snapshot (gmt_create, gmt_modified, destination, binlog_file, binlog_offest, binlog_master_id, "
                + "binlog_timestamp, data) VALUES (NOW(), NOW(), 'example', '0', 0, '-1', -2, ?)")) {
            ps.setString(1, "{\"" + SOURCE_DB + "\":\"CREATE TABLE `t` (\\n  `id` int(11) NOT NULL,\\n  "
                    + "`a` int(11) DEFAULT NULL,\\n  PRIMARY KEY (`id`)\\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; \\n\"}");
            ps.executeUpdate();
        }
        db.execute("CREATE TABLE " + SOURCE_DB + ".t (id INT PRIMARY KEY, b VARCHAR(10))");

        try (SchemaHistoryTableMetaSource history = source("example")) {
            history.rewindTo(EntryPosition.of("mysql-bin.000001", 1300));
            assertThat(columns(history.find(SOURCE_DB, "t"))).containsExactly("id", "a", "b");
            history.applyDdl(SOURCE_DB, SOURCE_DB, "t", "ALTER TABLE t DROP COLUMN a",
                    EntryPosition.of("mysql-bin.000001", 1500, 1, 1700000001000L));
            assertThat(columns(history.find(SOURCE_DB, "t"))).containsExactly("id", "b");
            history.applyDdl(SOURCE_DB, SOURCE_DB, "t", "ALTER TABLE t ADD COLUMN c INT",
                    EntryPosition.of("mysql-bin.000001", 1800, 1, 1700000002000L));
        }
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT binlog_offest, binlog_master_id, sql_type FROM " + HISTORY_DB
                        + ".meta_history ORDER BY id")) {
            StringBuilder rows = new StringBuilder();
            while (rs.next()) {
                rows.append(rs.getLong(1)).append('/').append(rs.getString(2)).append('/').append(rs.getString(3))
                        .append(' ');
            }
            assertThat(rows.toString().trim()).as("the repeated DDL is not added again; the new one is, Canal's way")
                    .isEqualTo("1200/1/ALTER 1500/1/ALTER 1800/1/ALTER");
        }
    }

    /** The server that takes over rebuilds the tables at its start position from what the first one recorded. */
    @Test
    void aServerTakingOverGetsTheColumnsTrueAtItsStartPosition() {
        db.execute("CREATE TABLE " + SOURCE_DB + ".t (id INT PRIMARY KEY, a INT)");
        MySqlServer.BinlogCoordinates beforeAlter = db.currentBinlogPosition();
        try (SchemaHistoryTableMetaSource first = source("d1")) {
            first.rewindTo(EntryPosition.of(beforeAlter.file(), beforeAlter.position()));
            assertThat(columns(first.find(SOURCE_DB, "t"))).containsExactly("id", "a");
            db.execute("ALTER TABLE " + SOURCE_DB + ".t ADD COLUMN b INT");
            first.applyDdl(SOURCE_DB, SOURCE_DB, "t", "ALTER TABLE t ADD COLUMN b INT",
                    EntryPosition.of(beforeAlter.file(), beforeAlter.position() + 10, 1, 1));
        }
        try (SchemaHistoryTableMetaSource takeover = source("d1")) {
            takeover.rewindTo(EntryPosition.of(beforeAlter.file(), beforeAlter.position()));
            assertThat(columns(takeover.find(SOURCE_DB, "t"))).containsExactly("id", "a");
        }
    }

    @Test
    void anUnreachableDatabaseFailsNamingItWithoutThePassword() {
        HistoryDatabase nowhere = new HistoryDatabase("jdbc:mysql://127.0.0.1:1/tsdb?connectTimeout=2000", "canal",
                "s3cret");
        assertThatThrownBy(() -> new JdbcHistoryStore("d1", nowhere))
                .hasMessageContaining("jdbc:mysql://127.0.0.1:1/tsdb")
                .hasMessageContaining("d1")
                .hasMessageNotContaining("s3cret");
    }

    private SchemaHistoryTableMetaSource source(String destination) {
        return new SchemaHistoryTableMetaSource(destination, new TsdbConfig(true, dir, 24, 360, database),
                InitialSnapshotIT.connections(db), (s, t) -> s.equals(SOURCE_DB));
    }

    private static DdlRecord ddl(String destination, String file, long offset, String sql) {
        return new DdlRecord(destination, new HistoryPosition(file, offset, 1, 1_700_000_000_000L), SOURCE_DB,
                SOURCE_DB, "t", sql, 1_700_000_000_000L);
    }

    private static java.util.List<String> columns(TableMeta meta) {
        return meta.columns().stream().map(ColumnMeta::name).toList();
    }
}
