package dev.canal.connector.rocketmq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.connector.mq.CountingProducer;
import dev.canal.connector.mq.MqPipeline;
import dev.canal.connector.mq.TestRows;
import dev.canal.protocol.CanalEntry;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.RocketMqBroker;
import dev.canal.testsupport.RocketMqBrokerExtension;
import dev.canal.testsupport.TestProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker is killed (SIGKILL) mid-stream and comes back on its store: every row arrives, none is lost, each key's
 * changes keep their order on the key's queue, and while the broker is away nothing is acked, so the store fills
 * and blocks the writer. What the broker answered SEND_OK before it died is in its commit log after the restart.
 */
@ExtendWith(RocketMqBrokerExtension.class)
class RocketMqBrokerRestartIT {

    private static final int KEYS = 30;
    private static final int PARTITIONS = 4;
    private static final int ROWS_PER_TRANSACTION = 4;
    private static final int TRANSACTIONS_BEFORE = 30; // 180 entries: fits the 256-entry store before the runner starts
    private static final int TRANSACTIONS_DURING = 240;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static RocketMqBroker broker;

    @BeforeAll
    static void broker(RocketMqBroker started) {
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
    void everyRowArrivesInKeyOrderAcrossABrokerKillAndRestart() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        RocketMqProducer rocket = new RocketMqProducer(RocketMqConfig.from(TestProperties.of(
                "rocketmq.namesrv.addr", broker.namesrvAddr(), "rocketmq.producer.group", "canal_restart",
                "rocketmq.send.timeout", "2000")));
        int[] versions = new int[KEYS];
        try (MqPipeline p = new MqPipeline("restart", StoreConfig.itemSize(256).withRaw(false),
                server -> new RocketMqRunner(server, new CountingProducer(rocket, failures)))) {
            for (int n = 0; n < TRANSACTIONS_BEFORE; n++) {
                p.put(transaction(n, versions));
            }
            p.start(MqPipeline.mqConfig("canal.mq.topic", "restart", "canal.mq.canalBatchSize", "20",
                    "canal.mq.partitionsNum", Integer.toString(PARTITIONS), "canal.mq.partitionHash", "test.user:$pk$"));
            await().atMost(Duration.ofSeconds(30)).until(() -> p.cursor() != null
                    && p.cursor().position().position() == endOffset(TRANSACTIONS_BEFORE - 1));

            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                for (int n = TRANSACTIONS_BEFORE; n < TRANSACTIONS_BEFORE + TRANSACTIONS_DURING; n++) {
                    p.put(transaction(n, versions));
                }
            });
            broker.kill();
            await().atMost(Duration.ofSeconds(60)).until(() -> failures.get() >= 2);
            assertThat(writer).as("nothing acked while the broker is down: the full store blocks the writer")
                    .isNotDone();
            long lastEnd = endOffset(TRANSACTIONS_BEFORE + TRANSACTIONS_DURING - 1);
            assertThat(p.cursor().position().position()).isLessThan(lastEnd);

            broker.restart();
            writer.get(90, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(90)).until(() -> p.cursor().position().position() == lastEnd);
        }

        int rows = (TRANSACTIONS_BEFORE + TRANSACTIONS_DURING) * ROWS_PER_TRANSACTION;
        Map<Integer, List<MessageExt>> byQueue = QueueReader.read(broker, "restart", 1, Duration.ofSeconds(30));
        Map<Integer, List<Integer>> versionsByKey = new TreeMap<>();
        Map<Integer, Integer> queueOfKey = new TreeMap<>();
        for (var queue : byQueue.entrySet()) {
            for (MessageExt m : queue.getValue()) {
                for (JsonNode row : JSON.readTree(m.getBody()).get("data")) {
                    int key = row.get("id").asInt();
                    assertThat(queueOfKey.computeIfAbsent(key, k -> queue.getKey())).as("one queue for key %d", key)
                            .isEqualTo(queue.getKey());
                    versionsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(row.get("name").asInt());
                }
            }
        }
        int delivered = versionsByKey.values().stream().mapToInt(List::size).sum();
        System.out.printf("RocketMQ restart: %d rows written, %d delivered (%d re-sent after rollbacks), %d failed"
                + " attempts%n", rows, delivered, delivered - rows, failures.get());
        assertThat(versionsByKey).hasSize(KEYS);
        for (int key = 0; key < KEYS; key++) {
            List<Integer> seen = versionsByKey.get(key);
            List<Integer> firstSeen = List.copyOf(new LinkedHashSet<>(seen));
            List<Integer> all = IntStream.rangeClosed(1, versions[key]).boxed().toList();
            assertThat(firstSeen).as("key %d: every version, first seen in order", key).containsExactlyElementsOf(all);
            assertThat(seen.get(seen.size() - 1)).as("key %d ends at its last version", key).isEqualTo(versions[key]);
        }
    }
}
