package dev.canal.connector.rocketmq;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RocketMQ mode against a private name server and broker: what lands in which queue, and when batches are acked. */
@Tag("source-independent")
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
        return new MqPipeline(destination, StoreConfig.itemSize(1024).withRaw(raw),
                new RocketMqMode(), new RocketMqProducer(RocketMqConfig.from(properties)));
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
            RunnerSamples.startRawBatch(p, "proto_raw");

            List<MessageExt> messages = QueueReader.all(QueueReader.read(broker, "proto_raw", 1, WAIT));

            RunnerSamples.assertOnePacketOfOneTransaction(messages.stream().map(MessageExt::getBody).toList());
        }
    }

    @Test
    void dynamicTopicsSendEachTableToItsOwnTopicWithDotsAsUnderscores() throws Exception {
        try (MqPipeline p = pipeline("dyn", false)) {
            RunnerSamples.startDynamicTopics(p);

            Map<String, List<String>> idsByTopic = new TreeMap<>();
            for (var topic : Map.of("shop_orders", 2, "shop_items", 1, "dyn_default", 1).entrySet()) {
                for (MessageExt m : QueueReader.all(QueueReader.read(broker, topic.getKey(), topic.getValue(), WAIT))) {
                    idsByTopic.computeIfAbsent(topic.getKey(), t -> new ArrayList<>())
                            .add(RunnerSamples.firstId(m.getBody()));
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
            long last = RunnerSamples.startKeyVersions(p, "hashed", partitions, keys, versions);
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
            RunnerSamples.assertEachKeyInOrder(namesByKey, keys, versions);
        }
    }

    /** Canal's hash of one key column with the schema's name as seed, written out independently of the main code. */
    private static int canalPartition(String keyValue, int partitions) {
        int h = "test".hashCode() ^ keyValue.hashCode();
        return Math.abs(Math.abs(h) % partitions);
    }
}
