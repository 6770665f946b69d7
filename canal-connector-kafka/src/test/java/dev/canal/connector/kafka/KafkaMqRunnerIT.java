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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** MQ mode against a real KRaft broker: what lands in the topics, and when batches are acked. */
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

    @Test
    void partitionHashKeepsEachKeyInItsPartitionInOrderAndSendsAKeyChangeToBothKeys() throws Exception {
        int partitions = 3;
        int keys = 12;
        int versions = 5;
        try (Pipeline p = pipeline("hash", false)) {
            broker.createTopic("hashed", partitions);
            long offset = 1000;
            for (int v = 1; v <= versions; v++) {
                List<CanalEntry.Entry> rows = new ArrayList<>();
                for (int k = 0; k < keys; k++) {
                    rows.add(TestRows.update(offset + k + 1, "test", "user", List.of(
                            row(List.of(id(k), name("v" + (v - 1))), List.of(id(k), name("v" + v).asUpdated())))));
                }
                p.put(TestRows.transaction(offset, rows));
                offset += keys + 2;
            }
            long from = 3; // 3 -> 4 crosses partitions when their hashes differ; found below
            long to = findKeyInOtherPartition(from, partitions);
            p.put(TestRows.transaction(offset, List.of(TestRows.update(offset + 1, "test", "user", List.of(
                    row(List.of(id(from), name("v5")), List.of(id(to).asUpdated(), name("v5"))))))));
            p.start(Pipeline.mqConfig("canal.mq.topic", "hashed", "canal.mq.partitionsNum", "3",
                    "canal.mq.partitionHash", "test.user:$pk$", "canal.mq.canalBatchSize", "7"));

            int expected = keys * versions + 2;
            List<ConsumerRecord<byte[], byte[]>> records =
                    TopicReader.read(broker.bootstrapServers(), "hashed", partitions, expected, WAIT);

            assertThat(records).hasSize(expected);
            Map<String, List<Integer>> partitionsByKey = new TreeMap<>();
            Map<String, List<String>> namesByKey = new TreeMap<>();
            List<String> keysInOldKeyPartition = new ArrayList<>();
            int oldKeyPartition = RowHashOracle.partition("test", Long.toString(from), partitions);
            for (ConsumerRecord<byte[], byte[]> r : records) {
                JsonNode row = JSON.readTree(r.value()).get("data").get(0);
                String key = row.get("id").asText();
                partitionsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(r.partition());
                namesByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(row.get("name").asText());
                if (r.partition() == oldKeyPartition) {
                    keysInOldKeyPartition.add(key);
                }
            }
            for (int k = 0; k < keys; k++) {
                String key = Integer.toString(k);
                assertThat(partitionsByKey.get(key)).as("partitions of key %s", key)
                        .containsOnly(RowHashOracle.partition("test", key, partitions));
                assertThat(namesByKey.get(key)).as("order of key %s", key).containsExactly("v1", "v2", "v3", "v4", "v5");
            }
            assertThat(partitionsByKey.get(Long.toString(to))).as("the key change reaches both keys' partitions")
                    .containsExactlyInAnyOrder(oldKeyPartition, RowHashOracle.partition("test", Long.toString(to), partitions));
            assertThat(keysInOldKeyPartition.lastIndexOf(Long.toString(to)))
                    .as("the old key's partition learns that the key left after the key's earlier changes")
                    .isGreaterThan(keysInOldKeyPartition.lastIndexOf(Long.toString(from)));
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
