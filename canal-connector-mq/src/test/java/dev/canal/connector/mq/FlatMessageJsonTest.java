package dev.canal.connector.mq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlatMessageJsonTest {

    private final FlatMessageBuilder builder = new FlatMessageBuilder();

    private String json(long batchId, CanalEntry.Entry entry, long ts) {
        return FlatMessageJson.toJson(builder.build(batchId, RowEntry.of(entry), ts));
    }

    @Test
    void updateListsOnlyTheUpdatedColumnsInOld() {
        CanalEntry.Entry update = TestRows.update(1_700_000_000L, "test", "user",
                List.of(row(List.of(id(1), name("alice")), List.of(id(1), name("bob").asUpdated()))));

        assertThat(json(3, update, 1_700_000_000_123L)).isEqualTo("{\"data\":[{\"id\":\"1\",\"name\":\"bob\"}],"
                + "\"database\":\"test\",\"es\":1700000000000,\"gtid\":\"\",\"id\":3,\"isDdl\":false,"
                + "\"mysqlType\":{\"id\":\"int(11)\",\"name\":\"varchar(32)\"},\"old\":[{\"name\":\"alice\"}],"
                + "\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{\"id\":4,\"name\":12},\"table\":\"user\","
                + "\"ts\":1700000000123,\"type\":\"UPDATE\"}");
    }

    @Test
    void aSnapshotRowCarriesTheSnapshotFieldAndALiveRowDoesNot() {
        CanalEntry.Entry live = TestRows.insert(1_700_000_000L, "test", "user", List.of(List.of(id(1), name("a"))));
        CanalEntry.Entry snapshot = live.toBuilder().setHeader(live.getHeader().toBuilder()
                .addProps(CanalEntry.Pair.newBuilder().setKey("snapshot").setValue("true"))).build();

        assertThat(json(1, live, 1)).doesNotContain("snapshot").endsWith("\"type\":\"INSERT\"}");
        assertThat(json(1, snapshot, 1)).endsWith("\"type\":\"INSERT\",\"snapshot\":true}");
    }

    @Test
    void ddlWritesNullForEveryRowKey() {
        CanalEntry.RowChange alter = CanalEntry.RowChange.newBuilder().setEventType(EventType.ALTER).setIsDdl(true)
                .setSql("alter table user add c int").setDdlSchemaName("test").build();
        CanalEntry.Entry entry = CanalEntry.Entry.newBuilder()
                .setHeader(TestRows.header(0, "test", "user").setExecuteTime(1).setEventType(EventType.ALTER))
                .setEntryType(CanalEntry.EntryType.ROWDATA).setStoreValue(alter.toByteString()).build();

        assertThat(json(4, entry, 2)).isEqualTo("{\"data\":null,\"database\":\"test\",\"es\":1,\"gtid\":\"\",\"id\":4,"
                + "\"isDdl\":true,\"mysqlType\":null,\"old\":null,\"pkNames\":null,\"sql\":\"alter table user add c int\","
                + "\"sqlType\":null,\"table\":\"user\",\"ts\":2,\"type\":\"ALTER\"}");
    }

    @Test
    void insertWritesNullValuesAndEscapesText() {
        CanalEntry.Entry insert = TestRows.insert(5, "test", "user", List.of(
                user(7, "O'Neil \"the\" \\ one", "line1\nline2\ttab\u0001 – ünïcode 中", "12.50"),
                user(8, null, null, null)));

        assertThat(json(9, insert, 10)).isEqualTo("{\"data\":["
                + "{\"id\":\"7\",\"name\":\"O'Neil \\\"the\\\" \\\\ one\","
                + "\"note\":\"line1\\nline2\\ttab\\u0001 – ünïcode 中\",\"price\":\"12.50\"},"
                + "{\"id\":\"8\",\"name\":null,\"note\":null,\"price\":null}],"
                + "\"database\":\"test\",\"es\":5000,\"gtid\":\"\",\"id\":9,\"isDdl\":false,"
                + "\"mysqlType\":{\"id\":\"int(11)\",\"name\":\"varchar(32)\",\"note\":\"text\",\"price\":\"decimal(10,2)\"},"
                + "\"old\":null,\"pkNames\":[\"id\"],\"sql\":\"\","
                + "\"sqlType\":{\"id\":4,\"name\":12,\"note\":2005,\"price\":3},\"table\":\"user\",\"ts\":10,"
                + "\"type\":\"INSERT\"}");
    }

    @Test
    void deleteCarriesTheBeforeImageAsData() {
        CanalEntry.Entry delete = TestRows.delete(6, "test", "user", List.of(List.of(id(3), name("carol"))));

        assertThat(json(2, delete, 11)).isEqualTo("{\"data\":[{\"id\":\"3\",\"name\":\"carol\"}],\"database\":\"test\","
                + "\"es\":6000,\"gtid\":\"\",\"id\":2,\"isDdl\":false,\"mysqlType\":{\"id\":\"int(11)\","
                + "\"name\":\"varchar(32)\"},\"old\":null,\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{\"id\":4,"
                + "\"name\":12},\"table\":\"user\",\"ts\":11,\"type\":\"DELETE\"}");
    }

    @Test
    void gtidOfTheHeaderIsWritten() {
        CanalEntry.Entry insert = TestRows.insert(5, "test", "user", List.of(List.of(id(1))));
        CanalEntry.Entry withGtid = insert.toBuilder()
                .setHeader(insert.getHeader().toBuilder().setGtid("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5")).build();

        assertThat(json(1, withGtid, 0)).contains("\"gtid\":\"3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5\"");
    }

    @Test
    void updatedColumnSetGrowsOverTheRowsOfAnEntryAsInCanal() {
        CanalEntry.Entry update = TestRows.update(1, "test", "user", List.of(
                row(List.of(id(1), name("a")), List.of(id(1), name("b").asUpdated())),
                row(List.of(id(2), name("c")), List.of(id(2).asUpdated(), name("c")))));

        FlatMessage message = builder.build(1, RowEntry.of(update), 0);

        assertThat(message.old()).hasSize(2);
        assertThat(message.old().get(0)).containsExactly(java.util.Map.entry("name", "a"));
        assertThat(message.old().get(1)).containsOnlyKeys("id", "name");
    }
}
