package dev.canal.connector.mq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.formats.json.canal.CanalJsonDeserializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Our flat messages read back through Flink's own canal-json format, as a Flink SQL job would read the topic. */
class FlinkCanalJsonReadBackTest {

    private static final DataType USER = DataTypes.ROW(
            DataTypes.FIELD("id", DataTypes.INT()),
            DataTypes.FIELD("name", DataTypes.STRING()),
            DataTypes.FIELD("note", DataTypes.STRING()),
            DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)));

    private final FlatMessageBuilder builder = new FlatMessageBuilder();
    private CanalJsonDeserializationSchema flink;

    @BeforeEach
    void buildFlinkFormat() throws Exception {
        flink = CanalJsonDeserializationSchema.builder(USER, List.of(), TypeInformation.of(RowData.class))
                .setDatabase("test").setTable("user").build();
        flink.open(null);
    }

    private List<String> read(CanalEntry.Entry entry) throws Exception {
        List<RowData> rows = new ArrayList<>();
        flink.deserialize(FlatMessageJson.toBytes(builder.build(1, RowEntry.of(entry), 0)), new ListCollector<>(rows));
        return rows.stream().map(r -> r.getRowKind().shortString() + "(" + r.getInt(0) + ","
                + (r.isNullAt(1) ? "null" : r.getString(1)) + "," + (r.isNullAt(2) ? "null" : r.getString(2)) + ","
                + (r.isNullAt(3) ? "null" : r.getDecimal(3, 10, 2)) + ")").toList();
    }

    @Test
    void insertsAreReadAsInsertRowsWithNulls() throws Exception {
        assertThat(read(TestRows.insert(5, "test", "user", List.of(user(1, "alice", "line\n2", "9.90"),
                user(2, null, null, null))))).containsExactly("+I(1,alice,line\n2,9.90)", "+I(2,null,null,null)");
    }

    @Test
    void updatesAreReadAsBeforeAndAfterImagesRebuiltFromOld() throws Exception {
        CanalEntry.Entry update = TestRows.update(6, "test", "user", List.of(
                row(user(1, "alice", "n", "1.00"), List.of(id(1), name("bob").asUpdated(),
                        TestRows.note("n"), TestRows.price("1.00")))));

        assertThat(read(update)).containsExactly("-U(1,alice,n,1.00)", "+U(1,bob,n,1.00)");
    }

    @Test
    void deletesAreReadAsDeleteRows() throws Exception {
        assertThat(read(TestRows.delete(7, "test", "user", List.of(user(3, "carol", null, "2.50")))))
                .containsExactly("-D(3,carol,null,2.50)");
    }
}
