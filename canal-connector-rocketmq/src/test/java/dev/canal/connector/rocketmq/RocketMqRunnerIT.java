package dev.canal.connector.rocketmq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.connector.mq.CanalFormatSample;
import dev.canal.connector.mq.MqPipeline;
import dev.canal.connector.mq.TestRows;
import dev.canal.protocol.CanalEntry;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.RocketMqBroker;
import dev.canal.testsupport.RocketMqBrokerExtension;
import dev.canal.testsupport.TestProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RocketMQ mode against a private name server and broker: what lands in which queue, and when batches are acked. */
@ExtendWith(RocketMqBrokerExtension.class)
class RocketMqRunnerIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static RocketMqBroker broker;

    @BeforeAll
    static void broker(RocketMqBroker started) {
        broker = started;
    }

    private static MqPipeline pipeline(String destination, boolean raw, String... keyValues) {
        var properties = TestProperties.of(keyValues);
        properties.setProperty("rocketmq.namesrv.addr", broker.namesrvAddr());
        properties.setProperty("rocketmq.producer.group", "canal_" + destination);
        RocketMqConfig config = RocketMqConfig.from(properties);
        return new MqPipeline(destination, StoreConfig.itemSize(1024).withRaw(raw),
                server -> new RocketMqRunner(server, config));
    }

    private static String body(MessageExt m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }

    @Test
    void flatMessagesArriveByteExactAsCanalJsonOnTheConfiguredQueueWithTheTagAndTheBatchIsAckedAfterSendOk()
            throws Exception {
        long from = System.currentTimeMillis();
        try (MqPipeline p = pipeline("flat", false, "rocketmq.tag", "canal")) {
            CanalFormatSample.transactions().forEach(p::put);
            p.start(MqPipeline.mqConfig("canal.mq.topic", "flat_rows", "canal.mq.partition", "2"));
            await().atMost(WAIT).until(() -> p.cursor() != null
                    && p.cursor().position().position() == CanalFormatSample.LAST_OFFSET);

            Map<Integer, List<MessageExt>> byQueue = QueueReader.read(broker, "flat_rows", 4, WAIT);

            assertThat(byQueue).as("auto-created with the producer's 4 queues").hasSize(4);
            assertThat(byQueue.get(2)).as("every message on the queue canal.mq.partition names").hasSize(4);
            List<String> bodies = byQueue.get(2).stream().map(RocketMqRunnerIT::body).toList();
            assertThat(CanalFormatSample.withoutTs(bodies, from, System.currentTimeMillis()))
                    .containsExactlyElementsOf(CanalFormatSample.flatJson());
            assertThat(byQueue.get(2)).allSatisfy(m -> assertThat(m.getTags()).isEqualTo("canal"));
        }
    }

    @Test
    void rawProtobufBatchIsOnePacketTheOfficialClassesDecode() throws Exception {
        try (MqPipeline p = pipeline("proto", true)) {
            p.put(TestRows.transaction(10, List.of(
                    TestRows.insert(11, "test", "user", List.of(user(5, "eve", null, "1.00"))))));
            p.start(MqPipeline.mqConfig("canal.mq.topic", "proto_raw", "canal.mq.flatMessage", "false"));

            List<MessageExt> messages = QueueReader.all(QueueReader.read(broker, "proto_raw", 1, WAIT));

            assertThat(messages).hasSize(1);
            var packet = com.alibaba.otter.canal.protocol.CanalPacket.Packet.parseFrom(messages.get(0).getBody());
            assertThat(packet.getType()).isEqualTo(com.alibaba.otter.canal.protocol.CanalPacket.PacketType.MESSAGES);
            var body = com.alibaba.otter.canal.protocol.CanalPacket.Messages.parseFrom(packet.getBody());
            List<String> types = new ArrayList<>();
            for (var bytes : body.getMessagesList()) {
                types.add(com.alibaba.otter.canal.protocol.CanalEntry.Entry.parseFrom(bytes).getEntryType().name());
            }
            assertThat(types).containsExactly("TRANSACTIONBEGIN", "ROWDATA", "TRANSACTIONEND");
        }
    }

    @Test
    void dynamicTopicsSendEachTableToItsOwnTopicWithDotsAsUnderscores() throws Exception {
        try (MqPipeline p = pipeline("dyn", false)) {
            p.put(TestRows.transaction(10, List.of(
                    TestRows.insert(11, "shop", "orders", List.of(List.of(id(1)))),
                    TestRows.insert(12, "shop", "items", List.of(List.of(id(2)))),
                    TestRows.insert(13, "other", "things", List.of(List.of(id(3)))),
                    TestRows.insert(14, "shop", "orders", List.of(List.of(id(4)))))));
            p.start(MqPipeline.mqConfig("canal.mq.topic", "dyn_default", "canal.mq.dynamicTopic", "shop\\..*"));

            Map<String, List<String>> idsByTopic = new TreeMap<>();
            for (var topic : Map.of("shop_orders", 2, "shop_items", 1, "dyn_default", 1).entrySet()) {
                for (MessageExt m : QueueReader.all(QueueReader.read(broker, topic.getKey(), topic.getValue(), WAIT))) {
                    idsByTopic.computeIfAbsent(topic.getKey(), t -> new ArrayList<>())
                            .add(JSON.readTree(m.getBody()).get("data").get(0).get("id").asText());
                }
            }

            assertThat(idsByTopic).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "shop_orders", List.of("1", "4"), "shop_items", List.of("2"), "dyn_default", List.of("3")));
        }
    }

    @Test
    void partitionHashPutsEachKeyOnTheQueueOfItsCanalHashAndKeepsItsOrder() throws Exception {
        int keys = 12;
        int versions = 4;
        int partitions = 3;
        try (MqPipeline p = pipeline("hash", false)) {
            long offset = 1000;
            for (int v = 1; v <= versions; v++) {
                List<CanalEntry.RowData> rows = new ArrayList<>();
                for (int k = 0; k < keys; k++) {
                    rows.add(row(List.of(id(k), name("v" + (v - 1))), List.of(id(k), name("v" + v).asUpdated())));
                }
                p.put(TestRows.transaction(offset, List.of(TestRows.update(offset + 1, "test", "user", rows))));
                offset += 3;
            }
            p.start(MqPipeline.mqConfig("canal.mq.topic", "hashed", "canal.mq.partitionsNum",
                    Integer.toString(partitions), "canal.mq.partitionHash", "test.user:$pk$",
                    "canal.mq.canalBatchSize", "5"));
            long last = offset - 1;
            await().atMost(WAIT).until(() -> p.cursor() != null && p.cursor().position().position() == last);

            Map<Integer, List<MessageExt>> byQueue = QueueReader.read(broker, "hashed", versions * partitions, WAIT);

            Map<String, List<String>> namesByKey = new TreeMap<>();
            for (var queue : byQueue.entrySet()) {
                for (MessageExt m : queue.getValue()) {
                    for (JsonNode r : JSON.readTree(m.getBody()).get("data")) {
                        String key = r.get("id").asText();
                        assertThat(queue.getKey()).as("queue of key %s", key).isEqualTo(canalPartition(key, partitions));
                        namesByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(r.get("name").asText());
                    }
                }
            }
            assertThat(namesByKey).hasSize(keys).allSatisfy((key, names) ->
                    assertThat(names).as("order of key %s", key).containsExactly("v1", "v2", "v3", "v4"));
        }
    }

    /** Canal's hash of one key column with the schema's name as seed, written out independently of the main code. */
    private static int canalPartition(String keyValue, int partitions) {
        int h = "test".hashCode() ^ keyValue.hashCode();
        return Math.abs(Math.abs(h) % partitions);
    }
}
