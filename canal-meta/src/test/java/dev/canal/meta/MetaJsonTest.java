package dev.canal.meta;

import static dev.canal.meta.Positions.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetaJsonTest {

    /** Canal's meta.dat, as one line (Canal writes the file without whitespace). */
    static final String CANAL_META_DAT = "{\"clientDatas\":[{\"clientIdentity\":{\"clientId\":1001,"
            + "\"destination\":\"example\",\"filter\":\"\"},\"cursor\":{\"identity\":{\"slaveId\":-1,"
            + "\"sourceAddress\":{\"address\":\"localhost\",\"port\":3306}},\"postion\":{\"gtid\":\"\","
            + "\"included\":false,\"journalName\":\"mysql-bin.000001\",\"position\":1234,\"serverId\":1,"
            + "\"timestamp\":1700000000000}}}],\"destination\":\"example\"}";

    /** Canal's ZooKeeper cursor node. */
    static final String CANAL_TYPED_CURSOR = "{\"@type\":\"com.alibaba.otter.canal.protocol.position.LogPosition\","
            + "\"identity\":{\"slaveId\":-1,\"sourceAddress\":{\"address\":\"localhost\",\"port\":3306}},"
            + "\"postion\":{\"gtid\":\"\",\"included\":false,\"journalName\":\"mysql-bin.000001\",\"position\":1234,"
            + "\"serverId\":1,\"timestamp\":1700000000000}}";

    private static final DestinationMeta EXAMPLE_META = new DestinationMeta("example",
            List.of(new DestinationMeta.ClientData(new ClientIdentity("example", (short) 1001), at(1234))));

    @Test
    void metaFileJsonIsByteForByteCanals() {
        assertThat(MetaJson.toJson(EXAMPLE_META)).isEqualTo(CANAL_META_DAT);
    }

    @Test
    void canalsMetaFileReadsBackToTheSameValues() {
        assertThat(MetaJson.readDestinationMeta(CANAL_META_DAT)).isEqualTo(EXAMPLE_META);
    }

    @Test
    void typedCursorJsonIsByteForByteCanals() {
        assertThat(MetaJson.toTypedJson(at(1234))).isEqualTo(CANAL_TYPED_CURSOR);
    }

    @Test
    void cursorReadsWithAndWithoutType() {
        String untyped = MetaJson.toJson(at(1234));

        assertThat(untyped).doesNotContain("@type").startsWith("{\"identity\":");
        assertThat(MetaJson.readLogPosition(untyped)).isEqualTo(at(1234));
        assertThat(MetaJson.readLogPosition(CANAL_TYPED_CURSOR)).isEqualTo(at(1234));
    }

    @Test
    void typedPositionRangeTagsTheRangeAndEveryPosition() {
        PositionRange range = new PositionRange(at(4), at(1234), at(1200), 42);

        String json = MetaJson.toTypedJson(range);

        String position = "\"@type\":\"com.alibaba.otter.canal.protocol.position.LogPosition\"";
        assertThat(json).startsWith("{\"@type\":\"com.alibaba.otter.canal.protocol.position.PositionRange\",\"ack\":{"
                + position);
        assertThat(json).contains(",\"end\":{" + position, ",\"endSeq\":42,\"start\":{" + position);
        assertThat(MetaJson.readPositionRange(json)).isEqualTo(range);
    }

    @Test
    void untypedPositionRangeHasAlphabeticalKeysAndOmitsAMissingAckPoint() {
        PositionRange range = new PositionRange(at(4), at(1234), null, 7);

        String json = MetaJson.toJson(range);

        assertThat(json).isEqualTo("{\"end\":" + MetaJson.toJson(at(1234)) + ",\"endSeq\":7,\"start\":"
                + MetaJson.toJson(at(4)) + "}");
        assertThat(MetaJson.readPositionRange(json)).isEqualTo(range);
    }

    @Test
    void nullPartsOfAPositionAreOmittedAndReadBackAsNull() {
        LogPosition timestampOnly = new LogPosition(LogIdentity.of("10.0.0.1", 3306), EntryPosition.ofTimestamp(5L));

        String json = MetaJson.toJson(timestampOnly);

        assertThat(json).isEqualTo("{\"identity\":{\"slaveId\":-1,\"sourceAddress\":{\"address\":\"10.0.0.1\","
                + "\"port\":3306}},\"postion\":{\"included\":false,\"timestamp\":5}}");
        assertThat(MetaJson.readLogPosition(json)).isEqualTo(timestampOnly);
    }

    @Test
    void readerAcceptsAnyKeyOrderAndUnknownKeys() {
        String reordered = "{\"destination\":\"example\",\"clientDatas\":[{\"cursor\":{\"postion\":{\"timestamp\":"
                + "1700000000000,\"serverId\":1,\"position\":1234,\"journalName\":\"mysql-bin.000001\","
                + "\"included\":false,\"gtid\":\"\"},\"identity\":{\"sourceAddress\":{\"port\":3306,"
                + "\"address\":\"localhost\"},\"slaveId\":-1}},\"clientIdentity\":{\"filter\":\"\","
                + "\"destination\":\"example\",\"clientId\":1001,\"extra\":true}}]}";

        assertThat(MetaJson.readDestinationMeta(reordered)).isEqualTo(EXAMPLE_META);
    }

    @Test
    void malformedJsonIsRejectedWithTheReason() {
        assertThatThrownBy(() -> MetaJson.readDestinationMeta(CANAL_META_DAT.substring(0, 60)))
                .isInstanceOf(MetaManagerException.class)
                .hasMessageStartingWith("meta file JSON is malformed");
        assertThatThrownBy(() -> MetaJson.readLogPosition("{\"postion\":{\"position\":\"abc\"}}"))
                .isInstanceOf(MetaManagerException.class)
                .hasMessageContaining("postion.position is not an integer");
        assertThatThrownBy(() -> MetaJson.readLogPosition("{\"@type\":\"java.net.URL\"}"))
                .isInstanceOf(MetaManagerException.class)
                .hasMessageContaining("@type");
        assertThatThrownBy(() -> MetaJson.readDestinationMeta("{\"clientDatas\":[]}"))
                .isInstanceOf(MetaManagerException.class)
                .hasMessage("meta file has no destination");
    }
}
