package dev.canal.connector.pulsar;

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
import dev.canal.testsupport.PulsarBroker;
import dev.canal.testsupport.PulsarBrokerExtension;
import dev.canal.testsupport.TestProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pulsar.client.api.Message;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Pulsar mode against a private Pulsar standalone: what lands in the topics, and when batches are acked. */
@ExtendWith(PulsarBrokerExtension.class)
class PulsarRunnerIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static PulsarBroker broker;

    @BeforeAll
    static void broker(PulsarBroker started) {
        broker = started;
    }

    private static PulsarProducer producer(String... keyValues) {
        var properties = TestProperties.of(keyValues);
        properties.setProperty("pulsarmq.serverUrl", broker.serviceUrl());
        return new PulsarProducer(PulsarConfig.from(properties));
    }

    private static MqPipeline pipeline(String destination, boolean raw, PulsarProducer producer) {
        return new MqPipeline(destination, StoreConfig.itemSize(1024).withRaw(raw),
                server -> new PulsarRunner(server, producer));
    }

    private static List<String> bodies(List<Message<byte[]>> messages) {
        return messages.stream().map(m -> new String(m.getValue(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void flatMessagesArriveByteExactAsCanalJsonOnPartitionZeroAndTheBatchIsAckedAfterTheBrokersAcks()
            throws Exception {
        long from = System.currentTimeMillis();
        try (MqPipeline p = pipeline("flat", false, producer())) {
            CanalFormatSample.transactions().forEach(p::put);
            p.start(MqPipeline.mqConfig("canal.mq.topic", "flat_rows"));

            List<Message<byte[]>> messages = TopicReader.read(broker, "flat_rows", 4, WAIT);

            assertThat(CanalFormatSample.withoutTs(bodies(messages), from, System.currentTimeMillis()))
                    .containsExactlyElementsOf(CanalFormatSample.flatJson());
            assertThat(messages).allSatisfy(m -> {
                assertThat(m.getProperty("partitionNum")).isEqualTo("0");
                assertThat(m.hasKey()).as("no key, as Canal sends none").isFalse();
            });
            await().atMost(WAIT).until(() -> p.cursor() != null
                    && p.cursor().position().position() == CanalFormatSample.LAST_OFFSET);
        }
    }

    @Test
    void rawProtobufBatchIsOnePacketTheOfficialClassesDecode() throws Exception {
        try (MqPipeline p = pipeline("proto", true, producer())) {
            p.put(TestRows.transaction(10, List.of(
                    TestRows.insert(11, "test", "user", List.of(user(5, "eve", null, "1.00"))))));
            p.start(MqPipeline.mqConfig("canal.mq.topic", "proto_raw", "canal.mq.flatMessage", "false"));

            List<Message<byte[]>> messages = TopicReader.read(broker, "proto_raw", 1, WAIT);

            assertThat(messages).hasSize(1);
            var packet = com.alibaba.otter.canal.protocol.CanalPacket.Packet.parseFrom(messages.get(0).getValue());
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
    void dynamicTopicsRouteEachTableToItsOwnTopicUnderTheTenantPrefix() throws Exception {
        try (MqPipeline p = pipeline("dyn", false,
                producer("pulsarmq.topicTenantPrefix", "persistent://public/default"))) {
            p.put(TestRows.transaction(10, List.of(
                    TestRows.insert(11, "shop", "orders", List.of(List.of(id(1)))),
                    TestRows.insert(12, "shop", "items", List.of(List.of(id(2)))),
                    TestRows.insert(13, "other", "things", List.of(List.of(id(3)))),
                    TestRows.insert(14, "shop", "orders", List.of(List.of(id(4)))))));
            p.start(MqPipeline.mqConfig("canal.mq.topic", "dyn_default", "canal.mq.dynamicTopic", "shop\\..*"));

            Map<String, List<String>> idsByTopic = new TreeMap<>();
            for (var topic : Map.of("shop_orders", 2, "shop_items", 1, "dyn_default", 1).entrySet()) {
                for (String body : bodies(TopicReader.read(broker, "persistent://public/default/" + topic.getKey(),
                        topic.getValue(), WAIT))) {
                    idsByTopic.computeIfAbsent(topic.getKey(), t -> new ArrayList<>())
                            .add(JSON.readTree(body).get("data").get(0).get("id").asText());
                }
            }

            assertThat(idsByTopic).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "shop_orders", List.of("1", "4"), "shop_items", List.of("2"), "dyn_default", List.of("3")));
        }
    }

    @Test
    void partitionHashPutsEachKeyOnOnePartitionOfAPartitionedTopicInOrder() throws Exception {
        int keys = 6;
        int versions = 4;
        int partitions = 3;
        broker.createPartitionedTopic("hashed", partitions);
        try (MqPipeline p = pipeline("hash", false, producer())) {
            long offset = 1000;
            for (int v = 1; v <= versions; v++) {
                List<CanalEntry.RowData> rows = new ArrayList<>();
                for (int k = 0; k < keys; k++) {
                    rows.add(row(List.of(id(k), name("v" + (v - 1))), List.of(id(k), name("v" + v).asUpdated())));
                }
                p.put(TestRows.transaction(offset, List.of(TestRows.update(offset + 1, "test", "user", rows))));
                offset += 3;
            }
            p.start(MqPipeline.mqConfig("canal.mq.topic", "hashed", "canal.mq.partitionsNum", "3",
                    "canal.mq.partitionHash", "test.user:$pk$", "canal.mq.canalBatchSize", "5"));
            await().atMost(WAIT).until(() -> p.cursor() != null && p.cursor().position().position() == 1011);
        }

        Map<String, List<String>> namesByKey = new TreeMap<>();
        Map<String, Integer> partitionOfKey = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            for (Message<byte[]> m : TopicReader.readAll(broker, "hashed-partition-" + partition)) {
                assertThat(m.getProperty("partitionNum")).isEqualTo(Integer.toString(partition));
                for (JsonNode r : JSON.readTree(m.getValue()).get("data")) {
                    String key = r.get("id").asText();
                    namesByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(r.get("name").asText());
                    Integer before = partitionOfKey.put(key, partition);
                    assertThat(before == null || before == partition).as("key %s on one partition", key).isTrue();
                }
            }
        }
        assertThat(namesByKey).hasSize(keys).allSatisfy((key, names) ->
                assertThat(names).as("order of key %s", key).containsExactly("v1", "v2", "v3", "v4"));
        assertThat(new HashSet<>(partitionOfKey.values())).as("the keys spread over the partitions")
                .hasSizeGreaterThan(1);
    }
}
