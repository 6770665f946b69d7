package dev.canal.connector.mq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.protocol.CanalEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Workloads the broker runner ITs put through a pipeline, and the checks they share on what arrives. */
public final class RunnerSamples {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RunnerSamples() {
    }

    /** One transaction inserting one user row, sent as a raw protobuf batch to {@code topic}. */
    public static void startRawBatch(MqPipeline p, String topic) {
        p.put(TestRows.transaction(10, List.of(
                TestRows.insert(11, "test", "user", List.of(user(5, "eve", null, "1.00"))))));
        p.start(MqPipeline.mqConfig("canal.mq.topic", topic, "canal.mq.flatMessage", "false"));
    }

    /** The one message is a MESSAGES packet holding the begin, the row and the end of the one transaction. */
    public static void assertOnePacketOfOneTransaction(List<byte[]> messages) throws IOException {
        assertThat(messages).hasSize(1);
        var packet = com.alibaba.otter.canal.protocol.CanalPacket.Packet.parseFrom(messages.get(0));
        assertThat(packet.getType()).isEqualTo(com.alibaba.otter.canal.protocol.CanalPacket.PacketType.MESSAGES);
        var body = com.alibaba.otter.canal.protocol.CanalPacket.Messages.parseFrom(packet.getBody());
        List<String> types = new ArrayList<>();
        for (var bytes : body.getMessagesList()) {
            types.add(com.alibaba.otter.canal.protocol.CanalEntry.Entry.parseFrom(bytes).getEntryType().name());
        }
        assertThat(types).containsExactly("TRANSACTIONBEGIN", "ROWDATA", "TRANSACTIONEND");
    }

    /**
     * One transaction inserting ids 1 and 4 into shop.orders, 2 into shop.items and 3 into other.things, with
     * dynamic topics for {@code shop\..*} and {@code dyn_default} as the default topic.
     */
    public static void startDynamicTopics(MqPipeline p, String... extraMqKeys) {
        p.put(TestRows.transaction(10, List.of(
                TestRows.insert(11, "shop", "orders", List.of(List.of(id(1)))),
                TestRows.insert(12, "shop", "items", List.of(List.of(id(2)))),
                TestRows.insert(13, "other", "things", List.of(List.of(id(3)))),
                TestRows.insert(14, "shop", "orders", List.of(List.of(id(4)))))));
        List<String> keys = new ArrayList<>(
                List.of("canal.mq.topic", "dyn_default", "canal.mq.dynamicTopic", "shop\\..*"));
        keys.addAll(List.of(extraMqKeys));
        p.start(MqPipeline.mqConfig(keys.toArray(String[]::new)));
    }

    /** The id of a flat message's first row. */
    public static String firstId(byte[] flatMessage) throws IOException {
        return JSON.readTree(flatMessage).get("data").get(0).get("id").asText();
    }

    /**
     * {@code versions} transactions, 3 offsets apart from 1000, each one row entry updating keys 0 .. keys - 1 of
     * test.user to their next version (names v1, v2, ...), sent to {@code topic} hashed by primary key over
     * {@code partitions} partitions in batches of 5.
     *
     * @return the end offset of the last transaction
     */
    public static long startKeyVersions(MqPipeline p, String topic, int partitions, int keys, int versions) {
        long offset = 1000;
        for (int v = 1; v <= versions; v++) {
            List<CanalEntry.RowData> rows = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                rows.add(row(List.of(id(k), name("v" + (v - 1))), List.of(id(k), name("v" + v).asUpdated())));
            }
            p.put(TestRows.transaction(offset, List.of(TestRows.update(offset + 1, "test", "user", rows))));
            offset += 3;
        }
        p.start(MqPipeline.mqConfig("canal.mq.topic", topic, "canal.mq.partitionsNum", Integer.toString(partitions),
                "canal.mq.partitionHash", "test.user:$pk$", "canal.mq.canalBatchSize", "5"));
        return offset - 1;
    }

    /** Every one of {@code keys} keys received its names v1 .. v{@code versions}, in order. */
    public static void assertEachKeyInOrder(Map<String, List<String>> namesByKey, int keys, int versions) {
        List<String> all = IntStream.rangeClosed(1, versions).mapToObj(v -> "v" + v).toList();
        assertThat(namesByKey).hasSize(keys).allSatisfy((key, names) ->
                assertThat(names).as("order of key %s", key).containsExactlyElementsOf(all));
    }
}
