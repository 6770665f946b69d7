package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.JdbcTableMetaSource;
import dev.canal.parse.meta.TableMeta;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The initial snapshot from the source's SHOW CREATE TABLE, and what the model makes of it. */
@ExtendWith(MySqlServerExtension.class)
class InitialSnapshotIT {

    @TempDir
    Path dir;

    @Test
    void initialSnapshotGivesTheSameColumnsAsInformationSchema(MySqlServer db) {
        db.recreateDatabase("tsdb_init");
        db.execute("DROP DATABASE IF EXISTS tsdb_init_l1", "CREATE DATABASE tsdb_init_l1 CHARACTER SET latin1",
                "DROP DATABASE IF EXISTS tsdb_init_skip", "CREATE DATABASE tsdb_init_skip",
                "CREATE TABLE tsdb_init_skip.t (a INT)",
                "CREATE TABLE tsdb_init.wide (id INT UNSIGNED NOT NULL, tenant BIGINT NOT NULL, b BOOLEAN, "
                        + "z INT(6) UNSIGNED ZEROFILL, f FLOAT, d DOUBLE(15,6), m DECIMAL(65,30), bits BIT(13), y YEAR, "
                        + "dt DATETIME(6), ts TIMESTAMP(3) NULL, tm TIME(2), e ENUM('a','b','c d'), s SET('r','g','b'), "
                        + "bin BINARY(8), vb VARBINARY(16), blb LONGBLOB, txt MEDIUMTEXT, c CHAR(10), "
                        + "v VARCHAR(100) CHARACTER SET latin1, g VARCHAR(10) CHARACTER SET gbk, `my col` INT, "
                        + "PRIMARY KEY (tenant, id)) DEFAULT CHARSET=utf8mb4",
                "CREATE TABLE tsdb_init_l1.plain (id INT PRIMARY KEY, v VARCHAR(10), t TEXT)");
        JdbcTableMetaSource informationSchema = new JdbcTableMetaSource(connections(db));
        try (SchemaHistoryTableMetaSource history = new SchemaHistoryTableMetaSource("it",
                new TsdbConfig(true, dir, 24, 360), connections(db),
                (s, t) -> s.equals("tsdb_init") || s.equals("tsdb_init_l1"))) {
            MySqlServer.BinlogCoordinates now = db.currentBinlogPosition();
            history.rewindTo(EntryPosition.of(now.file(), now.position()));
            for (String[] table : List.of(new String[] {"tsdb_init", "wide"}, new String[] {"tsdb_init_l1", "plain"})) {
                assertThat(facts(history.find(table[0], table[1])))
                        .isEqualTo(facts(informationSchema.find(table[0], table[1])));
            }
            assertThat(history.find("tsdb_init_l1", "plain").column(1).charset().name()).isEqualTo("windows-1252");
        }
        JsonLinesHistoryStore store = new JsonLinesHistoryStore(dir);
        assertThat(store.snapshots()).singleElement().satisfies(s -> {
            assertThat(s.position()).isEqualTo(HistoryPosition.INITIAL);
            assertThat(s.data()).containsOnlyKeys("tsdb_init", "tsdb_init_l1");
            assertThat(s.data().get("tsdb_init_l1")).containsIgnoringCase("DEFAULT CHARACTER SET latin1")
                    .contains("CREATE TABLE `plain`");
        });
        store.close();
    }

    /** Everything decoding depends on, and the type text compared as information_schema prints it. */
    private static List<String> facts(TableMeta meta) {
        return meta.columns().stream().map(InitialSnapshotIT::facts).toList();
    }

    private static String facts(ColumnMeta c) {
        return String.join("|", c.name(), c.mysqlType().toLowerCase(Locale.ROOT), c.dataType(),
                Boolean.toString(c.key()), Boolean.toString(c.unsigned()),
                c.charset() == null ? "-" : c.charset().name(), Integer.toString(c.binaryLength()));
    }

    static Supplier<Connection> connections(MySqlServer db) {
        return () -> {
            try {
                return db.adminConnection();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot connect to " + db, e);
            }
        };
    }
}
