package dev.canal.connector.kafka.bench;

import dev.canal.connector.kafka.KafkaMode;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqTransactionConfig;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.connector.mq.TestRows;
import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Kafka mode with and without exactly-once delivery ({@code canal.mq.transaction}), in the same run, with the
 * kafka.* shipped values (acks=all, idempotent). The broker is a single KRaft node in a child JVM on the same
 * machine unless {@code -Dbench.bootstrap} names one.
 *
 * <p>Throughput: {@link MqThroughput} rounds (rows per second from the store into Kafka until the last END is acked,
 * and this JVM's CPU per row), flat then protobuf, each round once without and once with transactions. Latency: a
 * paced writer ({@code bench.latency.rate} transactions of 10 rows per second for {@code bench.latency.seconds}
 * seconds, flat messages) puts each transaction stamped with the time it is put, and a consumer reading with
 * {@code isolation.level=read_committed} takes, for every row message, the time from the put until it could read it.
 *
 * <pre>
 * mvn -q -pl canal-connector-kafka -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/kafka-bench.cp -Dmdep.includeScope=test
 * java -cp canal-connector-kafka/target/test-classes:canal-connector-kafka/target/classes:$(cat /tmp/kafka-bench.cp) \
 *   [-Dbench.bootstrap=host:port] [-Dkafka.X=value ...] dev.canal.connector.kafka.bench.KafkaMqBench \
 *   [rows rowsPerTx rounds]
 * </pre>
 * Any {@code -Dkafka.X} system property is passed on as a {@code kafka.*} setting (e.g. {@code -Dkafka.batch.size}).
 * Defaults: 200,000 rows, 10 rows per transaction, 3 rounds per mode and format (the first is warm-up); latency 200
 * transactions per second for 20 s.
 */
public final class KafkaMqBench {

    private static final Pattern EXECUTE_TIME = Pattern.compile("\"es\":(\\d+)");
    private static final int LATENCY_ROWS_PER_TX = 10;

    private KafkaMqBench() {
    }

    public static void main(String[] args) throws Exception {
        String external = System.getProperty("bench.bootstrap");
        try (KafkaBroker broker = external == null ? KafkaBroker.start() : null) {
            String bootstrap = external != null ? external : broker.bootstrapServers();
            int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
            int rowsPerTx = args.length > 1 ? Integer.parseInt(args[1]) : 10;
            int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
            List<List<CanalEntry.Entry>> transactions = MqThroughput.transactions(rows, rowsPerTx);
            for (String format : List.of("flat", "protobuf")) {
                for (int round = 0; round < rounds; round++) {
                    for (boolean exactlyOnce : List.of(false, true)) {
                        String topic = "bench_" + format + "_" + round + (exactlyOnce ? "_eos" : "");
                        MqThroughput.Round result = MqThroughput.round(topic, format.equals("flat"), transactions, rows,
                                server -> MqWorkers.create(server, new KafkaMode(), settings(bootstrap, exactlyOnce)));
                        System.out.printf("%-8s %-13s round %d%s: %s%n", format,
                                exactlyOnce ? "transactions" : "at least once", round,
                                round == 0 ? " (warm-up)" : "", result);
                    }
                }
            }
            int rate = Integer.getInteger("bench.latency.rate", 200);
            int seconds = Integer.getInteger("bench.latency.seconds", 20);
            for (boolean exactlyOnce : List.of(false, true)) {
                List<Long> latencies = latencies(bootstrap, exactlyOnce, rate, seconds);
                Collections.sort(latencies);
                System.out.printf("latency  %-13s %d tx/s of %d rows for %d s: median %d ms, p99 %d ms, max %d ms"
                        + " (%d rows)%n", exactlyOnce ? "transactions" : "at least once", rate, LATENCY_ROWS_PER_TX,
                        seconds, percentile(latencies, 50), percentile(latencies, 99),
                        latencies.get(latencies.size() - 1), latencies.size());
            }
        }
    }

    private static Properties settings(String bootstrap, boolean exactlyOnce) {
        Properties kafka = new Properties();
        kafka.setProperty("kafka.bootstrap.servers", bootstrap);
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith(KafkaProducerConfig.PREFIX))
                .forEach(k -> kafka.setProperty(k, System.getProperty(k)));
        kafka.setProperty(MqTransactionConfig.TRANSACTION.name(), Boolean.toString(exactlyOnce));
        return kafka;
    }

    /** Milliseconds from each row's put until a read_committed consumer got its message. */
    private static List<Long> latencies(String bootstrap, boolean exactlyOnce, int txPerSecond, int seconds)
            throws InterruptedException {
        String topic = "bench_latency" + (exactlyOnce ? "_eos" : "");
        TestInstance instance = new TestInstance(topic, StoreConfig.defaults().withRaw(false));
        EmbeddedCanalServer server = new EmbeddedCanalServer(d -> instance);
        server.start();
        int total = txPerSecond * seconds;
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        try (MqWorkers runner = MqWorkers.create(server, new KafkaMode(), settings(bootstrap, exactlyOnce));
                KafkaConsumer<byte[], byte[]> consumer = readCommitted(bootstrap, topic)) {
            runner.prepare(topic);
            server.start(topic);
            Properties mq = new Properties();
            mq.setProperty(MqConfig.TOPIC.name(), topic);
            runner.start(topic, MqConfig.from(mq));
            Thread writer = new Thread(() -> write(instance, total, txPerSecond), "bench-paced-writer");
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds + 60L);
            while (latencies.size() < total * LATENCY_ROWS_PER_TX && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.currentTimeMillis();
                    Matcher put = EXECUTE_TIME.matcher(new String(record.value(), StandardCharsets.UTF_8));
                    if (put.find()) {
                        latencies.add(now - Long.parseLong(put.group(1)));
                    }
                }
            }
            writer.join();
        } finally {
            server.stop();
        }
        return latencies;
    }

    /** {@code total} transactions at {@code perSecond}, each stamped with the wall clock of its put. */
    private static void write(TestInstance instance, int total, int perSecond) {
        long interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long next = System.nanoTime();
        long offset = 4;
        for (int tx = 0; tx < total; tx++) {
            LockSupport.parkNanos(next - System.nanoTime());
            next += interval;
            long now = System.currentTimeMillis();
            List<CanalEntry.Entry> rows = new ArrayList<>();
            for (int i = 0; i < LATENCY_ROWS_PER_TX; i++) {
                int key = tx * LATENCY_ROWS_PER_TX + i;
                rows.add(stamped(TestRows.insert(offset + 1 + i, "bench", "user", List.of(TestRows.user(key,
                        "name-" + key, "a note about row " + key, "1.25"))), now));
            }
            instance.put(TestRows.transaction(offset, rows).stream().map(e -> stamped(e, now)).toList());
            offset += LATENCY_ROWS_PER_TX + 2;
        }
    }

    private static CanalEntry.Entry stamped(CanalEntry.Entry entry, long executeTime) {
        return entry.toBuilder().setHeader(entry.getHeader().toBuilder().setExecuteTime(executeTime)).build();
    }

    private static KafkaConsumer<byte[], byte[]> readCommitted(String bootstrap, String topic) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        TopicPartition partition = new TopicPartition(topic, 0);
        consumer.assign(List.of(partition));
        return consumer;
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * percent / 100));
    }
}
