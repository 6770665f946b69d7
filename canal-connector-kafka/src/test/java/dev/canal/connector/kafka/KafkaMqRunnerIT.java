package dev.canal.connector.kafka;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.connector.mq.CanalFormatSample;
import dev.canal.connector.mq.CountingProducer;
import dev.canal.connector.mq.RunnerSamples;
import dev.canal.connector.mq.TestRows;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.position.LogPosition;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** MQ mode against a real KRaft broker: what lands in the topics, and when batches are acked. */
@Tag("source-independent")
@ExtendWith(KafkaBrokerExtension.class)
class KafkaMqRunnerIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static KafkaBroker broker;

    @BeforeAll
    static void broker(KafkaBroker started) {
        broker = started;
    }

    private static Pipeline pipeline(String destination, boolean raw, String... producerKeyValues) {
        return new Pipeline(destination, StoreConfig.itemSize(1024).withRaw(raw),
                new KafkaMqProducer(KafkaProducerConfig.from(Pipeline.producerProperties(broker, producerKeyValues))));
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void flatMessagesArriveAsCanalJsonAndTheBatchIsAckedAfterwards() throws Exception {
        long from = System.currentTimeMillis();
        try (Pipeline p = pipeline("flat", false)) {
            broker.createTopic("flat_json", 1);
            CanalFormatSample.transactions().forEach(p::put);
            p.start(Pipeline.mqConfig("canal.mq.topic", "flat_json"));

            List<String> json = values(TopicReader.read(broker.bootstrapServers(), "flat_json", 1, 4, WAIT));

            assertThat(CanalFormatSample.withoutTs(json, from, System.currentTimeMillis()))
                    .containsExactlyElementsOf(CanalFormatSample.flatJson());
            await().atMost(WAIT).until(() -> p.cursor() != null
                    && p.cursor().position().position() == CanalFormatSample.LAST_OFFSET);
        }
    }

    @Test
    void rawProtobufBatchIsOnePacketTheOfficialClassesDecode() throws Exception {
        try (Pipeline p = pipeline("proto", true)) {
            broker.createTopic("proto_raw", 1);
            RunnerSamples.startRawBatch(p, "proto_raw");

            List<ConsumerRecord<byte[], byte[]>> records = TopicReader.read(broker.bootstrapServers(), "proto_raw", 1, 1, WAIT);

            assertThat(records).hasSize(1);
            var packet = com.alibaba.otter.canal.protocol.CanalPacket.Packet.parseFrom(records.get(0).value());
            assertThat(packet.getType()).isEqualTo(com.alibaba.otter.canal.protocol.CanalPacket.PacketType.MESSAGES);
            assertThat(packet.getVersionPresentCase().getNumber()).as("raw fast path carries no version").isZero();
            var messages = com.alibaba.otter.canal.protocol.CanalPacket.Messages.parseFrom(packet.getBody());
            assertThat(messages.getBatchId()).isEqualTo(1);
            List<com.alibaba.otter.canal.protocol.CanalEntry.Entry> entries = new ArrayList<>();
            for (var bytes : messages.getMessagesList()) {
                entries.add(com.alibaba.otter.canal.protocol.CanalEntry.Entry.parseFrom(bytes));
            }
            assertThat(entries).extracting(e -> e.getEntryType().name())
                    .containsExactly("TRANSACTIONBEGIN", "ROWDATA", "TRANSACTIONEND");
            var change = com.alibaba.otter.canal.protocol.CanalEntry.RowChange.parseFrom(entries.get(1).getStoreValue());
            var columns = change.getRowDatas(0).getAfterColumnsList();
            assertThat(columns).extracting(c -> c.getName() + "=" + (c.getIsNull() ? "NULL" : c.getValue()) + ":"
                    + c.getMysqlType()).containsExactly("id=5:int(11)", "name=eve:varchar(32)", "note=NULL:text",
                    "price=1.00:decimal(10,2)");
            assertThat(entries.get(1).getHeader().getLogfileOffset()).isEqualTo(11);
        }
    }

    private static final int HASH_PARTITIONS = 3;
    private static final int HASH_KEYS = 12;
    private static final int HASH_VERSIONS = 5;
    /** The key an UPDATE changes, and the key it becomes, in another partition (found by the hash). */
    private static final long KEY_FROM = 3;
    private static final long KEY_TO = findKeyInOtherPartition(KEY_FROM, HASH_PARTITIONS);

    @Test
    void partitionHashKeepsEachKeyInItsPartitionInOrderAndSendsAKeyChangeOnceAsCanalDoes() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> records = hashedUpdatesAndAKeyChange("hash", "hashed", 1);

        Map<String, List<Integer>> partitionsByKey = partitionsByKey(records);
        assertThat(partitionsByKey.get(Long.toString(KEY_TO))).as("the key change, on the new key's partition only")
                .containsExactly(RowHashOracle.partition("test", Long.toString(KEY_TO), HASH_PARTITIONS));
    }

    @Test
    void askedForAKeyChangeAlsoReachesTheOldKeysPartitionAfterItsEarlierChanges() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> records = hashedUpdatesAndAKeyChange("hash_both", "hashed_both", 2,
                "canal.mq.partitionHash.keyChangeToOldPartition", "true");

        int oldKeyPartition = RowHashOracle.partition("test", Long.toString(KEY_FROM), HASH_PARTITIONS);
        assertThat(partitionsByKey(records).get(Long.toString(KEY_TO))).as("the key change reaches both keys' partitions")
                .containsExactlyInAnyOrder(oldKeyPartition,
                        RowHashOracle.partition("test", Long.toString(KEY_TO), HASH_PARTITIONS));
        List<String> keysInOldKeyPartition = records.stream().filter(r -> r.partition() == oldKeyPartition)
                .map(r -> firstRow(r).get("id").asText()).toList();
        assertThat(keysInOldKeyPartition.lastIndexOf(Long.toString(KEY_TO)))
                .as("the old key's partition learns that the key left after the key's earlier changes")
                .isGreaterThan(keysInOldKeyPartition.lastIndexOf(Long.toString(KEY_FROM)));
    }

    /**
     * {@value #HASH_VERSIONS} updates of {@value #HASH_KEYS} keys hashed by primary key, then one changing
     * {@link #KEY_FROM} to {@link #KEY_TO}; returns the {@code keyChangeMessages} + the other records, having checked
     * that every key stays in its partition in order.
     */
    private static List<ConsumerRecord<byte[], byte[]>> hashedUpdatesAndAKeyChange(String destination, String topic,
            int keyChangeMessages, String... keyValues) throws Exception {
        try (Pipeline p = pipeline(destination, false)) {
            broker.createTopic(topic, HASH_PARTITIONS);
            long offset = 1000;
            for (int v = 1; v <= HASH_VERSIONS; v++) {
                List<CanalEntry.Entry> rows = new ArrayList<>();
                for (int k = 0; k < HASH_KEYS; k++) {
                    rows.add(TestRows.update(offset + k + 1, "test", "user", List.of(
                            row(List.of(id(k), name("v" + (v - 1))), List.of(id(k), name("v" + v).asUpdated())))));
                }
                p.put(TestRows.transaction(offset, rows));
                offset += HASH_KEYS + 2;
            }
            p.put(TestRows.transaction(offset, List.of(TestRows.update(offset + 1, "test", "user", List.of(
                    row(List.of(id(KEY_FROM), name("v5")), List.of(id(KEY_TO).asUpdated(), name("v5"))))))));
            List<String> config = new ArrayList<>(List.of("canal.mq.topic", topic, "canal.mq.partitionsNum",
                    Integer.toString(HASH_PARTITIONS), "canal.mq.partitionHash", "test.user:$pk$",
                    "canal.mq.canalBatchSize", "7"));
            config.addAll(List.of(keyValues));
            p.start(Pipeline.mqConfig(config.toArray(String[]::new)));

            int expected = HASH_KEYS * HASH_VERSIONS + keyChangeMessages;
            List<ConsumerRecord<byte[], byte[]>> records =
                    TopicReader.read(broker.bootstrapServers(), topic, HASH_PARTITIONS, expected, WAIT);

            assertThat(records).hasSize(expected);
            Map<String, List<Integer>> partitionsByKey = partitionsByKey(records);
            Map<String, List<String>> namesByKey = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                JsonNode row = firstRow(r);
                namesByKey.computeIfAbsent(row.get("id").asText(), k -> new ArrayList<>()).add(row.get("name").asText());
            }
            for (int k = 0; k < HASH_KEYS; k++) {
                String key = Integer.toString(k);
                assertThat(partitionsByKey.get(key)).as("partitions of key %s", key)
                        .containsOnly(RowHashOracle.partition("test", key, HASH_PARTITIONS));
                assertThat(namesByKey.get(key)).as("order of key %s", key).containsExactly("v1", "v2", "v3", "v4", "v5");
            }
            return records;
        }
    }

    private static Map<String, List<Integer>> partitionsByKey(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, List<Integer>> partitionsByKey = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            partitionsByKey.computeIfAbsent(firstRow(r).get("id").asText(), k -> new ArrayList<>()).add(r.partition());
        }
        return partitionsByKey;
    }

    private static JsonNode firstRow(ConsumerRecord<byte[], byte[]> record) {
        try {
            return JSON.readTree(record.value()).get("data").get(0);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("not a flat message: " + new String(record.value()), e);
        }
    }

    private static long findKeyInOtherPartition(long key, int partitions) {
        int partition = RowHashOracle.partition("test", Long.toString(key), partitions);
        for (long candidate = 100; ; candidate++) {
            if (RowHashOracle.partition("test", Long.toString(candidate), partitions) != partition) {
                return candidate;
            }
        }
    }

    @Test
    void dynamicTopicsSplitEntriesByTable() throws Exception {
        try (Pipeline p = pipeline("dyn", false)) {
            RunnerSamples.startDynamicTopics(p, "canal.mq.flatMessage", "false");

            Map<String, List<Long>> keysByTopic = new TreeMap<>();
            for (String topic : List.of("shop_orders", "shop_items", "dyn_default")) {
                for (ConsumerRecord<byte[], byte[]> r : TopicReader.read(broker.bootstrapServers(), topic, 1, 1, WAIT)) {
                    var packet = com.alibaba.otter.canal.protocol.CanalPacket.Packet.parseFrom(r.value());
                    assertThat(packet.getVersion()).isEqualTo(1);
                    var messages = com.alibaba.otter.canal.protocol.CanalPacket.Messages.parseFrom(packet.getBody());
                    for (var bytes : messages.getMessagesList()) {
                        var entry = com.alibaba.otter.canal.protocol.CanalEntry.Entry.parseFrom(bytes);
                        var change = com.alibaba.otter.canal.protocol.CanalEntry.RowChange.parseFrom(entry.getStoreValue());
                        keysByTopic.computeIfAbsent(topic, t -> new ArrayList<>())
                                .add(Long.parseLong(change.getRowDatas(0).getAfterColumns(0).getValue()));
                    }
                }
            }

            assertThat(keysByTopic).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "shop_orders", List.of(1L, 4L), "shop_items", List.of(2L), "dyn_default", List.of(3L)));
        }
    }

    @Test
    void unacknowledgedBatchIsRolledBackAndResentWithoutMovingTheCursor() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        KafkaMqProducer kafka = new KafkaMqProducer(KafkaProducerConfig.from(Pipeline.producerProperties(broker,
                "kafka.max.block.ms", "500", "kafka.delivery.timeout.ms", "1500", "kafka.request.timeout.ms", "1000")));
        try (Pipeline p = new Pipeline("grow", StoreConfig.itemSize(1024).withRaw(false),
                new CountingProducer(kafka, failures))) {
            broker.createTopic("growing", 1);
            p.put(TestRows.transaction(10, List.of(TestRows.insert(11, "test", "user", List.of(List.of(id(1)))))));
            p.put(TestRows.transaction(20, List.of(TestRows.insert(21, "test", "user", List.of(List.of(id(2)))))));
            p.start(Pipeline.mqConfig("canal.mq.topic", "growing", "canal.mq.partition", "2"));
            await().atMost(WAIT).until(() -> p.instance.getMetaManager().hasSubscribe(
                    new dev.canal.protocol.ClientIdentity("grow", (short) 1001)));
            LogPosition subscribedAt = p.cursor();

            await().atMost(WAIT).until(() -> failures.get() >= 2);
            assertThat(p.cursor()).as("nothing acked while Kafka refuses").isEqualTo(subscribedAt);

            try (Admin admin = broker.admin()) {
                admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(3))).all().get();
            }
            List<ConsumerRecord<byte[], byte[]>> records = TopicReader.read(broker.bootstrapServers(), "growing", 3, 2, WAIT);

            assertThat(records).extracting(ConsumerRecord::partition).containsOnly(2);
            assertThat(records.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .map(s -> s.replaceAll(".*\"data\":\\[\\{\"id\":\"(\\d+)\".*", "$1")).collect(Collectors.toList()))
                    .containsExactly("1", "2");
            await().atMost(WAIT).until(() -> p.cursor() != null && p.cursor().position().position() == 22);
        }
    }

    @Test
    void stoppingWhileKafkaRefusesLeavesNoBatchOutstandingAndTheCursorUnmoved() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        KafkaMqProducer kafka = new KafkaMqProducer(KafkaProducerConfig.from(Pipeline.producerProperties(broker,
                "kafka.max.block.ms", "300")));
        try (Pipeline p = new Pipeline("stopping", StoreConfig.itemSize(1024).withRaw(false),
                new CountingProducer(kafka, failures))) {
            broker.createTopic("narrow", 1);
            p.put(TestRows.transaction(10, List.of(TestRows.insert(11, "test", "user", List.of(List.of(id(1)))))));
            p.start(Pipeline.mqConfig("canal.mq.topic", "narrow", "canal.mq.partition", "4"));
            await().atMost(WAIT).until(() -> failures.get() >= 1);
            LogPosition before = p.cursor();

            p.runner.stop("stopping");

            var client = new dev.canal.protocol.ClientIdentity("stopping", (short) 1001);
            assertThat(p.server.listBatchIds(client)).isEmpty();
            assertThat(p.cursor()).isEqualTo(before);
            assertThat(p.runner.destinations()).isEmpty();
        }
    }
}
