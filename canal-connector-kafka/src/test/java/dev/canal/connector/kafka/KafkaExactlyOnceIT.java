package dev.canal.connector.kafka;

import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.connector.mq.MqCursor;
import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import dev.canal.connector.mq.MqTransactionConfig;
import dev.canal.connector.mq.MqTransactionalSession;
import dev.canal.connector.mq.TestRows;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalPacket;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.KafkaBrokerExtension;
import dev.canal.testsupport.LogCapture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly once into a real KRaft broker ({@code canal.mq.transaction}, docs/mq.md): batches and the cursor committed
 * together, fencing between servers of one destination, and a restart that resumes inside a transaction committed in
 * parts.
 */
@ExtendWith(KafkaBrokerExtension.class)
class KafkaExactlyOnceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CURSORS = "eos_cursors";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static KafkaBroker broker;

    @BeforeAll
    static void broker(KafkaBroker started) {
        broker = started;
    }

    private static KafkaTransactionalProducer transactional() {
        Properties p = Pipeline.producerProperties(broker, "kafka.max.block.ms", "10000",
                "canal.mq.transaction", "true", "canal.mq.transaction.cursor.topic", CURSORS);
        return new KafkaTransactionalProducer(KafkaProducerConfig.from(p), MqTransactionConfig.from(p));
    }

    /** Transaction n: 3 inserted rows, ids 3n to 3n + 2, at offset 1000 + 10 n. */
    private static List<CanalEntry.Entry> transaction(int n) {
        return TestRows.transaction(1000L + 10L * n, rows(n, 3));
    }

    private static List<CanalEntry.Entry> rows(int n, int count) {
        List<CanalEntry.Entry> rows = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            long id = 3L * n + j;
            rows.add(TestRows.insert(1000L + 10L * n + 1 + j, "test", "user",
                    List.of(user(id, "n" + id, "note", "1.00"))));
        }
        return rows;
    }

    private static long endOffset(int n) {
        return 1000L + 10L * n + 4;
    }

    @ParameterizedTest(name = "raw {0}")
    @ValueSource(booleans = {false, true})
    void readCommittedConsumerSeesEveryRowOnceAndTheCursorIsCommittedBesideIt(boolean raw) throws Exception {
        String destination = raw ? "eos_proto" : "eos_flat";
        broker.createTopic(destination, 1);
        try (Pipeline p = new Pipeline(destination, StoreConfig.itemSize(1024).withRaw(raw), transactional())) {
            IntStream.range(0, 20).forEach(n -> p.put(transaction(n)));
            // batches of 7 end inside transactions: a commit waits for a boundary
            p.start(Pipeline.mqConfig("canal.mq.topic", destination, "canal.mq.canalBatchSize", "7",
                    "canal.mq.flatMessage", Boolean.toString(!raw)));

            await().atMost(WAIT).until(() -> p.cursor() != null
                    && p.cursor().position().position() == endOffset(19));
            assertThat(ids(read(destination, "read_committed", 0))).containsExactlyElementsOf(range(60));
            MqCursor committed = committedCursor(destination);
            assertThat(committed.position()).isEqualTo(p.cursor());
            assertThat(committed.skip()).isZero();
        }
    }

    @Test
    void aNewSessionFencesTheOldOneWhoseOpenTransactionOnlyReadUncommittedConsumersSee() throws Exception {
        String topic = "eos_fenced";
        broker.createTopic(topic, 1);
        KafkaTransactionalProducer producer = transactional();
        MqTransactionalSession old = producer.open(topic);
        old.send("old", List.of(new MqRecord(topic, 0, "in flight".getBytes(StandardCharsets.UTF_8))));
        try (MqTransactionalSession taken = producer.open(topic)) {
            assertThatThrownBy(() -> old.commit("old", MqCursor.at(null, 0))).isInstanceOf(MqSendException.class);
            old.close();
            taken.commit("new", MqCursor.at(null, 0));

            assertThat(read(topic, "read_committed", 0)).isEmpty();
            assertThat(read(topic, "read_uncommitted", 1)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("in flight");
        }
    }

    @Test
    void workerWhoseDestinationAnotherServerClaimedStopsAndTheClaimantDeliversEveryRowOnce() throws Exception {
        String destination = "eos_claim";
        broker.createTopic(destination, 1);
        var config = Pipeline.mqConfig("canal.mq.topic", destination);
        try (LogCapture logs = LogCapture.attach("dev.canal.connector.mq");
                Pipeline first = new Pipeline(destination, StoreConfig.itemSize(1024).withRaw(false), transactional())) {
            IntStream.range(0, 10).forEach(n -> first.put(transaction(n)));
            first.start(config);
            await().atMost(WAIT).until(() -> first.cursor() != null
                    && first.cursor().position().position() == endOffset(9));

            try (Pipeline second = new Pipeline(destination, StoreConfig.itemSize(1024).withRaw(false),
                    transactional())) {
                assertThat(second.cursor()).as("the claimant starts at the committed cursor").isEqualTo(first.cursor());
                IntStream.range(10, 20).forEach(n -> first.put(transaction(n))); // the fenced server reads on
                await().atMost(WAIT).until(() -> logs.messages(Level.ERROR).stream()
                        .anyMatch(line -> line.contains("another server committed to this destination")));

                second.start(config); // as the parser: the claimant reads the same rows from its cursor on
                IntStream.range(10, 20).forEach(n -> second.put(transaction(n)));
                assertThat(ids(readCommitted(destination, 60))).containsExactlyElementsOf(range(60));
                await().atMost(WAIT).until(() -> second.cursor().position().position() == endOffset(19));
            }
        }
    }

    @Test
    void transactionLargerThanTheStoreIsCommittedInPartsAndARestartSkipsWhatWasCommitted() throws Exception {
        String destination = "eos_big";
        broker.createTopic(destination, 1);
        var config = Pipeline.mqConfig("canal.mq.topic", destination, "canal.mq.canalBatchSize", "16");
        List<CanalEntry.Entry> rows = rows(0, 150); // ids 0..149 at offsets 1001..1150
        try (Pipeline first = new Pipeline(destination, StoreConfig.itemSize(64).withRaw(false), transactional())) {
            first.start(config);
            first.put(List.of(TestRows.begin(1000)));
            for (int i = 0; i < rows.size(); i += 10) {
                first.put(rows.subList(i, i + 10)); // the parser's transaction buffer flushes in pieces
            }
            await().atMost(WAIT).until(() -> committedCursor(destination).skip() == 150);
            assertThat(committedCursor(destination).position().position().position()).isEqualTo(1000);
        }
        try (Pipeline restarted = new Pipeline(destination, StoreConfig.itemSize(64).withRaw(false),
                transactional())) {
            assertThat(restarted.cursor().position().position()).as("the parser restarts after BEGIN").isEqualTo(1000);
            restarted.start(config);
            for (int i = 0; i < rows.size(); i += 10) {
                restarted.put(rows.subList(i, i + 10)); // produced again from the cursor on
            }
            restarted.put(List.of(TestRows.end(1151)));
            restarted.put(TestRows.transaction(2000, List.of(TestRows.insert(2001, "test", "user",
                    List.of(user(150, "n150", "note", "1.00"))))));

            assertThat(ids(readCommitted(destination, 151))).containsExactlyElementsOf(range(151));
            await().atMost(WAIT).until(() -> committedCursor(destination).position().position().position() == 2002);
        }
    }

    private static List<Long> range(int n) {
        return IntStream.range(0, n).mapToObj(i -> (long) i).toList();
    }

    /** Flat messages of one row each, read until {@code rows} arrived and a little longer, to see duplicates. */
    private static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int rows) {
        return TopicReader.read(broker.bootstrapServers(), topic, 1, rows, WAIT);
    }

    /** The inserted ids in the order the records hold them: flat JSON messages or protobuf packets. */
    private static List<Long> ids(List<ConsumerRecord<byte[], byte[]>> records) throws IOException {
        List<Long> ids = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value().length > 0 && record.value()[0] == '{') {
                JsonNode message = JSON.readTree(record.value());
                message.get("data").forEach(row -> ids.add(row.get("id").asLong()));
                continue;
            }
            CanalPacket.Messages messages = CanalPacket.Messages.parseFrom(
                    CanalPacket.Packet.parseFrom(record.value()).getBody());
            for (var bytes : messages.getMessagesList()) {
                CanalEntry.Entry entry = CanalEntry.Entry.parseFrom(bytes);
                if (entry.getEntryType() == CanalEntry.EntryType.ROWDATA) {
                    CanalEntry.RowChange.parseFrom(entry.getStoreValue()).getRowDatasList()
                            .forEach(row -> ids.add(Long.parseLong(row.getAfterColumns(0).getValue())));
                }
            }
        }
        return ids;
    }

    /** The destination's last record in the cursor topic, as a consumer reading committed data sees it. */
    private static MqCursor committedCursor(String destination) {
        byte[] key = destination.getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<byte[], byte[]> last = null;
        for (ConsumerRecord<byte[], byte[]> r : read(CURSORS, "read_committed", 0)) {
            if (java.util.Arrays.equals(key, r.key())) {
                last = r;
            }
        }
        if (last == null) {
            throw new AssertionError("no cursor of " + destination + " in " + CURSORS);
        }
        return MqCursor.parse(last.value(), CURSORS);
    }

    /** Everything in the topic's partition 0 up to its end, as a consumer of that isolation level sees it. */
    private static List<ConsumerRecord<byte[], byte[]>> read(String topic, String isolation, int atLeast) {
        TopicPartition partition = new TopicPartition(topic, 0);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while ((consumer.position(partition) < end || records.size() < atLeast) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        } catch (RuntimeException e) {
            throw new UncheckedIOException(new IOException("reading " + topic, e));
        }
        return records;
    }
}
