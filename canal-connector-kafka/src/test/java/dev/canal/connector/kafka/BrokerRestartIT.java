package dev.canal.connector.kafka;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.connector.mq.CountingProducer;
import dev.canal.connector.mq.TestRows;
import dev.canal.protocol.CanalEntry;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.KafkaBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker dies mid-stream and comes back: every row arrives, none is lost, each key's changes keep their
 * order, and while the broker is away nothing is acked, so the store fills and blocks the writer.
 */
@ExtendWith(KafkaBrokerExtension.class)
class BrokerRestartIT {

    private static final int KEYS = 30;
    private static final int ROWS_PER_TRANSACTION = 4;
    private static final int TRANSACTIONS_BEFORE = 30; // 180 entries: fits the 256-entry store before the runner starts
    private static final int TRANSACTIONS_DURING = 240;
    private static final int PARTITIONS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static KafkaBroker broker;

    @BeforeAll
    static void broker(KafkaBroker started) {
        broker = started;
    }

    /** Transaction n at offset 1000 + 10 n updates ROWS_PER_TRANSACTION keys, each to its next version. */
    private static List<CanalEntry.Entry> transaction(int n, int[] versions) {
        long offset = 1000L + 10L * n;
        List<CanalEntry.Entry> rows = new ArrayList<>();
        for (int j = 0; j < ROWS_PER_TRANSACTION; j++) {
            int key = (n * ROWS_PER_TRANSACTION + j) % KEYS;
            int version = ++versions[key];
            rows.add(TestRows.update(offset + 1 + j, "test", "user", List.of(row(
                    List.of(id(key), name(Integer.toString(version - 1))),
                    List.of(id(key), name(Integer.toString(version)).asUpdated())))));
        }
        return TestRows.transaction(offset, rows);
    }

    private static long endOffset(int n) {
        return 1000L + 10L * n + ROWS_PER_TRANSACTION + 1;
    }

    @Test
    void everyRowArrivesInKeyOrderAcrossABrokerRestart() throws Exception {
        broker.createTopic("restart", PARTITIONS);
        AtomicInteger failures = new AtomicInteger();
        KafkaMqProducer kafka = new KafkaMqProducer(KafkaProducerConfig.from(Pipeline.producerProperties(broker,
                "kafka.delivery.timeout.ms", "3000", "kafka.request.timeout.ms", "1000", "kafka.max.block.ms", "2000",
                "kafka.reconnect.backoff.max.ms", "500")), Duration.ofSeconds(1));
        int storeCapacity = 256;
        int[] versions = new int[KEYS];
        try (Pipeline p = new Pipeline("restart", StoreConfig.itemSize(storeCapacity).withRaw(false),
                new CountingProducer(kafka, failures))) {
            for (int n = 0; n < TRANSACTIONS_BEFORE; n++) {
                p.put(transaction(n, versions));
            }
            p.start(Pipeline.mqConfig("canal.mq.topic", "restart", "canal.mq.partitionsNum", "3",
                    "canal.mq.partitionHash", "test.user:$pk$", "canal.mq.canalBatchSize", "20"));
            await().atMost(Duration.ofSeconds(30)).until(() -> p.cursor() != null
                    && p.cursor().position().position() == endOffset(TRANSACTIONS_BEFORE - 1));

            broker.kill();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                for (int n = TRANSACTIONS_BEFORE; n < TRANSACTIONS_BEFORE + TRANSACTIONS_DURING; n++) {
                    p.put(transaction(n, versions));
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> failures.get() >= 2);
            assertThat(writer).as("nothing acked while the broker is down: the full store blocks the writer")
                    .isNotDone();
            assertThat(p.cursor().position().position()).isLessThan(endOffset(TRANSACTIONS_BEFORE + TRANSACTIONS_DURING - 1));

            broker.restart();
            writer.get(60, java.util.concurrent.TimeUnit.SECONDS);
            long lastEnd = endOffset(TRANSACTIONS_BEFORE + TRANSACTIONS_DURING - 1);
            await().atMost(Duration.ofSeconds(60)).until(() -> p.cursor().position().position() == lastEnd);
        }

        int rows = (TRANSACTIONS_BEFORE + TRANSACTIONS_DURING) * ROWS_PER_TRANSACTION;
        List<ConsumerRecord<byte[], byte[]>> records =
                TopicReader.read(broker.bootstrapServers(), "restart", PARTITIONS, rows, Duration.ofSeconds(30));
        Map<Integer, List<Integer>> versionsByKey = new TreeMap<>();
        Map<Integer, Set<Integer>> partitionsByKey = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            for (JsonNode row : JSON.readTree(r.value()).get("data")) {
                int key = row.get("id").asInt();
                versionsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(row.get("name").asInt());
                partitionsByKey.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(r.partition());
            }
        }
        System.out.printf("broker restart: %d rows written, %d delivered (%d re-sent after rollbacks), %d failed attempts%n",
                rows, versionsByKey.values().stream().mapToInt(List::size).sum(),
                versionsByKey.values().stream().mapToInt(List::size).sum() - rows, failures.get());
        assertThat(versionsByKey).hasSize(KEYS);
        for (int key = 0; key < KEYS; key++) {
            List<Integer> seen = versionsByKey.get(key);
            List<Integer> firstSeen = List.copyOf(new LinkedHashSet<>(seen));
            List<Integer> all = java.util.stream.IntStream.rangeClosed(1, versions[key]).boxed().toList();
            assertThat(firstSeen).as("key %d: every version, first seen in order", key).containsExactlyElementsOf(all);
            assertThat(seen.get(seen.size() - 1)).as("key %d ends at its last version", key).isEqualTo(versions[key]);
            assertThat(partitionsByKey.get(key)).as("key %d stays in one partition", key).hasSize(1);
        }
    }
}
