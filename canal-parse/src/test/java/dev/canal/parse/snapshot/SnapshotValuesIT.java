package dev.canal.parse.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.Event;
import dev.canal.store.Events;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot row cannot be told from a live INSERT of the same values but by the snapshot mark: a table holding
 * every column type is snapshotted, the same rows are then inserted again under other keys, and each column of
 * each snapshot row must equal the live row's (value, sqlType, mysqlType, isNull, isKey, updated, index), a
 * column filter leaving the same column out of both.
 */
@ExtendWith(MySqlServerExtension.class)
class SnapshotValuesIT {

    private static final String SCHEMA = "snap_values";
    /** Key offset of the live copies of the snapshot rows. */
    private static final int LIVE = 100;
    /** A column the destination's column filter leaves out of the rows. */
    private static final String FILTERED = "tx";

    @TempDir
    Path dataDir;

    private MemoryEventStore store;
    private EntryEventSink sink;
    private MysqlEventParser parser;

    @AfterEach
    void stop() {
        if (parser != null) {
            parser.stop();
        }
        if (sink != null) {
            sink.stop();
        }
        if (store != null) {
            store.stop();
        }
    }

    @Test
    void snapshotRowsRenderEveryColumnTypeAsALiveInsertOfTheSameRow(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        List<String> columns = new ArrayList<>(List.of(
                "ti TINYINT", "tiu TINYINT UNSIGNED", "si SMALLINT", "siu SMALLINT UNSIGNED", "mi MEDIUMINT",
                "miu MEDIUMINT UNSIGNED", "i INT", "iu INT UNSIGNED", "bi BIGINT", "biu BIGINT UNSIGNED",
                "f FLOAT", "d DOUBLE", "dec1 DECIMAL(12,4)", "dec2 DECIMAL(30,10) UNSIGNED", "b1 BIT(1)",
                "b13 BIT(13)", "b64 BIT(64)", "y YEAR", "dt DATE", "tm TIME", "tm3 TIME(3)", "dtm DATETIME",
                "dtm6 DATETIME(6)", "ts TIMESTAMP NULL", "ts3 TIMESTAMP(3) NULL", "e ENUM('a','b','c')",
                "st SET('x','y','z')", "c CHAR(10)", "vc VARCHAR(50)", "vl VARCHAR(20) CHARACTER SET latin1",
                "tx TEXT", "bn BINARY(8)", "vb VARBINARY(16)", "bl BLOB", "j JSON", "g GEOMETRY NULL"));
        List<String> values = new ArrayList<>(List.of(
                "-128", "255", "-32768", "65535", "-8388608", "16777215", "-2147483648", "4294967295",
                "-9223372036854775808", "18446744073709551615", "1.2345679", "0.30000000000000004",
                "-12345678.0100", "123456789012345678.0123456789", "b'1'", "b'1010101010101'",
                "b'1111111111111111111111111111111111111111111111111111111111111111'", "2024", "'2024-02-29'",
                "'-838:59:59'", "'12:34:56.780'", "'2024-01-02 03:04:05'", "'2024-01-02 03:04:05.000120'",
                "'2024-06-01 12:00:00'", "'2038-01-01 00:00:00.500'", "'b'", "'x,z'", "'abc'",
                "'h\u00e9llo \u2713 \uD83D\uDE00'", "'caf\u00e9'", "'a long text'", "x'0102'", "x'00FF80'",
                "x'DEADBEEF00'", "'{\"a\": 1.5, \"b\": [1, \"x\", null, true], \"c\": {\"d\": \"\u00e9 1.5e3\"}, \"e\": 1e22, \"f\": -3e-7, \"g\": 0.1, \"h\": -12}'",
                "ST_GeomFromText('POINT(1 2)')"));
        List<String> small = new ArrayList<>(List.of(
                "0", "127", "0", "32767", "0", "8388607", "0", "2147483647", "0", "9223372036854775807", "-0.5",
                "-1e300", "0.0000", "0.0000000001", "b'0'", "b'0'", "b'0'", "0", "'1000-01-01'", "'00:00:00'",
                "'-00:00:00.001'", "'1000-01-01 00:00:00'", "'9999-12-31 23:59:59.999999'",
                "'1970-01-01 00:00:01'", "'2000-01-01 00:00:00.001'", "'a'", "''", "''", "''", "''", "''", "''",
                "''", "''", "'[]'", "ST_GeomFromText('LINESTRING(0 0, 1 1)')"));
        if (db.isMariaDb()) {
            columns.addAll(List.of("ip6 INET6", "ip4 INET4", "u UUID"));
            values.addAll(List.of("'2001:db8::ff00:42:8329'", "'192.168.0.1'", "'123e4567-e89b-12d3-a456-426614174000'"));
            small.addAll(List.of("'::ffff:1.2.3.4'", "'0.0.0.0'", "'00000000-0000-0000-0000-000000000000'"));
        }
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, " + String.join(", ", columns) + ")");
        List<String> nulls = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            nulls.add("NULL");
        }
        List<List<String>> rows = List.of(values, small, nulls);
        for (int id = 1; id <= rows.size(); id++) {
            db.execute(insert(id, rows.get(id - 1)));
        }

        start(db);
        // the dump has begun at the binlog's end: the inserts below reach the stream
        await().atMost(Duration.ofSeconds(30)).until(() -> parser.receivedBinlogBytes() > 0);
        for (int id = 1; id <= rows.size(); id++) {
            db.execute(insert(LIVE + id, rows.get(id - 1)));
        }
        Map<Integer, List<CanalEntry.Column>> snapshots = new HashMap<>();
        Map<Integer, List<CanalEntry.Column>> lives = new HashMap<>();
        receive(snapshots, lives, rows.size());

        for (int id = 1; id <= rows.size(); id++) {
            List<CanalEntry.Column> snapshot = snapshots.get(id);
            List<CanalEntry.Column> live = lives.get(LIVE + id);
            assertThat(live).extracting(CanalEntry.Column::getName).as("the column filter applies").doesNotContain(FILTERED);
            assertThat(snapshot).as("columns of row %d", id).hasSameSizeAs(live);
            for (int c = 1; c < live.size(); c++) {
                assertThat(snapshot.get(c)).as("column %s of row %d", live.get(c).getName(), id)
                        .isEqualTo(live.get(c));
            }
        }
    }

    private static String insert(int id, List<String> values) {
        return "INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", " + String.join(", ", values) + ")";
    }

    private void start(MySqlServer db) {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", db.host() + ":" + db.port());
        p.setProperty("canal.instance.dbUsername", db.replicationUser());
        p.setProperty("canal.instance.dbPassword", db.replicationPassword());
        p.setProperty("canal.instance.filter.regex", SCHEMA + "\\..*");
        p.setProperty(SnapshotConfig.MODE.name(), "initial");
        p.setProperty(SinkFilterConfig.BLACK_FIELD.name(), SCHEMA + ".t:" + FILTERED);
        store = new MemoryEventStore(StoreConfig.itemSize(4096));
        store.start();
        sink = new EntryEventSink(store, false);
        sink.start();
        parser = new MysqlEventParser("values", MysqlParserConfig.fromProperties(p), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.fromProperties(p));
        parser.setSnapshotConfig(SnapshotConfig.fromProperties(p));
        parser.setSnapshotProgressStore(new FileSnapshotProgressStore(dataDir, "values"));
        parser.start();
    }

    /** Takes rows of t until the snapshot and the live stream each gave the first {@code count} rows. */
    private void receive(Map<Integer, List<CanalEntry.Column>> snapshots, Map<Integer, List<CanalEntry.Column>> lives,
            int count) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Events batch = store.get(100, 100, TimeUnit.MILLISECONDS);
            for (Event e : batch.events()) {
                CanalEntry.Entry entry = e.parsedEntry();
                if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA
                        || !entry.getHeader().getTableName().equals("t")) {
                    continue;
                }
                boolean snapshot = entry.getHeader().getPropsList().stream()
                        .anyMatch(prop -> prop.getKey().equals(SnapshotEntries.PROPERTY));
                for (CanalEntry.RowData row : CanalEntry.RowChange.parseFrom(entry.getStoreValue())
                        .getRowDatasList()) {
                    (snapshot ? snapshots : lives).put(Integer.parseInt(row.getAfterColumns(0).getValue()),
                            row.getAfterColumnsList());
                }
            }
            if (!batch.events().isEmpty()) {
                store.ack(batch.range().end(), batch.range().endSeq());
            }
            assertThat(parser.failure()).isNull();
            return java.util.stream.IntStream.rangeClosed(1, count)
                    .allMatch(id -> snapshots.containsKey(id) && lives.containsKey(LIVE + id));
        });
    }
}
