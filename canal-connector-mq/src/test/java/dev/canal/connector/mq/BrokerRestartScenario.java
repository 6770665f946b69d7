package dev.canal.connector.mq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.CanalEntry;
import dev.canal.store.StoreConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The broker dies mid-stream and comes back, for any broker: rows are put, the workers start and catch up, a writer
 * keeps putting while the broker is killed, nothing is acked while it is away (the full store blocks the writer),
 * and after the restart the cursor reaches the last transaction. Then every key's versions are read back and
 * checked to be complete and in order.
 */
public final class BrokerRestartScenario {

    /** The destination and the topic (or queue routing name) the scenario writes to. */
    public static final String TOPIC = "restart";
    public static final int KEYS = 30;
    private static final int ROWS_PER_TRANSACTION = 4;
    private static final int TRANSACTIONS_BEFORE = 30; // 180 entries: fits the 256-entry store before the runner starts
    private static final int TRANSACTIONS_DURING = 240;
    private static final int STORE_CAPACITY = 256;
    private static final int BATCH_SIZE = 20;
    /** Rows written in all. */
    public static final int ROWS = (TRANSACTIONS_BEFORE + TRANSACTIONS_DURING) * ROWS_PER_TRANSACTION;

    /** One action on the broker. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    /** The broker under test: how to kill it and how to restart it on its data. */
    public record Broker(Step kill, Step restart) {
    }

    /** Reads back what the broker holds: each key's versions in the order they were received. */
    public interface Reader {
        Map<Integer, List<Integer>> versionsByKey(int rows) throws Exception;
    }

    private final String label;
    private final Broker broker;
    private final MqProducer producer;
    private final MqMode mode;
    private final AtomicInteger failures = new AtomicInteger();

    /**
     * @param label names the broker in the printed summary
     * @param producer the broker's producer, with timeouts short enough to fail while the broker is away
     * @param mode the broker's mode, whose workers run over a producer that counts failed sends
     */
    public BrokerRestartScenario(String label, Broker broker, MqProducer producer, MqMode mode) {
        this.label = label;
        this.broker = broker;
        this.producer = producer;
        this.mode = mode;
    }

    /**
     * Runs the scenario, then reads every key's versions back and asserts each key received all its versions,
     * first seen in order, ending at its last one.
     *
     * @param extraMqKeys MQ keys beyond the topic and batch size (partitioning), as key, value pairs
     * @return each key's versions as received, for broker-specific checks
     */
    public Map<Integer, List<Integer>> run(Reader reader, String... extraMqKeys) throws Exception {
        int[] versions = new int[KEYS];
        try (MqPipeline p = new MqPipeline(TOPIC, StoreConfig.itemSize(STORE_CAPACITY).withRaw(false),
                mode, new CountingProducer(producer, failures))) {
            for (int n = 0; n < TRANSACTIONS_BEFORE; n++) {
                p.put(transaction(n, versions));
            }
            List<String> keys = new ArrayList<>(List.of(
                    "canal.mq.topic", TOPIC, "canal.mq.canalBatchSize", Integer.toString(BATCH_SIZE)));
            keys.addAll(List.of(extraMqKeys));
            p.start(MqPipeline.mqConfig(keys.toArray(String[]::new)));
            await().atMost(Duration.ofSeconds(30)).until(() -> p.cursor() != null
                    && p.cursor().position().position() == endOffset(TRANSACTIONS_BEFORE - 1));

            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                for (int n = TRANSACTIONS_BEFORE; n < TRANSACTIONS_BEFORE + TRANSACTIONS_DURING; n++) {
                    p.put(transaction(n, versions));
                }
            });
            broker.kill().run();
            await().atMost(Duration.ofSeconds(60)).until(() -> failures.get() >= 2);
            assertThat(writer).as("nothing acked while the broker is down: the full store blocks the writer")
                    .isNotDone();
            long lastEnd = endOffset(TRANSACTIONS_BEFORE + TRANSACTIONS_DURING - 1);
            assertThat(p.cursor().position().position()).isLessThan(lastEnd);

            broker.restart().run();
            writer.get(120, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(90)).until(() -> p.cursor().position().position() == lastEnd);
        }

        Map<Integer, List<Integer>> versionsByKey = reader.versionsByKey(ROWS);
        int delivered = versionsByKey.values().stream().mapToInt(List::size).sum();
        System.out.printf("%s restart: %d rows written, %d delivered (%d re-sent after rollbacks), %d failed"
                + " attempts%n", label, ROWS, delivered, delivered - ROWS, failures.get());
        KeyVersions.assertEveryVersionInOrder(versionsByKey, versions);
        return versionsByKey;
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
}
