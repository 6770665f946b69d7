package dev.canal.connector.pulsar;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.connector.mq.CanalFormatSample;
import dev.canal.connector.mq.MqPipeline;
import dev.canal.connector.mq.RunnerSamples;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Pulsar mode against a private Pulsar standalone: what lands in the topics, and when batches are acked. */
@Tag("source-independent")
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
                new PulsarMode(), producer);
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
            RunnerSamples.startRawBatch(p, "proto_raw");

            List<Message<byte[]>> messages = TopicReader.read(broker, "proto_raw", 1, WAIT);

            RunnerSamples.assertOnePacketOfOneTransaction(messages.stream().map(Message::getValue).toList());
        }
    }

    @Test
    void dynamicTopicsRouteEachTableToItsOwnTopicUnderTheTenantPrefix() throws Exception {
        try (MqPipeline p = pipeline("dyn", false,
                producer("pulsarmq.topicTenantPrefix", "persistent://public/default"))) {
            RunnerSamples.startDynamicTopics(p);

            Map<String, List<String>> idsByTopic = new TreeMap<>();
            for (var topic : Map.of("shop_orders", 2, "shop_items", 1, "dyn_default", 1).entrySet()) {
                for (Message<byte[]> m : TopicReader.read(broker, "persistent://public/default/" + topic.getKey(),
                        topic.getValue(), WAIT)) {
                    idsByTopic.computeIfAbsent(topic.getKey(), t -> new ArrayList<>())
                            .add(RunnerSamples.firstId(m.getValue()));
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
            long last = RunnerSamples.startKeyVersions(p, "hashed", partitions, keys, versions);
            await().atMost(WAIT).until(() -> p.cursor() != null && p.cursor().position().position() == last);
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
        RunnerSamples.assertEachKeyInOrder(namesByKey, keys, versions);
        assertThat(new HashSet<>(partitionOfKey.values())).as("the keys spread over the partitions")
                .hasSizeGreaterThan(1);
    }
}
