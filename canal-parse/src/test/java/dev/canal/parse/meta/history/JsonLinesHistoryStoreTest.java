package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesHistoryStoreTest {

    @TempDir
    Path dir;

    private static DdlRecord ddl(long offset, String sql) {
        return new DdlRecord("d1", new HistoryPosition("mysql-bin.000001", offset, 1, offset * 1000), "s", "s", "t",
                sql, 0);
    }

    @Test
    void aDdlAtAnAlreadyRecordedPositionIsIgnored() {
        JsonLinesHistoryStore store = new JsonLinesHistoryStore(dir);
        assertThat(store.append(ddl(100, "CREATE TABLE t (a int)"))).isTrue();
        assertThat(store.append(ddl(100, "CREATE TABLE t (a int)"))).isFalse();
        store.close();
        JsonLinesHistoryStore reopened = new JsonLinesHistoryStore(dir);
        assertThat(reopened.history()).containsExactly(ddl(100, "CREATE TABLE t (a int)"));
        assertThat(reopened.append(ddl(100, "CREATE TABLE t (a int)"))).isFalse();
        reopened.close();
    }

    @Test
    void rowsUseCanalsColumnNames() throws Exception {
        JsonLinesHistoryStore store = new JsonLinesHistoryStore(dir);
        store.append(ddl(100, "CREATE TABLE t (a int)"));
        store.addSnapshot(new SchemaSnapshot("d1", HistoryPosition.INITIAL, Map.of("s", "CREATE TABLE t (a int);\n"), 0));
        store.close();
        assertThat(Files.readString(dir.resolve(JsonLinesHistoryStore.HISTORY_FILE))).contains("\"binlog_file\":\"mysql-bin.000001\"",
                "\"binlog_offest\":100", "\"binlog_master_id\":1", "\"binlog_timestamp\":100000", "\"use_schema\":\"s\"",
                "\"sql_schema\":\"s\"", "\"sql_table\":\"t\"", "\"sql_text\":\"CREATE TABLE t (a int)\"");
        assertThat(Files.readString(dir.resolve(JsonLinesHistoryStore.SNAPSHOT_FILE))).contains("\"binlog_file\":\"0\"",
                "\"binlog_timestamp\":-2", "\"data\":{\"s\":\"CREATE TABLE t (a int);\\n\"}");
    }

    @Test
    void aLineTornByACrashIsCutAndTheLogStaysAppendable() throws Exception {
        JsonLinesHistoryStore store = new JsonLinesHistoryStore(dir);
        store.append(ddl(100, "CREATE TABLE t (a int)"));
        store.close();
        Files.writeString(dir.resolve(JsonLinesHistoryStore.HISTORY_FILE), "{\"destination\":\"d1\",\"binlog_fi",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        JsonLinesHistoryStore reopened = new JsonLinesHistoryStore(dir);
        assertThat(reopened.history()).hasSize(1);
        reopened.append(ddl(200, "ALTER TABLE t ADD b int"));
        reopened.close();
        assertThat(new JsonLinesHistoryStore(dir).history()).extracting(d -> d.position().offset())
                .containsExactly(100L, 200L);
    }

    @Test
    void removingSnapshotsRewritesTheFile() {
        JsonLinesHistoryStore store = new JsonLinesHistoryStore(dir);
        store.addSnapshot(new SchemaSnapshot("d1", HistoryPosition.INITIAL, Map.of(), 0));
        store.addSnapshot(new SchemaSnapshot("d1", new HistoryPosition("f", 1, 1, 5), Map.of(), 0));
        assertThat(store.removeSnapshots(s -> s.position().timestamp() > 0)).isEqualTo(1);
        store.close();
        assertThat(new JsonLinesHistoryStore(dir).snapshots()).extracting(SchemaSnapshot::position)
                .containsExactly(HistoryPosition.INITIAL);
    }
}
